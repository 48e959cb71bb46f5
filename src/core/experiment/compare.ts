import type { JudgmentSet, Query } from '../judgments/types';
import { querySplit, splitSourceOf } from '../judgments/splits';
import {
  type EvaluateOptions,
  type Evaluation,
  type MetricSpec,
  type QueryContext,
  describeMetric,
  evaluateRun,
  judgedAt,
  meansOf,
} from '../metrics';
import type { RankedDoc, Run, StageCandidates } from '../run/types';
import { type QueryClass, type StageRecallReport, classChanges, stageRecall } from './stage-recall';
import { type ComparisonBounds, comparisonBoundsSteps, gradeQueries } from './bounds';
import { type TieReport, tieReport } from './ties';
import { type Slicer, type Steps, runSliced, runSync } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { holmBonferroni, mean, pairedBootstrapCIsSteps, pairedPermutationTest, pairedTTest, percentile, winsLossesTies } from './stats';

/** One side of a comparison: a ranked run and, when it was produced by Ranklab, per-query stage latencies. */
export interface ComparisonSide {
  name: string;
  run: Run;
  latencies?: Map<string, Record<string, number>>;
  /** Each stage's output per query, when the run came from Ranklab's pipeline (stage recall, query classes). */
  stageIds?: StageCandidates;
  /**
   * Who the run was made as: a principal's name, null for a run made without one (it sees every document), or
   * undefined when that is not known (a TREC run from another engine).
   */
  principal?: string | null;
  /**
   * The run's per-query values of every metric compared, on these judgments and metric options, when they were kept
   * (experiment/evaluation-cache.ts: when the run was saved): taken as they are instead of evaluating the run again.
   */
  values?: ReadonlyMap<string, Readonly<Record<string, number>>>;
}

/** What a side is called and who it was made as: known before its run is made. */
export type SideIdentity = Pick<ComparisonSide, 'name' | 'principal'>;

/**
 * Runs made as different principals rank different sets of documents, so their difference mixes access with
 * ranking: compareRuns refuses them unless `allowMixedPrincipals` is set.
 */
export class MixedPrincipalsError extends InputError {
  constructor(baseline: SideIdentity, candidate: SideIdentity) {
    super(
      `${mixedPrincipalsText(baseline, candidate)}: they rank different sets of documents, so their difference is not the ranking change alone. Compare runs made as the same principal, or allow mixed principals explicitly.`,
    );
    this.name = 'MixedPrincipalsError';
  }
}

function mixedPrincipalsText(baseline: SideIdentity, candidate: SideIdentity): string {
  const as = (p: string | null | undefined) => (p ? `as principal "${p}"` : 'without a principal (every document)');
  return `baseline "${baseline.name}" was run ${as(baseline.principal)}, candidate "${candidate.name}" ${as(candidate.principal)}`;
}

/** Both principals known and different? */
export function mixedPrincipals(baseline: SideIdentity, candidate: SideIdentity): boolean {
  return baseline.principal !== undefined && candidate.principal !== undefined && baseline.principal !== candidate.principal;
}

export interface CompareSettings {
  /** A slice whose mean drops by more than this while the overall mean improves is flagged. Default 0.02. */
  sliceRegressionThreshold?: number;
  /** Judged@k drop (candidate vs baseline) above which the candidate's scores are flagged as lower bounds. Default 0.05. */
  judgedDropThreshold?: number;
  /** Minimum queries in a slice for it to be reported. Default 3. */
  minSliceSize?: number;
  bootstrapSamples?: number;
  permutationSamples?: number;
  seed?: number;
  /** Add the baseline's query classes as slices `class:hit`, `class:ranking-miss`, `class:retrieval-miss`. Default false. */
  classSlices?: boolean;
  /** Compare runs made as different principals anyway; the comparison then says so (`principals.mixed`, a first warning). */
  allowMixedPrincipals?: boolean;
}

export interface MetricComparison {
  baseline: number;
  candidate: number;
  delta: number;
  relativeDelta: number | null;
  ci95: [number, number];
  pPermutation: number;
  pTTest: number;
  t: number;
  /** Holm–Bonferroni adjusted permutation p-value over every test in the report (metrics × slices). */
  pAdjusted: number;
  n: number;
}

export interface MovedDocument {
  id: string;
  grade: number | null;
  baselineRank: number | null;
  candidateRank: number | null;
  change: 'in' | 'out' | 'up' | 'down';
  /** Why it moved, in one line (session/explain.ts addMoveReasons; only when both sides are workspace configs). */
  reason?: string;
}

/** A query whose primary metric changed. */
export interface QueryChange {
  qid: string;
  text: string;
  tags: string[];
  split: string;
  baseline: number;
  candidate: number;
  delta: number;
}

/** A changed query with the documents that moved in its top k. */
export interface QueryDelta extends QueryChange {
  moved: MovedDocument[];
}

export interface SliceComparison {
  queries: number;
  metrics: Record<string, MetricComparison>;
}

export interface ComparisonWarning {
  kind: 'mixed-principals' | 'slice-regression' | 'overfitting' | 'judged-coverage' | 'few-queries';
  message: string;
  metric?: string;
  slice?: string;
}

/**
 * What the per-query metric values alone decide (compareStatistics): means, intervals, tests, slices, splits, wins
 * and losses, the queries that changed. The dashboard shows it first, before the ranked lists are read.
 */
export interface ComparisonStatistics {
  baseline: string;
  candidate: string;
  judgments: string;
  queries: number;
  primaryMetric: string;
  variant: Record<string, string>;
  correction: string;
  /** How many permutation tests the one Holm–Bonferroni correction covers (this report's, or every candidate's: compareMany). */
  tests: number;
  metrics: Record<string, MetricComparison>;
  perQuery: Record<string, Record<string, { baseline: number; candidate: number; delta: number }>>;
  /** Text, tags and split of every compared query. */
  queryInfo: Record<string, { text: string; tags: string[]; split: string }>;
  wins: Record<string, number>;
  losses: Record<string, number>;
  ties: Record<string, number>;
  /** Queries whose primary metric changed, worst first. */
  queryDeltas: QueryChange[];
  slices: Record<string, SliceComparison>;
  splits: { tune?: SliceComparison; holdout?: SliceComparison };
  /** Who each side was made as (null: no principal; absent: not known), and whether they differ. */
  principals: { baseline?: string | null; candidate?: string | null; mixed: boolean };
  /** Of the statistics (a Comparison adds the judged-coverage warning, which needs the lists). */
  warnings: ComparisonWarning[];
}

/** The whole comparison of two runs: the statistics, and what only their ranked lists tell. */
export interface Comparison extends ComparisonStatistics {
  /** Queries whose primary metric changed, worst first, with the documents that moved in the top k. */
  queryDeltas: QueryDelta[];
  latency: { baseline: Record<string, { p50: number; p99: number }>; candidate: Record<string, { p50: number; p99: number }> };
  judged: { k: number; baseline: number; candidate: number };
  /** The delta's interval over every grading of the unjudged documents (./bounds.ts); absent under judgedOnly. */
  bounds?: ComparisonBounds;
  /** Score ties in each side and what another tie order could change (./ties.ts). */
  tieReports: { baseline: TieReport; candidate: TieReport };
  /** Stage recall and query classes of each side, and the queries whose class changed (./stage-recall.ts). */
  stageRecall: {
    baseline: StageRecallReport;
    candidate: StageRecallReport;
    changed: { qid: string; baseline: QueryClass; candidate: QueryClass }[];
  };
}

/**
 * The changed queries a report lists (queryDeltas is worst first): the `n` biggest losses, worst first, and the `n`
 * biggest wins, best first; with the counts of each.
 */
export function biggestChanges<Q extends { delta: number }>(
  queryDeltas: readonly Q[],
  n: number,
): { losses: Q[]; wins: Q[]; lossCount: number; winCount: number } {
  const lost = queryDeltas.filter((q) => q.delta < 0);
  const won = queryDeltas.filter((q) => q.delta > 0).reverse();
  return { losses: lost.slice(0, n), wins: won.slice(0, n), lossCount: lost.length, winCount: won.length };
}

/** The primary metric: the first of `specs` (a comparison of no metric is a caller's bug). */
function primaryOf(specs: readonly MetricSpec[]): MetricSpec {
  const [primary] = specs;
  if (!primary) throw new RangeError('compare: no metric');
  return primary;
}

/** Paired comparison of two runs on the same judgments: means, CIs, tests, per-query moves, slices, splits. */
export function compareRuns(
  baseline: ComparisonSide,
  candidate: ComparisonSide,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  settings: CompareSettings = {},
): Comparison {
  return runSync(correctedSteps(baseline, [candidate], specs, settings, pairs(baseline, judgments, specs, options, settings)))[0]!; // one candidate, one comparison
}

/** compareRuns pausing between its significance tests (see util/cooperative); stops with the slicer's abort reason. */
export function compareRunsSliced(
  baseline: ComparisonSide,
  candidate: ComparisonSide,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  slicer: Slicer,
  settings: CompareSettings = {},
): Promise<Comparison> {
  return runSliced(
    correctedSteps(baseline, [candidate], specs, settings, pairs(baseline, judgments, specs, options, settings)),
    slicer,
  ).then((c) => c[0]!); // one candidate, one comparison
}

/** One side of compareStatistics: who made it and its per-query metric values (evaluateRun's `perQuery`). */
export interface EvaluatedSide extends SideIdentity {
  values: ReadonlyMap<string, Readonly<Record<string, number>>>;
}

/**
 * The statistics of a comparison from both sides' per-query values on `judgments`, without their ranked lists:
 * exactly the figures compareRuns gives (same tests, resamples and correction), less what needs the lists (moved
 * documents, judged@k, bounds, ties, stage recall; `classSlices` is not available). Time-sliced like compareRunsSliced.
 */
export function compareStatistics(
  baseline: EvaluatedSide,
  candidate: EvaluatedSide,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  slicer: Slicer,
  settings: CompareSettings = {},
): Promise<ComparisonStatistics> {
  const s = settingsOf(settings);
  return runSliced(
    correctedSteps(baseline, [candidate], specs, settings, (c, tests) =>
      statisticsSteps(baseline, c, baseline.values, candidate.values, judgments, specs, options, s, tests),
    ),
    slicer,
  ).then((c) => c[0]!); // one candidate, one comparison
}

/** Several candidates against one baseline: one paired comparison per candidate, one Holm correction over all of them. */
export interface ManyComparison {
  baseline: string;
  /** Candidate names, in the order given. */
  candidates: string[];
  queries: number;
  judgments: string;
  primaryMetric: string;
  correction: string;
  /** Tests the one correction covers: every candidate's metrics × (overall, slices, splits). */
  tests: number;
  /** One full comparison per candidate, in the same order; every pAdjusted is over all `tests`. */
  comparisons: Comparison[];
}

/**
 * Compares each candidate with the baseline (compareRuns per pair) and corrects every p-value of every pair with
 * ONE Holm–Bonferroni correction, so that "significant" in any cell of the candidates × metrics matrix keeps the
 * family-wise error rate at α over the whole report, however many candidates there are. Candidates made as a
 * principal other than the baseline's are refused unless `allowMixedPrincipals` (MixedPrincipalsError).
 */
export function compareMany(
  baseline: ComparisonSide,
  candidates: ComparisonSide[],
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  settings: CompareSettings = {},
): ManyComparison {
  return manyOf(
    baseline,
    candidates,
    runSync(correctedSteps(baseline, candidates, specs, settings, pairs(baseline, judgments, specs, options, settings))),
  );
}

/** compareMany pausing between its significance tests (see util/cooperative). */
export async function compareManySliced(
  baseline: ComparisonSide,
  candidates: ComparisonSide[],
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  slicer: Slicer,
  settings: CompareSettings = {},
): Promise<ManyComparison> {
  return manyOf(
    baseline,
    candidates,
    await runSliced(correctedSteps(baseline, candidates, specs, settings, pairs(baseline, judgments, specs, options, settings)), slicer),
  );
}

/** One ManyComparison of comparisons already corrected together (compareMany's, or a cached pair's). */
export function manyOf(baseline: SideIdentity, candidates: SideIdentity[], comparisons: Comparison[]): ManyComparison {
  const [first] = comparisons;
  if (!first) throw new RangeError('compare: no candidate');
  return {
    baseline: baseline.name,
    candidates: candidates.map((c) => c.name),
    queries: first.queries,
    judgments: first.judgments,
    primaryMetric: first.primaryMetric,
    correction: first.correction,
    tests: first.tests,
    comparisons,
  };
}

/** A permutation test of the report, and where its adjusted p-value goes. */
type Test = { p: number; set: (p: number) => void };

/** Every pair's comparison (`pair`), then one Holm–Bonferroni correction over the tests of all of them. */
function* correctedSteps<S extends SideIdentity, T extends ComparisonStatistics>(
  baseline: SideIdentity,
  candidates: S[],
  specs: MetricSpec[],
  settings: CompareSettings,
  pair: (candidate: S, tests: Test[]) => Steps<T>,
): Steps<T[]> {
  if (candidates.length === 0) throw new RangeError('compare: no candidate');
  for (const c of candidates)
    if (mixedPrincipals(baseline, c) && !settings.allowMixedPrincipals) throw new MixedPrincipalsError(baseline, c);
  const tests: Test[] = [];
  const parts: { name: string; slices: number; splits: number }[] = [];
  const out: T[] = [];
  for (const candidate of candidates) {
    const cmp = yield* pair(candidate, tests);
    parts.push({ name: candidate.name, slices: Object.keys(cmp.slices).length, splits: Object.keys(cmp.splits).length });
    out.push(cmp);
  }
  const adjusted = holmBonferroni(tests.map((t) => t.p));
  tests.forEach((t, i) => t.set(adjusted[i]!)); // one adjusted p per test
  const each = (p: (typeof parts)[number]) => `${specs.length} metrics × overall, ${p.slices} slices and ${p.splits} splits`;
  const correction =
    candidates.length === 1
      ? `Holm–Bonferroni over ${tests.length} permutation tests (${each(parts[0]!)})` // one candidate, one part
      : `Holm–Bonferroni over ${tests.length} permutation tests of ${candidates.length} candidates (${parts.map((p) => `${p.name}: ${each(p)}`).join('; ')})`;
  for (const cmp of out) Object.assign(cmp, { correction, tests: tests.length });
  return out;
}

function settingsOf(settings: CompareSettings): Required<CompareSettings> {
  return {
    sliceRegressionThreshold: 0.02,
    judgedDropThreshold: 0.05,
    minSliceSize: 3,
    bootstrapSamples: 10_000,
    permutationSamples: 10_000,
    seed: 42,
    classSlices: false,
    allowMixedPrincipals: false,
    ...settings,
  };
}

/** Each candidate's whole comparison with `baseline` (compareSteps), for correctedSteps. */
function pairs(baseline: ComparisonSide, judgments: JudgmentSet, specs: MetricSpec[], options: EvaluateOptions, settings: CompareSettings) {
  return (candidate: ComparisonSide, tests: Test[]) => compareSteps(baseline, candidate, judgments, specs, options, settings, tests);
}

/** One pair's comparison: its statistics (statisticsSteps), then what the ranked lists tell. */
function* compareSteps(
  baseline: ComparisonSide,
  candidate: ComparisonSide,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  settings: CompareSettings,
  tests: Test[],
): Steps<Comparison> {
  const s = settingsOf(settings);
  // Each query's two lists graded once, for the evaluations, judged@k and the bounds.
  const graded = gradeQueries(baseline.run, candidate.run, judgments, options);
  const contexts = (side: 0 | 1) => new Map([...graded].map(([q, lists]) => [q, lists.contexts[side]]));
  const [ctxA, ctxB] = [contexts(0), contexts(1)];
  const evA = evaluationOf(baseline, judgments, specs, options, ctxA);
  const evB = evaluationOf(candidate, judgments, specs, options, ctxB);
  const k = primaryOf(specs).k ?? 10;
  const stagesA = stageRecall(baseline.run, baseline.stageIds, judgments, options, k);
  const stagesB = stageRecall(candidate.run, candidate.stageIds, judgments, options, k);
  // stageRecall classes every judged query, and the evaluation scores judged queries only.
  const classTags = s.classSlices ? new Map([...evA.perQuery.keys()].map((q) => [q, [`class:${stagesA.perQuery[q]!.class}`]])) : undefined;
  const stats = yield* statisticsSteps(baseline, candidate, evA.perQuery, evB.perQuery, judgments, specs, options, s, tests, classTags);
  const qids = [...evA.perQuery.keys()];

  const queryDeltas = stats.queryDeltas.map((d) => ({
    ...d,
    moved: movedDocuments(
      baseline.run.get(d.qid) ?? [],
      candidate.run.get(d.qid) ?? [],
      judgments.qrels.get(d.qid) ?? new Map<string, number>(),
      k,
    ),
  }));
  const judged = {
    k,
    baseline: mean(qids.map((q) => judgedAt(ctxA.get(q)!, k))),
    candidate: mean(qids.map((q) => judgedAt(ctxB.get(q)!, k))),
  };
  const warnings = [...stats.warnings];
  if (judged.baseline - judged.candidate > s.judgedDropThreshold) {
    warnings.push({
      kind: 'judged-coverage',
      message: `the candidate shows fewer judged documents (judged@${judged.k} ${judged.candidate.toFixed(3)} vs ${judged.baseline.toFixed(3)}): its scores are a lower bound; judge the new documents before trusting a loss`,
    });
  }
  const bounds = yield* comparisonBoundsSteps(judgments, specs, options, qids, graded);
  return {
    ...stats,
    queryDeltas,
    latency: { baseline: latencySummary(baseline.latencies), candidate: latencySummary(candidate.latencies) },
    judged,
    warnings,
    bounds,
    tieReports: {
      baseline: tieReport(baseline.run, judgments, specs, options, evA),
      candidate: tieReport(candidate.run, judgments, specs, options, evB),
    },
    stageRecall: { baseline: stagesA, candidate: stagesB, changed: classChanges(stagesA, stagesB) },
  };
}

/** A side's per-query values and their means: those kept with the run (`values`), else evaluateRun's now. */
function evaluationOf(
  side: ComparisonSide,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  contexts: ReadonlyMap<string, QueryContext>,
): Pick<Evaluation, 'perQuery' | 'means'> {
  if (!side.values) return evaluateRun(side.run, judgments, specs, options, contexts);
  const perQuery = new Map([...side.values].map(([q, v]) => [q, { ...v }]));
  return { perQuery, means: meansOf(specs, perQuery) };
}

/**
 * The statistics of one pair from per-query values (the same query set on both sides); its permutation tests go into
 * `tests` for the caller to correct (correctedSteps). `extraTags`: more slices per query (the class slices).
 */
function* statisticsSteps(
  baseline: SideIdentity,
  candidate: SideIdentity,
  valuesA: ReadonlyMap<string, Readonly<Record<string, number>>>,
  valuesB: ReadonlyMap<string, Readonly<Record<string, number>>>,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  s: Required<CompareSettings>,
  tests: Test[],
  extraTags?: Map<string, string[]>,
): Steps<ComparisonStatistics> {
  const qids = [...valuesA.keys()];
  const value = (values: typeof valuesA, q: string, spec: string): number => {
    const v = values.get(q)?.[spec];
    if (typeof v !== 'number')
      throw new RangeError(`compare: no ${spec} for query ${q} of ${values === valuesA ? baseline.name : candidate.name}`);
    return v;
  };
  if (valuesB.size !== qids.length)
    throw new RangeError(`compare: ${baseline.name} has ${qids.length} queries, ${candidate.name} ${valuesB.size}`);
  const mixed = mixedPrincipals(baseline, candidate); // allowed: correctedSteps refused it otherwise
  const primary = primaryOf(specs);

  // Every test goes into `tests`, so that one Holm–Bonferroni correction (correctedSteps) covers them all.
  const compareOn = function* (ids: string[]): Steps<Record<string, MetricComparison>> {
    const out: Record<string, MetricComparison> = {};
    const values = specs.map((spec) => ({
      spec,
      a: ids.map((q) => value(valuesA, q, spec.name)),
      b: ids.map((q) => value(valuesB, q, spec.name)),
    }));
    // Every metric's interval from one set of resamples (the same seed draws the same queries for each).
    const cis = yield* pairedBootstrapCIsSteps(
      values.map(({ a, b }) => [a, b] as const),
      { samples: s.bootstrapSamples, seed: s.seed },
    );
    for (const [i, { spec, a, b }] of values.entries()) {
      const ma = mean(a);
      const mb = mean(b);
      const t = pairedTTest(a, b);
      const ci95 = cis[i]!; // one interval per pair
      const m: MetricComparison = {
        baseline: ma,
        candidate: mb,
        delta: mb - ma,
        relativeDelta: ma === 0 ? null : (mb - ma) / ma,
        ci95,
        pPermutation: pairedPermutationTest(a, b, { samples: s.permutationSamples, seed: s.seed }),
        pTTest: t.p,
        t: t.t,
        pAdjusted: NaN,
        n: ids.length,
      };
      tests.push({ p: m.pPermutation, set: (p) => (m.pAdjusted = p) });
      out[spec.name] = m;
      yield tests.length;
    }
    return out;
  };

  const metrics = yield* compareOn(qids);
  const slices: Record<string, SliceComparison> = {};
  for (const [tag, ids] of groupByTag(qids, judgments, extraTags)) {
    if (ids.length >= s.minSliceSize) slices[tag] = { queries: ids.length, metrics: yield* compareOn(ids) };
  }
  const splits: Comparison['splits'] = {};
  const splitSource = splitSourceOf(judgments);
  // Rows (and Holm tests) for the tune/holdout split only when the judgments declare it: a hashed split is there for
  // `--split` and the sweep, and comparing its halves on every compare would only weaken the correction.
  for (const split of splitSource === 'judgments' ? (['tune', 'holdout'] as const) : []) {
    const ids = qids.filter((q) => querySplit(judgments, q, splitSource) === split);
    if (ids.length > 0 && ids.length < qids.length) splits[split] = { queries: ids.length, metrics: yield* compareOn(ids) };
  }
  // fromEntries: a query id such as "__proto__" is a key like any other (an assignment would set the prototype).
  const perQuery: Comparison['perQuery'] = Object.fromEntries(
    qids.map((q) => [
      q,
      Object.fromEntries(
        specs.map((spec) => {
          const a = value(valuesA, q, spec.name);
          const b = value(valuesB, q, spec.name);
          return [spec.name, { baseline: a, candidate: b, delta: b - a }];
        }),
      ),
    ]),
  );
  const wins: Record<string, number> = {};
  const losses: Record<string, number> = {};
  const ties: Record<string, number> = {};
  // perQuery has every query, each with every metric (above).
  const cell = (q: string, name: string) => perQuery[q]![name]!;
  for (const spec of specs) {
    const wlt = winsLossesTies(
      qids.map((q) => cell(q, spec.name).baseline),
      qids.map((q) => cell(q, spec.name).candidate),
    );
    wins[spec.name] = wlt.wins;
    losses[spec.name] = wlt.losses;
    ties[spec.name] = wlt.ties;
  }
  const infoOf = (q: string) => {
    const query: Query | undefined = judgments.queries.get(q);
    return { text: query?.text ?? '', tags: query?.tags ?? [], split: querySplit(judgments, q, splitSource) };
  };
  const queryDeltas = qids
    .map((q) => ({ q, d: cell(q, primary.name) }))
    .filter(({ d }) => Math.abs(d.delta) > 1e-9)
    .sort((x, y) => x.d.delta - y.d.delta)
    .map(({ q, d }): QueryChange => ({ qid: q, ...infoOf(q), baseline: d.baseline, candidate: d.candidate, delta: d.delta }));

  const warnings = collectWarnings(metrics, slices, splits, s, qids.length);
  if (mixed)
    warnings.unshift({
      kind: 'mixed-principals',
      message: `MIXED PRINCIPALS: ${mixedPrincipalsText(baseline, candidate)}; compared anyway as asked, but the difference mixes access with ranking`,
    });
  return {
    baseline: baseline.name,
    candidate: candidate.name,
    judgments: judgments.fingerprint,
    queries: qids.length,
    primaryMetric: primary.name,
    variant: Object.fromEntries(specs.map((sp) => [sp.name, describeMetric(sp, options)])),
    correction: '', // set with the correction (correctedSteps)
    tests: 0,
    metrics,
    perQuery,
    queryInfo: Object.fromEntries(qids.map((q) => [q, infoOf(q)])),
    wins,
    losses,
    ties,
    queryDeltas,
    slices,
    splits,
    principals: { baseline: baseline.principal, candidate: candidate.principal, mixed },
    warnings,
  };
}

function groupByTag(qids: string[], judgments: JudgmentSet, extraTags?: Map<string, string[]>): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const q of qids) {
    for (const tag of [...(judgments.queries.get(q)?.tags ?? []), ...(extraTags?.get(q) ?? [])]) {
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push(q);
    }
  }
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
}

/** Documents that entered, left or moved within the top k, with their grades (null = unjudged). */
export function movedDocuments(
  before: readonly RankedDoc[],
  after: readonly RankedDoc[],
  qrels: Map<string, number>,
  k: number,
): MovedDocument[] {
  const rankIn = (list: readonly RankedDoc[]) => new Map(list.slice(0, k).map((d, i) => [d.id, i + 1]));
  const a = rankIn(before);
  const b = rankIn(after);
  const moved: MovedDocument[] = [];
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const ra = a.get(id) ?? null;
    const rb = b.get(id) ?? null;
    if (ra === rb) continue;
    const change = ra === null ? 'in' : rb === null ? 'out' : rb < ra ? 'up' : 'down';
    moved.push({ id, grade: qrels.get(id) ?? null, baselineRank: ra, candidateRank: rb, change });
  }
  // Judged documents first (they explain the metric change), best grade first; then by new rank.
  return moved.sort(
    (x, y) =>
      (y.grade ?? -1) - (x.grade ?? -1) ||
      (x.candidateRank ?? Infinity) - (y.candidateRank ?? Infinity) ||
      (x.baselineRank ?? Infinity) - (y.baselineRank ?? Infinity),
  );
}

/** p50/p99 per stage over queries (nearest rank), from per-query latencies in milliseconds. */
export function latencySummary(latencies: Map<string, Record<string, number>> | undefined): Record<string, { p50: number; p99: number }> {
  const byStage = new Map<string, number[]>();
  for (const rec of latencies?.values() ?? []) {
    for (const [stage, ms] of Object.entries(rec)) {
      if (!byStage.has(stage)) byStage.set(stage, []);
      byStage.get(stage)!.push(ms);
    }
  }
  return Object.fromEntries([...byStage].map(([stage, xs]) => [stage, { p50: percentile(xs, 50), p99: percentile(xs, 99) }]));
}

function collectWarnings(
  metrics: Record<string, MetricComparison>,
  slices: Record<string, SliceComparison>,
  splits: Comparison['splits'],
  s: Required<CompareSettings>,
  n: number,
): ComparisonWarning[] {
  const warnings: ComparisonWarning[] = [];
  if (n < 10)
    warnings.push({ kind: 'few-queries', message: `only ${n} queries: differences this small are rarely distinguishable from noise` });
  for (const [name, overall] of Object.entries(metrics)) {
    if (overall.delta <= 0) continue;
    for (const [slice, sc] of Object.entries(slices)) {
      const d = sc.metrics[name]!.delta; // a slice compares every metric
      if (d < -s.sliceRegressionThreshold) {
        warnings.push({
          kind: 'slice-regression',
          metric: name,
          slice,
          message: `${name} improves overall (${signed(overall.delta)}) but slice "${slice}" (${sc.queries} queries) regresses by ${signed(d)}`,
        });
      }
    }
  }
  const { tune, holdout } = splits;
  if (tune && holdout) {
    for (const name of Object.keys(metrics)) {
      const dt = tune.metrics[name]!.delta; // a split compares every metric
      const dh = holdout.metrics[name]!.delta;
      if (dt > s.sliceRegressionThreshold && dh < dt / 2) {
        warnings.push({
          kind: 'overfitting',
          metric: name,
          message: `${name} gains ${signed(dt)} on tuning queries but ${signed(dh)} on holdout queries: less than half of the gain carries over (overfitting to the labeled set?)`,
        });
      }
    }
  }
  return warnings;
}

function signed(x: number): string {
  return (x >= 0 ? '+' : '') + x.toFixed(4);
}
