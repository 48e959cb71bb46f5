// Item E: where a pipeline loses the relevant document. A real lexical + cross-encoder pipeline (the tiny
// generated reranker of test/helpers/tiny-models.ts, which scores by query/passage word overlap) over hand-built
// documents and queries, one per class; stage recall from the saved run's stored stage outputs, recomputed independently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classChanges, stageRecall } from '../../../src/core/experiment/stage-recall';
import { loadSavedRun } from '../../../src/core/experiment/run-store';
import { parseMetricList } from '../../../src/core/metrics';
import type { SavedRun } from '../../../src/core/run/types';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { stagesWorkspace as workspace } from '../../helpers/stages-workspace';

test('a reranked pipeline shows each class; stage recalls equal recall recomputed from the saved stage outputs', async () => {
  const dir = workspace();
  const session = RanklabSession.open(dir);
  const options = { gain: 'exp' as const, relevanceThreshold: 1 };
  const specs = parseMetricList('p@1');
  const r = await evaluateConfig(session, session.resolveConfig('rerank'), { specs, metricOptions: options });
  const judgments = session.judgmentsFor({});
  const report = stageRecall(r.run, r.stageIds, judgments, options, 1);
  assert.deepEqual(Object.fromEntries(Object.entries(report.perQuery).map(([q, v]) => [q, v.class])), {
    qA: 'hit',
    qB: 'ranking-miss',
    qC: 'retrieval-miss',
    qD: 'no-relevant',
  });
  assert.deepEqual(report.counts, { hit: 1, 'ranking-miss': 1, 'retrieval-miss': 1, 'no-relevant': 0 + 1 });
  assert.deepEqual(report.stages, ['lexical', 'rerank']);
  assert.equal(report.complete, true);
  // The final list (topM 1) of qB no longer holds b1: only the stored lexical output shows it was retrieved.
  assert.deepEqual(
    r.run.get('qB')!.map((d) => d.id),
    ['b2'],
  );
  assert.deepEqual(report.slices.greek, { hit: 1, 'ranking-miss': 1, 'retrieval-miss': 0, 'no-relevant': 0 });

  // Independently from the saved file: each stored stage list, and stages left out because they equal the final
  // list, rebuilt from the per-document stage ranks of the final list.
  const saved: SavedRun = loadSavedRun(r.path!);
  const relevant: Record<string, string[]> = { qA: ['a1'], qB: ['b1'], qC: ['c1'] };
  for (const q of saved.queries) {
    if (!relevant[q.qid]) continue;
    const lexical = q.stageIds!.lexical!;
    const rerank =
      q.stageIds!.rerank ??
      q.docs
        .filter((d) => d.stages?.rerank)
        .sort((x, y) => x.stages!.rerank!.rank - y.stages!.rerank!.rank)
        .map((d) => d.id);
    for (const d of q.docs)
      if (d.stages?.lexical)
        assert.equal(lexical[d.stages.lexical.rank - 1], d.id, 'stored lexical output agrees with the per-document rank');
    const recall = (ids: string[]) => ids.filter((id) => relevant[q.qid].includes(id)).length / relevant[q.qid].length;
    assert.equal(report.perQuery[q.qid].recall.lexical, recall(lexical), `${q.qid} lexical`);
    assert.equal(report.perQuery[q.qid].recall.rerank, recall(rerank), `${q.qid} rerank`);
  }
  assert.equal(report.perQuery.qB.recall.lexical, 1);
  assert.equal(report.perQuery.qB.recall.rerank, 0);
  assert.equal(report.meanRecall.lexical, 2 / 3);

  // A reused run yields the same stage outputs.
  const again = await evaluateConfig(session, session.resolveConfig('rerank'), { specs, metricOptions: options, reuse: true });
  assert.equal(again.reused, true);
  assert.deepEqual(stageRecall(again.run, again.stageIds, judgments, options, 1), report);
  // BM25 alone at depth 1 never retrieves b1 (b2 matches all three words): qB becomes a retrieval miss.
  const shallow = await evaluateConfig(session, session.resolveConfig('shallow'), { specs, metricOptions: options, save: false });
  assert.deepEqual(classChanges(report, stageRecall(shallow.run, shallow.stageIds, judgments, options, 1)), [
    { qid: 'qB', baseline: 'ranking-miss', candidate: 'retrieval-miss' },
  ]);
});

test('a TREC-style run without stage outputs is classed from its final list and marked incomplete', () => {
  const judgments = {
    queries: new Map(),
    qrels: new Map([
      ['q1', new Map([['r', 1]])],
      ['q2', new Map([['r', 1]])],
      ['q3', new Map([['r', 1]])],
    ]),
    fingerprint: 't',
    sources: [],
    diagnostics: [],
  };
  const run = new Map([
    ['q1', [{ id: 'r', score: 2 }]],
    [
      'q2',
      [
        { id: 'x', score: 2 },
        { id: 'r', score: 1 },
      ],
    ],
    ['q3', [{ id: 'x', score: 1 }]],
  ]);
  const report = stageRecall(run, undefined, judgments, { relevanceThreshold: 1 }, 1);
  assert.deepEqual(
    [report.perQuery.q1.class, report.perQuery.q2.class, report.perQuery.q3.class],
    ['hit', 'ranking-miss', 'retrieval-miss'],
  );
  assert.equal(report.complete, false);
  assert.deepEqual(report.meanRecall, { final: 2 / 3 });
});
