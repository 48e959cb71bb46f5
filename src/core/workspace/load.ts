import { existsSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { globSync } from 'tinyglobby';
import { globLeavesRoot } from '../corpus/discover';
import { ALWAYS_EXCLUDED } from '../corpus/settings';
import { gateDiagnostics, validateGates } from '../experiment/gates';
import { parseMetric } from '../metrics/spec';
import { THRESHOLD_ZERO_WARNING } from '../metrics/context';
import { InputError, type Diagnostic } from '../util/diagnostics';
import { readUserText } from '../util/text-file';
import { JsonSyntaxError, lineOfPointer, parseJsonWithLocations, type JsonLocations } from '../util/json-source';
import { parseMergePolicy } from '../judgments/merge';
import { checkRaterName } from '../judgments/raters';
import { applyDefaults, type JudgmentEntry, type JudgmentSpec, type RanklabSettings } from './settings';
import { displayPath, validateSettings } from './validate';

export const SETTINGS_FILE = 'ranklab.json';
export const CONFIG_SUFFIX = '.rank.json';

/** A ranking config that exists without a file (the BM25 default of a BEIR folder). Same shape as a .rank.json. */
export interface BuiltinConfig {
  name: string;
  config: Record<string, unknown>;
}

export interface Workspace {
  /** Absolute path of the workspace folder. */
  root: string;
  /** 'ranklab' = has a ranklab.json; 'beir' = BEIR layout with defaults. */
  kind: 'ranklab' | 'beir';
  /** Absolute path of ranklab.json, when there is one. */
  settingsFile?: string;
  settings: RanklabSettings;
  /** Absolute paths of the ranking config files, sorted. */
  configFiles: string[];
  /** Configs that have no file; present when `configFiles` is empty. */
  builtinConfigs: BuiltinConfig[];
  baselineName?: string;
  /** What to pass to the judgments loader, one per source, with absolute paths. */
  judgmentSpecs: JudgmentSpec[];
  /** Absolute path of principals.json, when configured. */
  principalsFile?: string;
  /** root/.ranklab/cache and root/.ranklab/runs; not created here (see ensureRanklabDir). */
  cacheDir: string;
  runsDir: string;
  diagnostics: Diagnostic[];
  /** Where each setting of ranklab.json is (for problems found later, e.g. a corpus glob that matches nothing). */
  settingsLocations?: JsonLocations;
}

/** Line of a ranklab.json setting by JSON pointer ("/corpus/include"); 0 without a ranklab.json. */
export function settingsLine(ws: Pick<Workspace, 'settingsLocations'>, pointer: string): number {
  return ws.settingsLocations ? lineOfPointer(ws.settingsLocations, pointer) : 0;
}

/** The default config of a workspace without configs: BM25 over title and text as one field (`all`), as the reference runs score them. */
export const DEFAULT_BM25_CONFIG: BuiltinConfig = {
  name: 'bm25',
  config: { description: 'BM25 over title and text (built-in default)', lexical: { fields: { all: 1 } } },
};

/** BEIR layout: corpus.jsonl + queries.jsonl + qrels.tsv or qrels/test.tsv. */
export function isBeirFolder(dir: string): boolean {
  return (
    existsSync(join(dir, 'corpus.jsonl')) &&
    existsSync(join(dir, 'queries.jsonl')) &&
    (existsSync(join(dir, 'qrels.tsv')) || existsSync(join(dir, 'qrels', 'test.tsv')))
  );
}

export function configName(file: string): string {
  const base = basename(file);
  return base.endsWith(CONFIG_SUFFIX) ? base.slice(0, -CONFIG_SUFFIX.length) : base.replace(/\.json$/i, '');
}

/**
 * Reads a workspace folder: ranklab.json (validated against schemas/ranklab.schema.json, problems reported
 * with their line), or, without one, a BEIR folder with defaults. Reads only; writes nothing.
 * Throws InputError when the folder is missing or is neither kind of workspace.
 */
export function loadWorkspace(dir: string): Workspace {
  const root = resolve(dir);
  if (!existsSync(root)) throw new InputError('workspace folder not found', [], { file: dir });
  if (!statSync(root).isDirectory())
    throw new InputError('is a file, not a workspace folder (the folder that holds ranklab.json)', [], { file: dir });
  const settingsFile = join(root, SETTINGS_FILE);
  if (existsSync(settingsFile)) return loadRanklabWorkspace(root, settingsFile);
  if (isBeirFolder(root)) return loadBeirWorkspace(root);
  throw new InputError(`has no ${SETTINGS_FILE} and is not a BEIR folder (corpus.jsonl, queries.jsonl, qrels.tsv or qrels/test.tsv)`, [], {
    file: dir,
  });
}

function loadRanklabWorkspace(root: string, settingsFile: string): Workspace {
  const diagnostics: Diagnostic[] = [];
  const error = (line: number, message: string) => diagnostics.push({ file: SETTINGS_FILE, line, severity: 'error', message });
  let raw: unknown = {};
  let locations: JsonLocations | undefined;
  try {
    const text = readUserText(settingsFile, SETTINGS_FILE);
    if (text.trim() === '') {
      error(0, 'file is empty (write {} for a workspace with every default)');
    } else {
      // Duplicate keys are errors, as in rank configs: JSON.parse would silently keep the last one.
      const parsed = parseJsonWithLocations(text, { comments: true, duplicateKeys: 'error' });
      raw = parsed.value;
      locations = parsed.locations;
      diagnostics.push(...validateSettingsValue(raw, locations));
    }
  } catch (e) {
    // The CLI stops on these (exit 2); the editor shows them and carries on with the defaults.
    if (e instanceof JsonSyntaxError) error(e.line, `invalid JSON at column ${e.column}: ${e.reason}`);
    else if (e instanceof InputError) error(0, e.reason);
    else throw e;
  }
  // A ranklab.json added to a BEIR folder keeps the BEIR defaults for what it does not set.
  const settings = applyDefaults(isBeirFolder(root) ? withBeirDefaults(raw) : raw);
  const lineOf = (pointer: string) => (locations ? lineOfPointer(locations, pointer) : 0);
  const ws = assemble(root, 'ranklab', settings, diagnostics, lineOf, settingsFile, raw);
  if (locations) ws.settingsLocations = locations;
  return ws;
}

/**
 * Schema validation, then what a schema cannot say: gates (one definition, src/core/experiment/gates.ts) and
 * metric names that the metric parser knows.
 */
function validateSettingsValue(raw: unknown, locations: JsonLocations): Diagnostic[] {
  const out = validateSettings(raw, locations, SETTINGS_FILE);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  const r = raw as Record<string, unknown>;
  if (r.relevanceThreshold === 0) {
    out.push({
      file: SETTINGS_FILE,
      line: lineOfPointer(locations, '/relevanceThreshold'),
      severity: 'warning',
      key: 'relevanceThreshold',
      message: THRESHOLD_ZERO_WARNING,
    });
  }
  if (r.gates !== undefined) out.push(...gateDiagnostics(validateGates(r.gates).problems, SETTINGS_FILE, locations, '/gates', 'gates.'));
  if (Array.isArray(r.metrics)) {
    r.metrics.forEach((m, i) => {
      if (typeof m !== 'string') return; // the schema reported it
      try {
        parseMetric(m);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        if (!out.some((d) => d.line === lineOfPointer(locations, `/metrics/${i}`) && d.severity === 'error')) {
          out.push({
            file: SETTINGS_FILE,
            line: lineOfPointer(locations, `/metrics/${i}`),
            severity: 'error',
            key: `metrics[${i}]`,
            message: e.reason,
          });
        }
      }
    });
  }
  return out.sort((a, b) => a.line - b.line);
}

/** What a BEIR folder means without a ranklab.json: corpus.jsonl, and its queries and qrels as judgments. */
const BEIR_DEFAULTS = { include: ['corpus.jsonl'], judgments: [{ beir: '.' }] };

/** ranklab.json's values over the BEIR defaults: corpus.include and judgments are filled in when it sets neither. */
function withBeirDefaults(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const r = raw as Record<string, unknown>;
  const corpus = r.corpus && typeof r.corpus === 'object' && !Array.isArray(r.corpus) ? (r.corpus as Record<string, unknown>) : {};
  return {
    ...r,
    corpus: { ...corpus, include: corpus.include ?? BEIR_DEFAULTS.include },
    judgments: r.judgments ?? BEIR_DEFAULTS.judgments,
  };
}

function loadBeirWorkspace(root: string): Workspace {
  const settings = applyDefaults({ corpus: { include: BEIR_DEFAULTS.include }, judgments: BEIR_DEFAULTS.judgments });
  return assemble(root, 'beir', settings, [], () => 0);
}

function assemble(
  root: string,
  kind: Workspace['kind'],
  settings: RanklabSettings,
  diagnostics: Diagnostic[],
  lineOf: (pointer: string) => number,
  settingsFile?: string,
  raw: unknown = {},
): Workspace {
  const report = (pointer: string, severity: Diagnostic['severity'], message: string) =>
    diagnostics.push({ file: SETTINGS_FILE, line: lineOf(pointer), severity, key: displayPath(pointer), message });
  const given = (key: string) => !!raw && typeof raw === 'object' && (raw as Record<string, unknown>)[key] !== undefined;
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(root, p));

  refuseOutsideIncludes(settings, raw, report);

  if (given('judgments') && settings.judgments.length === 0) report('/judgments', 'error', 'names no judgment file');

  const judgmentSpecs: JudgmentSpec[] = [];
  settings.judgments.forEach((entry, k) => {
    const spec = resolveJudgmentEntry(entry, abs);
    for (const [key, path] of Object.entries(spec) as [keyof JudgmentSpec, string][]) {
      // A raters folder appears with the first per-rater grade; `rater` is a name.
      if (key === 'raters' || key === 'rater') continue;
      if (!existsSync(path))
        report(typeof entry === 'string' ? `/judgments/${k}` : `/judgments/${k}/${key}`, 'error', `judgments ${key} not found: ${path}`);
    }
    const badRater = spec.rater === undefined ? undefined : checkRaterName(spec.rater);
    if (badRater) {
      report(`/judgments/${k}/rater`, 'error', `${badRater}; the entry's judgments count as rater "default"`);
      delete spec.rater;
    }
    judgmentSpecs.push(spec);
  });
  try {
    parseMergePolicy(settings.judging.merge);
  } catch (e) {
    report('/judging/merge', 'error', `"judging.merge": ${(e as Error).message}; using mean-rounded`);
    settings.judging.merge = 'mean-rounded';
  }
  const badJudgingRater = settings.judging.rater === undefined ? undefined : checkRaterName(settings.judging.rater);
  if (badJudgingRater) {
    report('/judging/rater', 'error', `"judging.rater": ${badJudgingRater}; ignored`);
    delete settings.judging.rater;
  }

  const configFiles = globSync(settings.configs, { cwd: root, absolute: true, onlyFiles: true, ignore: ALWAYS_EXCLUDED })
    .map((f) => resolve(f))
    .sort();
  // Only the default glob falls back to the built-in config; a glob the user wrote that matches nothing is a mistake.
  if (configFiles.length === 0 && given('configs'))
    report('/configs', 'error', `${JSON.stringify(settings.configs)} matches no config file`);
  const builtinConfigs = configFiles.length === 0 ? [DEFAULT_BM25_CONFIG] : [];
  const names = new Set([...configFiles.map(configName), ...builtinConfigs.map((c) => c.name)]);
  let baselineName = settings.baseline;
  if (baselineName && !names.has(baselineName)) {
    report('/baseline', 'warning', `baseline "${baselineName}" matches no config (have: ${[...names].join(', ') || 'none'})`);
  }
  const firstBuiltin = builtinConfigs[0];
  if (!baselineName && firstBuiltin) baselineName = firstBuiltin.name;

  let principalsFile: string | undefined;
  if (settings.acl.principals) {
    principalsFile = abs(settings.acl.principals);
    if (!existsSync(principalsFile)) report('/acl/principals', 'error', `principals file not found: ${principalsFile}`);
  }

  diagnostics.sort((a, b) => a.line - b.line); // stable: same-line problems keep their order
  const ws: Workspace = {
    root,
    kind,
    settings,
    configFiles,
    builtinConfigs,
    judgmentSpecs,
    cacheDir: join(root, '.ranklab', 'cache'),
    runsDir: join(root, '.ranklab', 'runs'),
    diagnostics,
  };
  if (settingsFile) ws.settingsFile = settingsFile;
  if (baselineName) ws.baselineName = baselineName;
  if (principalsFile) ws.principalsFile = principalsFile;
  return ws;
}

/**
 * A checked-in ranklab.json must not pull files from elsewhere on the machine into the corpus (and so into
 * indexes, snippets and runs) without saying so: `corpus.include` patterns that are absolute or climb out with
 * ".." are dropped with an error at their line, unless `corpus.allowOutsideWorkspace` is true. The other
 * patterns still apply. (A symlink inside the folder that points outside is not checked here.)
 */
function refuseOutsideIncludes(
  settings: RanklabSettings,
  raw: unknown,
  report: (pointer: string, severity: Diagnostic['severity'], message: string) => void,
): void {
  const corpus = raw && typeof raw === 'object' ? (raw as Record<string, unknown>).corpus : undefined;
  const given = corpus && typeof corpus === 'object' ? (corpus as Record<string, unknown>) : {};
  if (given.allowOutsideWorkspace === true) return;
  const asArray = Array.isArray(given.include);
  settings.corpus.include = settings.corpus.include.filter((pattern, i) => {
    if (!globLeavesRoot(pattern)) return true;
    report(
      asArray ? `/corpus/include/${i}` : '/corpus/include',
      'error',
      `${JSON.stringify(pattern)} leaves the workspace folder; it includes nothing (set "corpus": { "allowOutsideWorkspace": true } to include files from outside)`,
    );
    return false;
  });
}

/**
 * A judgments path string: "beir:DIR" or a folder → BEIR, *.json → golden set, anything else → TREC qrels.
 * Paths come back absolute.
 */
export function resolveJudgmentEntry(entry: JudgmentEntry, abs: (p: string) => string): JudgmentSpec {
  if (typeof entry !== 'string') {
    const spec: JudgmentSpec = {};
    for (const k of ['qrels', 'queries', 'golden', 'beir', 'raters'] as const) if (entry[k]) spec[k] = abs(entry[k] as string);
    if (entry.rater) spec.rater = entry.rater;
    return spec;
  }
  if (entry.startsWith('beir:')) return { beir: abs(entry.slice(5)) };
  const path = abs(entry);
  if (existsSync(path) && statSync(path).isDirectory()) return { beir: path };
  if (/\.json$/i.test(entry)) return { golden: path };
  return { qrels: path };
}
