// Ranking the combinations on the tuning queries, the holdout comparison against BASE, and the overfitting
// warning, on hand-made per-query scores (values worked out by hand in the comments).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeSweep, type ScoredCombination } from '../../../src/core/tuning/scoring';

const scores = (o: Record<string, number>) => new Map(Object.entries(o));
const close = (a: number, b: number, msg?: string) => assert.ok(Math.abs(a - b) < 1e-12, `${msg ?? ''} ${a} != ${b}`);
const base = scores({ t1: 0.5, t2: 0.5, h1: 0.5, h2: 0.5 });
const split = { mode: 'split' as const, tune: ['t1', 't2'], holdout: ['h1', 'h2'] };

test('a tiny tune split that picks a combination fitting its noise: the gain does not carry over, and the warning says so', () => {
  const combos: ScoredCombination[] = [
    // tune mean (0.9 + 0.7) / 2 = 0.8, gain +0.3; holdout (0.4 + 0.5) / 2 = 0.45, gain -0.05
    { index: 0, values: { 'lexical.fields.title': 5 }, perQuery: scores({ t1: 0.9, t2: 0.7, h1: 0.4, h2: 0.5 }) },
    // tune 0.6 (+0.1); holdout 0.65 (+0.15)
    { index: 1, values: { 'lexical.fields.title': 2 }, perQuery: scores({ t1: 0.6, t2: 0.6, h1: 0.6, h2: 0.7 }) },
  ];
  const s = summarizeSweep(combos, base, split, { objective: 'ndcg@10' });
  assert.deepEqual(
    s.rows.map((r) => r.index),
    [0, 1],
  );
  close(s.rows[0].tune, 0.8);
  close(s.rows[0].tuneGain, 0.3);
  close(s.rows[0].holdout!, 0.45);
  close(s.estimate.gain, -0.05);
  close(s.estimate.base, 0.5);
  assert.equal(s.estimate.queries, 2);
  // Differences -0.1 and 0: one non-zero difference, so the exact sign-flip test gives p = 1; every resampled mean lies in [-0.1, 0].
  assert.equal(s.estimate.p, 1);
  assert.ok(s.estimate.ci[0] >= -0.1 - 1e-12 && s.estimate.ci[1] <= 1e-12, `${s.estimate.ci}`);
  close(s.chosenTuneGain, 0.3);
  assert.equal(s.warnings.length, 1);
  assert.match(
    s.warnings[0],
    /overfitting: the best tuning gain \(\+0\.3000 ndcg@10\) does not carry over to the 2 holdout queries \(-0\.0500/,
  );
  close(s.rows[1].holdoutStats!.gain, 0.15);
});

test('a gain that carries over (at least half of it) gives no warning; ties keep grid order; only the top rows get the full comparison', () => {
  const combos: ScoredCombination[] = [
    { index: 0, values: { k: 1 }, perQuery: scores({ t1: 0.5, t2: 0.5, h1: 0.5, h2: 0.5 }) },
    { index: 1, values: { k: 2 }, perQuery: scores({ t1: 0.7, t2: 0.7, h1: 0.6, h2: 0.7 }) }, // tune +0.2, holdout +0.15
    { index: 2, values: { k: 3 }, perQuery: scores({ t1: 0.7, t2: 0.7, h1: 0.5, h2: 0.5 }) }, // same tune: after index 1
  ];
  const s = summarizeSweep(combos, base, split, { objective: 'ndcg@10', top: 2 });
  assert.deepEqual(
    s.rows.map((r) => r.index),
    [1, 2, 0],
  );
  close(s.estimate.gain, 0.15);
  assert.deepEqual(s.warnings, []);
  assert.ok(s.rows[1].holdoutStats && !s.rows[2].holdoutStats);
  close(s.rows[2].holdout!, 0.5, 'every row still has its holdout mean');
});

test("K folds: each fold is scored by the combination the other folds chose; choosing each fold's noise is caught", () => {
  const b = scores({ a: 0.5, b: 0.5, c: 0.5, d: 0.5 });
  const combos: ScoredCombination[] = [
    { index: 0, values: { k: 'X' }, perQuery: scores({ a: 1, b: 1, c: 0, d: 0 }) },
    { index: 1, values: { k: 'Y' }, perQuery: scores({ a: 0, b: 0, c: 1, d: 1 }) },
  ];
  // Fold 1 = {a, b} held out: trained on {c, d}, Y wins (1 vs 0) and scores 0 on a, b. Fold 2: X wins on {a, b}, scores 0 on c, d.
  const s = summarizeSweep(
    combos,
    b,
    {
      mode: 'folds',
      folds: [
        ['a', 'b'],
        ['c', 'd'],
      ],
    },
    { objective: 'map' },
  );
  close(s.estimate.score, 0);
  close(s.estimate.gain, -0.5);
  assert.equal(s.estimate.queries, 4);
  close(s.chosenTuneGain, 0.5);
  // Each combination's tuning score is the mean of its two training means (0 and 1): a tie, kept in grid order.
  assert.deepEqual(
    s.rows.map((r) => [r.index, r.tune, r.chosenInFolds]),
    [
      [0, 0.5, 1],
      [1, 0.5, 1],
    ],
  );
  assert.equal(s.warnings.length, 1);
  assert.match(s.warnings[0], /does not carry over to the held-out folds/);
  assert.equal(s.rows[0].holdout, undefined);
});
