import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reciprocalRankFusion } from '../../../src/core/retrieval/fusion';
import { RerankScoreCache, rerankCandidates, rerankPassage } from '../../../src/core/retrieval/rerank';
import type { Reranker } from '../../../src/core/retrieval/providers/types';
import type { Document } from '../../../src/core/corpus/document';

const ids = (...xs: string[]) => xs.map((id) => ({ id }));

test('RRF worked example (k=60): lexical rank 1 + vector rank 3 = 0.03226; ranks 2 and 1 = 0.03252', () => {
  const fused = reciprocalRankFusion([
    { name: 'lexical', docs: ids('A', 'B', 'C') },
    { name: 'vector', docs: ids('B', 'D', 'A') },
  ]);
  const byId = new Map(fused.map((f) => [f.id, f]));
  // 1/61 + 1/63 = 0.032266..., quoted truncated as 0.03226; 1/62 + 1/61 = 0.032521...
  assert.ok(Math.abs(byId.get('A')!.score - (1 / 61 + 1 / 63)) < 1e-15);
  assert.ok(Math.abs(byId.get('A')!.score - 0.03226) < 1e-5);
  assert.ok(Math.abs(byId.get('B')!.score - (1 / 62 + 1 / 61)) < 1e-15);
  assert.ok(Math.abs(byId.get('B')!.score - 0.03252) < 1e-5);
  assert.deepEqual(byId.get('A')!.ranks, { lexical: 1, vector: 3 });
  // B > A > D (1/62) > C (1/63)
  assert.deepEqual(
    fused.map((f) => f.id),
    ['B', 'A', 'D', 'C'],
  );
});

test('RRF ties are ordered deterministically (id descending), weights and per-list depth apply', () => {
  // X is rank 1 in lexical only, Y rank 1 in vector only: equal scores 1/61.
  const fused = reciprocalRankFusion([
    { name: 'lexical', docs: ids('X') },
    { name: 'vector', docs: ids('Y') },
  ]);
  assert.equal(fused[0].score, fused[1].score);
  assert.deepEqual(
    fused.map((f) => f.id),
    ['Y', 'X'],
  );
  const swapped = reciprocalRankFusion([
    { name: 'vector', docs: ids('Y') },
    { name: 'lexical', docs: ids('X') },
  ]);
  assert.deepEqual(
    swapped.map((f) => f.id),
    ['Y', 'X'],
    'input order does not decide ties',
  );

  const weighted = reciprocalRankFusion(
    [
      { name: 'lexical', docs: ids('X', 'Z'), weight: 2 },
      { name: 'vector', docs: ids('Y', 'W'), depth: 1 },
    ],
    10,
  );
  const w = new Map(weighted.map((f) => [f.id, f.score]));
  assert.ok(Math.abs(w.get('X')! - 2 / 11) < 1e-15);
  assert.ok(Math.abs(w.get('Z')! - 2 / 12) < 1e-15);
  assert.ok(Math.abs(w.get('Y')! - 1 / 11) < 1e-15);
  assert.equal(w.has('W'), false, 'beyond the list depth');
});

/** Test double for a cross-encoder: counts shared words, and counts calls. */
class OverlapReranker implements Reranker {
  readonly id = 'overlap';
  calls = 0;
  pairs = 0;
  async score(query: string, passages: string[]): Promise<number[]> {
    this.calls++;
    this.pairs += passages.length;
    const q = new Set(query.toLowerCase().split(/\W+/).filter(Boolean));
    return passages.map(
      (p) =>
        p
          .toLowerCase()
          .split(/\W+/)
          .filter((w) => q.has(w)).length,
    );
  }
}

function doc(id: string, title: string, body: string): Document {
  return { id, title, body, fields: {}, meta: {}, source: { path: 'x' }, hash: `h-${id}-${title}-${body}` };
}

test('rerank scores the top N, keeps the top M by reranker score, and caches pair scores', async () => {
  const docs = new Map([
    ['1', doc('1', 'cats', 'nothing here')],
    ['2', doc('2', 'dogs and cats', 'cats like dogs')],
    ['3', doc('3', 'birds', 'dogs')],
    ['4', doc('4', 'dogs cats', 'dogs cats dogs')],
  ]);
  const candidates = [
    { id: '1', score: 9 },
    { id: '2', score: 8 },
    { id: '3', score: 7 },
    { id: '4', score: 6 },
  ];
  const reranker = new OverlapReranker();
  const cache = new RerankScoreCache();
  const first = await rerankCandidates(reranker, 'dogs cats', candidates, docs, { topN: 3, topM: 2, maxPassageChars: 1000, cache });
  // overlap: doc1 "cats nothing here" = 1; doc2 "dogs and cats cats like dogs" = 4; doc3 "birds dogs" = 1; doc4 not in top 3
  assert.deepEqual(first.hits, [
    { id: '2', score: 4 },
    { id: '3', score: 1 },
  ]);
  assert.equal(first.scored, 3);
  const again = await rerankCandidates(reranker, 'dogs cats', [...candidates].reverse(), docs, {
    topN: 4,
    topM: 2,
    maxPassageChars: 1000,
    cache,
  });
  assert.equal(again.scored, 1, 'only doc 4 was not scored before');
  assert.equal(reranker.pairs, 4);
  assert.deepEqual(again.hits, [
    { id: '4', score: 5 },
    { id: '2', score: 4 },
  ]);
});

test('rerank passage is title + body cut near the limit at a word boundary', () => {
  const p = rerankPassage({ title: 'T', body: 'alpha beta gamma delta epsilon' }, 20);
  assert.equal(p, 'T\nalpha beta gamma');
  assert.equal(rerankPassage({ title: '', body: 'short' }, 20), 'short');
});
