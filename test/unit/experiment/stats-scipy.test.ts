// Ranklab's paired t-test, sign-flip permutation p-value and bootstrap CI against scipy.stats on random paired
// data (test/python/crosscheck.py). Exact procedures are compared exactly; sampled ones within a band derived
// from their Monte-Carlo error (Z standard errors of both samplers), or against exact enumeration for small n.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EXACT_PERMUTATION_MAX, pairedBootstrapCI, pairedPermutationTest, pairedTTest } from '../../../src/core/experiment/stats';
import { createRng, gaussianSource } from '../../../src/core/util/random';
import { crosscheck, crosscheckPython } from '../../helpers/python';

const { python, versions, skip } = crosscheckPython();
/** Standard errors a sampled estimate may stray: a two-sided 4.5σ band is crossed with probability 7e-6 per check. */
const Z = 4.5;
const OUR_SAMPLES = 10_000; // Ranklab's defaults for both sampled procedures
const SCIPY_PERMUTATIONS = 200_000;
const SCIPY_BOOTSTRAPS = 100_000;
const CONFIDENCE = 0.95;

interface Dataset {
  name: string;
  a: number[];
  b: number[];
  exactBootstrap?: boolean;
}

/** Metric-like paired values in [0, 1]: `continuous` (nDCG-like, some exact ties) or `discrete` (P@10-like). */
function dataset(name: string, n: number, seed: number, kind: 'continuous' | 'discrete', effect: number): Dataset {
  const uniform = createRng(seed);
  const normal = gaussianSource(uniform);
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    let x = uniform();
    let y = uniform() < 0.15 ? x : clamp(x + effect + 0.2 * normal());
    if (kind === 'discrete') [x, y] = [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
    a.push(x);
    b.push(y);
  }
  return { name, a, b };
}

const DATASETS: Dataset[] = [
  { ...dataset('n=6 continuous', 6, 1, 'continuous', 0.1), exactBootstrap: true },
  { ...dataset('n=7 discrete', 7, 2, 'discrete', 0.05), exactBootstrap: true },
  dataset('n=10 continuous, no effect', 10, 3, 'continuous', 0),
  dataset('n=16 discrete', 16, 4, 'discrete', 0.08),
  dataset('n=30 continuous', 30, 5, 'continuous', 0.05),
  dataset('n=94 discrete', 94, 6, 'discrete', 0.02),
  dataset('n=94 continuous, strong effect', 94, 7, 'continuous', 0.06),
];

interface ScipyStats {
  t: number;
  pTTest: number;
  pPermutation: number;
  permutationExact: boolean;
  bootstrapCI: [number, number];
  bootstrapShares: Share[];
  exactBootstrapShares?: Share[];
}
interface Share {
  below: number;
  atOrBelow: number;
}

test(`paired t-test, permutation p and bootstrap CI agree with scipy.stats ${versions?.scipy ?? ''}`.trim(), { skip }, () => {
  const ours = DATASETS.map((d) => ({
    t: pairedTTest(d.a, d.b),
    p: pairedPermutationTest(d.a, d.b, { samples: OUR_SAMPLES, seed: 42 }),
    ci: pairedBootstrapCI(d.a, d.b, { samples: OUR_SAMPLES, seed: 42, confidence: CONFIDENCE }),
  }));
  const { stats } = crosscheck<{ stats: ScipyStats[] }>(python!, {
    stats: DATASETS.map((d, i) => ({
      a: d.a,
      b: d.b,
      seed: 1000 + i,
      confidence: CONFIDENCE,
      points: ours[i].ci,
      exact_bootstrap: !!d.exactBootstrap,
      // At least 2^n resamples: scipy then enumerates every sign assignment (an exact test), as Ranklab does up to 20.
      permutation_resamples: d.a.length <= EXACT_PERMUTATION_MAX ? 2 ** d.a.length : SCIPY_PERMUTATIONS,
      bootstrap_resamples: SCIPY_BOOTSTRAPS,
    })),
  });
  DATASETS.forEach((d, i) => {
    const ref = stats[i];
    const mine = ours[i];
    const at = `${d.name}`;
    // t-test: closed form, so equal to rounding.
    assert.ok(Math.abs(mine.t.t - ref.t) <= 1e-9 * Math.abs(ref.t), `${at}: t ${mine.t.t} vs scipy ${ref.t}`);
    assert.ok(Math.abs(mine.t.p - ref.pTTest) <= 1e-9 * ref.pTTest + 1e-15, `${at}: t-test p ${mine.t.p} vs scipy ${ref.pTTest}`);

    // Permutation: both exact up to 20 queries (scipy's two-sided p = 2·min(one-sided) equals P(|T| >= |t|) for
    // the symmetric sign-flip null); beyond that both sample, ours with the +1 correction.
    if (d.a.length <= EXACT_PERMUTATION_MAX) {
      assert.ok(ref.permutationExact, `${at}: scipy enumerated every assignment`);
      assert.ok(Math.abs(mine.p - ref.pPermutation) <= 1e-12, `${at}: exact permutation p ${mine.p} vs scipy ${ref.pPermutation}`);
    } else {
      const p = Math.max(mine.p, ref.pPermutation);
      const tolerance = Z * Math.sqrt((p * (1 - p)) / OUR_SAMPLES + (p * (2 - p)) / SCIPY_PERMUTATIONS) + 1 / OUR_SAMPLES;
      assert.ok(
        Math.abs(mine.p - ref.pPermutation) <= tolerance,
        `${at}: sampled permutation p ${mine.p} vs scipy ${ref.pPermutation} (tolerance ${tolerance.toFixed(4)})`,
      );
    }

    // Bootstrap: our endpoint for level q is an order statistic of 10,000 resample means, so its position in the
    // bootstrap distribution F* is q ± sqrt(q(1-q)/B). Check where it falls in scipy's 100,000 resamples (and, for
    // tiny n, in the exact F* over all n^n resamples), allowing Z standard errors of each sampler.
    const levels = [(1 - CONFIDENCE) / 2, 1 - (1 - CONFIDENCE) / 2];
    levels.forEach((q, end) => {
      const se = (b: number) => Math.sqrt((q * (1 - q)) / b);
      const check = (share: Share, delta: number, what: string) => {
        assert.ok(
          share.below - delta <= q && q <= share.atOrBelow + delta,
          `${at}: bootstrap ${end ? 'upper' : 'lower'} end ${mine.ci[end]} sits at ${share.below}..${share.atOrBelow} of ${what}, want ${q} ± ${delta.toFixed(4)} (scipy CI ${ref.bootstrapCI})`,
        );
      };
      check(ref.bootstrapShares[end], Z * Math.hypot(se(OUR_SAMPLES), se(SCIPY_BOOTSTRAPS)), "scipy's bootstrap distribution");
      if (ref.exactBootstrapShares) check(ref.exactBootstrapShares[end], Z * se(OUR_SAMPLES), 'the exact bootstrap distribution');
    });
  });
});

test('the cross-check can fail: a one-sided permutation p or a 90% interval is caught', { skip }, () => {
  const d = DATASETS[3]; // n = 16, exact
  const { stats } = crosscheck<{ stats: ScipyStats[] }>(python!, {
    stats: [
      {
        a: d.a,
        b: d.b,
        seed: 1,
        confidence: CONFIDENCE,
        points: pairedBootstrapCI(d.a, d.b, { confidence: 0.9 }),
        permutation_resamples: 2 ** 16,
        bootstrap_resamples: SCIPY_BOOTSTRAPS,
      },
    ],
  });
  const p = pairedPermutationTest(d.a, d.b);
  assert.ok(Math.abs(p / 2 - stats[0].pPermutation) > 1e-12, 'half the two-sided p differs from scipy');
  const delta = Z * Math.hypot(Math.sqrt((0.025 * 0.975) / OUR_SAMPLES), Math.sqrt((0.025 * 0.975) / SCIPY_BOOTSTRAPS));
  assert.ok(stats[0].bootstrapShares[0].below - delta > 0.025, "a 90% interval's lower end lies outside the 95% band");
});
