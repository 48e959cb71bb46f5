// The dashboard's expanded document (src/extension/dashboard/explanation.ts): the core's `ranklab explain` report on
// the example workspace, as the protocol's plain data — baseline first, each side named by its run, the figures the
// panel shows unchanged; and the webview's request passes the host's message guard.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { after, test } from 'node:test';
import { explainDocument } from '../../../src/core/session/explain';
import { RanklabSession } from '../../../src/core/session/session';
import { explanationView } from '../../../src/extension/dashboard/explanation';
import { isWebviewToHost } from '../../../src/protocol/dashboard';

const dir = mkdtempSync(join(tmpdir(), 'ranklab-explain-view-'));
cpSync(resolve(__dirname, '../../../examples/food-search'), dir, { recursive: true, filter: (src) => !src.includes(`${sep}.ranklab`) });
after(() => rmSync(dir, { recursive: true, force: true }));
const session = RanklabSession.open(dir);
const config = (name: string) => session.usable(session.configEntries().find((e) => e.name === name)!);

test('explainDocument is a request the host accepts from the webview; malformed ones are refused', () => {
  assert.equal(
    isWebviewToHost({ type: 'request', requestId: 1, method: 'explainDocument', params: { qid: 'q01', docId: 'origin-gayo' } }),
    true,
  );
  assert.equal(isWebviewToHost({ type: 'request', requestId: 1, method: 'explainDocument' }), false);
});

test("baseline vs hybrid: both sides in the dashboard's order with their runs, lexical parts and fused lists as the core computed them", async () => {
  const report = await explainDocument(session, {
    config: config('hybrid-rrf'),
    baseline: config('baseline'),
    query: 'q01',
    doc: 'origin-gayo',
  });
  const view = explanationView('q01', report, { candidate: 'run-c', baseline: 'run-b' });
  assert.deepEqual(
    view.sides.map((s) => [s.side, s.runId, s.config]),
    [
      ['baseline', 'run-b', 'baseline'],
      ['candidate', 'run-c', 'hybrid-rrf'],
    ],
  );
  assert.equal(view.reason, report.reason);
  assert.ok(view.reason && view.reason.length > 0);
  assert.equal(view.error, undefined);
  for (const side of view.sides) {
    const lexical = side.steps.find((s) => s.step === 'lexical')!.lexical!;
    // The table's rows add up to the sum it shows (and the sum is the lexical step's score).
    const total = lexical.parts.reduce((a, p) => a + p.contribution, 0);
    assert.ok(Math.abs(total - lexical.sum) < 1e-9, `${total} vs ${lexical.sum}`);
    assert.ok(lexical.parts.every((p) => p.tf > 0 && p.idf > 0 && p.lengthNorm > 0));
  }
  // Each step carries what its explanation holds, as docs/cli.md words it.
  assert.equal(
    view.sides[1].steps.find((s) => s.step === 'fuse')!.about,
    "each list's rank (within the hybrid depth), weight and weight/(k+rank); the sum is the fused score",
  );
  const fusion = view.sides[1].steps.find((s) => s.step === 'fuse')!.fusion!;
  assert.deepEqual(
    fusion.lists.map((l) => l.name),
    ['lexical', 'vector'],
  );
  // Reciprocal rank fusion by hand: weight / (k + rank) for each list that holds the document.
  for (const l of fusion.lists) if (l.rank !== null) assert.ok(Math.abs(l.contribution - l.weight / (fusion.k + l.rank)) < 1e-12);
  assert.ok(Math.abs(fusion.sum - fusion.lists.reduce((a, l) => a + l.contribution, 0)) < 1e-12);
  assert.ok(
    view.sides[1].steps.some((s) => s.step === 'vector' && s.vector && (s.vector.producedBy === 'hnsw' || s.vector.producedBy === 'exact')),
  );
  // Each run's full ranking stays in the worker; what crosses to the webview is plain data.
  assert.equal(JSON.stringify(view).includes('"ranking"'), false);
  assert.deepEqual(structuredClone(view), view);
});

test("a query shown with one run only: one side, the candidate's, and no reason", async () => {
  const report = await explainDocument(session, { config: config('baseline'), query: 'q01', doc: 'page-about' });
  const view = explanationView('q01', report, { candidate: 'run-only' });
  assert.deepEqual(
    view.sides.map((s) => [s.side, s.runId]),
    [['candidate', 'run-only']],
  );
  assert.equal(view.reason, undefined);
  const side = view.sides[0];
  assert.equal(side.rank === null, side.fellOut !== null);
});
