// Bad judgments (golden sets, TREC qrels and queries) through every command that loads them.
import assert from 'node:assert/strict';
import { EVAL, reportedAndStrict, unusable, alsoThroughBinary } from './cases';
import { type FuzzCase, type FuzzWorkspace, at, count, fuzzTable } from './harness';

const GOLDEN = 'judgments/golden.json';
const HEADING = /judgments: \d+ problems?/;

const golden = (from: string | RegExp, to: string) => (ws: FuzzWorkspace) => ws.replace(GOLDEN, from, to);

/** A golden-set mutation whose problem is reported at the line holding `needle`. */
function goldenProblem(
  name: string,
  from: string | RegExp,
  to: string,
  needle: string,
  words: (string | RegExp)[] = [],
  opts: { nth?: number; severity?: 'error' | 'warning' } = {},
): FuzzCase[] {
  const severity = opts.severity ?? 'error';
  return reportedAndStrict(
    `golden set: ${name}`,
    golden(from, to),
    { file: GOLDEN, needle, nth: opts.nth, words: [...words, severity] },
    { heading: HEADING, strictFails: severity === 'error' },
  );
}

/** Qrels + queries files instead of the golden set. */
function trecJudgments(qrels: string, queries: string) {
  return (ws: FuzzWorkspace) => {
    ws.write('judgments/qrels.txt', qrels);
    ws.write('judgments/queries.tsv', queries);
    ws.settings((s) => (s.judgments = [{ qrels: 'judgments/qrels.txt', queries: 'judgments/queries.tsv' }]));
  };
}

const QRELS = 'q01 0 origin-gayo 3\nq01 0 visit-gayo 2\nq02 0 origin-toraja 3\nq02 0 visit-toraja 1\n';
const QUERIES = 'q01\tkopi gayo\nq02\ttoraja coffee\n';

const cases: FuzzCase[] = [
  ...goldenProblem('grade "high"', '"origin-gayo": 3,', '"origin-gayo": "high",', '"origin-gayo": "high"', ['origin-gayo']),
  ...goldenProblem('grade 2.5', '"origin-gayo": 3,', '"origin-gayo": 2.5,', '"origin-gayo": 2.5', ['2.5']),
  ...goldenProblem('grade -1', '"origin-gayo": 3,', '"origin-gayo": -1,', '"origin-gayo": -1', ['negative']),
  ...goldenProblem('grade null', '"origin-gayo": 3,', '"origin-gayo": null,', '"origin-gayo": null', ['null']),
  ...goldenProblem('grade true', '"origin-gayo": 3,', '"origin-gayo": true,', '"origin-gayo": true', ['true']),
  ...goldenProblem('grade "3" as a string', '"origin-gayo": 3,', '"origin-gayo": "3",', '"origin-gayo": "3"', ['origin-gayo']),
  ...goldenProblem('grade 1e400', '"origin-gayo": 3,', '"origin-gayo": 1e400,', '"origin-gayo": 1e400', ['origin-gayo']),
  ...goldenProblem('grade too large', '"origin-gayo": 3,', '"origin-gayo": 99999999999999999999,', '"origin-gayo": 9999', ['too large']),
  ...goldenProblem('typo "judgement"', '"judgments": {\n      "origin-gayo"', '"judgement": {\n      "origin-gayo"', '"judgement"', [
    'judgement',
    'judgments',
  ]),
  ...goldenProblem('typo "quey"', '"query": "kopi gayo"', '"quey": "kopi gayo"', '"quey"', ['quey']),
  ...goldenProblem(
    'typo "relevant_doc_id"',
    '"judgments": {\n      "origin-gayo": 3,',
    '"relevant_doc_id": ["origin-gayo"], "judgments": {\n      "origin-gayo": 3,',
    '"relevant_doc_id"',
    ['relevant_doc_id'],
  ),
  ...goldenProblem(
    'typo "tag"',
    '"tags": [\n      "lang:id",\n      "origin",\n      "navigational"\n    ],\n    "split": "tune"',
    '"tag": ["lang:id"],\n    "split": "tune"',
    '"tag"',
    ['"tag"'],
  ),
  ...goldenProblem('typo "spilt"', '"split": "holdout"', '"spilt": "holdout"', '"spilt"', ['spilt']),
  ...goldenProblem('split "test"', '"split": "holdout"', '"split": "test"', '"split": "test"', ['split']),
  ...goldenProblem(
    'tags as a string',
    '"tags": [\n      "lang:id",\n      "origin",\n      "navigational"\n    ],',
    '"tags": "origin",',
    '"tags": "origin"',
    ['tags'],
  ),
  ...goldenProblem('conflicting duplicate grades', '"origin-gayo": 3,', '"origin-gayo": 3,\n      "origin-gayo": 1,', '"origin-gayo": 1', [
    'conflicting',
  ]),
  ...goldenProblem(
    'duplicate with the same grade',
    '"origin-gayo": 3,',
    '"origin-gayo": 3,\n      "origin-gayo": 3,',
    '"origin-gayo": 3',
    ['duplicate'],
    { nth: 2, severity: 'warning' },
  ),
  ...goldenProblem('query id used twice with other text', '"id": "q02",', '"id": "q01",', '"id": "q01"', ['q01'], { nth: 2 }),
  ...goldenProblem(
    'unknown document id',
    '"origin-gayo": 3,',
    '"origin-gayo": 3,\n      "no-such-doc": 2,',
    '"no-such-doc"',
    ['no-such-doc'],
    { severity: 'warning' },
  ),
  ...goldenProblem('empty document id', '"origin-gayo": 3,', '"origin-gayo": 3,\n      "": 2,', '"": 2', ['empty']),
  ...goldenProblem('an item that is a string', /^\[/, '[\n  "kopi gayo",', '"kopi gayo"', ['not an object']),
  ...goldenProblem(
    '"judgments" as a list',
    /"judgments": \{\n      "origin-gayo": 3,[^}]*\}/,
    '"judgments": ["origin-gayo"]',
    '"judgments": ["origin-gayo"]',
    ['judgments'],
  ),
  ...goldenProblem('empty query text', '"query": "kopi gayo"', '"query": ""', '"query": ""', ['empty']),
  ...goldenProblem('id is an object', '"id": "q01"', '"id": {"x": 1}', '"id": {"x": 1}', ['id']),
  unusable('golden set: not JSON (cut short)', (ws) => ws.write(GOLDEN, ws.read(GOLDEN).slice(0, 500)), EVAL, {
    file: GOLDEN,
    words: ['invalid JSON'],
  }),
  unusable('golden set: empty file', (ws) => ws.write(GOLDEN, ''), EVAL, { file: GOLDEN, words: ['empty'] }),
  unusable('golden set: only white space', (ws) => ws.write(GOLDEN, '\n  \n'), EVAL, { file: GOLDEN, words: ['empty'] }),
  unusable('golden set: an empty list', (ws) => ws.write(GOLDEN, '[]\n'), EVAL, { file: GOLDEN, words: ['no valid'] }),
  unusable('golden set: an object', (ws) => ws.write(GOLDEN, '{}\n'), EVAL, { file: GOLDEN }),
  unusable('golden set: a number', (ws) => ws.write(GOLDEN, '42\n'), EVAL, { file: GOLDEN }),
  unusable('golden set: binary', (ws) => ws.write(GOLDEN, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0xff, 0xfe, 0, 1])), EVAL, {
    file: GOLDEN,
    words: ['binary'],
  }),
  unusable('golden set: missing', (ws) => ws.remove(GOLDEN), EVAL, {
    file: 'ranklab.json',
    needle: 'judgments/golden.json',
    words: ['not found'],
  }),
  unusable(
    'golden set: a folder',
    (ws) => {
      ws.remove(GOLDEN);
      ws.write(`${GOLDEN}/x.txt`, 'x');
    },
    EVAL,
    { file: GOLDEN },
  ),
  unusable('golden set: every item invalid', (ws) => ws.write(GOLDEN, '[{"quey": "a"}, {"query": 5}]\n'), EVAL, {
    file: GOLDEN,
    needle: 'quey',
    words: ['quey'],
  }),
  {
    name: 'golden set: BOM and CRLF line ends are fine',
    setup: (ws) => ws.write(GOLDEN, '\ufeff' + ws.read(GOLDEN).replace(/\n/g, '\r\n')),
    argv: [...EVAL, '--strict'],
    expect: { code: 0, notStderr: [HEADING] },
  },
  {
    name: 'golden set: every judged document unknown (nothing can score)',
    setup: (ws) =>
      ws.write(
        GOLDEN,
        JSON.stringify([
          { id: 'q1', query: 'kopi', judgments: { nope: 2 } },
          { id: 'q2', query: 'teh', judgments: { nada: 1 } },
        ]),
      ),
    argv: EVAL,
    expect: { code: 2, noRuns: true, stderr: [GOLDEN, /none of the 2 judged documents/] },
  },
  {
    name: 'golden set: no holdout query at all and --split holdout',
    setup: (ws) => ws.write(GOLDEN, ws.read(GOLDEN).replace(/"split": "holdout"/g, '"split": "tune"')),
    argv: [...EVAL, '--split', 'holdout'],
    expect: { code: 2, noRuns: true, stderr: [GOLDEN, '--split', /no judged query in split "holdout"/] },
  },

  // The same diagnostics through every command that loads judgments: printed once, counted.
  ...[
    'compare --baseline baseline --candidate title-boost-3',
    'gate --candidate title-boost-3',
    'check-acl -c baseline --as guest --no-prefixes',
    'eval -c baseline --as guest',
  ].map(
    (cmd): FuzzCase => ({
      name: `golden set: grade "high" reported once by ${cmd.split(' ')[0]}${cmd.includes('--as') ? ' --as' : ''}`,
      setup: golden('"origin-gayo": 3,', '"origin-gayo": "high",'),
      argv: cmd.split(' '),
      expect: {
        code: cmd.startsWith('gate') ? 0 : 0,
        stderr: (ws) => [at(GOLDEN, ws.lineOf(GOLDEN, '"high"')), HEADING],
        check: (r) => assert.equal(count(r.stderr, 'grade of "origin-gayo"'), 1, r.stderr),
      },
    }),
  ),
  {
    name: 'score --qrels: the golden set diagnostics are counted too',
    setup: (ws) => {
      ws.replace(GOLDEN, '"origin-gayo": 3,', '"origin-gayo": 2.5,');
      ws.write('run.txt', 'q01 Q0 origin-gayo 1 9 x\nq02 Q0 origin-toraja 1 9 x\n');
    },
    argv: ['score', '--qrels', GOLDEN, '--run', 'run.txt'],
    expect: { code: 0, stderr: (ws) => [at(GOLDEN, ws.lineOf(GOLDEN, '2.5')), HEADING] },
  },

  // TREC qrels and queries files.
  ...reportedAndStrict(
    'qrels: grade "high"',
    trecJudgments(QRELS + 'q02 0 visit-toraja-id high\n', QUERIES),
    { file: 'judgments/qrels.txt', needle: 'high', words: ['high'] },
    { heading: HEADING },
  ),
  ...reportedAndStrict(
    'qrels: three columns',
    trecJudgments(QRELS + 'q02 origin-enrekang 1\n', QUERIES),
    { file: 'judgments/qrels.txt', needle: 'q02 origin-enrekang 1' },
    { heading: HEADING },
  ),
  ...reportedAndStrict(
    'qrels: negative grade',
    trecJudgments(QRELS + 'q02 0 origin-enrekang -1\n', QUERIES),
    { file: 'judgments/qrels.txt', needle: '-1', words: ['negative'] },
    { heading: HEADING },
  ),
  ...reportedAndStrict(
    'queries: a line without a tab',
    trecJudgments(QRELS, QUERIES + 'q03 kintamani\n'),
    { file: 'judgments/queries.tsv', needle: 'q03 kintamani' },
    { heading: HEADING },
  ),
  ...reportedAndStrict(
    'qrels: a judged query without text',
    trecJudgments(QRELS + 'q77 0 origin-gayo 1\n', QUERIES),
    { file: 'judgments/qrels.txt', needle: 'q77', words: ['q77', 'warning'] },
    { heading: HEADING, strictFails: false },
  ),
  unusable(
    'queries: binary file in a workspace',
    (ws) => {
      trecJudgments(QRELS, QUERIES)(ws);
      ws.write('judgments/queries.tsv', Buffer.from([0x50, 0x4b, 3, 4, 0, 0, 8, 0, 0x09, 0x0a, 0xff, 0xfe]));
    },
    EVAL,
    { file: 'judgments/queries.tsv', words: ['binary'] },
  ),
  unusable(
    'queries: a folder',
    (ws) => {
      trecJudgments(QRELS, QUERIES)(ws);
      ws.remove('judgments/queries.tsv');
      ws.write('judgments/queries.tsv/a', 'x');
    },
    EVAL,
    { file: 'judgments/queries.tsv' },
  ),
  unusable(
    'qrels: binary',
    (ws) => {
      trecJudgments(QRELS, QUERIES)(ws);
      ws.write('judgments/qrels.txt', Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0x00, 0x10]));
    },
    EVAL,
    { file: 'judgments/qrels.txt', words: ['binary'] },
  ),
  unusable(
    'score: binary --queries file',
    (ws) => {
      ws.write('q.txt', 'q01 0 origin-gayo 3\n');
      ws.write('run.txt', 'q01 Q0 origin-gayo 1 9 x\n');
      ws.write('queries.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0x09, 0x0a]));
    },
    ['score', '--qrels', 'q.txt', '--queries', 'queries.bin', '--run', 'run.txt'],
    { file: 'queries.bin', words: ['binary'] },
  ),
  unusable(
    'score: --run is a folder',
    (ws) => ws.write('q.txt', 'q01 0 origin-gayo 3\n'),
    ['score', '--qrels', 'q.txt', '--run', 'configs'],
    { file: 'configs', words: ['folder'] },
  ),
  unusable(
    'score: --run is missing',
    (ws) => ws.write('q.txt', 'q01 0 origin-gayo 3\n'),
    ['score', '--qrels', 'q.txt', '--run', 'nope.txt'],
    { file: 'nope.txt', words: ['not found'] },
  ),
  unusable(
    'score: --qrels is missing',
    (ws) => ws.write('run.txt', 'q01 Q0 origin-gayo 1 9 x\n'),
    ['score', '--qrels', 'nope.txt', '--run', 'run.txt'],
    { file: 'nope.txt', words: ['not found'] },
  ),
  unusable(
    'score: --run is binary',
    (ws) => {
      ws.write('q.txt', 'q01 0 origin-gayo 3\n');
      ws.write('run.bin', Buffer.from([0, 0, 0, 1, 0xff, 0xd8, 0xff, 0xe0]));
    },
    ['score', '--qrels', 'q.txt', '--run', 'run.bin'],
    { file: 'run.bin', words: ['binary'] },
  ),
];

fuzzTable(
  'judgments',
  alsoThroughBinary(cases, [
    'score: binary --queries file',
    'golden set: grade "high" (reported, the rest runs)',
    'golden set: grade "high" (--strict: exit 2 before the work)',
  ]),
);
