// The compact run layout (ranklab-run@2, which @3 builds on): what goes in comes out (ids, order, ties, stages, titles),
// scores keep only the digits that keep them apart, and a file in the first format (ranklab-run@1) still loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { decodeRunV2 as decodeRun, encodeRunV2 as encodeRun, shortestDistinct } from '../../../src/core/run/run-format-v2';
import { runFileText } from '../../../src/core/run/run-format';
import { loadSavedRun, saveRun } from '../../../src/core/experiment/run-store';
import type { RankedDoc, SavedRun } from '../../../src/core/run/types';
import { tempDir } from '../../helpers/workspace';

function run(queries: SavedRun['queries'], extra: Partial<SavedRun> = {}): SavedRun {
  return {
    format: 'ranklab-run@2',
    provenance: { config: 'c', createdAt: '2026-12-03T10:00:00.000Z', tool: 't' },
    config: { name: 'c' },
    metricSpecs: ['ndcg@10'],
    metrics: { 'ndcg@10': 0.5 },
    latency: { total: { p50: 1, p99: 2 } },
    queries,
    ...extra,
  };
}

test('shortestDistinct: 6 significant digits unless more are needed to keep two values apart; equal values stay equal', () => {
  assert.deepEqual(shortestDistinct([12.345678901, 3.14159265358, 3.14159265358]), [12.3457, 3.14159, 3.14159]);
  // 1.0000001 and 1.0000002 differ only in the 8th digit: 8 digits are kept for the whole list.
  assert.deepEqual(shortestDistinct([1.0000002, 1.0000001, 0.5]), [1.0000002, 1.0000001, 0.5]);
  assert.deepEqual(shortestDistinct([]), []);
  // Near -MAX_VALUE, 10 digits keep these apart but round -1.7976931345e308 to -1.797693135e308, beyond the largest
  // double (-Infinity, written as null): more digits are taken instead.
  assert.deepEqual(shortestDistinct([-1.7976931250000001e308, -1.7976931345e308]), [-1.797693125e308, -1.7976931345e308]);
});

test('a hybrid run survives the round trip: ids, order, stage ranks and scores, stage outputs, titles moved to the run', () => {
  const docs: RankedDoc[] = [
    {
      id: 'a',
      score: 0.031746031746031744,
      title: 'A title',
      stages: {
        lexical: { rank: 2, score: 7.123456789 },
        vector: { rank: 1, score: 0.87654321 },
        fuse: { rank: 1, score: 0.031746031746031744 },
      },
    },
    { id: 'b', score: 0.016393442622950821, stages: { lexical: { rank: 1, score: 9.5 }, fuse: { rank: 2, score: 0.016393442622950821 } } },
  ];
  const saved = run(
    [
      {
        qid: 'q1',
        text: 'x',
        docs,
        total: 2,
        latencyMs: { lexical: 0.123456789, total: 1.5 },
        metrics: { 'ndcg@10': 0.6131471927654584 },
        stageIds: { lexical: ['b', 'a', 'c'] },
      },
    ],
    { titles: { b: 'B title' } },
  );
  const back = decodeRun(JSON.parse(JSON.stringify(encodeRun(saved)))) as SavedRun;
  const q = back.queries[0];
  assert.deepEqual(
    q.docs.map((d) => d.id),
    ['a', 'b'],
  );
  assert.deepEqual(
    q.docs.map((d) => d.score),
    [0.031746, 0.0163934],
  );
  assert.deepEqual(q.docs[0].stages, {
    lexical: { rank: 2, score: 7.12346 },
    vector: { rank: 1, score: 0.876543 },
    fuse: { rank: 1, score: 0.031746 },
  });
  assert.deepEqual(q.docs[1].stages, { lexical: { rank: 1, score: 9.5 }, fuse: { rank: 2, score: 0.0163934 } });
  assert.deepEqual(q.stageIds, { lexical: ['b', 'a', 'c'] });
  assert.deepEqual(q.latencyMs, { lexical: 0.123, total: 1.5 });
  assert.equal(q.metrics['ndcg@10'], 0.6131471927654584, 'per-query metrics keep every digit');
  assert.equal(q.total, 2);
  assert.deepEqual(back.titles, { b: 'B title', a: 'A title' });
  assert.equal(q.docs[0].title, undefined, 'titles are stored once per run, not per ranked entry');
  assert.deepEqual({ ...back, queries: [] }, { ...saved, titles: back.titles, queries: [] });
});

test('a one-stage run stores its stage as "same as the final list" and gets it back exactly', () => {
  const docs = [3.5, 2.25, 2.25, 1].map((score, i) => ({ id: `d${i}`, score, stages: { lexical: { rank: i + 1, score } } }));
  const enc = encodeRun(run([{ qid: 'q', text: 't', docs, latencyMs: {}, metrics: {} }]));
  assert.deepEqual(enc.queries[0].stages, { lexical: 1 });
  const back = decodeRun(JSON.parse(JSON.stringify(enc))) as SavedRun;
  assert.deepEqual(back.queries[0].docs, docs);
});

test('property: order, ties and the ids of every list survive the round trip; each score within 5e-6 relative', () => {
  const list = fc.array(
    fc.record({
      id: fc.string({ minLength: 1, maxLength: 6 }),
      score: fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(0, 1, 1.5, 1e-9)),
    }),
    { maxLength: 40 },
  );
  fc.assert(
    fc.property(fc.array(list, { minLength: 1, maxLength: 5 }), (lists) => {
      const saved = run(
        lists.map((l, i) => {
          const docs = [...l].sort((a, b) => b.score - a.score);
          return { qid: `q${i}`, text: '', docs, latencyMs: {}, metrics: {} };
        }),
      );
      const back = decodeRun(JSON.parse(JSON.stringify(encodeRun(saved)))) as SavedRun;
      for (const [i, q] of saved.queries.entries()) {
        const b = back.queries[i].docs;
        assert.deepEqual(
          b.map((d) => d.id),
          q.docs.map((d) => d.id),
        );
        for (let j = 0; j < b.length; j++) {
          const s = q.docs[j].score;
          assert.ok(Math.abs(b[j].score - s) <= 5e-6 * Math.abs(s), `${s} → ${b[j].score}`);
          for (let k = j + 1; k < b.length; k++) {
            // === (not Object.is): JSON writes -0 as 0 in either format.
            assert.ok(Math.sign(b[j].score - b[k].score) === Math.sign(q.docs[j].score - q.docs[k].score), 'order and ties unchanged');
          }
        }
      }
    }),
    { numRuns: 200 },
  );
});

test('saving writes the current format (@4, gzipped); a ranklab-run@1 file (the first format) still loads unchanged', () => {
  const dir = tempDir();
  const docs = Array.from({ length: 100 }, (_, i) => ({
    id: `doc-${i}`,
    score: 20 - i * 0.123456789,
    stages: { lexical: { rank: i + 1, score: 20 - i * 0.123456789 } },
  }));
  const saved = run([{ qid: 'q1', text: 'x', docs, latencyMs: { total: 1 }, metrics: { 'ndcg@10': 1 } }]);
  const path = saveRun(dir, saved);
  assert.equal(JSON.parse(runFileText(readFileSync(path))).format, 'ranklab-run@4');
  const v1 = join(dir, 'old.json');
  const old = { ...saved, format: 'ranklab-run@1' };
  writeFileSync(v1, JSON.stringify(old, null, 1));
  assert.ok(
    statSync(path).size * 3 < statSync(v1).size,
    `compact ${statSync(path).size} B vs ${statSync(v1).size} B in the previous format`,
  );
  assert.deepEqual(loadSavedRun(v1), old);
  assert.deepEqual(
    loadSavedRun(path).queries[0].docs.map((d) => d.id),
    docs.map((d) => d.id),
  );
});

test('a compact file with a list pointing outside "ids" is refused with the file and the query named', () => {
  const dir = tempDir();
  const enc = encodeRun(run([{ qid: 'q1', text: 'x', docs: [{ id: 'a', score: 1 }], latencyMs: {}, metrics: {} }]));
  enc.queries[0].docs = [7]; // a @2 file
  writeFileSync(join(dir, 'bad.json'), JSON.stringify(enc));
  assert.throws(() => loadSavedRun(join(dir, 'bad.json')), /bad\.json: not a readable saved run \(document index 7 is not in "ids"\)/);
});
