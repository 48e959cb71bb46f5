/**
 * How large a change a paired comparison can see: the minimum detectable effect (MDE) at a query count, and the
 * query count needed to see a given change. Paired differences d_i = b_i − a_i with sample standard deviation
 * s_d over n queries; a two-sided test at level α with power 1 − β:
 *
 *   MDE(n) = (t_{1−α/2, n−1} + t_{1−β, n−1}) · s_d / √n
 *
 * the usual normal-approximation formula (z_{1−α/2} + z_{1−β}) · s_d/√n (e.g. Cohen 1988, ch. 2; for α = 0.05 and
 * power 0.8, z's sum to 2.80) with Student's t quantiles in place of z, which is within 0.2% of the exact
 * noncentral-t answer for n ≥ 10 (1.2% at n = 5), where the z form is 11% too optimistic at n = 10.
 * The exact answer (scipy's noncentral t) and a simulation check it in test/unit/experiment/power.test.ts.
 * The queries needed for a change δ are the smallest n with MDE(n) ≤ |δ| (≈ ((z_a + z_b) · s_d / δ)² for large n).
 */
import { studentTCdf } from './student-t';

export interface PowerOptions {
  /** Two-sided significance level. Default 0.05. */
  alpha?: number;
  /** Probability of detecting a true change of the MDE's size. Default 0.8. */
  power?: number;
}

const DEFAULT_ALPHA = 0.05;
const DEFAULT_POWER = 0.8;
/** Largest query count `queriesToDetect` searches; beyond it the answer is "more than this". */
export const MAX_QUERIES_SEARCHED = 10_000_000;

/** The p-quantile of Student's t with df > 0 degrees of freedom (inverse of studentTCdf, by bisection to 1e-12). */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`studentTQuantile: p must be in (0, 1), got ${p}`);
  if (!(df > 0)) throw new RangeError(`studentTQuantile: df must be > 0, got ${df}`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** (t_{1−α/2, n−1} + t_{power, n−1}) / √n: the MDE in units of s_d. NaN for n < 2. */
export function standardizedMde(n: number, opts: PowerOptions = {}): number {
  const { alpha, power } = checked(opts);
  if (!(n >= 2)) return NaN;
  const df = n - 1;
  return (studentTQuantile(1 - alpha / 2, df) + studentTQuantile(power, df)) / Math.sqrt(n);
}

/**
 * The smallest true mean change a paired two-sided test over `n` queries detects with the given power, for paired
 * differences with standard deviation `sd`. NaN when it cannot be estimated (n < 2, or sd not a finite number).
 */
export function pairedMde(sd: number, n: number, opts: PowerOptions = {}): number {
  if (!Number.isFinite(sd) || sd < 0) return NaN;
  return standardizedMde(n, opts) * sd;
}

/**
 * The smallest query count whose MDE is at most |delta|, for paired differences with standard deviation `sd`
 * (as measured on the queries at hand). NaN when it cannot be estimated (sd not positive and finite, delta 0);
 * Infinity when more than MAX_QUERIES_SEARCHED would be needed.
 */
export function queriesToDetect(delta: number, sd: number, opts: PowerOptions = {}): number {
  checked(opts);
  const target = Math.abs(delta);
  if (!(sd > 0) || !Number.isFinite(sd) || !(target > 0) || !Number.isFinite(target)) return NaN;
  const ok = (n: number) => standardizedMde(n, opts) * sd <= target;
  if (ok(2)) return 2;
  if (!ok(MAX_QUERIES_SEARCHED)) return Infinity;
  // MDE(n) decreases with n: bisect for the first n where it is small enough.
  let lo = 2; // not ok
  let hi = MAX_QUERIES_SEARCHED; // ok
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

function checked(opts: PowerOptions): { alpha: number; power: number } {
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  const power = opts.power ?? DEFAULT_POWER;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(power > 0 && power < 1)) throw new RangeError(`power must be in (0, 1), got ${power}`);
  return { alpha, power };
}
