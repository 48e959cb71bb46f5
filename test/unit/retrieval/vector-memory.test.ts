import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseRankConfig } from '../../../src/core/config/defaults';
import type { Document } from '../../../src/core/corpus/document';
import { VectorStage } from '../../../src/core/retrieval/vector-stage';
import { availableVectorMemory, estimateVectorMemory } from '../../../src/core/retrieval/vector-memory';
import { InputError } from '../../../src/core/util/diagnostics';

const WORDS = ['espresso', 'milk', 'grinder', 'roast', 'bean', 'kettle', 'filter', 'crema', 'sugar', 'cup', 'origin', 'water'];
const docs: Document[] = Array.from({ length: 200 }, (_, i) => ({
  id: `d${i}`,
  title: `${WORDS[i % 12]} ${WORDS[(i * 5) % 12]}`,
  body: Array.from({ length: 20 }, (_, j) => WORDS[(i * 7 + j * 3) % 12]).join(' '),
  fields: {},
  meta: {},
  source: { path: 'c.jsonl' },
  hash: '',
}));
const hnsw = { M: 16, efConstruction: 100, efSearch: 50 };

test('the exact matrix shrinks with its storage type and HNSW adds at least its own float32 copy', () => {
  const f32 = estimateVectorMemory(1_000_000, 384, {});
  const f16 = estimateVectorMemory(1_000_000, 384, { storage: 'float16' });
  const i8 = estimateVectorMemory(1_000_000, 384, { storage: 'int8' });
  assert.ok(f32.exactBytes >= 1_000_000 * 384 * 4);
  assert.ok(f16.exactBytes >= 1_000_000 * 384 * 2 && f16.exactBytes < f32.exactBytes);
  assert.ok(i8.exactBytes >= 1_000_000 * 384 && i8.exactBytes < f16.exactBytes);
  assert.equal(f32.hnswBytes, 0);
  const graph = estimateVectorMemory(1_000_000, 384, { hnsw });
  assert.ok(graph.hnswBytes >= 1_000_000 * (384 * 4 + 2 * 16 * 4));
  assert.equal(graph.bytes, graph.inputBytes + graph.exactBytes + graph.hnswBytes);
});

test('RANKLAB_VECTOR_MEMORY_MB sets the budget; a bad value is an error naming it', () => {
  assert.equal(availableVectorMemory({ RANKLAB_VECTOR_MEMORY_MB: '64' }).bytes, 64 * 2 ** 20);
  assert.ok(availableVectorMemory({}).bytes > 0);
  assert.throws(
    () => availableVectorMemory({ RANKLAB_VECTOR_MEMORY_MB: 'lots' }),
    /RANKLAB_VECTOR_MEMORY_MB: expected a positive number of MiB, got "lots"/,
  );
});

test('a vector stage over a budget too small is refused before its HNSW build, with the estimate and the ways out', async () => {
  const config = normaliseRankConfig({ vector: { embedder: { provider: 'lsa', dimensions: 16 }, hnsw, exact: false } }, 'dense');
  const budget = { bytes: 50_000, source: 'the test budget' };
  await assert.rejects(VectorStage.build({ config, docs, corpusFingerprint: 'fp', memory: budget }), (e: unknown) => {
    assert.ok(e instanceof InputError, String(e));
    assert.match(
      e.message,
      /config dense: the vectors of 200 documents × \d+ dimensions need about \d+ [KM]iB \(float32 input \d+ [KM]iB, float32 exact matrix \d+ [KM]iB, HNSW graph \d+ [KM]iB\)/,
    );
    assert.match(e.message, /the test budget is 49 KiB, of which 80% may be used/);
    assert.match(e.message, /"storage": "int8"/);
    assert.match(e.message, /"exact": true/);
    assert.match(e.message, /sample of the corpus/);
    assert.match(e.message, /engine adapter/);
    return true;
  });
  // the same stage within a budget builds its graph
  const stage = await VectorStage.build({ config, docs, corpusFingerprint: 'fp', memory: { bytes: 2 ** 30, source: 'a GiB' } });
  assert.equal(stage.hnsw?.size, 200);
});
