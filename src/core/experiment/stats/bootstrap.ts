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
export function pairedBootstrapCI(a: ArrayLike<number>, b: ArrayLike<number>, options: BootstrapOptions = {}): [number, number] {
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
  if (!(Number.isInteger(samples) && samples > 0))
    throw new RangeError(`pairedBootstrapCI: samples must be a positive integer, got ${samples}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`pairedBootstrapCI: confidence must be in (0, 1), got ${confidence}`);
  const ds = pairs.map(([a, b]) => pairedDifferences(a, b));
  if (ds.length === 0) return [];
  const n = ds[0].length;
  for (const d of ds)
    if (d.length !== n) throw new RangeError(`pairedBootstrapCIs: every pair needs the same queries, got ${n} and ${d.length}`);
  if (n === 0) return ds.map((): [number, number] => [NaN, NaN]);

  const generator = new Mulberry32(seed);
  const draws = new Uint32Array(n); // reused: no allocation per resample
  const means = ds.map(() => new Float64Array(samples));
  for (let s = 0; s < samples; s++) {
    generator.fillIndices(draws, n); // the drawn queries, the same for every metric
    // Four metrics per pass over the draws: four independent running sums (the adds overlap instead of waiting on
    // one another); each sum still adds its metric's drawn values in draw order, so every mean is the same to the bit.
    for (let m = 0; m < ds.length; m += 4) {
      const d0 = ds[m];
      const d1 = ds[Math.min(m + 1, ds.length - 1)];
      const d2 = ds[Math.min(m + 2, ds.length - 1)];
      const d3 = ds[Math.min(m + 3, ds.length - 1)];
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let i = 0; i < n; i++) {
        const j = draws[i];
        s0 += d0[j];
        s1 += d1[j];
        s2 += d2[j];
        s3 += d3[j];
      }
      means[m][s] = s0 / n;
      if (m + 1 < ds.length) means[m + 1][s] = s1 / n;
      if (m + 2 < ds.length) means[m + 2][s] = s2 / n;
      if (m + 3 < ds.length) means[m + 3][s] = s3 / n;
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
