// The tuning split and K folds: deterministic, disjoint, covering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { kFolds } from '../../../src/core/tuning/splits';
import { HASH_HOLDOUT_SHARE, filterBySplit, splitSourceOf, tuneHoldoutSplit } from '../../../src/core/judgments';
import type { JudgmentSet, Query } from '../../../src/core/judgments';

function judgments(queries: Array<[string, Query['split']]>): JudgmentSet {
  return {
    queries: new Map(queries.map(([id, split]) => [id, { id, text: id, tags: [], ...(split ? { split } : {}) } as Query])),
    qrels: new Map(queries.map(([id]) => [id, new Map([['d1', 1]])])),
  } as unknown as JudgmentSet;
}

test('K folds are disjoint, cover every query once, differ in size by at most one, and do not depend on input order', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 2, maxLength: 200 }),
      fc.integer({ min: 2, max: 10 }),
      (qids, k) => {
        fc.pre(k <= qids.length);
        const folds = kFolds(qids, k);
        assert.equal(folds.length, k);
        const all = folds.flat();
        assert.equal(all.length, qids.length, 'disjoint: no query twice');
        assert.deepEqual([...all].sort(), [...qids].sort(), 'covering');
        const sizes = folds.map((f) => f.length);
        assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `balanced ${sizes}`);
        assert.deepEqual(kFolds([...qids].reverse(), k), folds, 'deterministic whatever the order');
      },
    ),
    { numRuns: 200 },
  );
});

test('kFolds refuses fewer than 2 folds', () => {
  assert.throws(() => kFolds(['a', 'b'], 1), RangeError);
});

test("the judgments' own split is used when any query is marked holdout (no split = tune)", () => {
  const s = tuneHoldoutSplit(
    judgments([
      ['q1', 'tune'],
      ['q2', 'holdout'],
      ['q3', undefined],
      ['q4', 'holdout'],
    ]),
  );
  assert.deepEqual(s, { tune: ['q1', 'q3'], holdout: ['q2', 'q4'], source: 'judgments' });
});

test('every query marked tune: the judgments decide, and there is no holdout (the hash does not overrule the marks)', () => {
  const s = tuneHoldoutSplit(
    judgments([
      ['q1', 'tune'],
      ['q2', 'tune'],
      ['q3', undefined],
    ]),
  );
  assert.deepEqual(s, { tune: ['q1', 'q2', 'q3'], holdout: [], source: 'judgments' });
});

test('without any split mark, a hash of the id holds out about a quarter, the same every time, disjoint and covering', () => {
  const ids = Array.from({ length: 2000 }, (_, i) => `q${i}`);
  const s = tuneHoldoutSplit(judgments(ids.map((id) => [id, undefined])));
  assert.equal(s.source, 'hash');
  assert.equal(s.tune.length + s.holdout.length, ids.length);
  assert.equal(new Set([...s.tune, ...s.holdout]).size, ids.length);
  const share = s.holdout.length / ids.length;
  assert.ok(Math.abs(share - HASH_HOLDOUT_SHARE) < 0.04, `holdout share ${share}`);
  // A query's side depends on its id alone: a subset splits the same way.
  const sub = tuneHoldoutSplit(judgments(ids.slice(0, 100).map((id) => [id, undefined])));
  assert.deepEqual(
    sub.holdout,
    s.holdout.filter((q) => ids.slice(0, 100).includes(q)),
  );
});

test("a subset keeps the whole set's split: the tune half of a marked set does not re-split by hash", () => {
  const ids = Array.from({ length: 200 }, (_, i) => `q${i}`);
  const set = {
    ...judgments(ids.map((id, i) => [id, i < 20 ? 'holdout' : undefined])),
    sources: [],
    diagnostics: [],
    fingerprint: '',
  } as JudgmentSet;
  const tune = filterBySplit(set, 'tune');
  assert.equal(tune.qrels.size, 180);
  assert.equal(splitSourceOf(tune), 'judgments');
  assert.equal(filterBySplit(tune, 'holdout').qrels.size, 0, 'no tune query becomes holdout');
  assert.deepEqual(tuneHoldoutSplit(tune).holdout, []);
  // Unmarked: the hash decides, and the holdout half of the holdout half is itself.
  const unmarked = { ...judgments(ids.map((id) => [id, undefined])), sources: [], diagnostics: [], fingerprint: '' } as JudgmentSet;
  const held = filterBySplit(unmarked, 'holdout');
  assert.deepEqual([...held.qrels.keys()], tuneHoldoutSplit(unmarked).holdout);
  assert.deepEqual([...filterBySplit(held, 'holdout').qrels.keys()], [...held.qrels.keys()]);
});
