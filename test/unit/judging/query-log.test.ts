import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readQueryLog, splitCsvLine } from '../../../src/core/judging/query-log';

test('JSONL: columns detected by name, garbled lines reported at file:line without their text', () => {
  const log = readQueryLog(
    [
      '{"q": "Red Shoes", "freq": 3, "ts": 1767261600, "sessionid": "s1", "UserID": 7}',
      'ana@example.com',
      '{"q": "   "}',
      '{"q": "hat", "freq": "many"}',
      '{"q": "hat", "freq": "2", "ts": "2026-01-01T10:00:00Z"}',
    ].join('\n'),
    'log.jsonl',
  );
  assert.equal(log.format, 'jsonl');
  assert.deepEqual(log.mapping, { query: 'q', count: 'freq', timestamp: 'ts', session: 'sessionid', user: 'UserID' });
  assert.equal(log.lines, 5);
  assert.deepEqual(
    log.records.map((r) => [r.text, r.count, r.line, r.session, r.user]),
    [
      ['Red Shoes', 3, 1, 's1', '7'],
      ['hat', 2, 5, undefined, undefined],
    ],
  );
  // Epoch seconds and ISO 8601 read as the same clock.
  assert.equal(log.records[0]!.time, 1767261600 * 1000);
  assert.equal(log.records[1]!.time, Date.UTC(2026, 0, 1, 10));
  assert.deepEqual(
    log.diagnostics.map((d) => `${d.file}:${d.line}`),
    ['log.jsonl:2', 'log.jsonl:3', 'log.jsonl:4'],
  );
  assert.ok(
    log.diagnostics.every((d) => !d.message.includes('ana@') && !d.message.includes('many')),
    'a report never quotes the line',
  );
});

test('an OpenSearch UBI query export (_source wrapped or not) maps user_query, client_id and timestamp', () => {
  const ubi = [
    {
      application: 'shop',
      query_id: 'a1',
      client_id: 'c1',
      user_query: 'laptop stand',
      timestamp: '2026-01-01T10:00:00.000Z',
      query_response_hit_ids: ['d1', 'd2'],
    },
    {
      _index: 'ubi_queries',
      _id: 'x',
      _source: {
        application: 'shop',
        query_id: 'a2',
        client_id: 'c2',
        user_query: 'yoga mat',
        timestamp: '2026-01-01T10:01:00.000Z',
        query_response_hit_ids: [],
      },
    },
  ]
    .map((o) => JSON.stringify(o))
    .join('\n');
  const log = readQueryLog(ubi, 'ubi_queries.jsonl');
  assert.deepEqual(log.mapping, { query: 'user_query', timestamp: 'timestamp', session: 'client_id' });
  assert.deepEqual(
    log.records.map((r) => [r.text, r.session]),
    [
      ['laptop stand', 'c1'],
      ['yoga mat', 'c2'],
    ],
  );
});

test('CSV: quoted fields, a header in any case, an unclosed quote reported at its line', () => {
  const log = readQueryLog('Search_Term,Count,User_Agent\n"shoes, red",4,Mozilla\n"say ""hi""",1,\n"open,2,x\n', 'log.csv');
  assert.equal(log.format, 'csv');
  assert.deepEqual(log.mapping, { query: 'Search_Term', count: 'Count', agent: 'User_Agent' });
  assert.deepEqual(
    log.records.map((r) => [r.text, r.count, r.agent, r.line]),
    [
      ['shoes, red', 4, 'Mozilla', 2],
      ['say "hi"', 1, undefined, 3],
    ],
  );
  assert.deepEqual(
    log.diagnostics.map((d) => [d.line, d.severity]),
    [[4, 'error']],
  );
  assert.deepEqual(splitCsvLine('a,"b,c",'), ['a', 'b,c', '']);
});

test('no query column: exit 2 naming the file and the columns seen; --columns names it', () => {
  assert.throws(
    () => readQueryLog('{"phrase": "x"}\n', 'log.jsonl'),
    (e: Error & { file?: string }) => e.file === 'log.jsonl' && /columns: phrase/.test(e.message) && /--columns query=/.test(e.message),
  );
  assert.deepEqual(
    readQueryLog('{"phrase": "x"}\n', 'log.jsonl', { query: 'phrase' }).records.map((r) => r.text),
    ['x'],
  );
  assert.throws(() => readQueryLog('{"phrase": "x"}\n', 'log.jsonl', { query: 'nope' }), /no column "nope"/);
});
