import type { RankConfig } from '../core/config';
import type { Corpus } from '../core/corpus';
import { type JudgmentSet, missingQueryText } from '../core/judgments';
import { type ConfigEntry, RanklabSession } from '../core/session/session';
import type { WorkProgress } from '../core/util/cooperative';
import { InputError, hasErrors } from '../core/util/diagnostics';
import { SETTINGS_FILE } from '../core/workspace';
import type { Options } from './args';
import { InputReport } from './input-report';
import type { Io } from './io';

/** Options of every command that works on a workspace. */
export const WORKSPACE_OPTIONS = {
  workspace: { type: 'string', short: 'w' },
  principals: { type: 'string' },
  'state-dir': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
  strict: { type: 'boolean' },
} as const satisfies Options;

type WorkspaceValues = { workspace?: string; principals?: string; verbose?: boolean; 'state-dir'?: string; strict?: boolean };

/**
 * Opens the workspace of a command. The problems of ranklab.json are printed once, counted; an error in it is
 * exit 2 (the CLI never runs on a default silently put in place of a wrong setting), as is a state folder
 * (.ranklab, --state-dir) that cannot be one. Nothing is computed or written yet.
 */
export function openWorkspace(values: WorkspaceValues, io: Io): { session: RanklabSession; report: InputReport } {
  const report = new InputReport(io, !!values.strict);
  const session = RanklabSession.open(values.workspace ?? '.', {
    principalsFile: values.principals,
    stateDir: values['state-dir'],
    log: values.verbose ? (m) => io.err(`[ranklab] ${m}\n`) : undefined,
    warn: (m) => io.err(`ranklab: warning: ${m}\n`),
    onProgress: progressLines(io),
  });
  const file = session.workspace.settingsFile ? SETTINGS_FILE : session.root;
  report.add(file, session.diagnostics);
  const errors = session.diagnostics.filter((d) => d.severity === 'error').length;
  if (errors)
    throw new InputError(
      `${errors === 1 ? 'an error' : `${errors} errors`} in the settings (listed above); fix ${errors === 1 ? 'it' : 'them'} first`,
      [],
      { file },
    );
  session.checkStateDir(values['state-dir'] ? '--state-dir' : undefined);
  return { session, report };
}

/**
 * Reads the corpus pausing between files, so that Ctrl-C (`signal`) stops even this first and longest read of
 * the inputs; then as corpusOf. Commands that can be interrupted read it so before their other inputs.
 */
export async function readCorpus(
  session: RanklabSession,
  report: InputReport,
  signal: AbortSignal,
  need: CorpusNeed = {},
): Promise<Corpus> {
  await session.loadCorpus(session.work(signal));
  return corpusOf(session, report, need);
}

/**
 * `optional`: the command runs only engine configs, whose documents are in the engine, so a workspace without a
 * corpus (judgments, configs and principals only) is fine.
 */
export interface CorpusNeed {
  optional?: boolean;
}

/** True when every config given is an engine config (see CorpusNeed). */
export function enginesOnly(entries: readonly ConfigEntry[]): boolean {
  return entries.length > 0 && entries.every((e) => e.config?.engine !== undefined);
}

/** The corpus, its problems printed once; a corpus without a single document is exit 2 (unless optional). */
export function corpusOf(session: RanklabSession, report: InputReport, need: CorpusNeed = {}): Corpus {
  const corpus = session.corpus();
  const diagnostics = session.corpusDiagnostics();
  report.add('corpus', diagnostics);
  if (corpus.docs.length === 0 && !need.optional) {
    // Why is listed above (a glob that matches nothing, or the problem of each file).
    const include = diagnostics.find((d) => d.key === 'corpus.include');
    throw new InputError(
      'the corpus has no document, so there is nothing to search',
      [],
      include ? { file: include.file, line: include.line, key: include.key } : {},
    );
  }
  return corpus;
}

/**
 * The judgments (and, for the unknown-document check, the corpus), their problems printed once. Exit 2 when
 * the chosen split has no query, or when none of the judged documents is in the corpus (every metric would be 0).
 */
export function judgmentsOf(
  session: RanklabSession,
  report: InputReport,
  split: 'tune' | 'holdout' | 'all' = 'all',
  need: CorpusNeed = {},
): JudgmentSet {
  const corpus = corpusOf(session, report, need);
  const set = session.judgments();
  report.add('judgments', session.judgmentDiagnostics());
  const judged = new Set([...set.qrels.values()].flatMap((docs) => [...docs.keys()]));
  // one pass over the corpus against the (small) set of judged ids: a set of every id took ~1 s at 1M documents
  if (judged.size > 0 && corpus.docs.length > 0 && !corpus.docs.some((d) => judged.has(d.id))) {
    throw new InputError(`none of the ${judged.size} judged documents is in the corpus, so every metric would be 0`, [], {
      file: set.sources.join(', '),
      hint: 'check corpus.fields.id in ranklab.json and the document ids in the judgments',
    });
  }
  if (session.judgmentsFor({ split }).qrels.size === 0) {
    throw new InputError(split === 'all' ? 'no query has judgments' : `no judged query in split "${split}"`, [], {
      file: set.sources.join(', '),
      key: split === 'all' ? undefined : '--split',
    });
  }
  const noText = missingQueryText(set);
  if (noText) throw noText;
  return set;
}

/**
 * The principals file, its problems printed once, with the names asked for (--as) checked. An empty list (or one
 * whose every entry was skipped) is exit 2: an access check with nobody to check proves nothing.
 */
export function principalsOf(session: RanklabSession, report: InputReport, names: readonly string[] = []): void {
  const principals = session.principals();
  const file = session.relativePath(session.principalsFile() ?? 'principals.json');
  report.add('principals', session.principalDiagnostics());
  // Errors of the access settings stop the command (requireDecidableAccess prints them); warnings are listed.
  report.add(
    'access settings',
    session.accessDiagnostics().filter((d) => d.severity !== 'error'),
  );
  // Settings first: every entry skipped for a key the rule misspells is the rule's error before it is the file's.
  session.requireDecidableAccess();
  if (principals.length === 0) throw new InputError('no principals (the list is empty or every entry was skipped)', [], { file });
  for (const name of names) session.accessFor(name);
  const note = session.missingAclNote();
  if (note) report.note(`access: ${note}`);
}

export interface ConfigChoice {
  configs: RankConfig[];
  /** Configs that cannot run, with the first problem; reported above with every problem at its line. */
  failed: { name: string; message: string }[];
}

/** The configs a command runs: those named (-c), else every config of the workspace. An unknown name is exit 2. */
export function configEntriesOf(session: RanklabSession, names: readonly string[] | undefined): ConfigEntry[] {
  return names?.length ? names.map((n) => session.configEntry(n)) : session.configEntries();
}

/**
 * Which of the configs can run, each one's problems printed once under its file name: those of the file and
 * those only the corpus can tell (a searched field no document has). A config with an error is left out, so
 * the others still run; the command then exits 2.
 */
export function usableConfigs(session: RanklabSession, report: InputReport, entries: readonly ConfigEntry[]): ConfigChoice {
  const choice: ConfigChoice = { configs: [], failed: [] };
  if (entries.some((e) => e.config)) corpusOf(session, report, { optional: enginesOnly(entries) });
  for (const entry of entries) {
    const config = entry.config && !hasErrors(entry.diagnostics) ? session.usable(entry) : undefined;
    const diagnostics = config ? [...entry.diagnostics, ...session.configCorpusDiagnostics(config)] : entry.diagnostics;
    report.add(entry.file ? session.relativePath(entry.file) : entry.name, diagnostics);
    if (config && !hasErrors(diagnostics)) choice.configs.push(config);
    else choice.failed.push({ name: entry.name, message: diagnostics.find((d) => d.severity === 'error')?.message ?? 'not usable' });
  }
  return choice;
}

/** Exit 2 when no config is left to run, naming every one that failed; else the first usable one. */
export function requireConfigs(choice: ConfigChoice): RankConfig {
  const [first] = choice.configs;
  if (!first) {
    throw new InputError(`no config can be run (${choice.failed.map((f) => `${f.name}: ${f.message}`).join('; ') || 'none found'})`);
  }
  return first;
}

/**
 * For commands that run one query (search, suggest): the workspace, the one config (-c, else the baseline) and,
 * with --as, the principals, their problems reported; --strict honoured. Exit 2 when the config cannot run.
 */
export function openForOneQuery(
  values: WorkspaceValues & { config?: string; as?: string },
  io: Io,
): { session: RanklabSession; config: RankConfig } {
  const { session, report } = openWorkspace(values, io);
  const choice = usableConfigs(session, report, [session.configEntry(values.config)]);
  if (values.as) principalsOf(session, report, [values.as]);
  report.stopIfStrict();
  return { session, config: requireConfigs(choice) };
}

/**
 * With RANKLAB_PROGRESS set, one machine-readable line on stderr when a long phase starts and at each of its
 * pauses (at most every 50 ms): `ranklab-progress {"phase":"queries","label":"baseline","done":120,"total":1000}`.
 */
function progressLines(io: Io): ((p: WorkProgress) => void) | undefined {
  if (!process.env.RANKLAB_PROGRESS) return undefined;
  return (p) => io.err(`ranklab-progress ${JSON.stringify(p)}\n`);
}

/**
 * Ctrl-C (SIGINT) stops long work cleanly: the core notices at its next pause (long steps pause every ~50 ms),
 * saves nothing half-done, and the command says what finished and exits 130. The handler then steps aside, so
 * a second Ctrl-C has its default effect: the process ends at once.
 */
export function interruptSignal(io: Io): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = () => {
    process.off('SIGINT', onSigint);
    io.err('\ninterrupted: stopping (Ctrl-C again to quit at once)\n');
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}

/** Exit code of a command stopped by Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED = 130;

/** The report of an interrupted command: what completed (with details) and what did not. */
export function reportInterrupted(io: Io, what: string, completed: string[], notFinished: string[]): number {
  io.err(
    `interrupted: ${completed.length} of ${completed.length + notFinished.length} ${what} completed${completed.length ? `: ${completed.join('; ')}` : ''}\n`,
  );
  if (notFinished.length) io.err(`not completed: ${notFinished.join(', ')}\n`);
  return INTERRUPTED;
}

/** A one-line progress indicator on stderr, only when stderr is a terminal (so CI logs stay clean). */
export function progressReporter(io: Io, label: string, unit = 'queries'): (done: number, total: number) => void {
  if (!process.stderr.isTTY) return () => {};
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done !== total && now - last < 100) return;
    last = now;
    io.err(`\r${label}: ${done}/${total} ${unit}${done === total ? '\n' : ''}`);
  };
}
