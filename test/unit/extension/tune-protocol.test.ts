// The Tune view's protocol between the host's HostEndpoint and the app's WebviewClient (messages copied and delivered
// asynchronously, as postMessage does), with the host's latest-only runner (src/extension/tune/model.ts LatestOnly):
// a burst of slider moves computes the first and the last only, one at a time, and the app sees the last one's figures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToWebview } from '../../../src/protocol/base';
import { type TuneMessages, type TuneSettingsMsg, type TuneState, tuneProtocol } from '../../../src/protocol/tune';
import { HostEndpoint } from '../../../src/extension/webviews/endpoint';
import { LatestOnly } from '../../../src/extension/tune/model';
import { type VsCodeApi, WebviewClient } from '../../../webview/ipc';

test('the protocol declares its messages under the view type ranklab.tune', () => {
  assert.equal(tuneProtocol.viewType, 'ranklab.tune');
  assert.deepEqual([...tuneProtocol.requests], ['apply', 'saveAs']);
  assert.deepEqual([...tuneProtocol.commands], ['move']);
  assert.deepEqual([...tuneProtocol.notifications], ['setup', 'result', 'status']);
});

test('50 moves in a burst: at most the running one and the last are computed; the app gets the last one', async () => {
  const computed: number[] = [];
  const release: Array<() => void> = [];
  const results: { seq: number; k1: number }[] = [];
  const window = new EventTarget();
  const api: VsCodeApi<TuneState> = {
    postMessage: (m) => {
      const copy = structuredClone(m);
      setImmediate(() => void host.receive(copy));
    },
    getState: () => undefined,
    setState: () => undefined,
  };
  // Each computation waits until the test lets it finish, and stops when aborted (as the worker's evaluate does).
  const moves = new LatestOnly<{ settings: TuneSettingsMsg; seq: number }, number>(
    ({ settings, seq }) =>
      new Promise((resolve) => {
        computed.push(seq);
        release.push(() => resolve(settings['lexical.bm25.k1']));
      }),
    ({ seq }, k1) => host.notify('status', { text: `${seq}:${k1}` }),
    (_, e) => host.notify('status', { text: String(e), error: true }),
  );
  const host: HostEndpoint<TuneMessages> = new HostEndpoint(
    tuneProtocol,
    {
      ready: () => undefined,
      requests: { apply: () => ({ path: '' }), saveAs: () => ({ path: '' }) },
      commands: { move: (p) => moves.submit(p) },
    },
    (m: ToWebview<TuneMessages>) => {
      const copy = structuredClone(m);
      setImmediate(() => window.dispatchEvent(new MessageEvent('message', { data: copy })));
      return Promise.resolve(true);
    },
    { warn: () => undefined, error: () => undefined },
  );
  const client = new WebviewClient<TuneMessages, TuneState>(
    tuneProtocol,
    {
      setup: () => undefined,
      result: () => undefined,
      status: (p) => {
        if (!p.error) {
          const [seq, k1] = p.text.split(':').map(Number);
          results.push({ seq, k1 });
        }
      },
    },
    { api, events: window },
  );
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  };
  client.ready();
  await settle();
  for (let seq = 1; seq <= 50; seq++) client.command('move', { settings: { 'lexical.bm25.k1': seq / 20 }, seq });
  await settle();
  assert.deepEqual(computed, [1], 'the first move runs; the others wait, each replacing the one before');
  release[0]();
  await settle();
  assert.deepEqual(computed, [1, 50], 'then only the last runs: the 48 between never do');
  assert.deepEqual(results, [], 'the superseded first move is not shown');
  release[1]();
  await settle();
  assert.deepEqual(results, [{ seq: 50, k1: 2.5 }], 'only the last move reaches the app');
  assert.equal(moves.busy, false);
  // A single move later is computed and shown as usual.
  client.command('move', { settings: { 'lexical.bm25.k1': 1 }, seq: 51 });
  await settle();
  release[2]();
  await settle();
  assert.deepEqual(results.at(-1), { seq: 51, k1: 1 });
});
