import { pairedDifferences } from './differences';
import { nearestRank } from './descriptive';
import { type Steps, runSync } from '../../util/cooperative';
import { Mulberry32 } from '../../util/random';

export interface BootstrapOptions {
  /** Number of bootstrap resamples B (default 10000). */
  samples?: number;
  /** PRNG seed (default 42); same seed and data → identical interval. */
  seed?: number;
  /** Coverage 1 - α in (0, 1) (default 0.95). */
  confidence?: number;
}

/**
 * Percentile bootstrap confidence interval for the mean paired difference mean(b - a)
 * (Efron & Tibshirani, "An Introduction to the Bootstrap", 1993, §13.3).
 *
 * Each of B resamples draws n queries with replacement from the n differences and records their
 * mean θ*_1..θ*_B. With α = 1 - confidence, the interval is [θ*_(lo), θ*_(hi)] where the ranks are
 * the nearest ranks (see `percentile`) ⌈(α/2)·B⌉ and ⌈(1-α/2)·B⌉ of the sorted θ*. Resampling whole
 * queries keeps each query's baseline and candidate value together, which is what makes it paired.
 *
 * Empty input → [NaN, NaN].
 */
export function pairedBootstrapCI(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: BootstrapOptions = {},
): [number, number] {
  return runSync(pairedBootstrapCISteps(a, b, options));
}

/** pairedBootstrapCI as resumable steps: it yields every 256 resamples (see util/cooperative). */
export function* pairedBootstrapCISteps(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  options: BootstrapOptions = {},
): Steps<[number, number]> {
  return (yield* pairedBootstrapCIsSteps([[a, b]], options))[0];
}

/**
 * pairedBootstrapCI of several metrics over the same queries, as one set of steps. With one seed every metric's
 * resamples draw the same queries, so the draws are made once and shared: each interval is exactly the one
 * pairedBootstrapCI gives for its pair alone, at a fraction of the work (a comparison's metrics share queries).
 */
export function* pairedBootstrapCIsSteps(
  pairs: readonly (readonly [ArrayLike<number>, ArrayLike<number>])[],
  options: BootstrapOptions = {},
): Steps<[number, number][]> {
  const { samples = 10_000, seed = 42, confidence = 0.95 } = options;
  if (!(Number.isInteger(samples) && samples > 0)) throw new RangeError(`pairedBootstrapCI: samples must be a positive integer, got ${samples}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`pairedBootstrapCI: confidence must be in (0, 1), got ${confidence}`);
  const ds = pairs.map(([a, b]) => pairedDifferences(a, b));
  if (ds.length === 0) return [];
  const n = ds[0].length;
  for (const d of ds) if (d.length !== n) throw new RangeError(`pairedBootstrapCIs: every pair needs the same queries, got ${n} and ${d.length}`);
  if (n === 0) return ds.map((): [number, number] => [NaN, NaN]);

  const generator = new Mulberry32(seed);
  const draws = new Uint32Array(n); // reused: no allocation per resample
  const toIndex = n / 4294967296; // uint32 → [0, n)
  const means = ds.map(() => new Float64Array(samples));
  for (let s = 0; s < samples; s++) {
    generator.fill(draws);
    for (let i = 0; i < n; i++) draws[i] = Math.floor(draws[i] * toIndex); // the drawn query, for every metric
    for (let m = 0; m < ds.length; m++) {
      const d = ds[m];
      let sum = 0;
      for (let i = 0; i < n; i++) sum += d[draws[i]];
      means[m][s] = sum / n;
    }
    if ((s & 255) === 255) yield;
  }
  const alphaPercent = 100 - confidence * 100; // 100 - 95 = 5 exactly, unlike (1 - 0.95) * 100
  const lo = nearestRank(alphaPercent / 2, samples) - 1;
  const hi = nearestRank(100 - alphaPercent / 2, samples) - 1;
  return means.map((ms): [number, number] => {
    ms.sort();
    return [ms[lo], ms[hi]];
  });
}
