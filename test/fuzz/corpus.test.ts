// Bad corpus files: reported once (counted, file:line) by every command that loads the corpus, the rest indexed.
import assert from 'node:assert/strict';
import { EVAL, reportedAndStrict, unusable } from './cases';
import { type FuzzCase, type FuzzWorkspace, at, count, fuzzTable } from './harness';

const HEADING = /corpus: \d+ problems?/;
const MD = 'corpus/brewing/brew-aeropress.md';
const JSONL = 'data/products.jsonl';
const SEARCH = ['search', 'kopi gayo'];

/** A corpus problem reported at file:line; `warning`s do not stop --strict (only errors do). */
function corpusProblem(
  name: string,
  setup: (ws: FuzzWorkspace) => void,
  file: string,
  needle: string | undefined,
  words: (string | RegExp)[] = [],
  argv = SEARCH,
  severity: 'error' | 'warning' = 'error',
): FuzzCase[] {
  return reportedAndStrict(
    `corpus: ${name}`,
    setup,
    { file, needle, words: [...words, severity] },
    { heading: HEADING, argv, strictFails: severity === 'error' },
  );
}

const record = (fields: Record<string, unknown>) => JSON.stringify({ title: 'Kopi test record', text: 'kopi gayo test body', ...fields });
const appendRecord = (line: string) => (ws: FuzzWorkspace) => ws.write(JSONL, ws.read(JSONL) + line + '\n');

const cases: FuzzCase[] = [
  ...corpusProblem(
    'duplicate id in two Markdown files',
    (ws) => ws.write('corpus/brewing/copy-of-aeropress.md', ws.read(MD)),
    'corpus/brewing/copy-of-aeropress.md',
    undefined,
    [/duplicate id "brew-aeropress"/],
  ),
  ...corpusProblem('duplicate id in the JSONL file', appendRecord(record({ id: 'sku-kg-250-wb' })), JSONL, 'Kopi test record', [
    'duplicate id',
  ]),
  ...corpusProblem(
    'binary file with a .md name',
    (ws) => ws.write('corpus/brewing/photo.md', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0])),
    'corpus/brewing/photo.md',
    undefined,
    ['binary'],
    SEARCH,
    'warning',
  ),
  ...corpusProblem(
    'oversized Markdown file',
    (ws) => ws.write('corpus/brewing/huge.md', '# Huge\n\n' + 'kopi '.repeat(220_000)),
    'corpus/brewing/huge.md',
    undefined,
    ['limit'],
    SEARCH,
    'warning',
  ),
  ...corpusProblem(
    'a file type no reader knows',
    (ws) => {
      ws.settings((s) => s.corpus.include.push('notes/*'));
      ws.write('notes/prices.csv', 'sku,price\nKG-250,95000\n');
    },
    'notes/prices.csv',
    undefined,
    ['unsupported'],
    SEARCH,
    'warning',
  ),
  ...corpusProblem(
    'invalid front matter',
    (ws) => ws.replace(MD, 'tags: [brewing, aeropress]', 'tags: [brewing, aeropress'),
    MD,
    undefined,
    ['front matter'],
  ),
  ...corpusProblem('a JSONL line that is not JSON', appendRecord('{"id": "broken", "title": '), JSONL, '{"id": "broken"', ['JSON']),
  ...corpusProblem('a JSONL record without id', appendRecord(record({})), JSONL, 'kopi gayo test body', ['no id']),
  ...corpusProblem(
    'a JSONL record without text',
    appendRecord(JSON.stringify({ id: 'empty-record', stock: 3 })),
    JSONL,
    'empty-record',
    ['no text'],
    SEARCH,
    'warning',
  ),
  ...corpusProblem(
    'a title that is an object',
    appendRecord(record({ id: 'obj-title', title: { en: 'x' } })),
    JSONL,
    'obj-title',
    ['title'],
    SEARCH,
    'warning',
  ),
  ...corpusProblem('a JSONL id holding a tab', appendRecord(record({ id: 'tab\there' })), JSONL, 'tab\\there', [/tab|control/]),
  ...corpusProblem('a JSONL id holding a line break', appendRecord(record({ id: 'line\nbreak' })), JSONL, 'line\\nbreak', [
    /line break|control/,
  ]),
  ...corpusProblem(
    'a front-matter id holding a line break',
    (ws) => ws.replace(MD, 'id: brew-aeropress', 'id: "brew\\naeropress"'),
    MD,
    'id: "brew',
    [/line break|control/],
  ),
  ...corpusProblem(
    'an empty JSONL file',
    (ws) => ws.write('data/extra.jsonl', ''),
    'data/extra.jsonl',
    undefined,
    ['empty'],
    SEARCH,
    'warning',
  ),
  ...corpusProblem(
    'a JSON records file that is an object without documents',
    (ws) => {
      ws.settings((s) => s.corpus.include.push('data/*.json'));
      ws.write('data/extra.json', '{"docs": []}');
    },
    'data/extra.json',
    '{"docs"',
    ['documents'],
  ),
  {
    // Severity is the access-control helper's call (fail closed); here only: reported, once, with file:line.
    name: 'corpus: groups as a number is reported',
    setup: (ws) => ws.replace(MD, 'groups: [baristas, roastery, management]', 'groups: 42'),
    argv: SEARCH,
    expect: { code: 0, stderr: (ws) => [at(MD, ws.lineOf(MD, 'groups: 42')), /groups/, HEADING] },
  },
  ...corpusProblem(
    'the same problem through eval',
    appendRecord(record({ id: 'sku-kg-250-wb' })),
    JSONL,
    'Kopi test record',
    ['duplicate id'],
    EVAL,
  ),
  ...corpusProblem(
    'the same problem through suggest',
    appendRecord(record({ id: 'sku-kg-250-wb' })),
    JSONL,
    'Kopi test record',
    ['duplicate id'],
    ['suggest', 'kop'],
  ),
  ...corpusProblem(
    'the same problem through compare',
    appendRecord(record({ id: 'sku-kg-250-wb' })),
    JSONL,
    'Kopi test record',
    ['duplicate id'],
    ['compare', '--baseline', 'baseline', '--candidate', 'title-boost-3'],
  ),
  ...corpusProblem(
    'the same problem through check-acl',
    appendRecord(record({ id: 'sku-kg-250-wb' })),
    JSONL,
    'Kopi test record',
    ['duplicate id'],
    ['check-acl', '-c', 'baseline', '--as', 'guest', '--no-prefixes'],
  ),
  {
    name: 'corpus: a problem is printed once even when several engines are built',
    setup: (ws) => {
      ws.keepConfigs('baseline', 'title-boost-3', 'pre-filter');
      appendRecord(record({ id: 'sku-kg-250-wb' }))(ws);
    },
    argv: ['eval'],
    expect: { code: 0, check: (r) => assert.equal(count(r.stderr, 'duplicate id "sku-kg-250-wb"'), 1, r.stderr) },
  },
  unusable(
    'corpus: include matches no file',
    (ws) => ws.settings((s) => (s.corpus.include = ['nothing/**/*.md'])),
    EVAL,
    { file: 'ranklab.json', needle: '"include"', words: ['corpus.include', 'nothing/**/*.md'] },
    { check: (r) => assert.equal(count(r.stderr, 'matches no file'), 1, r.stderr) },
  ),
  unusable('corpus: include is an empty list', (ws) => ws.settings((s) => (s.corpus.include = [])), EVAL, {
    file: 'ranklab.json',
    needle: '"include"',
    words: ['corpus.include'],
  }),
  unusable('corpus: every file excluded', (ws) => ws.settings((s) => (s.corpus.exclude = ['**/*'])), SEARCH, {
    file: 'ranklab.json',
    words: ['corpus'],
  }),
  unusable(
    'corpus: every file unusable (empty corpus)',
    (ws) => {
      ws.settings((s) => (s.corpus.include = ['bad/*.md']));
      ws.write('bad/a.md', Buffer.from([0, 1, 2, 3]));
      ws.write('bad/b.md', '---\nid: b\n---\n');
    },
    SEARCH,
    { file: 'bad/a.md', words: ['binary', /no document|empty corpus/] },
  ),
  unusable(
    'corpus: the corpus folder is gone',
    (ws) => {
      ws.remove('corpus');
      ws.remove('data');
    },
    EVAL,
    { file: 'ranklab.json', words: ['corpus.include'] },
  ),
  ...reportedAndStrict(
    'corpus: fields.id maps to a field no record has',
    (ws) => ws.settings((s) => (s.corpus.fields.id = 'sku_id')),
    { file: 'ranklab.json', needle: '"sku_id"', words: ['corpus.fields.id', 'sku_id'] },
    { heading: HEADING, argv: SEARCH, strictFails: false },
  ),
  ...reportedAndStrict(
    'corpus: fields.text names a field no record has',
    (ws) => ws.settings((s) => (s.corpus.fields.text = ['summary'])),
    { file: 'ranklab.json', needle: '"summary"', words: ['summary'] },
    { heading: HEADING, argv: SEARCH, strictFails: false },
  ),
  {
    name: 'corpus: a clean corpus prints no corpus heading',
    argv: SEARCH,
    expect: { code: 0, notStderr: [HEADING] },
  },
  {
    name: 'corpus: an id with a space is kept, but cannot go into a TREC run (exit 2 before the work)',
    setup: appendRecord(record({ id: 'kopi gayo special' })),
    argv: [...EVAL, '--trec-run', 'out.txt'],
    expect: {
      code: 2,
      noRuns: true,
      stderr: (ws) => [at(JSONL, ws.lineOf(JSONL, 'kopi gayo special')), /kopi gayo special/, /white ?space/],
    },
  },
];

fuzzTable('corpus', cases);
