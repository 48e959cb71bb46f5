import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createRng,
  createUint32Rng,
  mean,
  sampleStdDev,
  percentile,
  logGamma,
  regularizedIncompleteBeta,
  studentTCdf,
  studentTTwoSidedP,
  pairedDifferences,
  pairedBootstrapCI,
  pairedPermutationTest,
  pairedTTest,
  holmBonferroni,
  winsLossesTies,
} from '../../../src/core/experiment/stats';

function assertClose(actual: number, expected: number, tolerance: number, what = ''): void {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${what} expected ${expected} ± ${tolerance}, got ${actual} (off by ${Math.abs(actual - expected)})`,
  );
}

/** Student's sleep data (Cushny & Peebles 1905, used by "Student" 1908; R's `datasets::sleep`): extra hours of sleep. */
const SLEEP_DRUG_1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0];
const SLEEP_DRUG_2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4];

describe('createRng', () => {
  it('is mulberry32: matches an independent BigInt implementation of the published algorithm', () => {
    // Reference: bryc, https://github.com/bryc/code/blob/master/jshash/PRNGs.md#mulberry32, re-done in
    // exact 64-bit BigInt arithmetic reduced mod 2^32 instead of Math.imul / |0.
    const M = 0xffffffffn;
    function* reference(seed: number) {
      let state = BigInt(seed >>> 0);
      for (;;) {
        state = (state + 0x6d2b79f5n) & M;
        let z = state;
        z = ((z ^ (z >> 15n)) * (z | 1n)) & M;
        z = (z ^ ((z + (((z ^ (z >> 7n)) * (z | 61n)) & M)) & M)) & M;
        yield Number((z ^ (z >> 14n)) & M);
      }
    }
    for (const seed of [0, 1, 42, 123456789, 0xffffffff]) {
      const ours = createUint32Rng(seed);
      const theirs = reference(seed);
      for (let i = 0; i < 1000; i++) assert.equal(ours(), theirs.next().value, `seed ${seed}, draw ${i}`);
    }
  });

  it('is deterministic per seed, differs across seeds, and stays in [0, 1)', () => {
    const draw = (seed: number) => {
      const rng = createRng(seed);
      return Array.from({ length: 100 }, () => rng());
    };
    assert.deepEqual(draw(42), draw(42));
    assert.notDeepEqual(draw(42), draw(43));
    for (const x of draw(7)) assert.ok(x >= 0 && x < 1);
  });

  it('is roughly uniform: 100,000 draws fill 10 buckets evenly', () => {
    // Each bucket count is Binomial(100000, 0.1): mean 10000, sd ≈ 95; allow 6 sd.
    const rng = createRng(2024);
    const buckets = new Array(10).fill(0);
    let sum = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = rng();
      sum += x;
      buckets[Math.floor(x * 10)]++;
    }
    for (const count of buckets) assertClose(count, 10_000, 570, 'bucket count');
    assertClose(sum / 100_000, 0.5, 0.006, 'mean'); // sd of the mean = sqrt(1/12/1e5) ≈ 0.0009
  });
});

describe('mean and sampleStdDev', () => {
  it('computes hand values', () => {
    assert.equal(mean([1, 2, 3, 4]), 2.5);
    // Wikipedia "Standard deviation" example [2,4,4,4,5,5,7,9]: mean 5, Σ(x-5)² = 9+1+1+1+0+0+4+16 = 32,
    // population sd = sqrt(32/8) = 2, sample sd = sqrt(32/7) ≈ 2.13809.
    assertClose(sampleStdDev([2, 4, 4, 4, 5, 5, 7, 9]), Math.sqrt(32 / 7), 1e-12);
    assert.equal(sampleStdDev(new Float64Array([3, 3, 3])), 0);
  });

  it('returns NaN when undefined', () => {
    assert.ok(Number.isNaN(mean([])));
    assert.ok(Number.isNaN(sampleStdDev([])));
    assert.ok(Number.isNaN(sampleStdDev([5])));
  });
});

describe('percentile (nearest rank)', () => {
  it('matches the worked examples of Wikipedia "Percentile", nearest-rank method', () => {
    // n = 5: rank = ceil(p/100 · 5): p5 → 1, p30 → 2 (1.5), p40 → 2, p50 → 3 (2.5), p100 → 5.
    const five = [15, 20, 35, 40, 50];
    assert.equal(percentile(five, 5), 15);
    assert.equal(percentile(five, 30), 20);
    assert.equal(percentile(five, 40), 20);
    assert.equal(percentile(five, 50), 35);
    assert.equal(percentile(five, 100), 50);
    // n = 10 (given unsorted here): p25 → rank 3 (2.5) = 7, p50 → 5 = 8, p75 → 8 (7.5) = 15, p100 → 20.
    const ten = [20, 3, 16, 6, 15, 7, 13, 8, 10, 8];
    assert.equal(percentile(ten, 25), 7);
    assert.equal(percentile(ten, 50), 8);
    assert.equal(percentile(ten, 75), 15);
    assert.equal(percentile(ten, 100), 20);
    // n = 11: p25 → rank 3 (2.75) = 7, p50 → 6 (5.5) = 9, p75 → 9 (8.25) = 15.
    const eleven = [3, 6, 7, 8, 8, 9, 10, 13, 15, 16, 20];
    assert.equal(percentile(eleven, 25), 7);
    assert.equal(percentile(eleven, 50), 9);
    assert.equal(percentile(eleven, 75), 15);
  });

  it('handles latency-style cases and rounding noise', () => {
    const oneTo100 = Array.from({ length: 100 }, (_, i) => 100 - i); // 100..1, unsorted
    assert.equal(percentile(oneTo100, 50), 50); // rank 50
    assert.equal(percentile(oneTo100, 99), 99); // rank 99
    assert.equal(percentile(oneTo100, 99.5), 100); // rank ceil(99.5) = 100
    assert.equal(percentile(oneTo100, 0), 1); // p = 0 → the minimum
    const oneTo1000 = Array.from({ length: 1000 }, (_, i) => i + 1);
    // 16.1 · 1000 / 100 evaluates to 161.00000000000003 in floating point; the true rank is 161.
    assert.equal(percentile(oneTo1000, 16.1), 161);
    assert.equal(percentile([7], 99), 7);
  });

  it('does not reorder its input; empty → NaN; p outside [0, 100] → RangeError', () => {
    const xs = [3, 1, 2];
    percentile(xs, 50);
    assert.deepEqual(xs, [3, 1, 2]);
    assert.ok(Number.isNaN(percentile([], 50)));
    assert.throws(() => percentile([1], -1), RangeError);
    assert.throws(() => percentile([1], 100.5), RangeError);
    assert.throws(() => percentile([1], NaN), RangeError);
  });
});

describe('logGamma and regularizedIncompleteBeta', () => {
  it('logGamma matches known values', () => {
    assertClose(logGamma(1), 0, 1e-14); // Γ(1) = 1
    assertClose(logGamma(2), 0, 1e-14); // Γ(2) = 1
    assertClose(logGamma(0.5), 0.5 * Math.log(Math.PI), 1e-13); // Γ(1/2) = √π
    assertClose(logGamma(10), Math.log(362880), 1e-12); // Γ(10) = 9!
    assertClose(logGamma(101), 363.73937555556347, 1e-9); // ln(100!) (Stirling tables / Python math.lgamma)
  });

  it('matches closed forms of I_x(a, b)', () => {
    for (const x of [0.01, 0.2, 0.5, 0.77, 0.99]) {
      assertClose(regularizedIncompleteBeta(x, 1, 1), x, 1e-13, `I_${x}(1,1) = x`);
      assertClose(regularizedIncompleteBeta(x, 3, 1), x ** 3, 1e-13, `I_${x}(3,1) = x^3`);
      assertClose(regularizedIncompleteBeta(x, 1, 4), 1 - (1 - x) ** 4, 1e-13, `I_${x}(1,4) = 1-(1-x)^4`);
      assertClose(regularizedIncompleteBeta(x, 2, 2), 3 * x ** 2 - 2 * x ** 3, 1e-13, `I_${x}(2,2)`);
    }
    // Symmetry: I_{1/2}(a, a) = 1/2.
    for (const a of [0.5, 1.5, 7, 40]) assertClose(regularizedIncompleteBeta(0.5, a, a), 0.5, 1e-13);
    assert.equal(regularizedIncompleteBeta(0, 2, 3), 0);
    assert.equal(regularizedIncompleteBeta(1, 2, 3), 1);
    assert.throws(() => regularizedIncompleteBeta(1.5, 2, 3), RangeError);
  });
});

describe('Student t distribution', () => {
  it('two-sided p at critical values from a printed t table (3 decimals, so ± 5e-4)', () => {
    // Standard t table, two-tailed α columns: t_{.975,9} = 2.262, t_{.975,20} = 2.086, t_{.975,10} = 2.228,
    // t_{.95,10} = 1.812, t_{.995,10} = 3.169, t_{.975,1} = 12.706, t_{.975,2} = 4.303, t_{.975,30} = 2.042.
    const table: Array<[number, number, number]> = [
      [2.262, 9, 0.05],
      [2.086, 20, 0.05],
      [2.228, 10, 0.05],
      [1.812, 10, 0.1],
      [3.169, 10, 0.01],
      [12.706, 1, 0.05],
      [4.303, 2, 0.05],
      [2.042, 30, 0.05],
    ];
    for (const [t, df, p] of table) assertClose(studentTTwoSidedP(t, df), p, 5e-4, `t=${t}, df=${df}`);
    // More digits (R: qt(0.975, 9) = 2.262157, qt(0.975, 20) = 2.085963, qt(0.995, 10) = 3.169273).
    assertClose(studentTTwoSidedP(2.262157, 9), 0.05, 1e-6);
    assertClose(studentTTwoSidedP(2.085963, 20), 0.05, 1e-6);
    assertClose(studentTTwoSidedP(3.169273, 10), 0.01, 1e-6);
  });

  it('matches the closed-form CDFs for df = 1 (Cauchy) and df = 2', () => {
    // df = 1: F(t) = 1/2 + atan(t)/π.  df = 2: F(t) = 1/2 + t / (2·sqrt(t² + 2)).
    for (const t of [-30, -2.5, -0.3, 0, 0.7, 1, 4, 100]) {
      assertClose(studentTCdf(t, 1), 0.5 + Math.atan(t) / Math.PI, 1e-12, `df=1, t=${t}`);
      assertClose(studentTCdf(t, 2), 0.5 + t / (2 * Math.sqrt(t * t + 2)), 1e-12, `df=2, t=${t}`);
    }
  });

  it('is symmetric, tends to the normal for large df, and handles infinities', () => {
    for (const [t, df] of [
      [1.3, 5],
      [0.2, 17],
      [3.5, 3.5],
    ]) {
      assertClose(studentTCdf(-t, df), 1 - studentTCdf(t, df), 1e-14);
    }
    assert.equal(studentTCdf(0, 7), 0.5);
    assertClose(studentTTwoSidedP(1.959964, 1e7), 0.05, 1e-5); // z_{.975} = 1.959964
    assert.equal(studentTTwoSidedP(Infinity, 4), 0);
    assert.equal(studentTCdf(-Infinity, 4), 0);
    assert.equal(studentTCdf(Infinity, 4), 1);
    assert.throws(() => studentTTwoSidedP(1, 0), RangeError);
  });
});

describe('pairedTTest', () => {
  it("reproduces Student's sleep-data paired t-test (t = 4.0621, df = 9, p = 0.002833)", () => {
    // Published: R `t.test(extra ~ group, data = sleep, paired = TRUE)` → t = -4.0621, df = 9, p-value = 0.002833
    // (group 1 minus group 2; here b - a = drug 2 - drug 1, so t is positive).
    // By hand: d = [1.2, 2.4, 1.3, 1.3, 0, 1.0, 1.8, 0.8, 4.6, 1.4], Σd = 15.8, d̄ = 1.58;
    // Σ(d - d̄)² = .1444+.6724+.0784+.0784+2.4964+.3364+.0484+.6084+9.1204+.0324 = 13.616;
    // s² = 13.616/9 = 1.512889, s = 1.229995, s/√10 = 0.388961, t = 1.58/0.388961 = 4.06213.
    const result = pairedTTest(SLEEP_DRUG_1, SLEEP_DRUG_2);
    assertClose(result.t, 4.06213, 5e-5, 't');
    assert.equal(result.df, 9);
    assertClose(result.p, 0.002833, 5e-7, 'p');
    const reversed = pairedTTest(SLEEP_DRUG_2, SLEEP_DRUG_1);
    assertClose(reversed.t, -result.t, 1e-12);
    assertClose(reversed.p, result.p, 1e-15);
  });

  it('computes a small df = 2 case fully by hand', () => {
    // d = [1, 2, 6]: d̄ = 3, Σ(d-3)² = 4+1+9 = 14, s² = 7, t = 3/sqrt(7/3) = sqrt(27/7), df = 2.
    // For df = 2, P(|T| >= t) = 1 - t/sqrt(t²+2) = 1 - sqrt((27/7)/(41/7)) = 1 - sqrt(27/41) ≈ 0.188497.
    const result = pairedTTest([0, 0, 0], [1, 2, 6]);
    assertClose(result.t, Math.sqrt(27 / 7), 1e-12);
    assert.equal(result.df, 2);
    assertClose(result.p, 1 - Math.sqrt(27 / 41), 1e-12);
  });

  it('degenerate cases: no difference → p = 1; no variance estimate → p = NaN', () => {
    assert.deepEqual(pairedTTest([0.3, 0.5], [0.3, 0.5]), { t: 0, df: 1, p: 1 });
    assert.deepEqual(pairedTTest([], []), { t: 0, df: 0, p: 1 });
    assert.deepEqual(pairedTTest([0.4], [0.4]), { t: 0, df: 0, p: 1 });
    const single = pairedTTest([0.4], [0.6]);
    assert.equal(single.df, 0);
    assert.ok(Number.isNaN(single.t) && Number.isNaN(single.p));
    // All differences equal and non-zero: t = ±∞ and p = NaN (documented decision: not 0).
    const constant = pairedTTest([0.1, 0.2, 0.5], [0.3, 0.4, 0.7]); // 0.3-0.1 and 0.4-0.2 differ by 1 ulp
    assert.equal(constant.t, Infinity);
    assert.equal(constant.df, 2);
    assert.ok(Number.isNaN(constant.p));
    assert.equal(pairedTTest([1, 1], [0, 0]).t, -Infinity);
  });

  it('rejects mismatched or non-finite input', () => {
    assert.throws(() => pairedTTest([1, 2], [1]), /baseline has 2, candidate has 1/);
    assert.throws(() => pairedTTest([1, NaN], [1, 2]), /query index 1/);
  });
});

describe('pairedPermutationTest', () => {
  it('exact test on diffs [1, 2, 3]: p = 2/8 = 0.25', () => {
    // Sign sums ±1±2±3: 6, 0, 2, 4, -4, -2, 0, -6; |sum| >= 6 for 2 of 8.
    assert.equal(pairedPermutationTest([0, 0, 0], [1, 2, 3]), 0.25);
  });

  it('exact test where the observed sum is not extreme: diffs [2, -1, 1] → p = 6/8', () => {
    // Observed 2. Sums ±2±1±1: 4, 2, 2, 0, 0, -2, -2, -4; |sum| >= 2 for 6 of 8.
    assert.equal(pairedPermutationTest([0, 1, 0], [2, 0, 1]), 0.75);
  });

  it('counts ties that only floating point separates', () => {
    // d = [-0.6, -0.2, 0.2, -0.6] (×10: -6, -2, 2, -6), observed |sum| = 12. With both 6s the same sign,
    // 12 ± 2 ± 2 gives 16, 12, 12, 8: 3 vectors reach 12, times 2 for the sign of the 6s; with opposite
    // 6s |sum| <= 4. So p = 6/16 = 0.375. In floating point some of the "12" sums come out as 1.1999999999999997.
    assert.equal(pairedPermutationTest([0, 0, 0, 0], [-0.6, -0.2, 0.2, -0.6]), 0.375);
    // d = [0.6, -0.7, -0.6, 0.5] (×10: 6, -7, -6, 5), observed |sum| = 2. All sums ±6±7±6±5 are even, so
    // |sum| < 2 only when sum = 0: the positive part must be 12 = 7+5 or 6+6, i.e. 2 of 16 vectors → p = 14/16.
    assert.equal(pairedPermutationTest([0, 0, 0, 0], [0.6, -0.7, -0.6, 0.5]), 0.875);
    // Observed 0.1 + 0.2 - 0.3 is 5.6e-17 in floating point but 0 in truth: every assignment ties → p = 1.
    assert.equal(pairedPermutationTest([0, 0, 0.3], [0.1, 0.2, 0]), 1);
  });

  it("Student's sleep data: 9 non-zero differences all positive → p = 2/2^9", () => {
    // Only the all-plus and all-minus assignments reach |sum| = 15.8; the zero difference does not matter.
    assert.equal(pairedPermutationTest(SLEEP_DRUG_1, SLEEP_DRUG_2), 2 / 512);
  });

  it('is exact whenever at most 20 differences are non-zero, however many queries', () => {
    const a = new Array(25).fill(0.5);
    const b = [...a];
    b[3] = 1.5; // d = 1
    b[10] = 2.5; // d = 2
    b[24] = 3.5; // d = 3
    assert.equal(pairedPermutationTest(a, b), 0.25); // as for [1, 2, 3]; a Monte Carlo p would be (k+1)/10001
  });

  it('all-zero differences → p = 1', () => {
    assert.equal(pairedPermutationTest([0.2, 0.4], [0.2, 0.4]), 1);
    assert.equal(pairedPermutationTest([], []), 1);
    assert.equal(pairedPermutationTest(new Array(50).fill(1), new Array(50).fill(1)), 1);
  });

  it('Monte Carlo (n > 20) uses p = (count + 1) / (samples + 1)', () => {
    // 30 equal differences: only 2 of 2^30 sign vectors reach the observed |sum|, so in 10000 draws the
    // count is 0 (chance of any hit ≈ 2e-5) and p = 1 / 10001.
    assert.equal(pairedPermutationTest(new Array(30).fill(0), new Array(30).fill(0.1)), 1 / 10001);
    assert.equal(pairedPermutationTest(new Array(30).fill(0), new Array(30).fill(0.1), { samples: 999 }), 1 / 1000);
  });

  it('Monte Carlo p agrees with a brute-force enumeration of all 2^21 sign vectors', () => {
    const d = [3, -1, 4, 1, -5, 9, 2, -6, 5, 3, -5, 8, 9, -7, 9, 3, 2, -3, 8, 4, -6]; // 21 non-zero, Σ = 25
    // Independent exact p: build every sum Σ ε_i d_i by doubling a list, count |sum| >= |Σ d|.
    let sums = new Float64Array([0]);
    for (const x of d) {
      const next = new Float64Array(sums.length * 2);
      for (let i = 0; i < sums.length; i++) {
        next[2 * i] = sums[i] + x;
        next[2 * i + 1] = sums[i] - x;
      }
      sums = next;
    }
    const observed = Math.abs(d.reduce((s, x) => s + x, 0));
    let count = 0;
    for (const s of sums) if (Math.abs(s) >= observed) count++;
    const exact = count / sums.length;
    assert.ok(exact > 0.05 && exact < 0.95, `a mid-range example, exact p = ${exact}`);
    // 10000 samples: Monte Carlo sd ≤ 0.005; allow 4 sd.
    const b = d.map((x) => x + 10);
    const a = d.map(() => 10);
    for (const seed of [1, 42, 99]) assertClose(pairedPermutationTest(a, b, { seed }), exact, 0.02, `seed ${seed}`);
  });

  it('is reproducible for a seed and stable across seeds', () => {
    const rng = createRng(5);
    const a = Array.from({ length: 300 }, () => rng());
    const b = a.map((x) => x + (rng() - 0.47) * 0.2); // small positive shift, p somewhere mid-range
    const p1 = pairedPermutationTest(a, b, { seed: 1 });
    assert.equal(pairedPermutationTest(a, b, { seed: 1 }), p1);
    const p2 = pairedPermutationTest(a, b, { seed: 2 });
    assert.notEqual(p1, p2);
    assertClose(p2, p1, 0.03, 'different seeds');
    // And it agrees with the t-test on well-behaved data (both approximate the same null distribution).
    assertClose(p1, pairedTTest(a, b).p, 0.03, 'vs t-test');
  });
});

describe('pairedBootstrapCI', () => {
  it('constant difference → [d, d]', () => {
    const a = [0.5, 0.25, 0.75, 0.125];
    assert.deepEqual(
      pairedBootstrapCI(
        a,
        a.map((x) => x + 0.125),
      ),
      [0.125, 0.125],
    ); // dyadic: exact
    const [lo, hi] = pairedBootstrapCI([0.2, 0.3, 0.6], [0.3, 0.4, 0.7]);
    assertClose(lo, 0.1, 1e-15);
    assertClose(hi, 0.1, 1e-15);
  });

  it('two differences [0, 1]: resampled means are 0, 0.5, 1 with probabilities 1/4, 1/2, 1/4', () => {
    // 95%: the 2.5% and 97.5% quantiles fall in the outer groups → [0, 1].
    assert.deepEqual(pairedBootstrapCI([0, 0], [0, 1]), [0, 1]);
    // 40%: the 30% and 70% quantiles both fall in the middle group (cumulative 0.25 .. 0.75) → [0.5, 0.5].
    assert.deepEqual(pairedBootstrapCI([0, 0], [0, 1], { confidence: 0.4 }), [0.5, 0.5]);
  });

  it('on random data contains the observed mean and agrees with the normal approximation', () => {
    const rng = createRng(11);
    const a = Array.from({ length: 400 }, () => rng());
    const b = a.map((x) => x + 0.05 + (rng() - 0.5) * 0.4);
    const d = pairedDifferences(a, b);
    const observed = mean(d);
    const [lo, hi] = pairedBootstrapCI(a, b);
    assert.ok(lo < observed && observed < hi, `${lo} < ${observed} < ${hi}`);
    // Normal approximation: d̄ ± 1.96 · s/√n (symmetric data, n = 400). Allow 10% of the half-width.
    const half = (1.96 * sampleStdDev(d)) / Math.sqrt(d.length);
    assertClose(lo, observed - half, 0.1 * half, 'lower');
    assertClose(hi, observed + half, 0.1 * half, 'upper');
    // Higher confidence → wider interval.
    const [lo99, hi99] = pairedBootstrapCI(a, b, { confidence: 0.99 });
    assert.ok(lo99 < lo && hi99 > hi);
  });

  it('is reproducible for a seed and stable across seeds', () => {
    const rng = createRng(3);
    const a = Array.from({ length: 200 }, () => rng());
    const b = a.map((x) => x + (rng() - 0.4) * 0.3);
    const ci = pairedBootstrapCI(a, b, { seed: 7 });
    assert.deepEqual(pairedBootstrapCI(a, b, { seed: 7 }), ci);
    const other = pairedBootstrapCI(a, b, { seed: 8 });
    assert.notDeepEqual(other, ci);
    const width = ci[1] - ci[0];
    assertClose(other[0], ci[0], 0.05 * width, 'lower');
    assertClose(other[1], ci[1], 0.05 * width, 'upper');
  });

  it('empty → [NaN, NaN]; bad options → RangeError', () => {
    const [lo, hi] = pairedBootstrapCI([], []);
    assert.ok(Number.isNaN(lo) && Number.isNaN(hi));
    assert.throws(() => pairedBootstrapCI([1], [2], { confidence: 1 }), RangeError);
    assert.throws(() => pairedBootstrapCI([1], [2], { samples: 0 }), RangeError);
    assert.throws(() => pairedBootstrapCI([1], [2, 3]), RangeError);
  });
});

describe('holmBonferroni', () => {
  it('adjusts the brief example by hand', () => {
    // p = [0.01, 0.04, 0.03, 0.005], m = 4. Sorted: 0.005 (#3), 0.01 (#0), 0.03 (#2), 0.04 (#1).
    // × (4, 3, 2, 1): 0.02, 0.03, 0.06, 0.04; running max: 0.02, 0.03, 0.06, 0.06.
    // Back in input order: [0.03, 0.06, 0.06, 0.02].
    const adjusted = holmBonferroni([0.01, 0.04, 0.03, 0.005]);
    const expected = [0.03, 0.06, 0.06, 0.02];
    assert.equal(adjusted.length, 4);
    adjusted.forEach((p, i) => assertClose(p, expected[i], 1e-15, `#${i}`));
  });

  it('caps at 1, keeps monotone, passes a single p through', () => {
    // [0.5, 0.6]: 0.5·2 = 1, 0.6·1 = 0.6 → running max 1, 1.
    assert.deepEqual(holmBonferroni([0.6, 0.5]), [1, 1]);
    // [0.3, 0.8]: 0.3·2 = 0.6, max(0.6, 0.8) = 0.8.
    assert.deepEqual(holmBonferroni([0.8, 0.3]), [0.8, 0.6]);
    assert.deepEqual(holmBonferroni([0.2]), [0.2]);
    assert.deepEqual(holmBonferroni([]), []);
    // Ties: [0.01, 0.01, 0.01] × (3, 2, 1) = 0.03, 0.02, 0.01 → running max 0.03 for all.
    holmBonferroni([0.01, 0.01, 0.01]).forEach((p) => assertClose(p, 0.03, 1e-15));
  });

  it('leaves NaN in place and out of m (as R p.adjust); rejects values outside [0, 1]', () => {
    // m = 2 among the non-NaN: 0.02·2 = 0.04, 0.04·1 = 0.04.
    const adjusted = holmBonferroni([0.02, NaN, 0.04]);
    assertClose(adjusted[0], 0.04, 1e-15);
    assert.ok(Number.isNaN(adjusted[1]));
    assertClose(adjusted[2], 0.04, 1e-15);
    assert.throws(() => holmBonferroni([0.1, 1.2]), /index 1/);
    assert.throws(() => holmBonferroni([-0.1]), RangeError);
  });
});

describe('winsLossesTies', () => {
  it('counts from the candidate side, with epsilon ties', () => {
    const a = [0.5, 0.5, 0.5, 0.3, 0.2];
    const b = [0.6, 0.4, 0.5 + 1e-12, 0.3, 0.9];
    assert.deepEqual(winsLossesTies(a, b), { wins: 2, losses: 1, ties: 2 });
    assert.deepEqual(winsLossesTies(a, b, 0.15), { wins: 1, losses: 0, ties: 4 });
    assert.deepEqual(winsLossesTies([], []), { wins: 0, losses: 0, ties: 0 });
    assert.throws(() => winsLossesTies([1], []), RangeError);
  });
});
