import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExactIndex, annRecallAtK } from '../../../src/core/retrieval/exact';
import { HnswIndex } from '../../../src/core/retrieval/vector-index';

/** Deterministic pseudo-random vectors (mulberry32). */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function randomVectors(n: number, dim: number, seed: number): Float32Array[] {
  const r = rng(seed);
  return Array.from({ length: n }, () => Float32Array.from({ length: dim }, () => r() * 2 - 1));
}
/** Independent reference: full sort of cosine similarities in float64. */
function bruteCosine(ids: string[], vecs: ArrayLike<number>[], q: ArrayLike<number>, k: number, allow = (_: string) => true): string[] {
  const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
  const nq = norm(q);
  return ids
    .map((id, i) => ({ id, s: Array.from(vecs[i]).reduce((s, x, j) => s + x * q[j], 0) / (norm(vecs[i]) * nq) }))
    .filter((x) => allow(x.id))
    .sort((a, b) => b.s - a.s)
    .slice(0, k)
    .map((x) => x.id);
}

test('annRecallAtK on a hand case', () => {
  // q1: 2 of 3 found; q2: 3 of 3; q3: 0 of 3 -> mean (2/3 + 1 + 0) / 3 = 5/9
  const ann = [
    ['a', 'b', 'x'],
    ['c', 'd', 'e'],
    ['y', 'z', 'w'],
  ];
  const exact = [
    ['a', 'b', 'c'],
    ['e', 'd', 'c'],
    ['p', 'q', 'r'],
  ];
  assert.ok(Math.abs(annRecallAtK(ann, exact, 3) - 5 / 9) < 1e-12);
  // k=1 looks only at the first of each list: q1 hit, q2 miss (c vs e), q3 miss -> 1/3
  assert.ok(Math.abs(annRecallAtK(ann, exact, 1) - 1 / 3) < 1e-12);
});

test('exact search equals an independent brute force, with and without a filter', () => {
  const dim = 16;
  const vecs = randomVectors(500, dim, 7);
  const ids = vecs.map((_, i) => `d${i}`);
  const exact = new ExactIndex(dim, 'cosine', { capacity: 8 }); // small capacity: exercises growth
  ids.forEach((id, i) => exact.set(id, vecs[i]));
  const allow = (id: string) => Number(id.slice(1)) % 7 === 0;
  for (const q of randomVectors(20, dim, 99)) {
    assert.deepEqual(
      exact.search(q, 10).map((h) => h.id),
      bruteCosine(ids, vecs, q, 10),
    );
    const filtered = exact.search(q, 10, allow);
    assert.deepEqual(
      filtered.map((h) => h.id),
      bruteCosine(ids, vecs, q, 10, allow),
    );
    assert.ok(filtered.every((h) => allow(h.id)));
  }
});

test('HNSW recall@10 vs exact is high on random vectors, and save/load keeps results', () => {
  const dim = 32;
  const vecs = randomVectors(3000, dim, 1);
  const ids = vecs.map((_, i) => `d${i}`);
  const hnsw = HnswIndex.build(ids, vecs, dim, 'cosine', { M: 16, efConstruction: 200, efSearch: 100 });
  const exact = new ExactIndex(dim);
  ids.forEach((id, i) => exact.set(id, vecs[i]));
  const queries = randomVectors(50, dim, 2);
  const ann = queries.map((q) => hnsw.search(q, 10).map((h) => h.id));
  const truth = queries.map((q) => exact.search(q, 10).map((h) => h.id));
  const recall = annRecallAtK(ann, truth, 10);
  assert.ok(recall >= 0.9, `recall ${recall}`);
  assert.ok(recall <= 1);
  // A deliberately starved graph (efSearch 1, M 2) must show lower recall: the measure sees the difference.
  const poor = HnswIndex.build(ids, vecs, dim, 'cosine', { M: 2, efConstruction: 4, efSearch: 1 });
  const poorRecall = annRecallAtK(
    queries.map((q) => poor.search(q, 10, 1).map((h) => h.id)),
    truth,
    10,
  );
  assert.ok(poorRecall < recall, `poor ${poorRecall} vs ${recall}`);

  const dir = mkdtempSync(join(tmpdir(), 'ranklab-hnsw-'));
  try {
    hnsw.save(dir);
    const loaded = HnswIndex.load(dir)!;
    assert.equal(loaded.size, 3000);
    for (const q of queries.slice(0, 10))
      assert.deepEqual(
        loaded.search(q, 10).map((h) => h.id),
        hnsw.search(q, 10).map((h) => h.id),
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('HNSW incremental add / change / delete agrees with exact search over the final vectors', () => {
  const dim = 8;
  const vecs = randomVectors(400, dim, 3);
  const ids = vecs.map((_, i) => `d${i}`);
  const hnsw = HnswIndex.build(ids.slice(0, 300), vecs.slice(0, 300), dim, 'cosine', { M: 16, efConstruction: 200, efSearch: 400 });
  const final = new Map(ids.slice(0, 300).map((id, i) => [id, vecs[i]]));
  for (let i = 300; i < 400; i++) {
    hnsw.upsert(ids[i], vecs[i]);
    final.set(ids[i], vecs[i]);
  } // add (forces resize)
  const changedVecs = randomVectors(40, dim, 4);
  for (let i = 0; i < 40; i++) {
    hnsw.upsert(ids[i], changedVecs[i]);
    final.set(ids[i], changedVecs[i]);
  } // change
  for (let i = 50; i < 90; i++) {
    hnsw.delete(ids[i]);
    final.delete(ids[i]);
  } // delete
  assert.equal(hnsw.size, final.size);
  const finalIds = [...final.keys()];
  const finalVecs = [...final.values()];
  // efSearch >= corpus size makes HNSW search effectively exhaustive, so the lists must be equal.
  for (const q of randomVectors(30, dim, 5)) {
    assert.deepEqual(
      hnsw.search(q, 10).map((h) => h.id),
      bruteCosine(finalIds, finalVecs, q, 10),
    );
  }
  // filtered HNSW search never returns a forbidden or deleted doc
  const allow = (id: string) => Number(id.slice(1)) % 3 === 0;
  for (const q of randomVectors(10, dim, 6)) {
    const hits = hnsw.search(q, 10, 400, allow);
    assert.ok(hits.every((h) => allow(h.id) && final.has(h.id)));
  }
});
