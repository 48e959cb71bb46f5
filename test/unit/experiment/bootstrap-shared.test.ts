// The comparison computes every metric's bootstrap interval from one shared set of resamples
// (pairedBootstrapCIsSteps). These tests hold it to the per-metric loop it replaced, kept here as a reference:
// for any data, seed, sample count and confidence, the intervals are identical to the last bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { pairedBootstrapCI, pairedBootstrapCIsSteps } from '../../../src/core/experiment/stats';
import { PLAN_BUDGET_BYTES } from '../../../src/core/experiment/stats/bootstrap';
import { Mulberry32 } from '../../../src/core/util/random';
import { runSync } from '../../../src/core/util/cooperative';

/** The pre-sharing implementation: one metric, its own generator, resample means sorted, nearest ranks. */
function referenceCI(a: number[], b: number[], samples: number, seed: number, confidence: number): [number, number] {
  const d = a.map((x, i) => b[i] - x);
  const n = d.length;
  if (n === 0) return [NaN, NaN];
  const generator = new Mulberry32(seed);
  const means: number[] = [];
  for (let s = 0; s < samples; s++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[Math.floor(generator.nextUint32() * (n / 4294967296))];
    means.push(sum / n);
  }
  means.sort((x, y) => x - y);
  const alpha = 100 - confidence * 100;
  const rank = (p: number) => Math.min(samples, Math.max(1, Math.ceil((p * samples) / 100 - 1e-9)));
  return [means[rank(alpha / 2) - 1], means[rank(100 - alpha / 2) - 1]];
}

const value = fc.double({ min: -1, max: 1, noNaN: true });

test('shared resamples give every metric the interval it gets alone, and the reference one', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 60 }).chain((n) =>
        fc.array(fc.tuple(fc.array(value, { minLength: n, maxLength: n }), fc.array(value, { minLength: n, maxLength: n })), {
          minLength: 1,
          maxLength: 9,
        }),
      ), // up to 9: the sums run four metrics at a time
      fc.integer(),
      fc.integer({ min: 1, max: 400 }),
      fc.constantFrom(0.8, 0.9, 0.95, 0.99),
      (pairs, seed, samples, confidence) => {
        const shared = runSync(pairedBootstrapCIsSteps(pairs, { samples, seed, confidence }));
        assert.equal(shared.length, pairs.length);
        pairs.forEach(([a, b], m) => {
          assert.deepEqual(shared[m], pairedBootstrapCI(a, b, { samples, seed, confidence }), `metric ${m}: shared vs alone`);
          assert.deepEqual(shared[m], referenceCI(a, b, samples, seed, confidence), `metric ${m}: shared vs reference`);
        });
      },
    ),
    { numRuns: 200 },
  );
});

test("metric values on a grid (ties, as nDCG and P give) at the comparison's 10,000 resamples", () => {
  for (const seed of [1, 42, 7, 2026]) {
    const rnd = new Mulberry32(seed);
    const grid = () => Math.round((rnd.nextUint32() / 4294967296) * 10) / 10;
    const n = 150;
    const pairs = Array.from({ length: 3 }, () => [Array.from({ length: n }, grid), Array.from({ length: n }, grid)] as const);
    const shared = runSync(pairedBootstrapCIsSteps(pairs, { samples: 10_000, seed }));
    pairs.forEach(([a, b], m) => assert.deepEqual(shared[m], referenceCI(a, b, 10_000, seed, 0.95), `seed ${seed}, metric ${m}`));
  }
});

test('pairs over different query counts are refused', () => {
  assert.throws(
    () =>
      runSync(
        pairedBootstrapCIsSteps([
          [
            [0.1, 0.2],
            [0.2, 0.3],
          ],
          [[0.1], [0.2]],
        ]),
      ),
    /same queries/,
  );
});

// Resample plans (the draws of a (seed, B, n) kept for the next comparison) and the selection of the two ranks in
// place of a sort: neither may change an interval. Metric-like values (a grid, many ties; most queries unchanged).
function metricPairs(seed: number, n: number, metrics: number): (readonly [number[], number[]])[] {
  const rnd = new Mulberry32(seed);
  const u = () => rnd.nextUint32() / 4294967296;
  return Array.from({ length: metrics }, () => {
    const a = Array.from({ length: n }, () => Math.round(u() * 20) / 20);
    return [a, a.map((x) => (u() < 0.3 ? Math.round(u() * 20) / 20 : x))] as const;
  });
}

test('a kept resample plan gives the reference intervals on every call, for each of several query counts', () => {
  const sizes = [1000, 250, 1000, 3, 250];
  for (const [call, n] of sizes.entries()) {
    const pairs = metricPairs(call, n, call % 2 === 0 ? 2 : 3);
    const shared = runSync(pairedBootstrapCIsSteps(pairs, { samples: 10_000, seed: 42 }));
    pairs.forEach(([a, b], m) => assert.deepEqual(shared[m], referenceCI(a, b, 10_000, 42, 0.95), `call ${call} (n ${n}), metric ${m}`));
  }
});

test('a plan too large to keep draws one resample at a time, with the same intervals', () => {
  const samples = 4000;
  const n = Math.floor(PLAN_BUDGET_BYTES / (2 * samples)) + 1; // just over the budget
  const pairs = metricPairs(7, n, 1);
  const [ci] = runSync(pairedBootstrapCIsSteps(pairs, { samples, seed: 9 }));
  assert.deepEqual(ci, referenceCI(pairs[0][0], pairs[0][1], samples, 9, 0.95));
});
