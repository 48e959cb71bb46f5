/**
 * The user action "compare runs", for every face: `ranklab compare` / `ranklab gate` and the dashboard's pair and
 * N-way matrix. Each side is a run already made (a saved run with its file, a TREC run) or a config run now (its saved
 * run reused when nothing changed); one baseline against every candidate (compareMany: one Holm correction over all
 * of them), each candidate's gates and verdict, the matrix, and the moved documents' reasons when both sides are
 * configs of the built-in pipeline. A saved run's per-query values are taken from its kept evaluation (core
 * evaluation-cache.ts) when one is valid for these judgments and options, not evaluated again; with `cache.figures`
 * a pair of saved runs is read from (or written to) the comparison cache, its statistics given first. The signal is
 * honoured while a side runs, between the statistics' tests and while reasons are found. Plain data out.
 */
import { dirname, resolve } from 'node:path';
import type { RankConfig } from '../config';
import {
  type Comparison,
  type ComparisonSide,
  type ComparisonStatistics,
  type EvaluatedSide,
  type ManyComparison,
  biggestChanges,
  compareManySliced,
  compareStatistics,
  manyOf,
} from '../experiment/compare';
import {
  type ComparisonCacheKey,
  type RunFileStamp,
  readCachedComparison,
  runFileStamp,
  writeCachedComparison,
} from '../experiment/comparison-cache';
import { type RunEvaluation, readRunEvaluation, runEvaluationOf, writeRunEvaluation } from '../experiment/evaluation-cache';
import { type GateResult, type GateSettings, checkGates, withGateMetrics } from '../experiment/gates';
import { type ComparisonMatrix, comparisonMatrix } from '../experiment/matrix';
import { type RunSummary, summaryOf } from '../experiment/run-index';
import { comparisonSideOf, refuseIncomplete, runOfSaved } from '../experiment/run-store';
import { ALPHA, type Verdict, verdictOf } from '../experiment/verdict';
import type { ExcludedQuery, JudgmentSet } from '../judgments';
import { type MetricOptions, type MetricSpec, evaluateRun, parseMetricList } from '../metrics';
import { runIdOfFile } from '../run/run-files';
import type { SavedRun } from '../run/types';
import { evaluateConfig } from '../session/evaluate';
import { addMoveReasons } from '../session/explain';
import type { RanklabSession } from '../session/session';
import { Work } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { metricOptionsOf } from '../workspace/settings';

/** A saved run as a run store lists it: its summary at hand, the whole run read from `file` only when used. */
export interface StoredRunRef {
  id: string;
  file: string;
  summary: RunSummary;
  readonly run: SavedRun;
}

/** A saved run already read (a file named on the command line) as a StoredRunRef. */
export function storedRunOf(file: string, saved: SavedRun): StoredRunRef {
  const id = runIdOfFile(file.split(/[\\/]/).pop()!) ?? file;
  return { id, file: resolve(file), summary: summaryOf(id, saved), run: saved };
}

/**
 * One side: a run held in memory (a TREC run), a saved run with its file (read only when needed; its kept values and
 * the caches apply; `name`: what the report calls it, by default its config), or a config to run now.
 */
export type CompareSide =
  | { kind: 'run'; side: ComparisonSide }
  | { kind: 'saved'; ref: StoredRunRef; name?: string }
  | { kind: 'config'; config: RankConfig; name: string };

export interface CompareRunsInput {
  baseline: CompareSide;
  candidates: CompareSide[];
  specs: MetricSpec[];
  metricOptions: MetricOptions;
  split: 'tune' | 'holdout' | 'all';
  /** Configs run as this principal (and their moved documents explained as them). */
  runAs?: string;
  /** The judgments are scored as this principal sees them (unless `judgments` is given). */
  principal?: string;
  /** Judgments given (a qrels file, the dashboard's): used as they are; else the session's, of `split`, as `principal` sees them. */
  judgments?: JudgmentSet;
  classSlices?: boolean;
  allowMixedPrincipals?: boolean;
  /**
   * Moved documents to explain, per candidate: 'all' changed queries, N (the N biggest losses and wins), or 0
   * (none; each moved document costs two searches).
   */
  explain: number | 'all';
  /** The gates checked for each candidate (none: no gate, the verdict says so). */
  gates?: GateSettings;
  /**
   * The runs folder: a saved side's kept per-query values are read there (evaluation-cache.ts). `figures`: a pair of
   * saved runs is compared as the dashboard shows it, through the comparison cache (the figures without the bounds
   * and reasons, with the stored titles of the documents moved in the first `titlesFor` changed queries); each run's
   * values are then evaluated and kept when they were not.
   */
  cache?: { dir?: string; log?: (message: string) => void; figures?: { titlesFor: number } };
}

export type CompareRunsProgress =
  | { type: 'queries'; config: string; done: number; total: number }
  | { type: 'reused'; config: string; path: string }
  /** A side is ready: `from` is where a config's run is saved. */
  | { type: 'side'; role: 'baseline' | 'candidate'; name: string; from?: string };

/** Of one run: the evaluated queries it does not have, and its queries that were not evaluated. */
export type SideQueries = Pick<RunEvaluation, 'missing' | 'notEvaluated'>;
export interface Sides {
  baseline: SideQueries;
  candidate: SideQueries;
}

/** A pair's figures: the comparison, gates and verdict (the statistics alone when given first). */
export interface PairFigures<C extends ComparisonStatistics = Comparison> {
  comparison: C;
  gates: GateResult[];
  verdict: Verdict;
  sides: Sides;
}

export interface CompareRunsHooks {
  signal?: AbortSignal;
  progress?: (event: CompareRunsProgress) => void;
  /** With `cache.figures`, when the pair is compared now: the statistics from both runs' kept values, before the lists are read. */
  onStatistics?: (first: PairFigures<ComparisonStatistics>) => void;
}

export interface CompareRunsResult {
  /** One comparison per candidate (a cached pair's without its bounds: the verdict, kept with it, read them). */
  many: ManyComparison;
  /** Under a principal: queries left out because every relevant document is invisible to them. */
  excluded: ExcludedQuery[];
  /** Per candidate: its gates, and its verdict (significance at the one ALPHA). */
  gates: GateResult[][];
  verdicts: Verdict[];
  matrix: ComparisonMatrix;
  /** With `cache.figures`: both runs' queries, whether the figures came from the comparison cache, the stored titles. */
  figures?: { sides: Sides; cached: boolean; titles: Record<string, string> };
}

/**
 * A config that fails at run time (a provider that cannot be reached) is an InputError naming the side (and, for a
 * candidate, where the baseline's run was saved, so it is not lost). Runs made as different principals are refused
 * (MixedPrincipalsError) unless `allowMixedPrincipals`.
 */
export async function compareRuns(
  session: RanklabSession | undefined,
  input: CompareRunsInput,
  hooks: CompareRunsHooks = {},
): Promise<CompareRunsResult> {
  const { signal, progress } = hooks;
  const [b, c] = [input.baseline, input.candidates[0]];
  const pair = input.cache?.figures && input.candidates.length === 1 && b.kind === 'saved' && c?.kind === 'saved' ? { b, c } : undefined;
  let judgments = input.judgments;
  let excluded: ExcludedQuery[] = [];
  const judgmentsNow = () => {
    if (!judgments)
      ({ judgments, excluded } = session!.judgmentsAs({
        split: input.split,
        principal: input.principal,
        relevanceThreshold: input.metricOptions.relevanceThreshold,
      }));
    return judgments;
  };
  if (pair) {
    const { comparison, gates, verdict, sides, cached, titles } = await comparePairFigures(
      pair.b.ref,
      pair.c.ref,
      judgmentsNow(),
      input,
      hooks,
    );
    const many = manyOf(sideOf(pair.b), [sideOf(pair.c)], [comparison]);
    return { ...outcome(many, excluded, [gates], [verdict]), figures: { sides, cached, titles } };
  }
  // Saved runs first (a run with failed queries is refused before any config runs), then the configs in turn.
  const savedSides = [input.baseline, ...input.candidates].map((s) =>
    s.kind === 'saved' ? { ...comparisonSideOf(s.ref.run), name: sideOf(s).name } : undefined,
  );
  const sides: Array<ComparisonSide & { from?: string }> = [];
  for (const [i, side] of [input.baseline, ...input.candidates].entries()) {
    const role = i === 0 ? 'baseline' : 'candidate';
    const done: ComparisonSide & { from?: string } =
      side.kind === 'run'
        ? side.side
        : side.kind === 'saved'
          ? savedSides[i]!
          : { ...(await runSide(role, side, session, input, hooks, sides[0]?.from)), name: side.name };
    sides.push(done);
    progress?.({ type: 'side', role, name: done.name, from: done.from });
  }
  // Each saved run's kept values, when valid for these judgments and options: its metrics are not evaluated again.
  const kept = (side: CompareSide, done: ComparisonSide & { from?: string }): ComparisonSide => {
    const file = side.kind === 'saved' ? side.ref.file : side.kind === 'config' ? done.from : undefined;
    const dir = input.cache?.dir;
    const values = file && dir !== undefined ? keptValues(file, judgmentsNow(), input.specs, input.metricOptions, dir) : undefined;
    const { from: _from, ...plain } = done;
    return values ? { ...plain, values } : plain;
  };
  const ready = [input.baseline, ...input.candidates].map((s, i) => kept(s, sides[i]!)); // one side per input, pushed above
  const work = session?.work(signal) ?? new Work({ signal });
  const [baselineSide, ...candidateSides] = ready;
  if (!baselineSide) throw new Error('compareRuns: no baseline side'); // the loop above always pushes it
  const many = await compareManySliced(
    baselineSide,
    candidateSides,
    judgmentsNow(),
    input.specs,
    input.metricOptions,
    work.phase('statistics', 0),
    {
      classSlices: !!input.classSlices,
      allowMixedPrincipals: input.allowMixedPrincipals,
    },
  );
  const builtIn = (s: CompareSide): s is Extract<CompareSide, { kind: 'config' }> => s.kind === 'config' && !s.config.engine;
  if (session && builtIn(input.baseline) && input.explain !== 0) {
    for (const [i, cand] of input.candidates.entries()) {
      if (!builtIn(cand)) continue;
      const cmp = many.comparisons[i]!; // one comparison per candidate, in order
      const shown =
        input.explain === 'all'
          ? cmp
          : (({ losses, wins }) => ({ queryDeltas: [...losses, ...wins] }))(biggestChanges(cmp.queryDeltas, input.explain));
      await addMoveReasons(session, input.baseline.config, cand.config, shown, { principal: input.runAs, signal });
    }
  }
  return outcome(
    many,
    excluded,
    many.comparisons.map((cmp) => checkGates(input.gates ?? {}, cmp)),
  );
}

/** The gates' and verdicts' part of the result (a cached pair's verdict is the one kept: it read the bounds). */
function outcome(many: ManyComparison, excluded: ExcludedQuery[], gates: GateResult[][], verdicts?: Verdict[]) {
  const made = verdicts ?? many.comparisons.map((cmp, i) => verdictOf(cmp, gates[i]!, { alpha: ALPHA }) /* one gate list per comparison */);
  return { many, excluded, gates, verdicts: made, matrix: comparisonMatrix(many, gates, { alpha: ALPHA }, made) };
}

/** What a saved side is called and who made it, from its summary (its file is not read). */
function sideOf(s: CompareSide): { name: string; principal?: string | null } {
  if (s.kind === 'run') return s.side;
  if (s.kind === 'config') return { name: s.name };
  return { name: s.name ?? s.ref.summary.provenance.config, principal: s.ref.summary.principal ?? null };
}

/** A config side run now (or its saved run reused when nothing changed). */
async function runSide(
  role: 'baseline' | 'candidate',
  side: Extract<CompareSide, { kind: 'config' }>,
  session: RanklabSession | undefined,
  input: CompareRunsInput,
  hooks: CompareRunsHooks,
  baselineFrom?: string,
): Promise<ComparisonSide & { from?: string }> {
  const { config } = side;
  if (!session) throw new InputError(`${role} "${config.name}" is a config: comparing configs needs a workspace`);
  try {
    const r = await evaluateConfig(session, config, {
      specs: input.specs,
      metricOptions: input.metricOptions,
      split: input.split,
      principal: input.runAs,
      reuse: true,
      signal: hooks.signal,
      onProgress: hooks.progress && ((done, total) => hooks.progress!({ type: 'queries', config: config.name, done, total })),
    });
    if (r.reused) hooks.progress?.({ type: 'reused', config: config.name, path: r.path! });
    refuseIncomplete(config.name, r.failed);
    return { name: config.name, run: r.run, latencies: r.latencies, stageIds: r.stageIds, principal: input.runAs ?? null, from: r.path };
  } catch (e) {
    if (!(e instanceof InputError) || hooks.signal?.aborted) throw e;
    throw new InputError(
      `${role} "${config.name}" not run: ${e.message}${baselineFrom ? ` (the baseline's run is in ${baselineFrom})` : ''}`,
      e.diagnostics,
    );
  }
}

/** What of ranklab.json a comparison of saved runs is made with (the dashboard's settings). */
export interface ComparisonSettings {
  metrics: string[];
  gain: MetricOptions['gain'];
  relevanceThreshold: number;
  judgedOnly?: boolean;
  gates: GateSettings;
}

/** The metrics saved runs are compared on (those all computed, plus every gate's) and how they are scored. */
export function comparisonSpecs(
  runs: readonly StoredRunRef[],
  settings: ComparisonSettings,
): { specs: MetricSpec[]; options: MetricOptions } {
  const common = (runs[0]?.summary.metricSpecs ?? []).filter((s) => runs.every((r) => r.summary.metricSpecs.includes(s)));
  return {
    specs: withGateMetrics(parseMetricList(common.length ? common : settings.metrics), settings.gates), // every gate can be evaluated
    options: metricOptionsOf(settings),
  };
}

/** What the comparison cache keeps of a pair (before the moved documents' reasons, which depend on the corpus). */
interface CachedPair extends PairFigures {
  /** The titles the runs stored for the documents moved in the first `titlesFor` changed queries. */
  titles: Record<string, string>;
}

/**
 * A pair of saved runs as the dashboard shows it: read from the comparison cache when computed before from exactly
 * these inputs (`cached`; neither run file is read), else the statistics first from both runs' kept values, then
 * in full (each run file read once, its kept values reused) and written to the cache.
 */
async function comparePairFigures(
  b: StoredRunRef,
  c: StoredRunRef,
  judgments: JudgmentSet,
  input: CompareRunsInput,
  hooks: CompareRunsHooks,
): Promise<CachedPair & { cached: boolean }> {
  const { specs, metricOptions: options } = input;
  const { dir, log, figures } = input.cache!;
  const gateSettings = input.gates ?? {};
  const allowMixedPrincipals = input.allowMixedPrincipals;
  const key = dir !== undefined ? cacheKey(b, c, judgments, specs, options, gateSettings, allowMixedPrincipals ?? false) : undefined;
  const entry = key && readCachedComparison<CachedPair>(dir!, key);
  if (entry) return { ...entry, cached: true };
  // Each run's per-query values (kept, or evaluated now and kept): the statistics first, and the next new pairs'.
  const evaluations = {
    baseline: keptEvaluation(b, judgments, specs, options, dir, log),
    candidate: keptEvaluation(c, judgments, specs, options, dir, log),
  };
  const sides = { baseline: queriesOf(evaluations.baseline), candidate: queriesOf(evaluations.candidate) };
  const slicer = () => new Work({ signal: hooks.signal }).phase('statistics', 0);
  const side = (r: StoredRunRef, e: RunEvaluation): EvaluatedSide => ({
    name: r.summary.provenance.config,
    principal: r.summary.principal ?? null,
    values: e.values,
  });
  // A run with failed queries is refused by the full comparison: no verdict is given for it before.
  if (hooks.onStatistics && b.summary.failedQueries === 0 && c.summary.failedQueries === 0) {
    const stats = await compareStatistics(
      side(b, evaluations.baseline),
      side(c, evaluations.candidate),
      judgments,
      specs,
      options,
      slicer(),
      {
        allowMixedPrincipals,
      },
    );
    const gates = checkGates(gateSettings, stats);
    hooks.onStatistics({ comparison: stats, gates, verdict: verdictOf(stats, gates, { alpha: ALPHA }), sides });
  }
  const withValues = (r: StoredRunRef, e: RunEvaluation): ComparisonSide => ({ ...comparisonSideOf(r.run), values: e.values });
  const many = await compareManySliced(
    withValues(b, evaluations.baseline),
    [withValues(c, evaluations.candidate)],
    judgments,
    specs,
    options,
    slicer(),
    { allowMixedPrincipals },
  );
  const [cmp] = many.comparisons;
  if (!cmp) throw new Error('comparePairFigures: no comparison'); // one candidate in, one comparison out
  const gates = checkGates(gateSettings, cmp);
  const verdict = verdictOf(cmp, gates, { alpha: ALPHA });
  // Without its bounds: the verdict, kept with it, is what reads them (half of the entry at 1,000 queries).
  const { bounds: _bounds, ...comparison } = cmp;
  const stored = titlesOf([b, c]);
  // fromEntries: an id such as "__proto__" is a key like any other.
  const titles = Object.fromEntries(
    comparison.queryDeltas
      .slice(0, figures!.titlesFor)
      .flatMap((q) => q.moved.flatMap((d) => (stored.has(d.id) ? [[d.id, stored.get(d.id)!]] : []))),
  );
  const computed: CachedPair = { comparison, gates, verdict, sides, titles };
  if (key) writeCachedComparison(dir!, key, computed, log);
  return { ...computed, cached: false };
}

/**
 * A saved run's per-query values on `judgments`, kept beside the runs (evaluation-cache.ts: sealed, keyed by the run
 * file's stamp, so a changed or tampered entry is not read), or undefined. Only for a run file in the runs folder.
 */
function keptValues(
  file: string,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: MetricOptions,
  dir: string,
): RunEvaluation['values'] | undefined {
  const id = runIdOfFile(file.split(/[\\/]/).pop()!);
  if (!id || resolve(dirname(file)) !== resolve(dir)) return undefined;
  const stamp = fileStamp(id, file);
  return (
    stamp &&
    readRunEvaluation(
      dir,
      { run: stamp, judgments: judgments.fingerprint, options },
      specs.map((s) => s.name),
    )?.values
  );
}

/** A run's per-query values: kept (its file is not read), or evaluated now from its file and kept. */
function keptEvaluation(
  r: StoredRunRef,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: MetricOptions,
  dir: string | undefined,
  log?: (message: string) => void,
): RunEvaluation {
  const stamp = dir !== undefined ? fileStamp(r.id, r.file) : undefined;
  const key = stamp && { run: stamp, judgments: judgments.fingerprint, options };
  const kept =
    key &&
    readRunEvaluation(
      dir!,
      key,
      specs.map((s) => s.name),
    );
  if (kept) return kept;
  const evaluated = runEvaluationOf(evaluateRun(runOfSaved(r.run).run, judgments, specs, options).perQuery, r.run);
  if (key) writeRunEvaluation(dir!, key, evaluated, log);
  return evaluated;
}

function queriesOf({ missing, notEvaluated }: RunEvaluation): SideQueries {
  return { missing, notEvaluated };
}

/** The run file's stamp now, or undefined for a run held only in memory (no file: nothing is cached for it). */
function fileStamp(id: string, file: string): RunFileStamp | undefined {
  try {
    return runFileStamp(id, file);
  } catch {
    return undefined;
  }
}

/**
 * Every input of the pair's figures, for the comparison cache. `entry` names the shape of what is kept (the core
 * verdict since the action moved to the core), so an entry written in another shape is never read as this one.
 */
function cacheKey(
  b: StoredRunRef,
  c: StoredRunRef,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: MetricOptions,
  gates: GateSettings,
  allowMixed: boolean,
): ComparisonCacheKey | undefined {
  const [baseline, candidate] = [fileStamp(b.id, b.file), fileStamp(c.id, c.file)];
  return baseline && candidate
    ? {
        baseline,
        candidate,
        judgments: judgments.fingerprint,
        specs,
        options,
        gates,
        allowMixedPrincipals: allowMixed,
        extra: { alpha: ALPHA, entry: 'pair-figures' },
      }
    : undefined;
}

/** Document titles as the runs stored them. */
function titlesOf(runs: StoredRunRef[]): Map<string, string> {
  const titles = new Map<string, string>();
  for (const r of runs) {
    for (const [id, title] of Object.entries(r.run.titles ?? {})) if (typeof title === 'string' && title) titles.set(id, title);
    for (const q of r.run.queries) for (const d of q.docs) if (d.title) titles.set(d.id, d.title);
  }
  return titles;
}
