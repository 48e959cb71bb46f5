import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readImpressions, readUbi } from '../../../src/core/judging/click-log';
import { type Impression, coecGrades, positionCtr } from '../../../src/core/judging/clicks';
import { createRng } from '../../../src/core/util/random';
import { simulateClicks } from '../../helpers/query-logs';

const imp = (results: string[], clicks: string[], query = 'q'): Impression => ({ query, results, clicks: new Set(clicks) });

test('COEC by hand: clicks over the clicks expected at the positions shown', () => {
  // d1 is clicked wherever it is shown, d2 never: ctr is 0.5 at both positions.
  const log = [imp(['d1', 'd2'], ['d1']), imp(['d1', 'd2'], ['d1']), imp(['d2', 'd1'], ['d1']), imp(['d2', 'd1'], ['d1'])];
  assert.deepEqual(positionCtr(log), [0.5, 0.5]);
  const m = coecGrades(log, { minImpressions: 4, thresholds: [0.5, 1, 2] });
  // d1: 4 clicks, expected 4 × 0.5 = 2, COEC 2 → grade 3 (reaches 0.5, 1 and 2); d2: 0 → grade 0.
  assert.deepEqual(
    m.grades.map((g) => [g.docId, g.clicks, g.expected, g.coec, g.grade]),
    [
      ['d1', 4, 2, 2, 3],
      ['d2', 0, 2, 0, 0],
    ],
  );
  const few = coecGrades(log, { minImpressions: 5, thresholds: [0.5, 1, 2] });
  assert.deepEqual([few.grades.length, few.belowThreshold], [0, 2]);
});

test('queries are matched by their normal form', () => {
  const m = coecGrades([imp(['d1'], ['d1'], 'Red  Shoes'), imp(['d1'], [], 'red shoes')], { minImpressions: 2, thresholds: [1] });
  assert.deepEqual(
    m.grades.map((g) => [g.query, g.clicks, g.impressions]),
    [['red shoes', 1, 2]],
  );
});

test('position bias is corrected: a good document shown low outranks a poor one shown first', () => {
  const rng = createRng(3);
  const grades = () => new Map(Array.from({ length: 8 }, (_, i) => [`d${i}`, Math.floor(rng() * 4)]));
  const queries = Array.from({ length: 30 }, (_, i) => ({ text: `q${i}`, docs: grades() }));
  // One query in a fixed order: a fair document (grade 2) always first, a perfect one always sixth.
  const fixed = {
    text: 'fixed',
    docs: new Map([
      ['fair', 2],
      ['x1', 0],
      ['x2', 0],
      ['x3', 0],
      ['x4', 0],
      ['best', 3],
      ['x5', 0],
      ['x6', 0],
    ]),
  };
  const shuffled = simulateClicks(1, queries, 6000, (docs, r) =>
    docs
      .map((d) => [d, r()] as const)
      .sort((a, b) => a[1] - b[1])
      .map((x) => x[0]),
  );
  const pinned = simulateClicks(2, [fixed], 600, (docs) => docs);
  const m = coecGrades([...shuffled, ...pinned], { minImpressions: 10, thresholds: [0.5, 1, 2] });
  const of = (doc: string) => m.grades.find((g) => g.query === 'fixed' && g.docId === doc)!;
  assert.ok(of('fair').clicks > of('best').clicks, 'raw clicks favour the first position');
  assert.ok(of('best').coec > of('fair').coec, `COEC ${of('best').coec} vs ${of('fair').coec}`);
  assert.ok(m.ctr[0]! > m.ctr[3]! && m.ctr[3]! > m.ctr[7]!, 'ctr falls with position');
  // Over the shuffled queries, the mean COEC rises with the true grade.
  const mean = [0, 1, 2, 3].map((g) => {
    const xs = m.grades.filter((x) => x.query !== 'fixed' && queries[Number(x.query.slice(1))]!.docs.get(x.docId) === g).map((x) => x.coec);
    return xs.reduce((s, x) => s + x, 0) / xs.length;
  });
  assert.ok(mean[0]! < mean[1]! && mean[1]! < mean[2]! && mean[2]! < mean[3]!, mean.join(' '));
});

test('JSONL result lists: garbled lines and clicks outside the list reported at file:line', () => {
  const r = readImpressions(
    [
      '{"query": "hat", "results": ["a", "b"], "clicks": ["b"]}',
      '{"query": "hat", "results": "a b"}',
      'nope',
      '{"_source": {"user_query": "cap", "hits": ["c", 7], "clicked": ["zz"]}}',
    ].join('\n'),
    'clicks.jsonl',
  );
  assert.deepEqual(
    r.impressions.map((i) => [i.query, i.results, [...i.clicks]]),
    [
      ['hat', ['a', 'b'], ['b']],
      ['cap', ['c', '7'], []],
    ],
  );
  assert.deepEqual(
    r.diagnostics.map((d) => [d.line, d.severity]),
    [
      [2, 'error'],
      [3, 'error'],
      [4, 'warning'],
    ],
  );
});

test('UBI query and event exports: clicks joined by query_id; other actions, unknown ids and objects not shown are not clicks', () => {
  const queries = [
    {
      query_id: 'q-1',
      user_query: 'laptop stand',
      client_id: 'c1',
      query_response_hit_ids: ['p1', 'p2', 'p3'],
      timestamp: '2026-01-01T10:00:00Z',
    },
    { query_id: 'q-2', user_query: 'yoga mat', client_id: 'c2', query_response_hit_ids: ['p9'], timestamp: '2026-01-01T10:00:05Z' },
  ]
    .map((x) => JSON.stringify(x))
    .join('\n');
  const event = (action: string, qid: string, object: string) =>
    JSON.stringify({
      action_name: action,
      query_id: qid,
      client_id: 'c1',
      timestamp: '2026-01-01T10:00:02Z',
      event_attributes: { object: { object_id: object, object_id_field: 'sku' }, position: { ordinal: 1 } },
    });
  const events = [
    event('click', 'q-1', 'p2'),
    event('hover', 'q-1', 'p1'),
    event('click', 'q-404', 'p1'),
    event('click', 'q-2', 'p1'),
    event('add_to_cart', 'q-2', 'p9'),
  ].join('\n');
  const r = readUbi({ text: queries, file: 'ubi_queries.jsonl' }, { text: events, file: 'ubi_events.jsonl' });
  assert.deepEqual(
    r.impressions.map((i) => [i.query, [...i.clicks]]),
    [
      ['laptop stand', ['p2']],
      ['yoga mat', []],
    ],
  );
  assert.deepEqual(
    r.diagnostics.map((d) => `${d.file}:${d.line}`),
    ['ubi_events.jsonl:3', 'ubi_events.jsonl:4'],
  );
  const withCart = readUbi({ text: queries, file: 'q' }, { text: events, file: 'e' }, ['click', 'add_to_cart']);
  assert.deepEqual(
    withCart.impressions.map((i) => [...i.clicks]),
    [['p2'], ['p9']],
  );
});
