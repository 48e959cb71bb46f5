/**
 * The N-way view of several candidates against one baseline (compareMany): a matrix with one row per candidate and
 * one column per metric — the candidate's mean, its delta against the baseline, the delta's 95% CI and whether it
 * survives the one Holm–Bonferroni correction over the whole report — plus each candidate's verdict and gates.
 * Read off the comparisons; nothing is recomputed.
 */
import type { ManyComparison } from './compare';
import type { GateResult } from './gates';
import { ALPHA, type Verdict, type VerdictSettings, verdictOf } from './verdict';

export interface MatrixCell {
  mean: number;
  delta: number;
  ci95: [number, number];
  pAdjusted: number;
  /** pAdjusted < alpha: the delta survives the correction over every test of every candidate. */
  significant: boolean;
}

export interface MatrixRow {
  candidate: string;
  /** By metric name, in `metrics` order. */
  cells: Record<string, MatrixCell>;
  gates: { passed: number; total: number; failed: string[] };
  verdict: Verdict;
}

export interface ComparisonMatrix {
  baseline: { name: string; means: Record<string, number> };
  metrics: string[];
  rows: MatrixRow[];
  queries: number;
  alpha: number;
  tests: number;
  correction: string;
}

/**
 * The matrix of `many`, with each candidate's gate results (same order as the candidates; [] when none) and, when the
 * caller has them, its verdicts (a cached pair's was made with the bounds the cache does not keep: not made again).
 */
export function comparisonMatrix(
  many: ManyComparison,
  gates: readonly (readonly GateResult[])[],
  settings: VerdictSettings = {},
  verdicts?: readonly Verdict[],
): ComparisonMatrix {
  const alpha = settings.alpha ?? ALPHA;
  const [first] = many.comparisons;
  if (!first) throw new RangeError('comparisonMatrix: no comparison'); // compareMany refuses no candidate
  const metrics = Object.keys(first.metrics);
  const rows = many.comparisons.map((cmp, i): MatrixRow => {
    const mine = gates[i] ?? [];
    const cells: Record<string, MatrixCell> = {};
    for (const name of metrics) {
      const m = cmp.metrics[name]!; // every comparison of `many` compares the same metrics
      cells[name] = { mean: m.candidate, delta: m.delta, ci95: m.ci95, pAdjusted: m.pAdjusted, significant: m.pAdjusted < alpha };
    }
    return {
      candidate: cmp.candidate,
      cells,
      gates: { passed: mine.filter((g) => g.passed).length, total: mine.length, failed: mine.filter((g) => !g.passed).map((g) => g.gate) },
      verdict: verdicts?.[i] ?? verdictOf(cmp, mine, settings),
    };
  });
  return {
    baseline: { name: many.baseline, means: Object.fromEntries(metrics.map((n) => [n, first.metrics[n]!.baseline])) }, // its own keys
    metrics,
    rows,
    queries: many.queries,
    alpha,
    tests: many.tests,
    correction: many.correction,
  };
}
