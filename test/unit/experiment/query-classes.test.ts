// The query-class table (src/core/experiment/query-classes.ts): stage recall classes by its names, and every face
// (the CLI's stage-recall table and legend, the dashboard) reads its labels from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QUERY_CLASSES, queryClassLegend, queryClassTexts } from '../../../src/core/experiment/query-classes';
import { stageRecallTable } from '../../../src/core/report/stage-recall';
import { stageRecall } from '../../../src/core/experiment/stage-recall';
import { judgmentsOf } from '../../helpers/judgments';

test('labels and meanings at a cut-off; the legend is every class in order', () => {
  assert.deepEqual(QUERY_CLASSES, ['hit', 'ranking-miss', 'retrieval-miss', 'no-relevant']);
  assert.deepEqual(
    queryClassTexts(5).map((c) => c.label),
    ['hit@5', 'ranking miss', 'retrieval miss', 'no relevant'],
  );
  // The dashboard's legend as it was written in the app before the table existed: the same words.
  assert.equal(
    queryClassLegend(10),
    'hit@10: a relevant document is in the top 10; ranking miss: none there, but some stage (or the list below 10) ' +
      'retrieved one — better ranking can fix it; retrieval miss: no stage retrieved any — only retrieval can fix it; no relevant: the query has no relevant judgment',
  );
});

test('stage recall counts exactly the declared classes, and the CLI table heads its columns with their labels', () => {
  const judgments = judgmentsOf({ q1: { a: 1 }, q2: { b: 1 }, q3: { c: 1 }, q4: { a: 0 } });
  const run = new Map([
    ['q1', [{ id: 'a', score: 2 }]],
    [
      'q2',
      [
        { id: 'x', score: 2 },
        { id: 'b', score: 1 },
      ],
    ],
    ['q3', [{ id: 'x', score: 1 }]],
    ['q4', [{ id: 'a', score: 1 }]],
  ]);
  const report = stageRecall(run, undefined, judgments, { relevanceThreshold: 1 }, 1);
  assert.deepEqual(Object.keys(report.counts), QUERY_CLASSES);
  assert.deepEqual(report.counts, { hit: 1, 'ranking-miss': 1, 'retrieval-miss': 1, 'no-relevant': 1 });
  const table = stageRecallTable([['r', report]]);
  assert.deepEqual(table.headers.slice(0, 5), ['run', 'hit@1', 'ranking miss', 'retrieval miss', 'no relevant']);
  assert.deepEqual(table.rows[0].slice(0, 5), ['r', '1', '1', '1', '1']);
  assert.equal(table.legend, queryClassLegend(1));
});
