/**
 * The user action "compare saved runs", as the dashboard asks for it: a pair (baseline vs candidate) through
 * compareRuns, checkGates and verdictOf, with both caches beside the runs (the comparison cache of pairs, and each
 * run's per-query values: core comparison-cache.ts, evaluation-cache.ts), and the N-way matrix (compareMany, one
 * Holm correction, the core's comparisonMatrix). Plain data out; the extension maps it to its views.
 */
import {
  type Comparison,
  type ComparisonStatistics,
  type EvaluatedSide,
  type ManyComparison,
  MixedPrincipalsError,
  compareManySliced,
  compareRunsSliced,
  compareStatistics,
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
import type { RunSummary } from '../experiment/run-index';
import { comparisonSideOf, runOfSaved } from '../experiment/run-store';
import { ALPHA, type Verdict, verdictOf } from '../experiment/verdict';
import type { JudgmentSet } from '../judgments/types';
import { type MetricSpec, evaluateRun } from '../metrics';
import type { MetricOptions } from '../metrics/context';
import { parseMetricList } from '../metrics/spec';
import type { SavedRun } from '../run/types';
import { type Slicer, Work } from '../util/cooperative';
import { metricOptionsOf } from '../workspace/settings';

/** A saved run as a run store lists it: its summary at hand, the whole run read from `file` only when used. */
export interface StoredRunRef {
  id: string;
  file: string;
  summary: RunSummary;
  readonly run: SavedRun;
}

/** What of ranklab.json a comparison of saved runs is made with. */
export interface ComparisonSettings {
  metrics: string[];
  gain: MetricOptions['gain'];
  relevanceThreshold: number;
  judgedOnly?: boolean;
  gates: GateSettings;
}

/** Of one run: the evaluated queries it does not have, and its queries that were not evaluated. */
export type SideQueries = Pick<RunEvaluation, 'missing' | 'notEvaluated'>;
export interface Sides {
  baseline: SideQueries;
  candidate: SideQueries;
}

/** A pair's figures: the comparison (without its bounds, which the verdict read), gates and verdict. */
export interface PairFigures<C extends ComparisonStatistics = Comparison> {
  comparison: C;
  gates: GateResult[];
  verdict: Verdict;
  sides: Sides;
}

/** What the comparison cache keeps of a pair (before the moved documents' reasons, which depend on the corpus). */
interface CachedPair extends PairFigures {
  /** The titles the runs stored for the documents moved in the first `titlesFor` changed queries. */
  titles: Record<string, string>;
}

export type PairResult =
  | (CachedPair & { metricOptions: MetricOptions; cached: boolean; refusal?: undefined })
  | { refusal: { message: string }; metricOptions: MetricOptions };

export interface ComparePairOptions {
  allowMixedPrincipals?: boolean;
  signal?: AbortSignal;
  /** The runs folder: the comparison cache (pairs) and the run evaluations (runs) live there. */
  cacheDir?: string;
  log?: (message: string) => void;
  /** How many changed queries' moved documents get their stored titles kept with the figures. */
  titlesFor: number;
  /**
   * Called first with the statistics alone when the pair is compared now: from both runs' kept per-query values (no
   * run file read), else from their files; the ranked lists (moved documents, query classes, judged@k) follow.
   */
  onStatistics?: (first: PairFigures<ComparisonStatistics> & { metricOptions: MetricOptions }) => void;
}

/** The metrics runs are compared on (those all computed, plus every gate's) and how they are scored. */
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

/** A slicer for the statistics: pauses every 50 ms so a caller's thread stays responsive, stops on `signal`. */
function statisticsSlicer(signal?: AbortSignal): Slicer {
  return new Work({ signal }).phase('statistics', 0);
}

/**
 * Baseline vs candidate on `judgments`. Runs made as different principals are refused (as data) unless
 * `allowMixedPrincipals`. With `cacheDir`, the figures are read from the comparison cache when computed before from
 * exactly these inputs (`cached`; neither run file is read), else computed and written to it.
 */
export async function compareSavedPair(
  b: StoredRunRef,
  c: StoredRunRef,
  judgments: JudgmentSet,
  settings: ComparisonSettings,
  opts: ComparePairOptions,
): Promise<PairResult> {
  const { specs, options } = comparisonSpecs([b, c], settings);
  const dir = opts.cacheDir;
  const key = dir !== undefined ? cacheKey(b, c, judgments, specs, options, settings.gates, opts.allowMixedPrincipals ?? false) : undefined;
  let entry = key && readCachedComparison<CachedPair>(dir!, key);
  const cached = !!entry;
  try {
    if (!entry) {
      // Each run's per-query values (kept, or evaluated now and kept): the statistics first, and the next new pairs'.
      const evaluations = {
        baseline: keptEvaluation(b, judgments, specs, options, opts),
        candidate: keptEvaluation(c, judgments, specs, options, opts),
      };
      const sides = { baseline: queriesOf(evaluations.baseline), candidate: queriesOf(evaluations.candidate) };
      // A run with failed queries is refused by the full comparison: no verdict is given for it before.
      if (opts.onStatistics && b.summary.failedQueries === 0 && c.summary.failedQueries === 0) {
        const side = (r: StoredRunRef, e: RunEvaluation): EvaluatedSide => ({
          name: r.summary.provenance.config,
          principal: r.summary.principal ?? null,
          values: e.values,
        });
        const stats = await compareStatistics(
          side(b, evaluations.baseline),
          side(c, evaluations.candidate),
          judgments,
          specs,
          options,
          statisticsSlicer(opts.signal),
          { allowMixedPrincipals: opts.allowMixedPrincipals },
        );
        const gates = checkGates(settings.gates, stats);
        opts.onStatistics({ comparison: stats, gates, verdict: verdictOf(stats, gates, { alpha: ALPHA }), sides, metricOptions: options });
      }
      entry = await computePair(b, c, sides, judgments, specs, options, settings, opts);
      if (key) writeCachedComparison(dir!, key, entry, opts.log);
    }
  } catch (e) {
    if (e instanceof MixedPrincipalsError) return { refusal: { message: e.message }, metricOptions: options };
    throw e;
  }
  return { ...entry, metricOptions: options, cached };
}

/** The comparison in full from both runs' ranked lists (each run file read once), with what the cache keeps. */
async function computePair(
  b: StoredRunRef,
  c: StoredRunRef,
  sides: Sides,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: MetricOptions,
  settings: ComparisonSettings,
  opts: ComparePairOptions,
): Promise<CachedPair> {
  const cmp = await compareRunsSliced(
    comparisonSideOf(b.run),
    comparisonSideOf(c.run),
    judgments,
    specs,
    options,
    statisticsSlicer(opts.signal),
    { allowMixedPrincipals: opts.allowMixedPrincipals },
  );
  const gates = checkGates(settings.gates, cmp);
  const verdict = verdictOf(cmp, gates, { alpha: ALPHA });
  // Without its bounds: the verdict, kept with it, is what reads them (half of the entry at 1,000 queries).
  const { bounds: _bounds, ...comparison } = cmp;
  const stored = titlesOf([b, c]);
  // fromEntries: an id such as "__proto__" is a key like any other.
  const titles = Object.fromEntries(
    comparison.queryDeltas
      .slice(0, opts.titlesFor)
      .flatMap((q) => q.moved.flatMap((d) => (stored.has(d.id) ? [[d.id, stored.get(d.id)!]] : []))),
  );
  return { comparison, gates, verdict, sides, titles };
}

/**
 * A run's per-query values on `judgments`: kept beside the runs (core evaluation-cache.ts: its file is not read), or
 * evaluated now from its file (the judgments or options changed since it was saved, an older run) and kept.
 */
function keptEvaluation(
  r: StoredRunRef,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: MetricOptions,
  opts: ComparePairOptions,
): RunEvaluation {
  const stamp = opts.cacheDir !== undefined ? fileStamp(r) : undefined;
  const key = stamp && { run: stamp, judgments: judgments.fingerprint, options };
  const kept =
    key &&
    readRunEvaluation(
      opts.cacheDir!,
      key,
      specs.map((s) => s.name),
    );
  if (kept) return kept;
  const evaluated = runEvaluationOf(evaluateRun(runOfSaved(r.run).run, judgments, specs, options).perQuery, r.run);
  if (key) writeRunEvaluation(opts.cacheDir!, key, evaluated, opts.log);
  return evaluated;
}

function queriesOf({ missing, notEvaluated }: RunEvaluation): SideQueries {
  return { missing, notEvaluated };
}

/** The run file's stamp now, or undefined for a run held only in memory (no file: nothing is cached for it). */
function fileStamp(r: StoredRunRef): RunFileStamp | undefined {
  try {
    return runFileStamp(r.id, r.file);
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
  const [baseline, candidate] = [fileStamp(b), fileStamp(c)];
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

/**
 * Several candidates against one baseline through compareMany: one Holm–Bonferroni correction over every
 * candidate's tests, then the gates of each pair, as the core's matrix (significance at ALPHA). Candidates made as
 * another principal are refused (MixedPrincipalsError; the caller offers only comparable ones).
 */
export async function compareSavedMatrix(
  baseline: StoredRunRef,
  candidates: readonly StoredRunRef[],
  judgments: JudgmentSet,
  settings: ComparisonSettings,
  signal?: AbortSignal,
): Promise<{ many: ManyComparison; matrix: ComparisonMatrix; gates: GateResult[][] }> {
  const { specs, options } = comparisonSpecs([baseline, ...candidates], settings);
  const many = await compareManySliced(
    comparisonSideOf(baseline.run),
    candidates.map((c) => comparisonSideOf(c.run)),
    judgments,
    specs,
    options,
    statisticsSlicer(signal),
  );
  const gates = many.comparisons.map((cmp) => checkGates(settings.gates, cmp));
  return { many, matrix: comparisonMatrix(many, gates, { alpha: ALPHA }), gates };
}
