import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, truncateSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { cachedEmbedder, decodeSegment, encodeSegment, EmbeddingStore } from '../../../../src/core/retrieval/providers/embedding-cache';
import { HttpEmbedder } from '../../../../src/core/retrieval/providers/http';
import { type ModelServer, startModelServer } from '../../../fixtures/http-model-server';

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(() => server.close());
beforeEach(() => server.reset());

const freshDir = () => mkdtempSync(path.join(tmpdir(), 'ranklab-emb-cache-'));
const http = (model = 'm') =>
  new HttpEmbedder(
    { provider: 'http', url: `${server.url}/v1/embeddings`, model, batchSize: 2 },
    { allowNetwork: true, settingPath: 'vector.embedder' },
  );
const arr = (v: Float32Array) => Array.from(v);

describe('cachedEmbedder', () => {
  it('a second run (new wrapper, same folder) makes zero calls to the model and returns the same vectors', async () => {
    const dir = freshDir();
    const texts = ['hello world', 'a', 'banana split', 'xyz', 'e'];
    const first = await cachedEmbedder(http(), dir).embed(texts, 'document');
    assert.equal(server.requests.length, 3); // 5 texts, batchSize 2
    const second = await cachedEmbedder(http(), dir).embed(texts, 'document');
    assert.equal(server.requests.length, 3);
    assert.deepEqual(second.map(arr), first.map(arr));
    assert.deepEqual(second.map(arr)[0], [11, 2, 3]);
  });

  it('sends only the misses, each distinct text once', async () => {
    const dir = freshDir();
    await cachedEmbedder(http(), dir).embed(['a', 'bb'], 'document');
    server.requests.length = 0;
    const v = await cachedEmbedder(http(), dir).embed(['bb', 'new one', 'a', 'new one'], 'document');
    assert.deepEqual(
      server.requests.map((r) => r.body.input),
      [['new one']],
    );
    assert.deepEqual(
      v.map((x) => x[0]),
      [2, 7, 1, 7],
    );
  });

  it('keeps query and document vectors apart (prefixes may differ)', async () => {
    const dir = freshDir();
    const e = cachedEmbedder(http(), dir);
    await e.embed(['a'], 'document');
    await e.embed(['a'], 'query');
    assert.equal(server.requests.length, 2);
  });

  it('keeps embedders apart by id', async () => {
    const dir = freshDir();
    await cachedEmbedder(http('m1'), dir).embed(['a'], 'document');
    await cachedEmbedder(http('m2'), dir).embed(['a'], 'document');
    assert.equal(server.requests.length, 2);
    assert.equal(readdirSync(dir).length, 2);
  });

  it('a damaged segment only costs a recomputation', async () => {
    const dir = freshDir();
    await cachedEmbedder(http(), dir).embed(['a', 'bb'], 'document');
    const folder = path.join(dir, readdirSync(dir)[0]);
    const seg = path.join(folder, readdirSync(folder)[0]);
    truncateSync(seg, statSync(seg).size - 3);
    server.requests.length = 0;
    const v = await cachedEmbedder(http(), dir).embed(['a', 'bb'], 'document');
    assert.deepEqual(
      v.map((x) => x[0]),
      [1, 2],
    );
    assert.equal(server.requests.length, 1);
  });

  it('returned vectors are copies: changing them does not change the cache', async () => {
    const dir = freshDir();
    const e = cachedEmbedder(http(), dir);
    const [v] = await e.embed(['abc'], 'document');
    v[0] = 999;
    assert.equal((await e.embed(['abc'], 'document'))[0][0], 3);
  });
});

describe('EmbeddingStore segments', () => {
  it('round-trips a segment through the binary format', () => {
    const data = Float32Array.from([1, 2, 3, 4.5, -5, 6]);
    const seg = decodeSegment(encodeSegment({ id: 'e', dimension: 3, keys: ['k1', 'k2'], data }));
    assert.ok(seg);
    assert.deepEqual(seg.keys, ['k1', 'k2']);
    assert.deepEqual(Array.from(seg.data), [1, 2, 3, 4.5, -5, 6]);
  });

  it('a segment whose vectors or keys changed after it was written, or one without a hash, is not used', () => {
    const data = Float32Array.from([1, 2, 3, 4.5, -5, 6]);
    const buf = encodeSegment({ id: 'e', dimension: 3, keys: ['k1', 'k2'], data });
    const flipped = Buffer.from(buf);
    flipped.writeFloatLE(7, flipped.length - 4); // the last vector's last value: 6 -> 7, a valid float all the same
    assert.equal(decodeSegment(flipped), undefined);
    const swapped = Buffer.from(buf.toString('latin1').replace('"k1","k2"', '"k2","k1"'), 'latin1'); // same length
    assert.equal(decodeSegment(swapped), undefined);
    // Written before hashes: the same header without "sha256" (shorter: rebuilt with the same layout rules).
    const header = Buffer.from(JSON.stringify({ id: 'e', dimension: 3, count: 2, keys: ['k1', 'k2'] }));
    const start = Math.ceil((8 + header.length) / 4) * 4;
    const old = Buffer.alloc(start + data.byteLength);
    old.write('RLV1', 0, 'ascii');
    old.writeUInt32LE(header.length, 4);
    header.copy(old, 8);
    Buffer.from(data.buffer).copy(old, start);
    assert.equal(decodeSegment(old), undefined);
  });

  it('merges many segments into one on load, losing nothing', () => {
    const dir = freshDir();
    const store = new EmbeddingStore('emb', dir);
    for (let i = 0; i < 20; i++) store.put([[`k${i}`, Float32Array.from([i, i + 1])]]);
    assert.equal(readdirSync(store.folder).length, 20);
    const reloaded = new EmbeddingStore('emb', dir);
    assert.equal(reloaded.size, 20);
    assert.equal(readdirSync(store.folder).length, 1);
    assert.deepEqual(Array.from(reloaded.get('k7')!), [7, 8]);
    assert.equal(new EmbeddingStore('emb', dir).size, 20);
  });

  it('refuses vectors of another dimension than the cached ones', () => {
    const store = new EmbeddingStore('emb', freshDir());
    store.put([['a', Float32Array.from([1, 2])]]);
    assert.throws(() => store.put([['b', Float32Array.from([1, 2, 3])]]), /3-dim.*2-dim/);
  });
});
