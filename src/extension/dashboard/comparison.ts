/**
 * Baseline vs candidate (and one baseline vs several candidates) for the dashboard: the core's action
 * (core/actions/compare-runs.ts compareRuns: gates, verdict, both caches, the matrix) turned into the view the
 * page shows. No `vscode` import.
 */
import { optionalVisible, visibleText } from '../../core/util/visible-text';
import type { ClassesView, ComparisonRefusal, ComparisonView, MatrixView, VerdictView } from '../../protocol/dashboard';
import { type ComparisonSettings, type Sides, compareRuns, comparisonSpecs } from '../../core/actions/compare-runs';
import { type Comparison, type ComparisonStatistics, MixedPrincipalsError, type SliceComparison } from '../../core/experiment/compare';
import type { GateResult } from '../../core/experiment/gates';
import { ALPHA, type Verdict, type VerdictInput, verdictOf } from '../../core/experiment/verdict';
import { queryClassTexts } from '../../core/experiment/query-classes';
import type { JudgmentSet } from '../../core/judgments/types';
import type { MetricOptions } from '../../core/metrics/context';
import type { StoredRun } from '../run-store';
import { metricColumn, principalOf, runLabel } from './runs';

export type { ComparisonSettings, SideQueries, Sides } from '../../core/actions/compare-runs';

/** Title and snippet of a document from the current corpus (runs saved without titles get them at display time). */
export type DocLookup = (id: string) => { title?: string; snippet?: string } | undefined;

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

/** The whole comparison (not only its statistics): what the moved documents' reasons and the query detail need. */
export function isComplete(core: ComparisonStatistics | undefined): core is Comparison {
  return !!core && 'stageRecall' in core;
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
export const DETAILS_PENDING =
  'Reading the ranked lists: moved documents, query classes, judged@k and what unjudged documents could change follow.';

/**
 * Baseline vs candidate for the dashboard (core compareRuns, a pair of saved runs as figures) on `judgments`. Runs made as different principals
 * get the core's refusal instead of figures, unless `allowMixedPrincipals` (then the view says MIXED PRINCIPALS).
 * `stale`: the judgments changed since one of the runs was made. `cacheDir` (the runs folder): the figures come from
 * the core's comparison cache when computed before from exactly these inputs (`cached` says which).
 */
export async function dashboardComparison(
  b: StoredRun,
  c: StoredRun,
  judgments: JudgmentSet,
  settings: ComparisonSettings,
  opts: DashboardComparisonOptions = {},
): Promise<DashboardComparison> {
  const runIds = { baseline: b.id, candidate: c.id };
  const stale = opts.stale ?? false;
  const { specs, options: metricOptions } = comparisonSpecs([b, c], settings);
  let r: Awaited<ReturnType<typeof compareRuns>>;
  try {
    r = await compareRuns(
      undefined,
      {
        baseline: { kind: 'saved', ref: b },
        candidates: [{ kind: 'saved', ref: c }],
        specs,
        metricOptions,
        split: 'all',
        judgments,
        allowMixedPrincipals: opts.allowMixedPrincipals,
        explain: 0,
        gates: settings.gates,
        cache: { dir: opts.cacheDir, log: opts.log, figures: { titlesFor: MOVED_SHOWN } },
      },
      {
        signal: opts.signal,
        onStatistics:
          opts.onStatistics &&
          ((first) => {
            const view = comparisonView(
              first.comparison,
              first.gates,
              () => undefined,
              stale,
              metricOptions,
              MOVED_SHOWN,
              verdictView(first.comparison, first.gates, metricOptions, first.verdict),
            );
            opts.onStatistics!({ view: { runIds, ...view }, core: first.comparison, sides: first.sides, cached: false });
          }),
      },
    );
  } catch (e) {
    if (!(e instanceof MixedPrincipalsError)) throw e;
    return { refusal: { message: e.message, baselinePrincipal: principalOf(b), candidatePrincipal: principalOf(c) } };
  }
  // One candidate: one comparison, one gate list, one verdict.
  const cmp = r.many.comparisons[0]!;
  const gates = r.gates[0]!;
  const [verdict] = r.verdicts;
  const { sides, titles, cached } = r.figures!;
  // The moved documents' one-line reasons (core session/explain.ts), when the caller can still reproduce both runs.
  // They are an extra: a config that no longer builds (a model gone) leaves the comparison without them, not without figures.
  if (opts.reasons && !cmp.principals.mixed) await opts.reasons(cmp).catch(() => undefined);
  const titleOf = (id: string) => (Object.prototype.hasOwnProperty.call(titles, id) ? titles[id] : undefined) ?? opts.lookup?.(id)?.title;
  return {
    view: {
      runIds,
      ...comparisonView(cmp, gates, titleOf, stale, metricOptions, MOVED_SHOWN, verdictView(cmp, gates, metricOptions, verdict)),
    },
    core: cmp,
    sides,
    cached,
  };
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
    const m = sc.metrics[primary]!; // compareRuns compares every metric on every slice, the primary included
    return {
      name,
      queries: sc.queries,
      baseline: m.baseline,
      candidate: m.candidate,
      delta: m.delta,
      ci95: m.ci95,
      pAdjusted: m.pAdjusted,
    };
  };
  return {
    baseline: cmp.baseline,
    candidate: cmp.candidate,
    primaryMetric: primary,
    queries: cmp.queries,
    correction: cmp.correction,
    metrics: Object.entries(cmp.metrics).map(([spec, m]) => ({
      spec,
      baseline: m.baseline,
      candidate: m.candidate,
      delta: m.delta,
      ci95: m.ci95,
      p: m.pPermutation,
      pAdjusted: m.pAdjusted,
      wins: cmp.wins[spec] ?? 0,
      losses: cmp.losses[spec] ?? 0,
      ties: cmp.ties[spec] ?? 0,
    })),
    slices: Object.entries(cmp.slices).map(([name, sc]) => slice(name, sc)),
    splits: (['tune', 'holdout'] as const).flatMap((k) => (cmp.splits[k] ? [slice(k, cmp.splits[k]!)] : [])),
    moved: isComplete(cmp)
      ? cmp.queryDeltas.slice(0, maxMoved).map((q) => ({
          qid: q.qid,
          text: visibleText(q.text),
          delta: q.delta,
          docs: q.moved.map((d) => ({ ...d, title: optionalVisible(titleOf(d.id)) })),
        }))
      : [],
    gates: gates.map((g) => ({
      gate: g.gate,
      passed: g.passed,
      actual: Number.isFinite(g.actual) ? g.actual : null,
      queries: g.queries.slice(0, 5).map((q) => q.qid),
    })),
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
    classes: queryClassTexts(baseline.k),
    counts: { baseline: { ...baseline.counts }, candidate: { ...candidate.counts } },
    complete: { baseline: baseline.complete, candidate: candidate.complete },
    changed: changed.slice(0, maxChanged).map((c) => ({ ...c, text: visibleText(cmp.queryInfo[c.qid]?.text ?? '') })),
    changedTotal: changed.length,
  };
}

const signed = (x: number) => (x > 0 ? '+' : x < 0 ? '−' : '±') + Math.abs(x).toFixed(4);

/** The core's verdict (verdictOf) as the dashboard shows it: a short headline, one line per metric, the facts. */
export function verdictView(
  cmp: VerdictInput,
  gates: GateResult[],
  metricOptions: MetricOptions,
  v: Verdict = verdictOf(cmp, gates, { alpha: ALPHA }),
): VerdictView {
  const status = v.outcome === 'no significant change' ? 'no-change' : v.outcome;
  const on = (names: string[]) => `${names.length === 1 ? names[0] : `${names.length} metrics`}`;
  const what = {
    'no-change': 'no significant change',
    improved: `significant gain on ${on(v.improved)}`,
    regressed: `significant drop on ${on(v.regressed)}`,
    mixed: `significant gain on ${on(v.improved)}, drop on ${on(v.regressed)}`,
  }[status];
  const failed = gates.filter((g) => !g.passed).map((g) => g.gate);
  const gateText =
    gates.length === 0
      ? 'no gates'
      : failed.length
        ? `${failed.length} of ${gates.length} gates fail`
        : `${gates.length}/${gates.length} gates pass`;
  const primary = v.metrics[0];
  const notes = cmp.warnings.map((w) => w.message);
  if (v.unjudgedNote) notes.push(v.unjudgedNote);
  for (const m of v.metrics) {
    if (m.couldFlip)
      notes.push(
        `Unjudged documents could flip ${m.metric}: graded otherwise, Δ could be anywhere from ${signed(m.couldFlip.low)} to ${signed(m.couldFlip.high)} (${m.couldFlip.deciding} query–document pairs decide it).`,
      );
  }
  return {
    status,
    headline: `${cmp.candidate}: ${what} · ${gateText}`,
    coreHeadline: v.headline,
    lines: v.metrics.map((m) => ({
      metric: m.metric,
      label: metricColumn(m.metric, metricOptions).label,
      baseline: m.baseline,
      candidate: m.candidate,
      delta: m.delta,
      ci95: m.ci95,
      p: cmp.metrics[m.metric]?.pPermutation ?? NaN, // the verdict's metrics are the comparison's
      pAdjusted: m.pAdjusted,
      significant: m.significant,
      gates: { passed: m.gates.passed, total: m.gates.total },
      mde: m.mde.value,
      ...(m.couldFlip && { couldFlip: { low: m.couldFlip.low, high: m.couldFlip.high } }),
      text: m.line,
    })),
    gates: { passed: v.gates.passed, total: v.gates.total, failed },
    worstSlice: primary?.worstSlice && {
      name: primary.worstSlice.name,
      queries: primary.worstSlice.queries,
      delta: primary.worstSlice.delta,
      significant: primary.worstSlice.significant,
    },
    mde: primary && {
      metric: primary.metric,
      queries: primary.mde.queries,
      value: primary.mde.value,
      detect: primary.mde.detect,
      queriesNeeded: primary.mde.queriesFor,
      text: primary.mde.text,
    },
    notes,
  };
}

/** The N-way matrix's default candidates: the newest run of every other config, made as the baseline's principal. */
export function matrixCandidates(runs: StoredRun[], baseline: StoredRun): StoredRun[] {
  const newest = new Map<string, StoredRun>();
  for (const r of runs) {
    if (r === baseline || principalOf(r) !== principalOf(baseline) || r.summary.provenance.config === baseline.summary.provenance.config)
      continue;
    newest.set(r.summary.provenance.config, r); // runs are oldest first: the last one wins
  }
  return [...newest.values()];
}

/**
 * Several candidates against one baseline (core compareRuns: one Holm–Bonferroni correction over every
 * candidate's tests, the gates of each pair, significance as the core's matrix decides it) as the dashboard's view.
 */
export async function dashboardMatrix(
  baseline: StoredRun,
  candidates: StoredRun[],
  judgments: JudgmentSet,
  settings: ComparisonSettings,
  metricOptions: MetricOptions,
  signal?: AbortSignal,
  cacheDir?: string,
): Promise<MatrixView> {
  const { specs, options } = comparisonSpecs([baseline, ...candidates], settings);
  // Candidates made as another principal are refused (MixedPrincipalsError; the caller offers only comparable ones).
  const { many, matrix } = await compareRuns(
    undefined,
    {
      baseline: { kind: 'saved', ref: baseline },
      candidates: candidates.map((ref) => ({ kind: 'saved', ref })),
      specs,
      metricOptions: options,
      split: 'all',
      judgments,
      explain: 0,
      gates: settings.gates,
      cache: { dir: cacheDir },
    },
    { signal },
  );
  return {
    baselineRunId: baseline.id,
    baseline: runLabel(baseline),
    metrics: matrix.metrics.map((s) => metricColumn(s, metricOptions)),
    correction: matrix.correction,
    queries: matrix.queries,
    rows: matrix.rows.map((row, i) => {
      const run = candidates[i]!; // one matrix row per candidate, in order
      return {
        runId: run.id,
        label: runLabel(run, many.primaryMetric),
        gates: { passed: row.gates.passed, total: row.gates.total },
        cells: matrix.metrics.map((metric) => {
          const m = row.cells[metric]!; // a cell per metric
          return { metric, candidate: m.mean, delta: m.delta, ci95: m.ci95, pAdjusted: m.pAdjusted, significant: m.significant };
        }),
      };
    }),
  };
}
