/** Descriptive statistics over plain numbers (metric values, latencies). Inputs are never mutated. */

/** Arithmetic mean Σx / n. Empty → NaN. */
export function mean(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return NaN;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += xs[i]!; // i < n
  return sum / n;
}

/**
 * Sample standard deviation s = sqrt( Σ(x - x̄)² / (n - 1) ) (Bessel's correction), computed in two
 * passes for accuracy. Fewer than two values → NaN.
 */
export function sampleStdDev(xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n < 2) return NaN;
  const m = mean(xs);
  let squares = 0;
  for (let i = 0; i < n; i++) {
    const d = xs[i]! - m; // i < n
    squares += d * d;
  }
  return Math.sqrt(squares / (n - 1));
}

/**
 * The p-th percentile by the nearest-rank method: sort ascending and take the value at 1-based
 * rank ⌈p/100 · n⌉, with rank 1 (the minimum) for p = 0. The result is always one of the inputs,
 * which is what one wants for latency p50/p99 ("99% of queries took at most this long").
 * Reference: https://en.wikipedia.org/wiki/Percentile#The_nearest-rank_method
 *
 * p must be in [0, 100] (else RangeError). Empty → NaN.
 */
export function percentile(xs: ArrayLike<number>, p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be in [0, 100], got ${p}`);
  const n = xs.length;
  if (n === 0) return NaN;
  const sorted = Float64Array.from(xs).sort();
  return sorted[nearestRank(p, n) - 1]!; // a rank in [1, n]
}

/**
 * 1-based nearest rank ⌈p·n/100⌉ clamped to [1, n]. Computed as p·n/100 (exact for integer p) and
 * nudged by 1e-9 so that rounding noise such as 99.9·1000/100 = 999.0000000000001 does not skip a rank.
 */
export function nearestRank(p: number, n: number): number {
  const rank = Math.ceil((p * n) / 100 - 1e-9);
  return Math.min(n, Math.max(1, rank));
}
