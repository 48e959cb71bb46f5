import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CompareSide, compareRuns, storedRunOf } from '../../core/actions/compare-runs';
import { type ComparisonSide, type ManyComparison, MixedPrincipalsError, mixedPrincipals } from '../../core/experiment/compare';
import { type GateResult, type GateSettings, gateCount, readGatesFile, withGateMetrics } from '../../core/experiment/gates';
import { UNSEALED_RUN_WARNING, comparisonSideOf, isSavedRunFile, readSavedRun } from '../../core/experiment/run-store';
import type { SavedRun } from '../../core/run/types';
import { type ExcludedQuery, loadJudgments, type JudgmentSet } from '../../core/judgments';
import { PRINTED_QUERIES, comparisonJson, formatComparison, gatesJUnit } from '../../core/report/comparison';
import { formatMany, manyJUnit, manyJson } from '../../core/report/matrix';
import { existingRunFile } from '../../core/run/run-files';
import { readTrecRun } from '../../core/run/trec-run';
import type { ConfigEntry, RanklabSession } from '../../core/session/session';
import { InputError, errorAt } from '../../core/util/diagnostics';
import { checkUserTextFile } from '../../core/util/text-file';
import { SETTINGS_FILE } from '../../core/workspace';
import { METRICS_HELP, METRIC_OPTIONS, formatChoice, intFlag, metricChoice, parse, required } from '../args';
import { InputReport } from '../input-report';
import type { Io } from '../io';
import { judgmentSpecFor } from '../judgment-spec';
import { type Output, checkOutputs, writeOutput } from '../outputs';
import {
  WORKSPACE_OPTIONS,
  enginesOnly,
  interruptSignal,
  judgmentsOf,
  openWorkspace,
  principalsOf,
  progressReporter,
  readCorpus,
  reportInterrupted,
  usableConfigs,
} from '../workspace-options';
import { SPLITS, excludedLine } from './eval';

export const COMPARE_USAGE = `ranklab compare [--workspace DIR] --baseline CONFIG_OR_RUN --candidate CONFIG_OR_RUN... [--qrels FILE [--queries FILE]]
                [--metrics ...] [--gain exp|linear] [--relevance-threshold N] [--judged-only] [--split tune|holdout|all] [--as PRINCIPAL]
                [--format table|json|markdown|junit] [--fail-on-regression] [--gates FILE] [--junit FILE] [--summary FILE]
                [--class-slices] [--allow-mixed-principals] [--max-queries N] [--brief] [--strict]
  Paired comparison, opening with the verdict (per metric: change, CI, significance after the correction, gates,
  worst slice, minimum detectable effect): means, 95% bootstrap CI, permutation and t-test p-values (Holm-corrected), wins/losses,
  the documents that moved (each with why it moved, when both sides are workspace configs: every changed query
  in JSON; in a table or markdown the biggest losses and wins printed, --max-queries N of each, default 5), slices, tune vs holdout, latency, judged@k; the delta's interval if the unjudged
  documents were graded; score ties; stage recall and query classes (--class-slices: classes as slices). Sides are configs (run, or reused from
  .ranklab/runs when nothing changed), saved runs (a file, or a run's id in .ranklab/runs), or TREC run files from any engine (with --qrels: no workspace needed).
  Several --candidate: one comparison per candidate against the baseline, one Holm correction over all of them, and a
  matrix (rows: candidates; columns: metrics); --fail-on-regression exits 1 when any candidate fails a gate.
  Runs made as different principals (or one with and one without --as) are refused unless --allow-mixed-principals
  is given; the output then says so first. --brief: the verdict, the metrics (or the matrix) and the gates only.
${METRICS_HELP}`;

export const GATE_USAGE = `ranklab gate [--workspace DIR] --candidate CONFIG_OR_RUN [--baseline CONFIG_OR_RUN] [--gates FILE] [--junit FILE] [--summary FILE] [--brief] [--strict]
  Checks the quality gates of ranklab.json (or --gates FILE): minimum values and maximum regressions against
  the baseline, overall and per slice. Exit code 1 when a gate fails, naming the gate and the queries; 2 when
  no gate is declared or one cannot be evaluated (file, line and key named). Prints the comparison as compare does;
  --brief: the verdict, the metrics and the gates only.`;

const COMPARE_OPTIONS = {
  ...METRIC_OPTIONS,
  ...WORKSPACE_OPTIONS,
  baseline: { type: 'string', short: 'b' },
  candidate: { type: 'string', multiple: true },
  qrels: { type: 'string' },
  queries: { type: 'string' },
  split: { type: 'string' },
  as: { type: 'string' },
  'fail-on-regression': { type: 'boolean' },
  gates: { type: 'string' },
  junit: { type: 'string' },
  summary: { type: 'string' },
  'max-queries': { type: 'string' },
  brief: { type: 'boolean' },
  'class-slices': { type: 'boolean' },
  'allow-mixed-principals': { type: 'boolean' },
} as const;

export async function compareCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, COMPARE_OPTIONS);
  if (values.help) return (io.out(COMPARE_USAGE + '\n'), 0);
  return runComparison(values, io, { gate: !!values['fail-on-regression'] });
}

export async function gateCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, COMPARE_OPTIONS);
  if (values.help) return (io.out(GATE_USAGE + '\n'), 0);
  return runComparison(values, io, { gate: true });
}

type CompareValues = ReturnType<typeof parse<typeof COMPARE_OPTIONS>>['values'];

/** One side of a comparison, resolved before any work: a run read from a file, or a config still to run. */
type Side = { kind: 'run'; side: ComparisonSide; file: string; saved?: SavedRun } | { kind: 'config'; entry: ConfigEntry; label?: string };

async function runComparison(values: CompareValues, io: Io, mode: { gate: boolean }): Promise<number> {
  const format = formatChoice(values.format, ['table', 'json', 'markdown', 'junit'] as const, 'table');
  const split = formatChoice(values.split, SPLITS, 'all', '--split');
  const maxQueries = intFlag(values['max-queries'], '--max-queries', 1);
  const brief = !!values.brief;
  const candidateArgs = values.candidate ?? [];
  required(candidateArgs[0], '--candidate');
  // With --qrels and run files only, no workspace is needed at all.
  const standalone = !!values.qrels && !values.workspace;
  const opened = standalone ? undefined : openWorkspace(values, io);
  const session = opened?.session;
  const report = opened?.report ?? new InputReport(io, !!values.strict);
  const settings = session?.workspace.settings;
  const choice = metricChoice(values, {
    metrics: settings?.metrics,
    gain: settings?.gain,
    relevanceThreshold: settings?.relevanceThreshold,
    judgedOnly: settings?.judgedOnly,
  });
  report.add('--relevance-threshold', choice.warnings);

  // Gates first: a gate that cannot be evaluated, or gating with nothing to gate, is exit 2 before any work.
  // Declared gates are always checked (the verdict says how many pass); only gating makes a failure exit 1.
  const checkingGates = mode.gate || !!values.junit || !!values.summary || !!values.gates || gateCount(settings?.gates ?? {}) > 0;
  const gateSettings = checkingGates ? gatesFor(values.gates, settings?.gates, mode.gate) : {};
  const specs = withGateMetrics(choice.specs, gateSettings);

  const baselineArg = values.baseline ?? session?.workspace.baselineName;
  if (!baselineArg) throw new InputError('is required (or set "baseline" in ranklab.json)', [], { key: '--baseline' });
  const twice = candidateArgs.find((c, i) => candidateArgs.indexOf(c) !== i || c === baselineArg);
  if (twice)
    throw new InputError(
      `"${twice}" is given twice (${twice === baselineArg ? 'as the baseline and a candidate' : 'as two candidates'})`,
      [],
      { key: '--candidate' },
    );
  const baseline = resolveSide(baselineArg, session, report);
  const candidates = distinctNames(
    baseline,
    candidateArgs.map((arg) => ({ arg, side: resolveSide(arg, session, report) })),
  );

  // Who each side is made as is known before any run: refuse mixed principals now, not after the work.
  const principalOf = (s: Side) => (s.kind === 'run' ? s.side.principal : (values.as ?? null));
  const base = { name: nameOf(baseline), principal: principalOf(baseline) };
  const who = candidates.map((c) => ({ name: nameOf(c), principal: principalOf(c) }));
  const mixed = who.find((w) => mixedPrincipals(base, w));
  if (!values['allow-mixed-principals'] && mixed) throw mixedError(new MixedPrincipalsError(base, mixed));

  const outputs: Output[] = [
    ...(values.junit ? [{ flag: '--junit', path: values.junit, named: true }] : []),
    ...(values.summary ? [{ flag: '--summary', path: values.summary, named: true }] : []),
  ];
  const inputs = [...(session?.inputFiles() ?? []), ...[baseline, ...candidates].flatMap((s) => (s.kind === 'run' ? [s.file] : []))];
  for (const f of [values.gates, values.qrels, values.queries]) if (f) inputs.push(resolve(f));
  checkOutputs(outputs, { inputs, force: false });

  // Saved runs all made as one principal are scored as that principal sees the judgments (as with --as).
  const common = who.every((w) => w.principal === base.principal) ? base.principal : undefined;
  const principal = values.as ?? common ?? undefined;
  const entries = [baseline, ...candidates].flatMap((s) => (s.kind === 'config' ? [s.entry] : []));
  const { signal, dispose } = interruptSignal(io);
  const steps = ['baseline', ...candidates.map((c) => `candidate ${nameOf(c)}`), 'statistics'];
  const finished: string[] = [];
  let judgments: JudgmentSet | undefined;
  let excluded: ExcludedQuery[];
  let many: ManyComparison;
  let gates: GateResult[][];
  try {
    // The rest of the inputs, before any config runs; the corpus first, pausing, so that Ctrl-C stops it too.
    const need = { optional: enginesOnly(entries) };
    if (session && (!values.qrels || entries.length)) await readCorpus(session, report, signal, need);
    if (values.qrels) {
      judgments = loadJudgments(judgmentSpecFor(values.qrels, values.queries));
      report.add('judgments', judgments.diagnostics);
    } else {
      judgmentsOf(session!, report, split, need);
      if (principal) principalsOf(session!, report, [principal]);
    }
    const usable = session ? usableConfigs(session, report, entries) : { configs: [], failed: [] };
    const [cannot] = usable.failed;
    if (cannot) throw new InputError(`config ${cannot.name} cannot run (its problems are listed above)`);
    report.stopIfStrict();

    // Moved documents get their one-line reason when both sides are configs of the built-in pipeline: for every
    // changed query in JSON, for those printed in a table or markdown (--brief prints none).
    const explain =
      format === 'json' && maxQueries === undefined ? 'all' : brief && format !== 'json' ? 0 : (maxQueries ?? PRINTED_QUERIES);
    // A saved run is given with its file: its kept per-query values (the runs folder's) are used, not evaluated again.
    const actionSide = (s: Side): CompareSide =>
      s.kind === 'config'
        ? { kind: 'config', config: session!.usable(s.entry), name: nameOf(s) }
        : s.saved
          ? { kind: 'saved', ref: storedRunOf(s.file, s.saved), name: s.side.name }
          : { kind: 'run', side: s.side };
    const reporters = new Map<string, (done: number, total: number) => void>();
    ({ many, excluded, gates } = await compareRuns(
      session,
      {
        baseline: actionSide(baseline),
        candidates: candidates.map(actionSide),
        specs,
        metricOptions: choice.options,
        split,
        runAs: values.as,
        principal,
        judgments,
        classSlices: !!values['class-slices'],
        allowMixedPrincipals: values['allow-mixed-principals'],
        explain,
        gates: checkingGates ? gateSettings : undefined,
        cache: session && { dir: session.workspace.runsDir },
      },
      {
        signal,
        progress: (p) => {
          if (p.type === 'queries') {
            if (!reporters.has(p.config)) reporters.set(p.config, progressReporter(io, p.config));
            reporters.get(p.config)!(p.done, p.total);
          } else if (p.type === 'reused') {
            io.err(`${p.config}: reusing ${p.path} (same config, corpus, judgments, access, tool version and learned models)\n`);
          } else finished.push(`${p.role} ${p.name}${p.from ? ` (run in ${p.from})` : ''}`);
        },
      },
    ));
  } catch (e) {
    if (signal.aborted) return reportInterrupted(io, 'steps', finished, steps.slice(finished.length));
    if (e instanceof MixedPrincipalsError) throw mixedError(e);
    throw e;
  } finally {
    dispose();
  }
  const prefix = excluded.length && format !== 'json' && format !== 'junit' ? `${excludedLine(excluded, principal!)}\n\n` : '';

  const [cmp, ...others] = many.comparisons;
  if (cmp && others.length === 0) {
    const mine = gates[0]!; // compareRuns checks one gate list per comparison
    for (const o of outputs)
      writeOutput(o, o.flag === '--junit' ? gatesJUnit(mine, cmp) : formatComparison(cmp, 'markdown', { gates: mine, maxQueries, brief }));
    if (format === 'json') io.out(JSON.stringify({ ...comparisonJson(cmp, mine), excludedQueries: excluded }, null, 2) + '\n');
    else if (format === 'junit') io.out(gatesJUnit(mine, cmp));
    else io.out(prefix + formatComparison(cmp, format, { gates: mine, maxQueries, brief }));
  } else {
    for (const o of outputs) writeOutput(o, o.flag === '--junit' ? manyJUnit(many, gates) : formatMany(many, gates, 'markdown', { brief }));
    if (format === 'json') io.out(JSON.stringify({ ...manyJson(many, gates), excludedQueries: excluded }, null, 2) + '\n');
    else if (format === 'junit') io.out(manyJUnit(many, gates));
    else io.out(prefix + formatMany(many, gates, format, { brief }));
  }

  // Read off the gate lists themselves, so that no failed gate can be missed.
  const failed = gates.flatMap((mine, i) =>
    mine.filter((g) => !g.passed).map((g) => ({ g, who: many.comparisons.length > 1 ? `${many.comparisons[i]?.candidate ?? ''}: ` : '' })),
  );
  if (mode.gate && failed.length) {
    for (const { g, who: name } of failed) {
      io.err(
        `gate failed: ${name}${g.gate} (actual ${Number.isNaN(g.actual) ? 'n/a: metric not computed' : g.actual.toFixed(4)}); queries: ${
          g.queries
            .slice(0, 10)
            .map((q) => q.qid)
            .join(', ') || '-'
        }\n`,
      );
    }
    return 1;
  }
  return 0;
}

/**
 * Candidates named like the baseline or like each other (two saved runs of one config) are told apart by what was
 * passed for them: "baseline (runs/baseline-2026-….json)".
 */
function distinctNames(baseline: Side, candidates: { arg: string; side: Side }[]): Side[] {
  const names = [nameOf(baseline), ...candidates.map((c) => nameOf(c.side))];
  return candidates.map(({ arg, side }) => {
    const name = nameOf(side);
    if (names.filter((n) => n === name).length === 1) return side;
    const renamed = `${name} (${arg})`;
    return side.kind === 'run' ? { ...side, side: { ...side.side, name: renamed } } : { ...side, label: renamed };
  });
}

/** The CLI's form of a mixed-principal refusal: the message names the flag that allows it. */
function mixedError(e: MixedPrincipalsError): InputError {
  return new InputError(e.reason, [], { hint: '--allow-mixed-principals' });
}

function nameOf(s: Side): string {
  return s.kind === 'run' ? s.side.name : (s.label ?? s.entry.name);
}

/**
 * The gates to check: a --gates file, else ranklab.json's (already validated with the workspace). Invalid
 * entries are exit 2 naming file, line and key; gating with no gate at all is exit 2 (nothing could fail).
 */
function gatesFor(file: string | undefined, fromWorkspace: GateSettings | undefined, gating: boolean): GateSettings {
  let gates = fromWorkspace ?? {};
  if (file) {
    const read = readGatesFile(file);
    const errors = read.diagnostics.filter((d) => d.severity === 'error');
    const [first, ...rest] = errors;
    if (first) throw errorAt(first, rest);
    gates = read.gates;
  }
  if (gating && gateCount(gates) === 0) {
    throw new InputError('no gates declared, so nothing could fail', [], {
      file: file ?? SETTINGS_FILE,
      key: file ? undefined : 'gates',
      hint: 'declare "gates": {"min": {"ndcg@10": 0.65}, ...} in ranklab.json or pass --gates FILE',
    });
  }
  return gates;
}

/**
 * A side is a saved run file, a TREC run file, a config of the workspace (resolved now, run later) or the id of one
 * of its saved runs.
 * Files are read now, so a bad one stops the command before any config runs.
 */
function resolveSide(arg: string, session: RanklabSession | undefined, report: InputReport): Side {
  const isFile = existsSync(arg) && !arg.endsWith('.rank.json') && statSync(arg).isFile();
  if (isFile && isSavedRunFile(arg)) return savedSide(savedRunOf(arg, report), resolve(arg));
  if (isFile) {
    checkUserTextFile(arg);
    const trec = readTrecRun(arg);
    report.add(arg, trec.diagnostics);
    return { kind: 'run', side: { name: trec.tag || arg, run: trec.run }, file: resolve(arg) };
  }
  if (!session) throw new InputError('is not a run file; comparing configs needs a workspace (--workspace DIR)', [], { file: arg });
  // A saved run of the workspace by its id (its file name without the extension, as the editor shows it); a config
  // of that name comes first.
  const saved = session.configEntries().some((e) => e.name === arg) ? undefined : existingRunFile(session.workspace.runsDir, arg);
  if (saved) return savedSide(savedRunOf(saved, report), saved);
  const entry = session.configEntry(arg);
  session.usable(entry); // throws with every problem of the config
  return { kind: 'config', entry };
}

/** A saved run as a side (one with failed queries refused now, before any work). */
function savedSide(saved: SavedRun, file: string): Side {
  return { kind: 'run', side: comparisonSideOf(saved), file, saved };
}

/** A saved run named on the command line: exit 2 when its content hash does not match; a warning when it has none. */
function savedRunOf(path: string, report: InputReport): SavedRun {
  const { saved, sealed } = readSavedRun(path);
  if (!sealed) report.add(path, [{ file: path, line: 0, severity: 'warning', message: UNSEALED_RUN_WARNING }]);
  return saved;
}
