import { pairedDifferences } from './differences';
import { Mulberry32 } from '../../util/random';

export interface PermutationOptions {
  /** Random sign assignments drawn when the test is not exact (default 10000). */
  samples?: number;
  /** PRNG seed (default 42); same seed and data → identical p. */
  seed?: number;
}

/** Up to this many non-zero differences, all 2^n sign assignments are enumerated (by symmetry only half of them need computing). */
export const EXACT_PERMUTATION_MAX = 20;

/**
 * Two-sided paired randomization (sign-flip) test of H0 "baseline and candidate are exchangeable
 * per query", i.e. each difference d_i = b_i - a_i is as likely to be +|d_i| as -|d_i|
 * (Fisher 1935; Smucker, Allan & Carterette, "A comparison of statistical significance tests for
 * information retrieval evaluation", CIKM 2007).
 *
 * Statistic: |mean(ε_i · d_i)| over sign vectors ε ∈ {±1}^n; observed value |mean(d)| (ε = all +1).
 * - Exact (when at most 20 differences are non-zero): p = count(|mean*| >= |mean_obs|) / 2^n over
 *   all 2^n sign vectors. Queries with d_i = 0 are left out: flipping a zero changes nothing, so
 *   they double both count and 2^n and p is unchanged. Hence any n <= 20 is exact, and so is a
 *   larger n whose non-zero differences number 20 or fewer.
 * - Monte Carlo (otherwise): `samples` random sign vectors, and
 *   p = (count(|mean*| >= |mean_obs|) + 1) / (samples + 1), counting the observed assignment once so
 *   that p is never 0 and the test stays valid (Phipson & Smyth 2010, "Permutation p-values should
 *   never be zero").
 * All differences zero (or no queries) → p = 1.
 *
 * Comparisons of |mean*| with |mean_obs| allow a tolerance of 1e-10 · Σ|d_i| so that sums equal in
 * exact arithmetic (e.g. 0.1 + 0.2 vs 0.3) count as ties, as they should.
 * The inner loop reads signs as random bits, 8 differences per table lookup, and allocates nothing.
 */
export function pairedPermutationTest(a: ArrayLike<number>, b: ArrayLike<number>, options: PermutationOptions = {}): number {
  const { samples = 10_000, seed = 42 } = options;
  if (!(Number.isInteger(samples) && samples > 0))
    throw new RangeError(`pairedPermutationTest: samples must be a positive integer, got ${samples}`);
  const d = nonZero(pairedDifferences(a, b));
  const n = d.length;
  if (n === 0) return 1;

  let observed = 0;
  let absoluteTotal = 0;
  for (let i = 0; i < n; i++) {
    observed += d[i]!; // i < n
    absoluteTotal += Math.abs(d[i]!);
  }
  // Sums rather than means: dividing every sum by the same n does not change any comparison.
  const threshold = Math.abs(observed) - 1e-10 * absoluteTotal;
  const table = flippedSumTable(d);

  return n <= EXACT_PERMUTATION_MAX
    ? exactSignFlipP(n, table, observed, threshold)
    : sampledSignFlipP(n, table, observed, threshold, samples, seed);
}

function nonZero(d: Float64Array): Float64Array {
  return d.filter((x) => x !== 0);
}

/*
 * Speed. A sign vector is a bit mask (bit i set = flip d_i), and
 *   Σ ε_i d_i = Σ d_i - 2 · Σ_{i flipped} d_i.
 * The flipped sum is looked up one byte of the mask at a time: for each group g of 8 consecutive
 * differences, table[256·g + byte] holds the sum of the group's members selected by `byte`. One
 * sample then costs ⌈n/8⌉ lookups and ⌈n/32⌉ random words instead of n branches, with no allocation.
 */
const GROUP = 8;
const GROUP_MASKS = 1 << GROUP;

function flippedSumTable(d: Float64Array): Float64Array {
  const groups = Math.ceil(d.length / GROUP);
  const table = new Float64Array(groups * GROUP_MASKS);
  for (let g = 0; g < groups; g++) {
    const base = g * GROUP_MASKS;
    for (let mask = 1; mask < GROUP_MASKS; mask++) {
      const lowest = 31 - Math.clz32(mask & -mask); // index of the lowest set bit
      const member = g * GROUP + lowest;
      // Members past the end of d count as 0, so random bits there change nothing.
      // mask & (mask - 1) < mask: a slot of this group already filled.
      table[base + mask] = table[base + (mask & (mask - 1))]! + (member < d.length ? d[member]! : 0);
    }
  }
  return table;
}

/**
 * |Σ ε_i d_i| is unchanged by negating every ε, so enumerate only the 2^(n-1) vectors that never flip
 * d_0 (bit 0 clear): p = 2·count / 2^n = count / 2^(n-1).
 */
function exactSignFlipP(n: number, table: Float64Array, observed: number, threshold: number): number {
  const half = 2 ** (n - 1);
  const groups = table.length / GROUP_MASKS;
  let count = 0;
  for (let k = 0; k < half; k++) {
    const mask = k << 1;
    let flipped = 0;
    for (let g = 0; g < groups; g++) flipped += table[g * GROUP_MASKS + ((mask >>> (g * GROUP)) & 0xff)]!; // a byte within group g
    if (Math.abs(observed - 2 * flipped) >= threshold) count++;
  }
  return count / half;
}

function sampledSignFlipP(n: number, table: Float64Array, observed: number, threshold: number, samples: number, seed: number): number {
  const groups = table.length / GROUP_MASKS;
  const generator = new Mulberry32(seed);
  const words = new Uint32Array(Math.ceil(n / 32)); // one random bit per difference, reused
  let count = 0;
  for (let s = 0; s < samples; s++) {
    generator.fill(words);
    let flipped = 0;
    for (let g = 0; g < groups; g++) {
      // words has a 32-bit word per 4 groups; a byte within group g.
      const byte = (words[g >>> 2]! >>> ((g & 3) * GROUP)) & 0xff;
      flipped += table[g * GROUP_MASKS + byte]!;
    }
    if (Math.abs(observed - 2 * flipped) >= threshold) count++;
  }
  return (count + 1) / (samples + 1);
}
