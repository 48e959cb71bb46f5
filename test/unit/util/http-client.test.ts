import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ProviderError } from '../../../src/core/retrieval/providers/errors';
import { HttpClient } from '../../../src/core/util/http-client';

describe('HttpClient', () => {
  let answers: Array<{ status: number; headers?: Record<string, string>; hang?: boolean }> = [];
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    const a = answers.shift() ?? { status: 200 };
    if (a.hang) return; // never answers
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(JSON.stringify({ n: hits }));
  });
  let url = '';
  before(
    () =>
      new Promise<void>((r) =>
        server.listen(0, '127.0.0.1', () => ((url = `http://127.0.0.1:${(server.address() as { port: number }).port}/x`), r())),
      ),
  );
  after(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));

  const waits: number[] = [];
  const client = (over: Partial<ConstructorParameters<typeof HttpClient>[0]> = {}) =>
    new HttpClient({
      timeoutMs: 2000,
      maxRetries: 3,
      retryDelayMs: 100,
      settingPath: 'engine.request',
      sleep: async (ms) => void waits.push(ms),
      ...over,
    });

  it('retries 429 and 5xx with doubling waits (Retry-After wins), then returns the answer', async () => {
    hits = 0;
    waits.length = 0;
    answers = [{ status: 503 }, { status: 429, headers: { 'retry-after': '2' } }, { status: 500 }, { status: 200 }];
    const { body, response } = await client().json<{ n: number }>({ url });
    assert.equal(body.n, 4);
    assert.equal(response.attempts, 4);
    assert.deepEqual(waits, [100, 2000, 400]);
  });

  it('does not retry a 4xx, and says how often it tried when it gives up', async () => {
    hits = 0;
    answers = [{ status: 400 }];
    await assert.rejects(
      client().json({ url }),
      (e: Error) =>
        e instanceof ProviderError &&
        e.status === 400 &&
        e.key === 'engine.request' &&
        /answered 400/.test(e.message) &&
        !/gave up/.test(e.message),
    );
    assert.equal(hits, 1);
    answers = [{ status: 502 }, { status: 502 }, { status: 502 }];
    await assert.rejects(
      client({ maxRetries: 2 }).json({ url }),
      /ProviderError: engine\.request: .*answered 502 .*\(gave up after 3 attempts; see engine\.request\.maxRetries\)$/,
    );
  });

  it('a request that gets no answer in time is retried, then reported with the setting to change', async () => {
    answers = [
      { status: 200, hang: true },
      { status: 200, hang: true },
    ];
    await assert.rejects(
      client({ timeoutMs: 100, maxRetries: 1 }).send({ url }),
      /ProviderError: engine\.request\.timeoutMs: no answer within 100 ms from \S+ \(gave up after 2 attempts; see engine\.request\.maxRetries\)$/,
    );
  });

  it('a refused connection is named as such', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    await assert.rejects(
      client({ maxRetries: 0 }).send({ url: `http://127.0.0.1:${port}/none` }),
      /ProviderError: engine\.request: connection refused \(ECONNREFUSED\) at http:\/\/127\.0\.0\.1:\d+\/none$/,
    );
  });

  it('cancelling stops a wait at once', async () => {
    hits = 0;
    answers = [{ status: 503 }];
    const controller = new AbortController();
    const slow = new HttpClient({ timeoutMs: 2000, maxRetries: 3, retryDelayMs: 600_000, settingPath: 's' }); // the real wait: only the abort ends it
    const pending = slow.send({ url, signal: controller.signal });
    while (hits === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('stop'));
    await assert.rejects(pending, /stop/);
    assert.equal(hits, 1);
  });
});
