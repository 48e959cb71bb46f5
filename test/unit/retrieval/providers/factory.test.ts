import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createEmbedder, createReranker } from '../../../../src/core/retrieval/providers/factory';
import type { Embedder } from '../../../../src/core/retrieval/providers/types';
import { type ModelServer, startModelServer } from '../../../fixtures/http-model-server';

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(() => server.close());
beforeEach(() => server.reset());

const ctx = { baseDir: '/', allowNetwork: true, allowModelLoading: true };

describe('createEmbedder / createReranker', () => {
  it('rejects a missing or unknown provider, naming the setting', () => {
    assert.throws(
      () => createEmbedder({ provider: 'word2vec' } as never, ctx),
      /vector\.embedder\.provider must be one of lsa, transformers, http, precomputed/,
    );
    assert.throws(() => createReranker(null as never, ctx), /rerank\.provider must be an object/);
    assert.throws(() => createReranker({ provider: 'lsa' } as never, ctx), /rerank\.provider\.provider/);
  });

  it('lsa comes from the vector index', () => {
    assert.throws(() => createEmbedder({ provider: 'lsa', dimensions: 64 }, ctx), /lsa is built by the vector index/);
    const lsa: Embedder = { id: 'lsa', dimension: 2, embed: async (t) => t.map(() => new Float32Array(2)) };
    assert.equal(createEmbedder({ provider: 'lsa' }, { ...ctx, lsa }), lsa);
  });

  it('http providers are refused without network access', () => {
    assert.throws(
      () => createEmbedder({ provider: 'http', url: `${server.url}/embed`, format: 'tei' }, { ...ctx, allowNetwork: false }),
      /network/,
    );
    assert.throws(
      () => createReranker({ provider: 'http', url: `${server.url}/rerank`, format: 'tei' }, { ...ctx, allowNetwork: false }),
      /network/,
    );
  });

  it('with cacheDir, a second embedder over the same folder does not call the service', async () => {
    const cacheDir = mkdtempSync(path.join(tmpdir(), 'ranklab-factory-'));
    const config = { provider: 'http' as const, url: `${server.url}/embed`, format: 'tei' as const };
    await createEmbedder(config, { ...ctx, cacheDir }).embed(['a', 'b'], 'document');
    const again = await createEmbedder(config, { ...ctx, cacheDir }).embed(['a', 'b'], 'document');
    assert.equal(server.requests.length, 1);
    assert.deepEqual(
      again.map((v) => Array.from(v)),
      [
        [1, 1, 1],
        [1, 1, 0],
      ],
    );
  });

  it('precomputed with an http queryEmbedder fallback', async () => {
    const e = createEmbedder(
      { provider: 'precomputed', queryEmbedder: { provider: 'http', url: `${server.url}/api/embed`, model: 'm', format: 'ollama' } },
      ctx,
    );
    assert.deepEqual(
      (await e.embed(['hi'], 'query')).map((v) => Array.from(v)),
      [[2, 1, 1]],
    );
    assert.throws(() => createEmbedder({ provider: 'precomputed', queryEmbedder: { provider: 'precomputed' } }, ctx), /queryEmbedder/);
  });

  it('builds an http reranker', async () => {
    const r = createReranker({ provider: 'http', url: `${server.url}/v2/rerank`, model: 'rr' }, ctx);
    assert.deepEqual(await r.score('cat', ['cat', 'dog']), [1, 0]);
  });
});
