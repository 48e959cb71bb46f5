import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ProviderError } from '../../../../src/core/retrieval/providers/errors';
import { HttpEmbedder, HttpReranker } from '../../../../src/core/retrieval/providers/http';
import { parseRetryAfter } from '../../../../src/core/util/http-client';
import { InputError } from '../../../../src/core/util/diagnostics';
import { type ModelServer, startModelServer } from '../../../fixtures/http-model-server';

let server: ModelServer;
before(async () => {
  server = await startModelServer();
});
after(() => server.close());
beforeEach(() => server.reset());

const sleeps: number[] = [];
const opts = (extra: object = {}) => ({
  allowNetwork: true,
  settingPath: 'vector.embedder',
  sleep: async (ms: number) => void sleeps.push(ms),
  ...extra,
});
const arr = (v: Float32Array) => Array.from(v);

describe('http embedder formats', () => {
  it('openai: sends {model, input, encoding_format: "float"} and puts out-of-order data back by index', async () => {
    const e = new HttpEmbedder({ provider: 'http', url: `${server.url}/v1/embeddings`, model: 'm1' }, opts());
    const v = await e.embed(['hello world', 'a', 'banana split'], 'document');
    // [characters, words, vowels], counted by hand
    assert.deepEqual(v.map(arr), [
      [11, 2, 3],
      [1, 1, 1],
      [12, 2, 4],
    ]);
    assert.deepEqual(server.requests[0].body, { model: 'm1', input: ['hello world', 'a', 'banana split'], encoding_format: 'float' });
    assert.equal(e.dimension, 3);
  });

  it('ollama /api/embed and tei /embed shapes', async () => {
    const o = new HttpEmbedder({ provider: 'http', url: `${server.url}/api/embed`, model: 'nomic', format: 'ollama' }, opts());
    assert.deepEqual((await o.embed(['hello world'], 'query')).map(arr), [[11, 2, 3]]);
    assert.deepEqual(server.requests[0].body, { model: 'nomic', input: ['hello world'] });
    const t = new HttpEmbedder({ provider: 'http', url: `${server.url}/embed`, format: 'tei' }, opts());
    assert.deepEqual((await t.embed(['xyz', 'ab'], 'query')).map(arr), [
      [3, 1, 0],
      [2, 1, 1],
    ]);
    assert.deepEqual(server.requests[1].body, { inputs: ['xyz', 'ab'] });
  });

  it('batches by batchSize and keeps the order', async () => {
    const e = new HttpEmbedder({ provider: 'http', url: `${server.url}/v1/embeddings`, model: 'm', batchSize: 2 }, opts());
    const v = await e.embed(['a', 'bb', 'ccc', 'dddd', 'eeeee'], 'document');
    assert.deepEqual(
      v.map((x) => x[0]),
      [1, 2, 3, 4, 5],
    );
    assert.deepEqual(
      server.requests.map((r) => r.body.input.length),
      [2, 2, 1],
    );
  });

  it('applies queryPrefix / documentPrefix by kind', async () => {
    const e = new HttpEmbedder(
      { provider: 'http', url: `${server.url}/v1/embeddings`, model: 'm', queryPrefix: 'query: ', documentPrefix: 'passage: ' },
      opts(),
    );
    await e.embed(['x'], 'query');
    await e.embed(['x'], 'document');
    assert.deepEqual(
      server.requests.map((r) => r.body.input[0]),
      ['query: x', 'passage: x'],
    );
  });

  it('a response of the wrong shape names the format setting', async () => {
    const e = new HttpEmbedder({ provider: 'http', url: `${server.url}/embed`, model: 'm', format: 'openai' }, opts());
    await assert.rejects(e.embed(['x'], 'query'), /400|format/);
    const wrong = new HttpEmbedder({ provider: 'http', url: `${server.url}/api/embed`, model: 'm', format: 'tei' }, opts());
    await assert.rejects(wrong.embed(['x'], 'query'), /400|vector\.embedder\.format/);
  });
});

describe('http rerank formats', () => {
  const passages = ['the cat sat', 'dogs bark', 'cat and mat and sat'];
  // distinct query words (cat, sat, mat) found in each passage, by hand: 2, 0, 3
  for (const [format, path] of [
    ['cohere', '/v2/rerank'],
    ['jina', '/v1/rerank'],
  ] as const) {
    it(`${format}: {model, query, documents, top_n} → scores back in passage order`, async () => {
      const r = new HttpReranker(
        { provider: 'http', url: server.url + path, model: 'rr', format },
        opts({ settingPath: 'rerank.provider' }),
      );
      assert.deepEqual(await r.score('cat sat mat', passages), [2, 0, 3]);
      assert.deepEqual(server.requests[0].body, { model: 'rr', query: 'cat sat mat', documents: passages, top_n: 3 });
    });
  }
  it('tei: {query, texts} → [{index, score}], batched', async () => {
    const r = new HttpReranker(
      { provider: 'http', url: `${server.url}/rerank`, format: 'tei', batchSize: 2 },
      opts({ settingPath: 'rerank.provider' }),
    );
    assert.deepEqual(await r.score('cat sat mat', passages), [2, 0, 3]);
    assert.deepEqual(
      server.requests.map((q) => q.body),
      [
        { query: 'cat sat mat', texts: passages.slice(0, 2) },
        { query: 'cat sat mat', texts: passages.slice(2) },
      ],
    );
  });
});

describe('http retries, timeouts, keys, permissions', () => {
  const url = () => `${server.url}/v1/embeddings`;

  it('retries 503 and 429 with exponential backoff, then succeeds', async () => {
    sleeps.length = 0;
    server.failNext(2, 503);
    server.failNext(1, 429);
    const e = new HttpEmbedder({ provider: 'http', url: url(), model: 'm' }, opts({ retryBaseMs: 10 }));
    assert.deepEqual((await e.embed(['ab'], 'query')).map(arr), [[2, 1, 1]]);
    assert.equal(server.requests.length, 4);
    assert.deepEqual(sleeps, [10, 20, 40]);
  });

  it('honours Retry-After (seconds)', async () => {
    sleeps.length = 0;
    server.failNext(1, 429, '2');
    const e = new HttpEmbedder({ provider: 'http', url: url(), model: 'm' }, opts({ retryBaseMs: 10 }));
    await e.embed(['ab'], 'query');
    assert.deepEqual(sleeps, [2000]);
  });

  it('gives up after maxRetries (3) retries', async () => {
    server.failNext(10, 503);
    const e = new HttpEmbedder({ provider: 'http', url: url(), model: 'm' }, opts({ retryBaseMs: 1 }));
    await assert.rejects(e.embed(['ab'], 'query'), /503.*gave up after 4 attempts/s);
    assert.equal(server.requests.length, 4);
  });

  it('does not retry a 4xx other than 429', async () => {
    server.requiredKey = 'right';
    const e = new HttpEmbedder({ provider: 'http', url: url(), model: 'm', apiKeyEnv: 'K' }, opts({ env: { K: 'wrong' }, retryBaseMs: 1 }));
    await assert.rejects(e.embed(['a'], 'query'), /401/);
    assert.equal(server.requests.length, 1);
  });

  it('retries network errors (connection refused) and then reports them', async () => {
    sleeps.length = 0;
    const closed = await startModelServer();
    await closed.close(); // its port now refuses connections
    const e = new HttpEmbedder(
      { provider: 'http', url: `${closed.url}/v1/embeddings`, model: 'm', maxRetries: 2 },
      opts({ retryBaseMs: 5 }),
    );
    await assert.rejects(e.embed(['a'], 'query'), /ECONNREFUSED.*gave up after 3 attempts/s);
    assert.deepEqual(sleeps, [5, 10]);
  });

  it('times out a server that never answers, retries, and names timeoutMs', async () => {
    server.hang = true;
    sleeps.length = 0;
    const e = new HttpEmbedder({ provider: 'http', url: url(), model: 'm', timeoutMs: 150, maxRetries: 1, retryDelayMs: 7 }, opts());
    await assert.rejects(e.embed(['a'], 'query'), (x: unknown) => {
      assert.ok(x instanceof ProviderError, String(x));
      assert.equal(x.key, 'vector.embedder.timeoutMs');
      assert.match(
        x.message,
        /^vector\.embedder\.timeoutMs: no answer within 150 ms from http:\/\/127\.0\.0\.1:\d+\/v1\/embeddings \(gave up after 2 attempts; see vector\.embedder\.maxRetries\)$/,
      );
      return true;
    });
    // Two attempts, one wait between them. (How many requests reached the server is not asserted: under load the
    // client can give up on a request before the server has read it, so that count depends on timing.)
    assert.deepEqual(sleeps, [7], 'retryDelayMs from the config is the first wait');
  });

  it("failures are ProviderErrors (InputErrors: the user's environment) naming the URL and the cause", async () => {
    const closed = await startModelServer();
    await closed.close();
    const target = `${closed.url}/v1/embeddings`;
    const e = new HttpEmbedder({ provider: 'http', url: target, model: 'm', maxRetries: 0 }, opts());
    const err = await e.embed(['a'], 'query').then(
      () => undefined,
      (x: unknown) => x,
    );
    assert.ok(err instanceof ProviderError && err instanceof InputError, String(err));
    assert.equal(err.where, target);
    assert.equal(err.message, `vector.embedder: connection refused (ECONNREFUSED) at ${target}`);
    assert.deepEqual(
      [err.key, err.reason, err.hint],
      ['vector.embedder', `connection refused (ECONNREFUSED) at ${target}`, undefined],
      'no retry, so no "gave up" hint',
    );
    assert.equal(((err.cause as Error).cause as { code?: string }).code, 'ECONNREFUSED');

    server.garbage = true;
    const g = new HttpEmbedder({ provider: 'http', url: url(), model: 'm' }, opts());
    await assert.rejects(
      g.embed(['a'], 'query'),
      (x: unknown) =>
        x instanceof ProviderError &&
        x.status === 200 &&
        x.message.startsWith(`vector.embedder: ${url()} answered 200 with a body that is not JSON`),
    );
    assert.equal(server.requests.length, 1, 'a body that is not JSON is not retried');

    server.reset();
    server.failNext(1, 404);
    await assert.rejects(
      g.embed(['a'], 'query'),
      (x: unknown) =>
        x instanceof ProviderError && x.status === 404 && x.message.startsWith(`vector.embedder: ${url()} answered 404 Not Found`),
    );
  });

  it('a cancel during the wait before a retry stops at once (real waits)', async () => {
    server.failNext(1, 503);
    const ac = new AbortController();
    // The real sleep, with a 10-minute backoff: only the abort can end it.
    const e = new HttpEmbedder(
      { provider: 'http', url: url(), model: 'm', retryDelayMs: 600_000 },
      { allowNetwork: true, settingPath: 'vector.embedder' },
    );
    const p = e.embed(['a'], 'query', ac.signal);
    const waitForFirstRequest = async () => {
      while (server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    };
    await waitForFirstRequest();
    ac.abort(new Error('user cancelled'));
    await assert.rejects(p, /user cancelled/);
    assert.equal(server.requests.length, 1);
  });

  it('stops when the caller aborts', async () => {
    server.hang = true;
    const ac = new AbortController();
    const e = new HttpEmbedder({ provider: 'http', url: url(), model: 'm' }, opts());
    const p = e.embed(['a'], 'query', ac.signal);
    setTimeout(() => ac.abort(new Error('user cancelled')), 50);
    await assert.rejects(p, /user cancelled/);
  });

  it('sends the key from the named environment variable as a Bearer token', async () => {
    server.requiredKey = 's3cret';
    const e = new HttpEmbedder(
      { provider: 'http', url: url(), model: 'm', apiKeyEnv: 'RANKLAB_TEST_KEY' },
      opts({ env: { RANKLAB_TEST_KEY: 's3cret' } }),
    );
    await e.embed(['a'], 'query');
    assert.equal(server.requests[0].authorization, 'Bearer s3cret');
    assert.ok(!e.id.includes('s3cret'));
  });

  it('a missing key variable is a clear error naming it, before any request', () => {
    assert.throws(
      () => new HttpEmbedder({ provider: 'http', url: url(), model: 'm', apiKeyEnv: 'RANKLAB_NOT_SET' }, opts({ env: {} })),
      (e: unknown) => e instanceof InputError && e.message.includes('RANKLAB_NOT_SET') && e.message.includes('vector.embedder.apiKeyEnv'),
    );
    assert.equal(server.requests.length, 0);
  });

  it('is refused when network access is not allowed', () => {
    assert.throws(
      () => new HttpReranker({ provider: 'http', url: url() }, { allowNetwork: false, settingPath: 'rerank.provider' }),
      /rerank\.provider.*network/,
    );
  });

  it('validates url and format', () => {
    assert.throws(() => new HttpEmbedder({ provider: 'http', url: 'not a url', model: 'm' }, opts()), /vector\.embedder\.url/);
    assert.throws(
      () => new HttpEmbedder({ provider: 'http', url: url(), model: 'm', format: 'grpc' as never }, opts()),
      /vector\.embedder\.format/,
    );
    assert.throws(() => new HttpEmbedder({ provider: 'http', url: url() }, opts()), /vector\.embedder\.model/);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.UTC(2015, 9, 21, 7, 28, 0)), 10_000);
    assert.equal(parseRetryAfter(null), undefined);
    assert.equal(parseRetryAfter('soon'), undefined);
  });
});
