/**
 * The answer first: what a comparison says, one line per metric, before any table. Per metric: the change and its
 * 95% CI, whether it survives the Holm correction, the gates on that metric, the worst regressing slice, the
 * minimum detectable effect at this query count (./stats/power.ts), and — when they could flip the sign — the
 * unjudged documents (./bounds.ts). A headline sums it up over the metrics and every gate.
 * Everything here is read off a Comparison and its GateResults; nothing is recomputed but the spread of the
 * per-query differences the MDE needs.
 */
import type { Comparison, ComparisonStatistics, SliceComparison } from './compare';

/** What a verdict reads: the statistics, and the bounds when the lists were compared too (the could-flip notes). */
export type VerdictInput = ComparisonStatistics & Partial<Pick<Comparison, 'bounds'>>;
import type { GateResult } from './gates';
import { pairedMde, queriesToDetect, sampleStdDev } from './stats';

export interface VerdictSettings {
  /** A change is significant when its Holm-adjusted p-value is below this. Default 0.05. */
  alpha?: number;
  /** Power at which the minimum detectable effect is stated. Default 0.8. */
  power?: number;
  /** The change whose required query count is stated ("about N queries would be needed to detect ±0.01"). Default 0.01. */
  detect?: number;
}

/** The minimum detectable effect of one metric at this query count (null where it cannot be estimated). */
export interface MinimumDetectableEffect {
  queries: number;
  /** Standard deviation of the per-query differences (candidate − baseline). */
  sd: number | null;
  /** Smallest true change a two-sided paired test at `alpha` detects with probability `power`. */
  value: number | null;
  alpha: number;
  power: number;
  /** The change `queriesFor` is about (± this). */
  detect: number;
  /** Queries needed for an MDE of ±detect, at the spread seen here; null when it cannot be estimated. */
  queriesFor: number | null;
  /** "With 94 queries, changes smaller than ±0.0305 in ndcg@10 cannot be told from noise; …". */
  text: string;
}

export interface MetricVerdict {
  metric: string;
  baseline: number;
  candidate: number;
  delta: number;
  ci95: [number, number];
  pAdjusted: number;
  /** The change survives the Holm correction (pAdjusted < alpha). */
  significant: boolean;
  change: 'improved' | 'regressed' | 'no significant change';
  /** Gates on this metric (min, maxRegression and every slice of maxSliceRegression). */
  gates: { passed: number; total: number; failed: string[] };
  /** The slice (or split) whose delta on this metric is most negative, when one is negative. */
  worstSlice?: { name: string; queries: number; delta: number; pAdjusted: number; significant: boolean };
  mde: MinimumDetectableEffect;
  /** Present when grading the unjudged documents could flip the sign of the delta (./bounds.ts). */
  couldFlip?: { low: number; high: number; deciding: number; exact: boolean };
  /** The whole line as printed. */
  line: string;
}

export interface Verdict {
  baseline: string;
  candidate: string;
  queries: number;
  outcome: 'improved' | 'regressed' | 'mixed' | 'no significant change';
  /** Metrics whose change survives the correction, by direction. */
  improved: string[];
  regressed: string[];
  gates: { passed: number; total: number };
  /** "title-boost-3 vs baseline: no significant change on any of 5 metrics; gates 4/4 pass". */
  headline: string;
  /** What "significant" rests on: "94 queries, significant = Holm-adjusted p < 0.05 over 65 tests". */
  basis: string;
  /** One per metric of the comparison, in its order (the primary metric first). */
  metrics: MetricVerdict[];
  /** The primary metric's MDE sentence. */
  mde: string;
  /**
   * Said once instead of a could-flip note per metric, when the judgments list only relevant documents (every
   * judged grade >= the threshold): an unjudged document is, by construction, not relevant.
   */
  unjudgedNote?: string;
}

/** The significance level of every verdict and matrix (after the correction): the CLI's, the dashboard's, the cache key's. */
export const ALPHA = 0.05;

const DEFAULTS: Required<VerdictSettings> = { alpha: ALPHA, power: 0.8, detect: 0.01 };

/** The verdict of a comparison and its gates (gates may be empty: none declared or not checked). */
export function verdictOf(cmp: VerdictInput, gates: readonly GateResult[], settings: VerdictSettings = {}): Verdict {
  const s = { ...DEFAULTS, ...settings };
  const metrics = Object.keys(cmp.metrics).map((name) => metricVerdict(cmp, name, gates, s));
  const improved = metrics.filter((m) => m.change === 'improved').map((m) => m.metric);
  const regressed = metrics.filter((m) => m.change === 'regressed').map((m) => m.metric);
  const outcome =
    improved.length && regressed.length ? 'mixed' : regressed.length ? 'regressed' : improved.length ? 'improved' : 'no significant change';
  const passed = gates.filter((g) => g.passed).length;
  return {
    baseline: cmp.baseline,
    candidate: cmp.candidate,
    queries: cmp.queries,
    outcome,
    improved,
    regressed,
    gates: { passed, total: gates.length },
    headline: `${cmp.candidate} vs ${cmp.baseline}: ${outcomeText(metrics.length, improved, regressed)}; ${gatesText(passed, gates.length)}`,
    basis: `${cmp.queries} queries, significant = Holm-adjusted p < ${s.alpha} over ${cmp.tests} ${cmp.tests === 1 ? 'test' : 'tests'}`,
    metrics,
    mde: metrics[0]?.mde.text ?? '',
    ...(cmp.bounds?.onlyRelevantJudged && { unjudgedNote: ONLY_RELEVANT_NOTE }),
  };
}

const ONLY_RELEVANT_NOTE =
  'The judgments list only relevant documents (every judged grade is relevant): an unjudged document counts as not relevant, as such judgments mean it, so no line above is flagged for unjudged documents.';

function metricVerdict(cmp: VerdictInput, name: string, gates: readonly GateResult[], s: Required<VerdictSettings>): MetricVerdict {
  const m = cmp.metrics[name]!; // called with the comparison's own metric names
  const significant = m.pAdjusted < s.alpha;
  const change = !significant ? 'no significant change' : m.delta > 0 ? 'improved' : m.delta < 0 ? 'regressed' : 'no significant change';
  const mine = gates.filter((g) => g.metric === name);
  const v: MetricVerdict = {
    metric: name,
    baseline: m.baseline,
    candidate: m.candidate,
    delta: m.delta,
    ci95: m.ci95,
    pAdjusted: m.pAdjusted,
    significant,
    change,
    gates: { passed: mine.filter((g) => g.passed).length, total: mine.length, failed: mine.filter((g) => !g.passed).map((g) => g.gate) },
    mde: minimumDetectableEffect(cmp, name, s),
    line: '',
  };
  const worst = worstSlice(cmp, name);
  if (worst) v.worstSlice = { ...worst, significant: worst.pAdjusted < s.alpha };
  const b = cmp.bounds?.metrics[name];
  if (b && !cmp.bounds!.onlyRelevantJudged && !b.holds && m.delta !== 0)
    v.couldFlip = { low: b.low, high: b.high, deciding: b.deciding, exact: b.exact };
  v.line = metricLine(v);
  return v;
}

/** MDE of one metric from the spread of its per-query differences (see ./stats/power.ts for the formula). */
export function minimumDetectableEffect(cmp: VerdictInput, name: string, settings: VerdictSettings = {}): MinimumDetectableEffect {
  const s = { ...DEFAULTS, ...settings };
  const deltas = Object.values(cmp.perQuery)
    .map((q) => q[name]?.delta)
    .filter((d): d is number => Number.isFinite(d));
  const n = deltas.length;
  const sd = n >= 2 ? sampleStdDev(deltas) : NaN;
  const value = pairedMde(sd, n, s);
  const needed = queriesToDetect(s.detect, sd, s);
  const out: MinimumDetectableEffect = {
    queries: n,
    sd: Number.isFinite(sd) ? sd : null,
    value: Number.isFinite(value) ? value : null,
    alpha: s.alpha,
    power: s.power,
    detect: s.detect,
    queriesFor: Number.isFinite(needed) ? needed : null,
    text: '',
  };
  out.text = mdeText(name, out, needed);
  return out;
}

function mdeText(name: string, m: MinimumDetectableEffect, needed: number): string {
  const queries = `${count(m.queries)} ${m.queries === 1 ? 'query' : 'queries'}`;
  if (m.queries < 2) return `With ${queries}, no minimum detectable effect can be estimated for ${name} (it needs at least 2).`;
  if (m.sd === 0 || m.value === null)
    return `With ${queries}, both runs score every query the same on ${name}: there is no spread to estimate a minimum detectable effect from.`;
  const head = `With ${queries}, changes smaller than ±${fixed(m.value)} in ${name} cannot be told from noise (${pct(m.power)} power, two-sided α = ${m.alpha})`;
  if (m.value <= m.detect) return `${head}; ±${m.detect} is detectable already.`;
  if (needed === Infinity) return `${head}; more than ${count(10_000_000)} queries would be needed to detect ±${m.detect}.`;
  return `${head}; about ${count(needed)} queries would be needed to detect ±${m.detect}.`;
}

/** The slice or split with the most negative delta on `name`, if any is negative. */
function worstSlice(cmp: VerdictInput, name: string): { name: string; queries: number; delta: number; pAdjusted: number } | undefined {
  const all: [string, SliceComparison][] = [
    ...Object.entries(cmp.slices),
    ...Object.entries(cmp.splits).map(([k, v]): [string, SliceComparison] => [`split:${k}`, v!]),
  ];
  let worst: { name: string; queries: number; delta: number; pAdjusted: number } | undefined;
  for (const [slice, sc] of all) {
    const m = sc.metrics[name];
    if (m && m.delta < -1e-12 && (!worst || m.delta < worst.delta))
      worst = { name: slice, queries: sc.queries, delta: m.delta, pAdjusted: m.pAdjusted };
  }
  return worst;
}

function metricLine(v: MetricVerdict): string {
  const parts = [
    `${v.metric} ${signed(v.delta)} (${fixed(v.baseline)} → ${fixed(v.candidate)}), 95% CI [${signed(v.ci95[0])}, ${signed(v.ci95[1])}]: ${changeText(v)} (p adj. ${pvalue(v.pAdjusted)})`,
    v.gates.total ? `gates ${v.gates.passed}/${v.gates.total} pass` : 'no gate',
    v.worstSlice
      ? `worst slice ${v.worstSlice.name} ${signed(v.worstSlice.delta)} (${v.worstSlice.queries} queries${v.worstSlice.significant ? ', significant' : ''})`
      : 'no slice regresses',
    v.mde.value === null ? 'MDE n/a' : `MDE ±${fixed(v.mde.value)}`,
  ];
  if (v.couldFlip)
    parts.push(
      `unjudged documents could flip it (delta could be ${signed(v.couldFlip.low)} to ${signed(v.couldFlip.high)}; ${v.couldFlip.deciding} decide it)`,
    );
  return parts.join('; ');
}

function changeText(v: MetricVerdict): string {
  if (v.change === 'improved') return 'significant gain';
  if (v.change === 'regressed') return 'significant drop';
  return 'not significant';
}

function outcomeText(metrics: number, improved: string[], regressed: string[]): string {
  const on = (names: string[]) => `${names.length} ${names.length === 1 ? 'metric' : 'metrics'} (${names.join(', ')})`;
  if (improved.length && regressed.length) return `significant gain on ${on(improved)}, significant drop on ${on(regressed)}`;
  if (regressed.length) return `significant drop on ${on(regressed)}`;
  if (improved.length) return `significant gain on ${on(improved)}`;
  return `no significant change on ${metrics === 1 ? 'the metric' : `any of ${metrics} metrics`}`;
}

function gatesText(passed: number, total: number): string {
  if (total === 0) return 'no gates checked';
  return passed === total ? `gates ${passed}/${total} pass` : `${total - passed} of ${total} gates fail`;
}

/** What each term of the verdict lines means, printed under them. */
export function verdictLegend(v: Pick<Verdict, 'metrics'>): string[] {
  const m = v.metrics[0]?.mde ?? { alpha: DEFAULTS.alpha, power: DEFAULTS.power };
  return [
    'delta = candidate − baseline, mean over queries; 95% CI = paired bootstrap interval of the delta',
    `p adj. = paired permutation p-value after one Holm–Bonferroni correction over every test of the report; significant = p adj. < ${m.alpha}`,
    `MDE = minimum detectable effect: the smallest true change a two-sided paired test at α = ${m.alpha} detects with ${pct(m.power)} power at this many queries: (t(1−α/2) + t(power)) · sd(per-query delta) / √n, Student t with n − 1 degrees of freedom`,
    'worst slice = the query tag or split with the most negative delta; gates = the quality gates on that metric',
  ];
}

const fixed = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : 'n/a');
const signed = (x: number) => (Number.isFinite(x) ? (x >= 0 ? '+' : '-') + Math.abs(x).toFixed(4) : 'n/a');
const pvalue = (p: number) => (Number.isNaN(p) ? 'n/a' : p < 0.0001 ? '<0.0001' : p.toFixed(4));
const pct = (x: number) => `${Math.round(x * 100)}%`;
const count = (n: number) => n.toLocaleString('en-US');
