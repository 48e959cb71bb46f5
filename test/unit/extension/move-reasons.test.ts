// The dashboard's moved-document reasons beyond the first screenful, as the controller gets them: the comparison
// carries the reasons of its first REASON_QUERIES changed queries (asked of the real Ranklab worker), and a query
// opened later asks the worker for its own moved documents only; its detail then shows a reason on every moved
// document, the one the core gives in this thread. (The controller itself needs VS Code: the e2e covers it.)
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parseMetricList } from '../../../src/core/metrics/spec';
import { REASON_QUERIES, addMoveReasons, configsOfRuns } from '../../../src/core/session/explain';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { buildQueryDetail } from '../../../src/extension/dashboard/model';
import { dashboardComparison } from '../../../src/extension/dashboard/comparison';
import { applyMoveReasons, movesWithoutReason } from '../../../src/extension/dashboard/move-reasons';
import { readSavedRuns, type StoredRun } from '../../../src/extension/run-store';
import type { RanklabMethods, RanklabNotification } from '../../../src/extension/worker/protocol';
import { RpcClient } from '../../../src/extension/worker/rpc';
import { copyOfExample } from '../../helpers/workspace';

const client = new RpcClient<RanklabMethods, RanklabNotification>({ entry: join(__dirname, 'fixtures/ranklab-worker.cjs') });
after(() => client.terminate());

const runRef = (r: StoredRun) => ({ configHash: r.summary.provenance.configHash, corpus: r.summary.provenance.corpus });

test('a changed query beyond the first 20, opened in the dashboard, gets a reason on every moved document from the worker', async () => {
  const ws = copyOfExample();
  const session = RanklabSession.open(ws);
  const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };
  for (const name of ['baseline', 'title-boost-3'])
    await evaluateConfig(session, session.resolveConfig(name), { specs: parseMetricList('ndcg@10'), metricOptions });
  const { runs } = readSavedRuns(ws);
  const base = runs.find((r) => r.run.provenance.config === 'baseline')!;
  const cand = runs.find((r) => r.run.provenance.config === 'title-boost-3')!;
  const ask = (queries: ReturnType<typeof movesWithoutReason>) =>
    client.request('moveReasons', { root: ws, trusted: true, baseline: runRef(base), candidate: runRef(cand), queries });

  // The comparison as the controller computes it: reasons for the first screenful only.
  const asked: string[][] = [];
  const { core } = await dashboardComparison(
    base,
    cand,
    session.judgmentsFor({}),
    { metrics: ['ndcg@10'], ...metricOptions, gates: {} },
    {
      reasons: async (cmp) => {
        const queries = movesWithoutReason(
          cmp,
          cmp.queryDeltas.slice(0, REASON_QUERIES).map((q) => q.qid),
        );
        asked.push(queries.map((q) => q.qid));
        const r = await ask(queries);
        assert.equal(r.reproducible, true);
        applyMoveReasons(cmp, r.reasons);
      },
    },
  );
  assert.ok(core);
  assert.ok(core.queryDeltas.length > REASON_QUERIES, `the example has ${core.queryDeltas.length} changed queries`);
  assert.ok(asked[0].length > 0 && asked[0].length <= REASON_QUERIES);
  for (const q of core.queryDeltas.slice(0, REASON_QUERIES)) for (const m of q.moved) assert.ok(m.reason, `${q.qid} ${m.id}`);
  const late = core.queryDeltas.slice(REASON_QUERIES).find((q) => q.moved.length > 1)!;
  assert.ok(
    late.moved.every((m) => m.reason === undefined),
    'beyond the first screenful: not computed with the comparison',
  );

  // Opening it asks for that query alone; then every moved document has its reason, as the core says here.
  const pending = movesWithoutReason(core, [late.qid]);
  assert.deepEqual(pending, [{ qid: late.qid, text: late.text, moved: late.moved.map((m) => m.id) }]);
  applyMoveReasons(core, (await ask(pending)).reasons);
  const [b, c] = configsOfRuns(session, [base.run.provenance, cand.run.provenance])!;
  const here = {
    queryDeltas: [
      { qid: late.qid, text: late.text, moved: late.moved.map((m) => ({ id: m.id, reason: undefined as string | undefined })) },
    ],
  };
  await addMoveReasons(session, b, c, here);
  assert.deepEqual(
    late.moved.map((m) => m.reason),
    here.queryDeltas[0].moved.map((m) => m.reason),
  );
  for (const m of late.moved) assert.match(m.reason!, /^title boost 1→3[:;]/);
  assert.deepEqual(movesWithoutReason(core, [late.qid]), [], 'asked once: the next opening needs no worker');

  // The query's detail shows each moved document's reason on its rows (both lists); unmoved rows have none.
  const detail = buildQueryDetail(late.qid, base, cand, 'ndcg@10', 10, undefined, undefined, core);
  const byId = new Map(late.moved.map((m) => [m.id, m.reason]));
  const rows = [...detail.baseline!.docs, ...detail.candidate!.docs];
  assert.ok(rows.some((d) => d.reason !== undefined));
  for (const d of rows) assert.equal(d.reason, byId.get(d.id), d.id);
});
