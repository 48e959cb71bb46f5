// The two halves of a webview protocol talking to each other in plain Node: the host's HostEndpoint
// (src/extension/webviews/endpoint.ts) and the app's WebviewClient (webview/ipc.ts). Between them, messages are
// copied (structuredClone) and delivered asynchronously, as VS Code's postMessage does; nothing else is stood in for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineProtocol, type ToWebview } from '../../../src/protocol/base';
import { HostEndpoint, type ViewHandlers } from '../../../src/extension/webviews/endpoint';
import { WebviewClient, type VsCodeApi } from '../../../webview/ipc';

type TestMessages = {
  requests: {
    add: { params: { a: number; b: number }; result: number };
    wait: { params: { label: string }; result: string };
    fail: { params: Record<string, never>; result: never };
  };
  commands: { open: { id: string } };
  notifications: { init: { greeting: string }; tick: { n: number } };
};

const protocol = defineProtocol<TestMessages>({
  viewType: 'ranklab.test',
  version: 3,
  requests: { add: true, wait: true, fail: true },
  commands: { open: true },
  notifications: { init: true, tick: true },
});

/** A host endpoint and a client joined by a simulated postMessage in both directions, with what each side saw. */
function connect(overrides: Partial<ViewHandlers<TestMessages>> = {}) {
  const seen = {
    opened: [] as string[],
    readyCalls: 0,
    notifications: [] as { name: string; params: unknown }[],
    warnings: [] as string[],
    errors: [] as string[],
    posted: [] as unknown[],
    state: undefined as { page: number } | undefined,
  };
  const window = new EventTarget();
  /** Requests `wait` answer when the test releases them by label. */
  const release = new Map<string, () => void>();
  const api: VsCodeApi<{ page: number }> = {
    postMessage: (m) => {
      const copy = structuredClone(m);
      setImmediate(() => void host.receive(copy));
    },
    getState: () => seen.state,
    setState: (s) => (seen.state = s),
  };
  const handlers: ViewHandlers<TestMessages> = {
    ready: () => {
      seen.readyCalls++;
      host.notify('init', { greeting: 'hello' });
    },
    requests: {
      add: ({ a, b }) => a + b,
      wait: ({ label }) => new Promise<string>((resolve) => release.set(label, () => resolve(label))),
      fail: () => {
        throw new Error('the judgments could not be read');
      },
    },
    commands: { open: ({ id }) => void seen.opened.push(id) },
    ...overrides,
  };
  const host: HostEndpoint<TestMessages> = new HostEndpoint(
    protocol,
    handlers,
    (m: ToWebview<TestMessages>) => {
      seen.posted.push(m);
      const copy = structuredClone(m);
      setImmediate(() => window.dispatchEvent(new MessageEvent('message', { data: copy })));
      return Promise.resolve(true);
    },
    { warn: (m) => seen.warnings.push(m), error: (m) => seen.errors.push(m) },
  );
  const client = new WebviewClient<TestMessages, { page: number }>(
    protocol,
    {
      init: (p) => seen.notifications.push({ name: 'init', params: p }),
      tick: (p) => seen.notifications.push({ name: 'tick', params: p }),
    },
    { api, events: window },
  );
  /** Lets every message in flight arrive and be handled (each hop takes one turn of the event loop, whatever the clock). */
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  };
  return { host, client, seen, settle, release, window };
}

test('handshake: the host is not ready until the app says ready, then it calls the view and its state reaches the app', async () => {
  const { host, client, seen, settle } = connect();
  assert.equal(host.isReady, false);
  client.ready();
  await settle();
  assert.equal(host.isReady, true);
  assert.equal(seen.readyCalls, 1);
  assert.deepEqual(seen.notifications, [{ name: 'init', params: { greeting: 'hello' } }]);
  // A reload of the app says ready again and gets the state again.
  client.ready();
  await settle();
  assert.equal(seen.readyCalls, 2);
  assert.equal(seen.notifications.length, 2);
  assert.deepEqual(seen.warnings, []);
});

test('a ready with another protocol version is still served, with a warning in the log', async () => {
  const { host, seen, settle } = connect();
  await host.receive({ type: 'ready', protocol: 2 });
  await settle();
  assert.equal(host.isReady, true);
  assert.match(seen.warnings.join('\n'), /ranklab\.test: webview protocol 2, host protocol 3/);
});

test('requests: each answer goes to its own request, whatever order the answers come in', async () => {
  const { client, release, settle } = connect();
  const order: string[] = [];
  const track = <T>(name: string, p: Promise<T>) => p.then((v) => (order.push(name), v));
  const first = track('first', client.request('wait', { label: 'first' }));
  const second = track('second', client.request('wait', { label: 'second' }));
  const sum = track('sum', client.request('add', { a: 2, b: 40 }));
  await settle();
  // Answered in the reverse order of asking: the sum at once, then the second, then the first.
  release.get('second')!();
  await settle();
  release.get('first')!();
  assert.deepEqual(await Promise.all([first, second, sum]), ['first', 'second', 42]);
  assert.deepEqual(order, ['sum', 'second', 'first']);
});

test('a request whose handler throws is answered with the message (stack only in the log) and rejects in the app', async () => {
  const { client, seen } = connect();
  await assert.rejects(client.request('fail', {}), (e: Error) => e.message === 'the judgments could not be read');
  assert.equal(seen.errors.length, 1);
  assert.match(seen.errors[0], /request fail failed: Error: the judgments could not be read\n\s+at /);
});

test('an unknown request is answered with an error, so the app does not wait for ever', async () => {
  const { host, client, seen } = connect();
  await host.receive({ type: 'request', requestId: 7, method: 'deleteEverything', params: {} });
  assert.deepEqual(seen.posted.at(-1), { type: 'response', requestId: 7, ok: false, error: 'unknown request "deleteEverything"' });
  // The same through the client (a newer app against an older host): the promise rejects.
  const unknown = client.request('deleteEverything' as 'add', { a: 1, b: 2 });
  await assert.rejects(unknown, /unknown request "deleteEverything"/);
  // A known method with unusable params is refused as malformed.
  await host.receive({ type: 'request', requestId: 8, method: 'add', params: 'not an object' });
  assert.deepEqual(seen.posted.at(-1), { type: 'response', requestId: 8, ok: false, error: 'malformed request "add"' });
});

test('commands run their handler and are not answered; malformed messages are ignored with a warning', async () => {
  const { host, client, seen, settle } = connect();
  client.command('open', { id: 'doc-1' });
  await settle();
  assert.deepEqual(seen.opened, ['doc-1']);
  assert.deepEqual(seen.posted, []);
  for (const m of [null, 'ready', { type: 'command', command: 'rm', params: {} }, { type: 'hello' }]) await host.receive(m);
  assert.deepEqual(seen.posted, []);
  assert.equal(seen.warnings.filter((w) => w.startsWith('ranklab.test: ignored malformed message')).length, 4);
});

test('a command handler that throws is logged, and later messages are still handled', async () => {
  const { host, client, settle, seen } = connect({
    commands: {
      open: () => {
        throw new Error('no such document');
      },
    },
  });
  client.command('open', { id: 'x' });
  await settle();
  assert.match(seen.errors.join('\n'), /command open failed: Error: no such document/);
  assert.equal(await client.request('add', { a: 1, b: 1 }), 2);
  assert.equal(host.isReady, false);
});

test('the client ignores responses it did not ask for and notifications the protocol does not declare', async () => {
  const { host, client, seen, settle, window } = connect();
  host.notify('tick', { n: 1 });
  await host.receive({ type: 'request', requestId: 999, method: 'add', params: { a: 1, b: 1 } }); // answered to nobody
  window.dispatchEvent(new MessageEvent('message', { data: { type: 'notification', name: 'explode', params: {} } }));
  window.dispatchEvent(new MessageEvent('message', { data: { type: 'response', requestId: 'one', ok: true, result: 5 } }));
  await settle();
  assert.deepEqual(seen.notifications, [{ name: 'tick', params: { n: 1 } }]);
  // The next request of the client (its id 1) is answered normally.
  assert.equal(await client.request('add', { a: 20, b: 22 }), 42);
});

test('the client keeps the panel state through the webview API (getState/setState)', () => {
  const { client, seen } = connect();
  assert.equal(client.state, undefined);
  client.state = { page: 2 };
  assert.deepEqual(seen.state, { page: 2 });
  assert.deepEqual(client.state, { page: 2 });
});
