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
  return (yield* pairedBootstrapCIsSteps([[a, b]], options))[0]!; // one interval per pair
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
  const [first] = ds;
  if (!first) return [];
  const n = first.length;
  for (const d of ds)
    if (d.length !== n) throw new RangeError(`pairedBootstrapCIs: every pair needs the same queries, got ${n} and ${d.length}`);
  if (n === 0) return ds.map((): [number, number] => [NaN, NaN]);

  const plan = resamplePlan(seed, samples, n);
  const fresh = plan ? undefined : new Uint32Array(n); // without a plan: one sample's draws at a time, reused
  const draws: Uint16Array | Uint32Array = plan ?? fresh!;
  const generator = new Mulberry32(seed);
  const means = ds.map(() => new Float64Array(samples));
  for (let s = 0; s < samples; s++) {
    // The drawn queries, the same for every metric: sample s of the plan, or drawn now (the very same indices).
    const at = plan ? s * n : 0;
    if (fresh) generator.fillIndices(fresh, n);
    // Two metrics per pass over the draws: two independent running sums (the adds overlap instead of waiting on
    // one another); each sum still adds its metric's drawn values in draw order, so every mean is the same to the bit.
    // m < ds.length and min(m + 1, last) ≤ last: both are metrics; means has one array per metric (m + 1 may be past it).
    for (let m = 0; m < ds.length; m += 2) sumDrawn(ds[m]!, ds[Math.min(m + 1, ds.length - 1)]!, draws, at, n, means[m]!, means[m + 1], s);
    if ((s & 255) === 255) yield;
  }
  const alphaPercent = 100 - confidence * 100; // 100 - 95 = 5 exactly, unlike (1 - 0.95) * 100
  const lo = nearestRank(alphaPercent / 2, samples) - 1;
  const hi = nearestRank(100 - alphaPercent / 2, samples) - 1;
  return means.map((ms): [number, number] => {
    selectInPlace(ms, lo, 0, samples - 1);
    selectInPlace(ms, hi, lo, samples - 1); // everything before lo is at most ms[lo]: hi is found after it
    return [ms[lo]!, ms[hi]!]; // ranks within the samples
  });
}

/**
 * Means of d0 and d1 over the n draws at draws[at..]: into m0[s] and (when there is one) m1[s]. A plain function
 * rather than the generator's body, so that the optimizing compiler takes this loop on its own.
 */
function sumDrawn(
  d0: Float64Array,
  d1: Float64Array,
  draws: Uint16Array | Uint32Array,
  at: number,
  n: number,
  m0: Float64Array,
  m1: Float64Array | undefined,
  s: number,
): void {
  let s0 = 0;
  let s1 = 0;
  // draws holds n query indices (each < n = d.length) from `at`.
  for (let i = at, end = at + n; i < end; i++) {
    const j = draws[i]!;
    s0 += d0[j]!;
    s1 += d1[j]!;
  }
  m0[s] = s0 / n;
  if (m1) m1[s] = s1 / n;
}

/*
 * Resample plans. Which queries a resample draws depends only on (seed, B, n), never on the values: a session that
 * compares many candidates over the same queries (the Tune engine: one comparison per slider move, the same slices
 * every time) draws the same B·n indices again and again. Drawing them costs about twice as much as summing two
 * metrics over them, so they are kept, as the very indices fillIndices gives (identical intervals, to the bit), up to
 * PLAN_BUDGET_BYTES in all (least recently used dropped first); a plan larger than that is not kept and its draws are
 * made one resample at a time, as before.
 */
export const PLAN_BUDGET_BYTES = 96 * 1024 * 1024;
const plans = new Map<string, Uint16Array | Uint32Array>();
let planBytes = 0;

function resamplePlan(seed: number, samples: number, n: number): Uint16Array | Uint32Array | undefined {
  const key = `${seed >>> 0}:${samples}:${n}`;
  const kept = plans.get(key);
  if (kept) {
    plans.delete(key); // re-inserted: most recently used last
    plans.set(key, kept);
    return kept;
  }
  const bytes = samples * n * (n <= 65536 ? 2 : 4);
  if (bytes > PLAN_BUDGET_BYTES) return undefined;
  for (const [k, p] of plans) {
    if (planBytes + bytes <= PLAN_BUDGET_BYTES) break;
    plans.delete(k);
    planBytes -= p.byteLength;
  }
  const plan = n <= 65536 ? new Uint16Array(samples * n) : new Uint32Array(samples * n);
  const generator = new Mulberry32(seed);
  const draws = new Uint32Array(n);
  for (let s = 0; s < samples; s++) {
    generator.fillIndices(draws, n);
    plan.set(draws, s * n);
  }
  plans.set(key, plan);
  planBytes += plan.byteLength;
  return plan;
}

/**
 * Puts the k-th smallest of xs[from..to] at index k, smaller-or-equal values before it and larger-or-equal after
 * (Hoare's quickselect, median of three): the value a full sort would put there, without sorting. The values are
 * finite and never -0 here (means of finite differences), so `<` orders them as the sort does.
 */
function selectInPlace(xs: Float64Array, k: number, from: number, to: number): void {
  let lo = from;
  let hi = to;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // Median of three as the pivot.
    // Every index here stays within [from, to], inside xs (the partition stops at the pivot's value).
    const a = xs[lo]!;
    const b = xs[mid]!;
    const c = xs[hi]!;
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i]! < pivot) i++;
      while (xs[j]! > pivot) j--;
      if (i <= j) {
        const t = xs[i]!;
        xs[i] = xs[j]!;
        xs[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return; // j < k < i: xs[k] equals the pivot, in place
  }
}
