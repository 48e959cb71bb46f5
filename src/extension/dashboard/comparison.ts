/**
 * Baseline vs candidate (and one baseline vs several candidates) for the dashboard, through the core: compareRuns
 * or, first, compareStatistics over each run's kept per-query values; checkGates; verdictOf. The comparison cache
 * and the runs' evaluations beside the runs (core comparison-cache.ts, evaluation-cache.ts) spare the work and the
 * run files where they can. Turns a core comparison into the view the page shows. No `vscode` import.
 */
import { optionalVisible, visibleText } from '../../core/util/visible-text';
import type { ClassesView, ComparisonRefusal, ComparisonView, MatrixView, VerdictView } from '../../protocol/dashboard';
import { type Comparison, type ComparisonStatistics, type EvaluatedSide, MixedPrincipalsError, type SliceComparison, compareManySliced, compareRunsSliced, compareStatistics } from '../../core/experiment/compare';
import { type GateResult, type GateSettings, checkGates, withGateMetrics } from '../../core/experiment/gates';
import { comparisonSideOf, runOfSaved } from '../../core/experiment/run-store';
import { type VerdictInput, verdictOf } from '../../core/experiment/verdict';
import { type ComparisonCacheKey, type RunFileStamp, readCachedComparison, runFileStamp, writeCachedComparison } from '../../core/experiment/comparison-cache';
import { type RunEvaluation, readRunEvaluation, runEvaluationOf, writeRunEvaluation } from '../../core/experiment/evaluation-cache';
import { type MetricSpec, evaluateRun } from '../../core/metrics';
import type { JudgmentSet } from '../../core/judgments/types';
import type { MetricOptions } from '../../core/metrics/context';
import { parseMetricList } from '../../core/metrics/spec';
import { type Slicer, Work } from '../../core/util/cooperative';
import { metricOptionsOf } from '../../core/workspace/settings';
import type { StoredRun } from '../run-store';
import { metricColumn, principalOf, runLabel } from './runs';

/** Significance level of the verdict (after the correction). */
export const ALPHA = 0.05;

/** Title and snippet of a document from the current corpus (runs saved without titles get them at display time). */
export type DocLookup = (id: string) => { title?: string; snippet?: string } | undefined;

export interface ComparisonSettings {
  metrics: string[];
  gain: MetricOptions['gain'];
  relevanceThreshold: number;
  judgedOnly?: boolean;
  gates: GateSettings;
}

export interface DashboardComparison<C extends ComparisonStatistics = Comparison> {
  view?: ComparisonView;
  /**
   * The core's comparison behind `view` (per-query figures for the table), without its `bounds` (the verdict's: in
   * `view`); only its statistics while the ranked lists are still being compared (`view.pending`).
   */
  core?: C;
  /** Each side's queries the figures leave out (for the per-query table, without reading the runs). */
  sides?: Sides;
  refusal?: ComparisonRefusal;
  /** The figures came from the comparison cache (computed before from the same inputs). */
  cached?: boolean;
}

/** Of one run: the evaluated queries it does not have, and its queries that were not evaluated. */
export type SideQueries = Pick<RunEvaluation, 'missing' | 'notEvaluated'>;
export interface Sides {
  baseline: SideQueries;
  candidate: SideQueries;
}

/** The whole comparison (not only its statistics): what the moved documents' reasons and the query detail need. */
export function isComplete(core: ComparisonStatistics | undefined): core is Comparison {
  return !!core && 'stageRecall' in core;
}

/** The metrics two runs are compared on (those both computed, plus every gate's) and how they are scored. */
function comparisonSpecs(runs: StoredRun[], settings: ComparisonSettings): { specs: MetricSpec[]; options: MetricOptions } {
  const common = runs[0].summary.metricSpecs.filter((s) => runs.every((r) => r.summary.metricSpecs.includes(s)));
  return {
    specs: withGateMetrics(parseMetricList(common.length ? common : settings.metrics), settings.gates), // every gate can be evaluated
    options: metricOptionsOf(settings),
  };
}

/** A slicer for the core's statistics: pauses every 50 ms so the editor stays responsive, stops on `signal`. */
function statisticsSlicer(signal?: AbortSignal): Slicer {
  return new Work({ signal }).phase('statistics', 0);
}

/** What the comparison cache keeps of a pair (before the moved documents' reasons, which depend on the corpus). */
interface CachedComparison {
  /** Without its bounds: the verdict, kept with it, is what reads them (half of the entry at 1,000 queries). */
  core: Comparison;
  gates: GateResult[];
  verdict: VerdictView;
  sides: Sides;
  /** The titles the runs stored for the documents the view lists (the runs are not read again on a warm open). */
  titles: Record<string, string>;
}

export interface DashboardComparisonOptions {
  allowMixedPrincipals?: boolean;
  stale?: boolean;
  signal?: AbortSignal;
  lookup?: DocLookup;
  reasons?: (cmp: Comparison) => Promise<void>;
  /** The runs folder: the comparison cache (pairs) and the run evaluations (runs) live there. */
  cacheDir?: string;
  log?: (message: string) => void;
  /**
   * Called first with the statistics alone (the verdict, the metrics, the per-query figures) when the pair is compared
   * now: from both runs' cached per-query values (core evaluation-cache.ts; no run file read), else from their files;
   * shown while the ranked lists are compared (moved documents, query classes, judged@k, what unjudged documents
   * could change).
   */
  onStatistics?: (first: DashboardComparison<ComparisonStatistics>) => void;
}

/** Queries of the moved-documents list the view shows. */
const MOVED_SHOWN = 20;

/** What the view says while the ranked lists are still being compared. */
export const DETAILS_PENDING = 'Reading the ranked lists: moved documents, query classes, judged@k and what unjudged documents could change follow.';

/**
 * Baseline vs candidate for the dashboard, through the core (compareRuns + checkGates + verdictOf) on `judgments`.
 * Runs made as different principals get the core's refusal instead of figures, unless `allowMixedPrincipals` (then
 * the view says MIXED PRINCIPALS). `stale`: the judgments changed since one of the runs was made.
 * `cacheDir` (the runs folder): the comparison, gates and verdict are read from the core's comparison cache when
 * computed before from exactly these inputs, and written to it otherwise (`cached` says which); a cached comparison
 * reads neither run file.
 */
export async function dashboardComparison(
  b: StoredRun,
  c: StoredRun,
  judgments: JudgmentSet,
  settings: ComparisonSettings,
  opts: DashboardComparisonOptions = {},
): Promise<DashboardComparison> {
  const { specs, options } = comparisonSpecs([b, c], settings);
  const dir = opts.cacheDir;
  const key = dir !== undefined ? cacheKey(b, c, judgments, specs, options, settings.gates, opts.allowMixedPrincipals ?? false) : undefined;
  let entry = key && readCachedComparison<CachedComparison>(dir!, key);
  const cached = !!entry;
  try {
    if (!entry) {
      // Each run's per-query values (kept, or evaluated now and kept): the statistics first, and the next new pairs'.
      const evaluations = { baseline: runEvaluation(b, judgments, specs, options, opts), candidate: runEvaluation(c, judgments, specs, options, opts) };
      // A run with failed queries is refused by the full comparison: no verdict is shown for it before.
      if (opts.onStatistics && b.summary.failedQueries === 0 && c.summary.failedQueries === 0) {
        opts.onStatistics(await statisticsFirst(b, c, evaluations, judgments, specs, options, settings, opts));
      }
      entry = await computeComparison(b, c, { baseline: queriesOf(evaluations.baseline), candidate: queriesOf(evaluations.candidate) }, judgments, specs, options, settings, opts);
      // Written before the reasons are added to it: they are not statistics, and are asked for on every open.
      if (key) writeCachedComparison(dir!, key, entry, opts.log);
    }
  } catch (e) {
    if (e instanceof MixedPrincipalsError) return { refusal: { message: e.message, baselinePrincipal: principalOf(b), candidatePrincipal: principalOf(c) } };
    throw e;
  }
  const { core: cmp, gates, verdict, sides, titles } = entry;
  // The moved documents' one-line reasons (core session/explain.ts), when the caller can still reproduce both runs.
  // They are an extra: a config that no longer builds (a model gone) leaves the comparison without them, not without figures.
  if (opts.reasons && !cmp.principals.mixed) await opts.reasons(cmp).catch(() => undefined);
  const titleOf = (id: string) => (Object.prototype.hasOwnProperty.call(titles, id) ? titles[id] : undefined) ?? opts.lookup?.(id)?.title;
  return { view: { runIds: { baseline: b.id, candidate: c.id }, ...comparisonView(cmp, gates, titleOf, opts.stale ?? false, options, MOVED_SHOWN, verdict) }, core: cmp, sides, cached };
}

/** The comparison in full from both runs' ranked lists (each run file read once), with what the cache keeps. */
async function computeComparison(b: StoredRun, c: StoredRun, sides: Sides, judgments: JudgmentSet, specs: MetricSpec[], options: MetricOptions, settings: ComparisonSettings, opts: DashboardComparisonOptions): Promise<CachedComparison> {
  const cmp = await compareRunsSliced(comparisonSideOf(b.run), comparisonSideOf(c.run), judgments, specs, options, statisticsSlicer(opts.signal), { allowMixedPrincipals: opts.allowMixedPrincipals });
  const gates = checkGates(settings.gates, cmp);
  const verdict = verdictView(cmp, gates, options);
  const { bounds: _bounds, ...core } = cmp;
  const stored = titlesOf([b, c]);
  // fromEntries: an id such as "__proto__" is a key like any other.
  const titles = Object.fromEntries(core.queryDeltas.slice(0, MOVED_SHOWN).flatMap((q) => q.moved.flatMap((d) => (stored.has(d.id) ? [[d.id, stored.get(d.id)!]] : []))));
  return { core, gates, verdict, sides, titles };
}

/**
 * A run's per-query values on `judgments`: kept beside the runs (core evaluation-cache.ts: its file is not read), or
 * evaluated now from its file (the judgments or options changed since it was saved, an older run) and kept.
 */
function runEvaluation(r: StoredRun, judgments: JudgmentSet, specs: MetricSpec[], options: MetricOptions, opts: DashboardComparisonOptions): RunEvaluation {
  const stamp = opts.cacheDir !== undefined ? fileStamp(r) : undefined;
  const key = stamp && { run: stamp, judgments: judgments.fingerprint, options };
  const kept = key && readRunEvaluation(opts.cacheDir!, key, specs.map((s) => s.name));
  if (kept) return kept;
  const evaluated = runEvaluationOf(evaluateRun(runOfSaved(r.run).run, judgments, specs, options).perQuery, r.run);
  if (key) writeRunEvaluation(opts.cacheDir!, key, evaluated, opts.log);
  return evaluated;
}

function queriesOf({ missing, notEvaluated }: RunEvaluation): SideQueries {
  return { missing, notEvaluated };
}

/** The statistics of a pair from both runs' per-query values, as the view shows them before the lists are compared. */
async function statisticsFirst(b: StoredRun, c: StoredRun, evaluations: { baseline: RunEvaluation; candidate: RunEvaluation }, judgments: JudgmentSet, specs: MetricSpec[], options: MetricOptions, settings: ComparisonSettings, opts: DashboardComparisonOptions): Promise<DashboardComparison<ComparisonStatistics>> {
  const side = (r: StoredRun, e: RunEvaluation): EvaluatedSide => ({ name: r.summary.provenance.config, principal: principalOf(r), values: e.values });
  const stats = await compareStatistics(side(b, evaluations.baseline), side(c, evaluations.candidate), judgments, specs, options, statisticsSlicer(opts.signal), { allowMixedPrincipals: opts.allowMixedPrincipals });
  const gates = checkGates(settings.gates, stats);
  const view = comparisonView(stats, gates, () => undefined, opts.stale ?? false, options, MOVED_SHOWN, verdictView(stats, gates, options));
  const sides = { baseline: queriesOf(evaluations.baseline), candidate: queriesOf(evaluations.candidate) };
  return { view: { runIds: { baseline: b.id, candidate: c.id }, ...view }, core: stats, sides, cached: false };
}

/** The run file's stamp now, or undefined for a run held only in memory (no file: nothing is cached for it). */
function fileStamp(r: StoredRun): RunFileStamp | undefined {
  try {
    return runFileStamp(r.id, r.file);
  } catch {
    return undefined;
  }
}

/** Every input of dashboardComparison's figures, for the comparison cache (stale, titles and reasons are added after). */
function cacheKey(b: StoredRun, c: StoredRun, judgments: JudgmentSet, specs: MetricSpec[], options: MetricOptions, gates: GateSettings, allowMixed: boolean): ComparisonCacheKey | undefined {
  const [baseline, candidate] = [fileStamp(b), fileStamp(c)];
  return baseline && candidate ? { baseline, candidate, judgments: judgments.fingerprint, specs, options, gates, allowMixedPrincipals: allowMixed, extra: { alpha: ALPHA } } : undefined;
}

/** Document titles as the runs stored them. */
function titlesOf(runs: StoredRun[]): Map<string, string> {
  const titles = new Map<string, string>();
  for (const r of runs) {
    for (const [id, title] of Object.entries(r.run.titles ?? {})) if (typeof title === 'string' && title) titles.set(id, title);
    for (const q of r.run.queries) for (const d of q.docs) if (d.title) titles.set(d.id, d.title);
  }
  return titles;
}

/** The dashboard's view of a core comparison: every figure as computed by compareRuns / checkGates / verdictOf. */
export function comparisonView(
  cmp: Comparison | ComparisonStatistics,
  gates: GateResult[],
  titleOf: (id: string) => string | undefined,
  staleJudgments: boolean,
  metricOptions: MetricOptions,
  maxMoved = MOVED_SHOWN,
  verdict = verdictView(cmp, gates, metricOptions),
): Omit<ComparisonView, 'runIds'> {
  const primary = cmp.primaryMetric;
  const slice = (name: string, sc: SliceComparison) => {
    const m = sc.metrics[primary];
    return { name, queries: sc.queries, baseline: m.baseline, candidate: m.candidate, delta: m.delta, ci95: m.ci95, pAdjusted: m.pAdjusted };
  };
  return {
    baseline: cmp.baseline,
    candidate: cmp.candidate,
    primaryMetric: primary,
    queries: cmp.queries,
    correction: cmp.correction,
    metrics: Object.entries(cmp.metrics).map(([spec, m]) => ({
      spec, baseline: m.baseline, candidate: m.candidate, delta: m.delta, ci95: m.ci95, p: m.pPermutation, pAdjusted: m.pAdjusted,
      wins: cmp.wins[spec] ?? 0, losses: cmp.losses[spec] ?? 0, ties: cmp.ties[spec] ?? 0,
    })),
    slices: Object.entries(cmp.slices).map(([name, sc]) => slice(name, sc)),
    splits: (['tune', 'holdout'] as const).flatMap((k) => (cmp.splits[k] ? [slice(k, cmp.splits[k]!)] : [])),
    moved: isComplete(cmp) ? cmp.queryDeltas.slice(0, maxMoved).map((q) => ({
      qid: q.qid, text: visibleText(q.text), delta: q.delta,
      docs: q.moved.map((d) => ({ ...d, title: optionalVisible(titleOf(d.id)) })),
    })) : [],
    gates: gates.map((g) => ({ gate: g.gate, passed: g.passed, actual: Number.isFinite(g.actual) ? g.actual : null, queries: g.queries.slice(0, 5).map((q) => q.qid) })),
    warnings: cmp.warnings.map((w) => w.message),
    staleJudgments,
    principals: { baseline: cmp.principals.baseline ?? null, candidate: cmp.principals.candidate ?? null, mixed: cmp.principals.mixed },
    verdict,
    ...(isComplete(cmp) ? { judged: cmp.judged, classes: classesView(cmp) } : { pending: DETAILS_PENDING }),
  };
}

/** The core's query classes of both sides (stage recall), and the first `maxChanged` queries whose class changed. */
export function classesView(cmp: Comparison, maxChanged = 20): ClassesView {
  const { baseline, candidate, changed } = cmp.stageRecall;
  return {
    k: baseline.k,
    counts: { baseline: { ...baseline.counts }, candidate: { ...candidate.counts } },
    complete: { baseline: baseline.complete, candidate: candidate.complete },
    changed: changed.slice(0, maxChanged).map((c) => ({ ...c, text: visibleText(cmp.queryInfo[c.qid]?.text ?? '') })),
    changedTotal: changed.length,
  };
}

const signed = (x: number) => (x > 0 ? '+' : x < 0 ? '−' : '±') + Math.abs(x).toFixed(4);

/** The core's verdict (verdictOf) as the dashboard shows it: a short headline, one line per metric, the facts. */
export function verdictView(cmp: VerdictInput, gates: GateResult[], metricOptions: MetricOptions): VerdictView {
  const v = verdictOf(cmp, gates, { alpha: ALPHA });
  const status = v.outcome === 'no significant change' ? 'no-change' : v.outcome;
  const on = (names: string[]) => `${names.length === 1 ? names[0] : `${names.length} metrics`}`;
  const what = {
    'no-change': 'no significant change',
    improved: `significant gain on ${on(v.improved)}`,
    regressed: `significant drop on ${on(v.regressed)}`,
    mixed: `significant gain on ${on(v.improved)}, drop on ${on(v.regressed)}`,
  }[status];
  const failed = gates.filter((g) => !g.passed).map((g) => g.gate);
  const gateText = gates.length === 0 ? 'no gates' : failed.length ? `${failed.length} of ${gates.length} gates fail` : `${gates.length}/${gates.length} gates pass`;
  const primary = v.metrics[0];
  const notes = cmp.warnings.map((w) => w.message);
  if (v.unjudgedNote) notes.push(v.unjudgedNote);
  for (const m of v.metrics) {
    if (m.couldFlip) notes.push(`Unjudged documents could flip ${m.metric}: graded otherwise, Δ could be anywhere from ${signed(m.couldFlip.low)} to ${signed(m.couldFlip.high)} (${m.couldFlip.deciding} query–document pairs decide it).`);
  }
  return {
    status,
    headline: `${cmp.candidate}: ${what} · ${gateText}`,
    coreHeadline: v.headline,
    lines: v.metrics.map((m) => ({
      metric: m.metric, label: metricColumn(m.metric, metricOptions).label,
      baseline: m.baseline, candidate: m.candidate, delta: m.delta, ci95: m.ci95, p: cmp.metrics[m.metric].pPermutation, pAdjusted: m.pAdjusted,
      significant: m.significant, gates: { passed: m.gates.passed, total: m.gates.total }, mde: m.mde.value,
      ...(m.couldFlip && { couldFlip: { low: m.couldFlip.low, high: m.couldFlip.high } }),
      text: m.line,
    })),
    gates: { passed: v.gates.passed, total: v.gates.total, failed },
    worstSlice: primary?.worstSlice && { name: primary.worstSlice.name, queries: primary.worstSlice.queries, delta: primary.worstSlice.delta, significant: primary.worstSlice.significant },
    mde: primary && { metric: primary.metric, queries: primary.mde.queries, value: primary.mde.value, detect: primary.mde.detect, queriesNeeded: primary.mde.queriesFor, text: primary.mde.text },
    notes,
  };
}

/** The N-way matrix's default candidates: the newest run of every other config, made as the baseline's principal. */
export function matrixCandidates(runs: StoredRun[], baseline: StoredRun): StoredRun[] {
  const newest = new Map<string, StoredRun>();
  for (const r of runs) {
    if (r === baseline || principalOf(r) !== principalOf(baseline) || r.summary.provenance.config === baseline.summary.provenance.config) continue;
    newest.set(r.summary.provenance.config, r); // runs are oldest first: the last one wins
  }
  return [...newest.values()];
}

/**
 * Several candidates against one baseline through the core's compareMany: one Holm–Bonferroni correction over
 * every candidate's tests, then the gates of each pair. Candidates made as another principal are refused (the
 * caller offers only comparable ones).
 */
export async function dashboardMatrix(
  baseline: StoredRun,
  candidates: StoredRun[],
  judgments: JudgmentSet,
  settings: ComparisonSettings,
  metricOptions: MetricOptions,
  signal?: AbortSignal,
): Promise<MatrixView> {
  const { specs, options } = comparisonSpecs([baseline, ...candidates], settings);
  const many = await compareManySliced(comparisonSideOf(baseline.run), candidates.map((c) => comparisonSideOf(c.run)), judgments, specs, options, statisticsSlicer(signal));
  const shown = specs.map((s) => s.name);
  return {
    baselineRunId: baseline.id,
    baseline: runLabel(baseline),
    metrics: shown.map((s) => metricColumn(s, metricOptions)),
    correction: many.correction,
    queries: many.queries,
    rows: many.comparisons.map((cmp, i) => {
      const gates = checkGates(settings.gates, cmp);
      return {
        runId: candidates[i].id,
        label: runLabel(candidates[i], cmp.primaryMetric),
        gates: { passed: gates.filter((g) => g.passed).length, total: gates.length },
        cells: shown.map((metric) => {
          const m = cmp.metrics[metric];
          return { metric, candidate: m.candidate, delta: m.delta, ci95: m.ci95, pAdjusted: m.pAdjusted, significant: m.pAdjusted < ALPHA };
        }),
      };
    }),
  };
}
