// The Tune view's protocol between the host's HostEndpoint and the app's WebviewClient (messages copied and delivered
// asynchronously, as postMessage does), with the host's latest-only two-stage runner (src/extension/tune/model.ts
// LatestOnly): a burst of slider moves computes the first and the last only, one at a time, and the app sees the last
// one's figures, first stage then statistics; a newer move drops both stages of the older and aborts its statistics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ToWebview } from '../../../src/protocol/base';
import {
  type TuneMessages,
  type TuneSettingsMsg,
  type TuneState,
  type TuneStats,
  type TuneView,
  tuneProtocol,
} from '../../../src/protocol/tune';
import { HostEndpoint } from '../../../src/extension/webviews/endpoint';
import { LatestOnly } from '../../../src/extension/tune/model';
import { type VsCodeApi, WebviewClient } from '../../../webview/ipc';

test('the protocol declares its messages under the view type ranklab.tune', () => {
  assert.equal(tuneProtocol.viewType, 'ranklab.tune');
  assert.deepEqual([...tuneProtocol.requests], ['apply', 'saveAs']);
  assert.deepEqual([...tuneProtocol.commands], ['move']);
  assert.deepEqual([...tuneProtocol.notifications], ['setup', 'result', 'stats', 'status']);
});

/** A first stage's figures carrying the move's k1 as its headline (what the test follows). */
const viewOf = (settings: TuneSettingsMsg): TuneView => ({
  settings,
  baseline: 'baseline',
  headline: { metric: 'ndcg@10', baseline: 0, current: settings['lexical.bm25.k1'], delta: settings['lexical.bm25.k1'] },
  queries: { all: 0, tune: 0, holdout: 0 },
  metrics: [],
  perQuery: [],
  wins: 0,
  losses: 0,
  ties: 0,
  ms: 0,
});
const statsOf = (settings: TuneSettingsMsg): TuneStats => ({
  pAdjusted: settings['lexical.bm25.k1'],
  ci: [0, 0],
  verdict: { outcome: 'no change', headline: '', basis: '' },
  gates: [],
  warnings: [],
  ms: 0,
});

test('50 moves in a burst, two stages each: only the running one and the last are computed; the app gets the last one', async () => {
  type Move = { settings: TuneSettingsMsg; seq: number };
  const quick: number[] = [];
  const full: number[] = [];
  const aborted: number[] = [];
  const release: Array<() => void> = [];
  const seen: string[] = [];
  const window = new EventTarget();
  const api: VsCodeApi<TuneState> = {
    postMessage: (m) => {
      const copy = structuredClone(m);
      setImmediate(() => void host.receive(copy));
    },
    getState: () => undefined,
    setState: () => undefined,
  };
  // Each stage waits until the test lets it finish; the full one stops when aborted (as the worker's evaluate does).
  const moves = new LatestOnly<Move, TuneView, TuneStats>(
    ({ settings, seq }) =>
      new Promise((resolve) => {
        quick.push(seq);
        release.push(() => resolve(viewOf(settings)));
      }),
    ({ settings, seq }, _view, signal) =>
      new Promise((resolve, reject) => {
        full.push(seq);
        signal.addEventListener('abort', () => {
          aborted.push(seq);
          reject(signal.reason);
        });
        release.push(() => resolve(statsOf(settings)));
      }),
    {
      quick: ({ seq }, view) => host.notify('result', { seq, view }),
      full: ({ seq }, stats) => host.notify('stats', { seq, stats }),
      fail: (_, e) => host.notify('status', { text: String(e), error: true }),
    },
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
      result: (p) => seen.push(`result ${p.seq}:${p.view.headline.current}`),
      stats: (p) => seen.push(`stats ${p.seq}:${p.stats.pAdjusted}`),
      status: (p) => seen.push(`status ${p.text}`),
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
  assert.deepEqual(quick, [1], 'the first move runs; the others wait, each replacing the one before');
  release[0]();
  await settle();
  assert.deepEqual(quick, [1, 50], 'then only the last runs: the 48 between never do');
  assert.deepEqual(full, [], 'the superseded first move never reaches its second stage');
  assert.deepEqual(seen, [], 'nor is its first stage shown');
  release[1]();
  await settle();
  assert.deepEqual(seen, ['result 50:2.5'], "the last move's first stage is shown at once, before its statistics");
  assert.deepEqual(full, [50], 'then its statistics are computed');
  release[2]();
  await settle();
  assert.deepEqual(seen, ['result 50:2.5', 'stats 50:2.5'], 'and shown');
  assert.equal(moves.busy, false);

  // A move while the statistics of the one before compute: those are aborted (the worker stops them) and never shown.
  client.command('move', { settings: { 'lexical.bm25.k1': 1 }, seq: 51 });
  await settle();
  release[3]();
  await settle();
  assert.deepEqual(full, [50, 51]);
  client.command('move', { settings: { 'lexical.bm25.k1': 2 }, seq: 52 });
  await settle();
  assert.deepEqual(aborted, [51], "the older move's statistics are aborted");
  assert.deepEqual(quick, [1, 50, 51, 52], 'the newer move starts without waiting for them');
  release[5]();
  await settle();
  release[4](); // the aborted one settling late changes nothing
  release[6]();
  await settle();
  assert.deepEqual(seen.slice(2), ['result 51:1', 'result 52:2', 'stats 52:2'], 'no statistics of 51; both stages of 52, in order');
  assert.equal(moves.busy, false);
});
