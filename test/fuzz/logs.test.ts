// Bad query logs, click logs and flags through `ranklab queries sample` and `ranklab judgments from-clicks`: every
// garbled line reported at file:line (never quoted: it may hold personal data) and skipped, the rest used; an
// unusable input or flag is exit 2 naming it, and nothing is written.
import assert from 'node:assert/strict';
import { type FuzzCase, type FuzzWorkspace, at, fuzzTable } from './harness';

const LOG = 'logs/searches.jsonl';
const GOOD = [
  '{"query": "kopi gayo", "session_id": "a"}',
  '{"query": "toraja coffee", "session_id": "b"}',
  '{"query": "kopi gayo", "session_id": "c"}',
];
const SAMPLE = ['queries', 'sample', '--log', LOG, '--n', '2', '--out', 'sampled.json'];
const log =
  (...lines: string[]) =>
  (ws: FuzzWorkspace) =>
    ws.write(LOG, lines.join('\n') + '\n');
const CLICKS = 'logs/clicks.jsonl';
const withRaters = (ws: FuzzWorkspace) => ws.settings((s) => (s.judgments = [...s.judgments, { raters: 'judgments/raters' }]));
const clickLog =
  (...lines: string[]) =>
  (ws: FuzzWorkspace) => {
    withRaters(ws);
    ws.write(CLICKS, lines.join('\n') + '\n');
  };
const CLICK_LINE = '{"query": "kopi gayo", "results": ["origin-gayo", "visit-gayo"], "clicks": ["origin-gayo"]}';

/** A log line that cannot be read: reported at its line (without its text), the rest sampled. */
function badLine(name: string, line: string, words: (string | RegExp)[]): FuzzCase {
  return {
    name: `log line: ${name}`,
    setup: log(GOOD[0]!, line, ...GOOD.slice(1)),
    argv: SAMPLE,
    expect: {
      code: 0,
      stderr: [at(LOG, 2), ...words],
      notStderr: [line.length > 3 ? line.slice(0, 30) : '\u0000'],
      writes: [LOG, 'sampled.json'],
      check: (_, ws) => assert.equal(ws.json('sampled.json').length, 2),
    },
  };
}

const refused = (
  name: string,
  setup: (ws: FuzzWorkspace) => void,
  argv: string[],
  stderr: (string | RegExp)[],
  writes: string[] = [],
): FuzzCase => ({
  name,
  setup,
  argv,
  expect: { code: 2, stderr, writes },
});

const cases: FuzzCase[] = [
  badLine('invalid JSON', '{"query": "ana@example.com', ['invalid JSON; line skipped']),
  badLine('an array', '["kopi"]', ['expected a JSON object']),
  badLine('no query text', '{"query": "   ", "session_id": "x"}', ['no query text']),
  badLine('query not a string', '{"query": 42}', ['no query text']),
  badLine('count 0', '{"query": "kopi", "count": 0}', ['count must be a positive integer']),
  badLine('count 2.5', '{"query": "kopi", "count": 2.5}', ['count must be a positive integer']),
  badLine('count "-3"', '{"query": "kopi", "count": "-3"}', ['count must be a positive integer']),
  {
    name: 'log line: a time that is not a time is a warning, the line is used',
    setup: log('{"query": "kopi gayo", "timestamp": "yesterday"}', ...GOOD),
    argv: SAMPLE,
    expect: { code: 0, stderr: [at(LOG, 1), 'warning', 'not a time'], writes: [LOG, 'sampled.json'] },
  },
  {
    name: 'CSV: an unclosed quote is reported at its line, the rest used',
    setup: (ws) => ws.write('logs/s.csv', 'query,count\n"kopi gayo",3\n"toraja coffee,2\nflores,1\n'),
    argv: ['queries', 'sample', '--log', 'logs/s.csv', '--n', '5', '--out', 'sampled.json'],
    expect: {
      code: 0,
      stderr: [at('logs/s.csv', 3), 'unclosed quote'],
      writes: ['logs/s.csv', 'sampled.json'],
      check: (_, ws) => assert.equal(ws.json('sampled.json').length, 2),
    },
  },
  {
    name: '--strict: a garbled line stops the sample before anything is written',
    setup: log(GOOD[0]!, 'nope', ...GOOD.slice(1)),
    argv: [...SAMPLE, '--strict'],
    expect: { code: 2, stderr: [at(LOG, 2), '--strict'], writes: [LOG] },
  },
  refused('no query column', log('{"phrase": "kopi"}'), SAMPLE, [LOG, 'no query column found', 'phrase', '--columns query=COLUMN'], [LOG]),
  refused(
    '--columns names a column the log lacks',
    log(...GOOD),
    [...SAMPLE, '--columns', 'query=phrase'],
    [LOG, '--columns', 'no column "phrase"'],
    [LOG],
  ),
  refused(
    'an empty CSV',
    (ws) => ws.write('logs/e.csv', ''),
    ['queries', 'sample', '--log', 'logs/e.csv', '--n', '2', '--out', 'sampled.json'],
    ['logs/e.csv', 'empty'],
    ['logs/e.csv'],
  ),
  refused('a binary log', (ws) => ws.write(LOG, Buffer.from([0, 1, 2, 0, 255, 0, 3])), SAMPLE, [LOG, 'binary'], [LOG]),
  refused('a missing log', () => {}, SAMPLE, [LOG]),
  refused('--out is the log', log(...GOOD), ['queries', 'sample', '--log', LOG, '--n', '2', '--out', LOG], ['--out'], [LOG]),
  refused(
    '--out is a folder',
    log(...GOOD),
    ['queries', 'sample', '--log', LOG, '--n', '2', '--out', 'judgments'],
    ['--out', 'folder'],
    [LOG],
  ),
  refused(
    '--out is the --exclude input',
    log(...GOOD),
    ['queries', 'sample', '--log', LOG, '--n', '2', '--exclude', 'judgments/golden.json', '--out', 'judgments/golden.json'],
    ['--out'],
    [LOG],
  ),
  refused('--seed -1', log(...GOOD), [...SAMPLE, '--seed', '-1'], ['--seed']),
  refused('--n 1e3', log(...GOOD), ['queries', 'sample', '--log', LOG, '--n', '1e3', '--out', 'sampled.json'], ['--n', 'integer']),
  refused('--max-per-session 0', log(...GOOD), [...SAMPLE, '--max-per-session', '0'], ['--max-per-session']),
  refused(
    '--for-effect without --pilot',
    log(...GOOD),
    ['queries', 'sample', '--log', LOG, '--for-effect', '0.02', '--out', 'sampled.json'],
    ['--pilot', 'is required'],
  ),
  refused(
    '--for-effect abc',
    log(...GOOD),
    ['queries', 'sample', '--log', LOG, '--for-effect', 'abc', '--pilot', 'p.json', '--out', 'sampled.json'],
    ['--for-effect', 'positive number'],
  ),
  refused(
    'a pilot without per-query values',
    (ws) => ws.write('p.json', '{"metrics": {}}'),
    ['queries', 'sample', '--log', LOG, '--for-effect', '0.02', '--pilot', 'p.json', '--out', 'sampled.json'],
    ['p.json', '--pilot', 'perQuery'],
    ['p.json'],
  ),
  refused(
    'a pilot that is not JSON',
    (ws) => ws.write('p.json', '{perQuery'),
    ['queries', 'sample', '--log', LOG, '--for-effect', '0.02', '--pilot', 'p.json', '--out', 'sampled.json'],
    ['p.json', 'invalid JSON'],
    ['p.json'],
  ),
  refused(
    'a patterns file with a broken expression, at its line and key',
    (ws) => {
      log(...GOOD)(ws);
      ws.write('pii.json', '{\n  "badge": "EMP-\\\\d{6}",\n  "broken": "[a-"\n}\n');
    },
    [...SAMPLE, '--pii-patterns', 'pii.json'],
    [at('pii.json', 3), 'broken', 'regular expression'],
    [LOG, 'pii.json'],
  ),
  refused('an unknown subcommand', () => {}, ['queries', 'pick'], ['unknown subcommand "pick"']),

  {
    name: 'click log: garbled lines reported at their lines, the rest graded',
    setup: clickLog(
      CLICK_LINE,
      'nope',
      '{"query": "kopi gayo", "results": "origin-gayo"}',
      '{"query": "kopi gayo", "results": ["origin-gayo"], "clicks": ["elsewhere"]}',
      CLICK_LINE,
    ),
    argv: ['judgments', 'from-clicks', '--log', CLICKS, '--min-impressions', '1'],
    expect: {
      code: 0,
      stderr: [at(CLICKS, 2), at(CLICKS, 3), 'no result list', at(CLICKS, 4), 'not in the result list'],
      writes: ['ranklab.json', CLICKS, 'judgments/raters/clicks.jsonl'],
      check: (_, ws) => assert.ok(ws.read('judgments/raters/clicks.jsonl').includes('"rater":"clicks"')),
    },
  },
  {
    name: 'UBI events without an object id or of an unknown query are reported, the rest used',
    setup: (ws) => {
      withRaters(ws);
      ws.write(
        'logs/q.jsonl',
        '{"query_id": "a", "user_query": "kopi gayo", "query_response_hit_ids": ["origin-gayo", "visit-gayo"]}\n{"query_id": "b", "user_query": "toraja"}\n',
      );
      ws.write(
        'logs/e.jsonl',
        '{"action_name": "click", "query_id": "a", "event_attributes": {"object": {"object_id": "origin-gayo"}}}\n{"action_name": "click", "query_id": "a", "event_attributes": {}}\n{"action_name": "click", "query_id": "zz", "event_attributes": {"object": {"object_id": "x"}}}\n',
      );
    },
    argv: ['judgments', 'from-clicks', '--ubi-queries', 'logs/q.jsonl', '--ubi-events', 'logs/e.jsonl', '--min-impressions', '1'],
    expect: {
      code: 0,
      stderr: [at('logs/q.jsonl', 2), 'query_response_hit_ids', at('logs/e.jsonl', 2), 'object_id', at('logs/e.jsonl', 3), 'query_id'],
      writes: ['ranklab.json', 'logs/q.jsonl', 'logs/e.jsonl', 'judgments/raters/clicks.jsonl'],
    },
  },
  refused(
    'from-clicks without a raters folder',
    (ws) => ws.write(CLICKS, CLICK_LINE + '\n'),
    ['judgments', 'from-clicks', '--log', CLICKS],
    ['ranklab.json', 'judgments', 'rater of their own'],
    [CLICKS],
  ),
  refused(
    'from-clicks with no usable line',
    clickLog('nope', '[]'),
    ['judgments', 'from-clicks', '--log', CLICKS],
    [at(CLICKS, 1), 'no usable result list'],
    ['ranklab.json', CLICKS],
  ),
  refused(
    'from-clicks --thresholds 1,x',
    clickLog(CLICK_LINE),
    ['judgments', 'from-clicks', '--log', CLICKS, '--thresholds', '1,x'],
    ['--thresholds'],
    ['ranklab.json', CLICKS],
  ),
  refused(
    'from-clicks --min-impressions 0',
    clickLog(CLICK_LINE),
    ['judgments', 'from-clicks', '--log', CLICKS, '--min-impressions', '0'],
    ['--min-impressions'],
    ['ranklab.json', CLICKS],
  ),
  refused(
    'from-clicks with --log and UBI files',
    clickLog(CLICK_LINE),
    ['judgments', 'from-clicks', '--log', CLICKS, '--ubi-events', CLICKS],
    ['--log'],
    ['ranklab.json', CLICKS],
  ),
  refused(
    'from-clicks with UBI events only',
    clickLog(CLICK_LINE),
    ['judgments', 'from-clicks', '--ubi-events', CLICKS],
    ['--ubi-queries'],
    ['ranklab.json', CLICKS],
  ),
];

fuzzTable('logs', cases);
