import { pairedDifferences } from './differences';
import { mean, sampleStdDev } from './descriptive';
import { studentTTwoSidedP } from './student-t';

export interface TTestResult {
  /** t = mean(d) / (s_d / √n); positive when the candidate scores higher on average. */
  t: number;
  /** Degrees of freedom n - 1 (0 when n < 2). */
  df: number;
  /** Two-sided p-value P(|T_df| >= |t|); NaN when the test is undefined (see `pairedTTest`). */
  p: number;
}

/**
 * Standard deviations at or below this fraction of the largest |d_i| are treated as zero: they are
 * rounding noise from subtracting metric values (0.3 - 0.1 vs 0.4 - 0.2), not real spread.
 */
const ZERO_SPREAD_RELATIVE = 1e-12;

/**
 * Two-sided paired t-test on d_i = b_i - a_i (Student 1908; any statistics text, e.g. Montgomery &
 * Runger, "Applied Statistics and Probability for Engineers", §10-4):
 *   t = d̄ / (s_d / √n),  df = n - 1,  p = P(|T_df| >= |t|) = I_{df/(df+t²)}(df/2, 1/2).
 *
 * Degenerate cases (decided here, because the formula divides by s_d = 0 or has df = 0):
 * - every difference is zero (including n = 0 and n = 1 with d = 0): t = 0, p = 1 — no evidence of
 *   any difference, matching `pairedPermutationTest`.
 * - n = 1 with d ≠ 0: there is no variance estimate; t = NaN, p = NaN.
 * - n >= 2, all differences equal and non-zero (zero spread): t = ±Infinity and p = NaN, not 0.
 *   The t-test's model (normal differences with unknown variance) cannot be fitted to zero spread,
 *   and p = 0 would claim certainty from, say, two queries. Report "n/a" and use
 *   `pairedPermutationTest`, which is well defined here (p = 2/2^n).
 */
export function pairedTTest(a: ArrayLike<number>, b: ArrayLike<number>): TTestResult {
  const d = pairedDifferences(a, b);
  const n = d.length;
  const df = Math.max(n - 1, 0);
  let largest = 0;
  for (const x of d) largest = Math.max(largest, Math.abs(x));
  if (largest === 0) return { t: 0, df, p: 1 };
  if (n < 2) return { t: NaN, df, p: NaN };

  const meanDiff = mean(d);
  const sd = sampleStdDev(d);
  if (sd <= ZERO_SPREAD_RELATIVE * largest) return { t: Math.sign(meanDiff) * Infinity, df, p: NaN };

  const t = meanDiff / (sd / Math.sqrt(n));
  return { t, df, p: studentTTwoSidedP(t, df) };
}
