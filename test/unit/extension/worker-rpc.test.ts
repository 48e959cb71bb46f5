// The extension's worker RPC (src/extension/worker/rpc.ts) over a real worker thread: requests, progress,
// notifications, cooperative cancel, forced cancel of work that never pauses, errors, and a crashed worker
// reported and replaced. No timing is asserted: only what arrives, in which order, and from which thread.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { threadId } from 'node:worker_threads';
import { RemoteError, RpcClient, WorkerDiedError } from '../../../src/extension/worker/rpc';
import type { TestMethods } from './fixtures/rpc-worker';

const entry = path.join(import.meta.dirname, 'fixtures/rpc-worker.cjs');
const deaths: WorkerDiedError[] = [];
const logs: string[] = [];
const client = new RpcClient<TestMethods, string>({ entry, graceMs: 300, onDeath: (e) => deaths.push(e), onLog: (_l, m) => logs.push(m) });
after(() => client.terminate());

test('a request is answered from another thread', async () => {
  const r = await client.request('echo', { text: 'hello ✓' });
  assert.equal(r.text, 'hello ✓');
  assert.notEqual(r.threadId, threadId);
  assert.equal(client.started, 1);
});

test('progress arrives in order before the answer; notifications reach the worker', async () => {
  const seen: number[] = [];
  const r = await client.request('count', { n: 20 }, { onProgress: (p) => seen.push(p) });
  assert.equal(r, 20);
  assert.deepEqual(
    seen,
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  client.notify('first');
  client.notify('second');
  assert.deepEqual((await client.request('echo', { text: '' })).notes, ['first', 'second']);
});

test('cancel reaches the work through its AbortSignal: it stops, the worker lives on', async () => {
  const abort = new AbortController();
  const seen: number[] = [];
  const reason = new Error('user cancelled');
  const done = client.request(
    'count',
    { n: 1_000_000 },
    { signal: abort.signal, onProgress: (p) => (seen.push(p), p === 5 && abort.abort(reason)) },
  );
  await assert.rejects(done, (e) => e === reason);
  const stoppedAt = seen.length;
  assert.ok(stoppedAt >= 5 && stoppedAt < 1_000_000, `stopped after ${stoppedAt} steps`);
  // Same worker, still answering; and the cancelled work sends nothing more.
  assert.equal((await client.request('echo', { text: 'still here' })).text, 'still here');
  assert.equal(client.started, 1);
  assert.equal(seen.length, stoppedAt);
  assert.equal(deaths.length, 0);
});

test('work that never pauses is stopped by terminating the worker; the next request starts a new one', async () => {
  const abort = new AbortController();
  const reason = new Error('cancel the spin');
  // 10 minutes of spinning: this test would hang far beyond any test timeout if the forced stop did not happen.
  const spinning = client.request('spin', { ms: 600_000 }, { signal: abort.signal });
  setTimeout(() => abort.abort(reason), 50);
  await assert.rejects(spinning, (e) => e === reason);
  assert.equal((await client.request('echo', { text: 'new worker' })).text, 'new worker');
  assert.equal(client.started, 2);
});

test('an error thrown in the worker rejects that request only', async () => {
  await assert.rejects(
    client.request('fail', { message: 'bad input: file x, line 3' }),
    (e) => e instanceof RemoteError && e.message === 'bad input: file x, line 3',
  );
  await assert.rejects(client.request('nope' as 'echo', { text: '' }), /unknown worker method "nope"/);
  assert.equal((await client.request('echo', { text: 'ok' })).text, 'ok');
});

test('a crashed worker rejects what was in flight, is reported, and is replaced on the next request', async () => {
  const before = client.started;
  const other = client.request('count', { n: 1_000_000 });
  await assert.rejects(client.request('crash', {}), (e) => e instanceof WorkerDiedError && /boom in the worker/.test(e.message));
  await assert.rejects(other, WorkerDiedError);
  assert.equal(deaths.length, 1);
  assert.match(deaths[0].message, /boom in the worker/);
  assert.equal(client.running, false);
  const r = await client.request('echo', { text: 'after the crash' });
  assert.equal(r.text, 'after the crash');
  assert.equal(client.started, before + 1);
});
