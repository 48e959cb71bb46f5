// The per-query view's pure parts (webview/dashboard/query-view.ts): filters, sort, the window of a windowed list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { QueryRow } from '../../../src/protocol/dashboard';
import {
  DEFAULT_QUERY_VIEW,
  matchRuns,
  outcomeCounts,
  scrollToShow,
  visibleRows,
  windowRange,
} from '../../../webview/dashboard/query-view';

const row = (qid: string, delta: number | undefined, tags: string[] = [], split?: string, text = qid): QueryRow => ({
  qid,
  text,
  tags,
  ...(split && { split }),
  ...(delta !== undefined && {
    baseline: 0.5,
    candidate: 0.5 + delta,
    delta,
    outcome: delta > 1e-9 ? 'win' : delta < -1e-9 ? 'loss' : 'tie',
  }),
});
const rows = [
  row('q1', 0.2, ['faq'], 'tune', 'tomato soup'),
  row('q2', -0.3, ['faq'], 'holdout'),
  row('q3', 0),
  row('q4', undefined),
  row('q5', -0.1, [], 'tune', 'Soup of the day'),
];

test('default view: Δ ascending, worst first, queries missing a side last', () => {
  assert.deepEqual(
    visibleRows(rows, DEFAULT_QUERY_VIEW).map((r) => r.qid),
    ['q2', 'q5', 'q3', 'q1', 'q4'],
  );
  assert.deepEqual(
    visibleRows(rows, { ...DEFAULT_QUERY_VIEW, descending: true }).map((r) => r.qid),
    ['q1', 'q3', 'q5', 'q2', 'q4'],
  );
});

test('filters combine: slice (tag or split), outcome, and every typed word in id or text', () => {
  const ids = (v: Partial<typeof DEFAULT_QUERY_VIEW>) => visibleRows(rows, { ...DEFAULT_QUERY_VIEW, ...v }).map((r) => r.qid);
  assert.deepEqual(ids({ slice: 'faq' }), ['q2', 'q1']);
  assert.deepEqual(ids({ slice: 'split:tune' }), ['q5', 'q1']);
  assert.deepEqual(ids({ outcome: 'loss' }), ['q2', 'q5']);
  assert.deepEqual(ids({ outcome: 'changed' }), ['q2', 'q5', 'q1']);
  assert.deepEqual(ids({ text: 'SOUP' }), ['q5', 'q1']);
  assert.deepEqual(ids({ text: 'soup q1' }), ['q1']);
  assert.deepEqual(ids({ slice: 'split:tune', outcome: 'win', text: 'soup' }), ['q1']);
  assert.deepEqual(outcomeCounts(rows.slice(0, 5)), { wins: 1, losses: 2, ties: 1 });
});

test('window of a windowed list: only the rows in view plus the overscan, whatever the count', () => {
  // 5,000 rows of 24 px in a 480 px viewport scrolled to row 1,000: rows 992..1,028 (20 visible + 8 either side).
  assert.deepEqual(windowRange(24_000, 480, 24, 5000), { first: 992, end: 1028 });
  assert.deepEqual(windowRange(0, 480, 24, 5000), { first: 0, end: 28 });
  assert.deepEqual(windowRange(24 * 4990, 480, 24, 5000), { first: 4982, end: 5000 });
  assert.deepEqual(windowRange(0, 480, 24, 0), { first: 0, end: 0 });
  // Scrolling a selected row into view moves as little as possible.
  assert.equal(scrollToShow(10, 0, 480, 24), 0);
  assert.equal(scrollToShow(30, 0, 480, 24), 30 * 24 + 24 - 480);
  assert.equal(scrollToShow(5, 24 * 20, 480, 24), 5 * 24);
});

test('run pickers filter on every word of "config · principal · time · metric" and the id', () => {
  const runs = [
    { id: 'baseline-1', search: 'baseline · unrestricted · 2026-12-03 14:00 · ndcg@10 0.779 baseline-1 no principal' },
    { id: 'tb3-ayu', search: 'title-boost-3 · as ayu · 2026-12-03 14:05 · ndcg@10 0.741 tb3-ayu ayu' },
  ] as never[];
  assert.deepEqual(
    matchRuns(runs, 'ayu').map((r: { id: string }) => r.id),
    ['tb3-ayu'],
  );
  assert.deepEqual(
    matchRuns(runs, '2026-12-03 0.779').map((r: { id: string }) => r.id),
    ['baseline-1'],
  );
  assert.equal(matchRuns(runs, '').length, 2);
});
