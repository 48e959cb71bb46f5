// Output paths are checked before the work starts; inputs of the workspace are never overwritten; an existing
// file the user did not name is overwritten only with --force; writes are atomic (no temporary files left).
import assert from 'node:assert/strict';
import { readdirSync, symlinkSync } from 'node:fs';
import { isRunFile } from '../../src/core/run/run-files';
import { unusable, alsoThroughBinary } from './cases';
import { type FuzzCase, type FuzzWorkspace, fuzzTable } from './harness';

const EVAL = ['eval', '-c', 'baseline'];
const COMPARE = ['compare', '--baseline', 'baseline', '--candidate', 'title-boost-3'];
const GATE = ['gate', '--candidate', 'title-boost-3'];

function refused(
  name: string,
  argv: string[],
  path: string,
  words: (string | RegExp)[] = [],
  setup?: (ws: FuzzWorkspace) => void,
): FuzzCase {
  return unusable(`outputs: ${name}`, setup, argv, { file: path, words });
}

/** Every line of a TREC run has the six fields `qid Q0 docid rank score tag`. */
function wellFormedTrec(text: string): void {
  const lines = text.trimEnd().split('\n');
  assert.ok(lines.length > 100, `${lines.length} lines`);
  for (const l of lines) assert.match(l, /^\S+ Q0 \S+ \d+ \S+ \S+$/, l);
}

const noTempFiles = (dir: string) => (_r: unknown, ws: FuzzWorkspace) =>
  assert.deepEqual(
    readdirSync(ws.path(dir)).filter((f) => f.endsWith('.tmp')),
    [],
    'no temporary file is left behind',
  );

const cases: FuzzCase[] = [
  refused('--trec-run into a missing folder', [...EVAL, '--trec-run', 'no/dir/out.txt'], 'no/dir', ['--trec-run']),
  refused('--junit into a missing folder', [...COMPARE, '--junit', 'no/dir/j.xml'], 'no/dir', ['--junit']),
  refused('--summary into a missing folder', [...COMPARE, '--summary', 'no/dir/s.md'], 'no/dir', ['--summary']),
  refused('gate --junit into a missing folder', [...GATE, '--junit', 'no/dir/j.xml'], 'no/dir', ['--junit']),
  refused('gate --summary into a missing folder', [...GATE, '--summary', 'missing/s.md'], 'missing', ['--summary']),
  refused('--trec-run onto the judgments', [...EVAL, '--trec-run', 'judgments/golden.json'], 'judgments/golden.json', [/input/]),
  refused('--trec-run onto ranklab.json', [...EVAL, '--trec-run', 'ranklab.json'], 'ranklab.json', [/input/]),
  refused('--trec-run onto a config', [...EVAL, '--trec-run', 'configs/baseline.rank.json'], 'configs/baseline.rank.json', [/input/]),
  refused(
    '--trec-run onto a corpus file',
    [...EVAL, '--trec-run', 'corpus/brewing/brew-aeropress.md'],
    'corpus/brewing/brew-aeropress.md',
    [/input/],
  ),
  refused('--trec-run onto the JSONL corpus', [...EVAL, '--trec-run', './data/../data/products.jsonl'], 'products.jsonl', [/input/]),
  refused('--trec-run onto the principals', [...EVAL, '--trec-run', 'principals.json'], 'principals.json', [/input/]),
  refused('--junit onto the judgments', [...COMPARE, '--junit', 'judgments/golden.json'], 'judgments/golden.json', [/input/]),
  refused('--summary onto ranklab.json', [...GATE, '--summary', 'ranklab.json'], 'ranklab.json', [/input/]),
  refused('--junit onto a config', [...GATE, '--junit', 'configs/title-boost-3.rank.json'], 'title-boost-3.rank.json', [/input/]),
  refused('--trec-run onto a config through a symlink', [...EVAL, '--trec-run', 'link.txt'], 'link.txt', [/input/], (ws) => {
    symlinkSync(ws.path('configs/baseline.rank.json'), ws.path('link.txt'));
  }),
  refused('--trec-run is a folder', [...EVAL, '--trec-run', 'configs'], 'configs', ['folder']),
  refused('--trec-run ends in a slash', [...EVAL, '--trec-run', 'out/'], 'out/', []),
  refused('--trec-run under a file', [...EVAL, '--trec-run', 'ranklab.json/out.txt'], 'ranklab.json', ['folder']),
  refused('--junit is a folder', [...COMPARE, '--junit', 'judgments'], 'judgments', ['folder']),
  refused('--junit and --summary name the same file', [...COMPARE, '--junit', 'report.txt', '--summary', 'report.txt'], 'report.txt', [
    '--junit',
    '--summary',
  ]),
  refused(
    '--trec-run names the baseline run it compares',
    ['compare', '--qrels', 'judgments/golden.json', '--baseline', 'a.txt', '--candidate', 'b.txt', '--junit', 'a.txt'],
    'a.txt',
    [/input/],
    (ws) => {
      ws.write('a.txt', 'q01 Q0 origin-gayo 1 9 a\n');
      ws.write('b.txt', 'q01 Q0 visit-gayo 1 9 b\n');
    },
  ),
  refused(
    'eval -c a -c b --trec-run over existing derived files',
    ['eval', '-c', 'baseline', '-c', 'title-boost-3', '--trec-run', 'out.txt'],
    'out.baseline.txt',
    ['--force'],
    (ws) => {
      ws.write('out.baseline.txt', 'mine\n');
      ws.write('out.title-boost-3.txt', 'mine too\n');
    },
  ),
  refused('--state-dir is a file', [...EVAL, '--state-dir', 'ranklab.json'], 'ranklab.json', ['--state-dir']),
  refused('.ranklab is a file', EVAL, '.ranklab', [], (ws) => ws.write('.ranklab', 'not a folder\n')),
  refused('.ranklab/runs is a file', EVAL, '.ranklab/runs', [], (ws) => ws.write('.ranklab/runs', 'not a folder\n')),
  refused('.ranklab/cache is a file', ['search', 'kopi'], '.ranklab/cache', [], (ws) => ws.write('.ranklab/cache', 'not a folder\n')),
  refused('RANKLAB_STATE_DIR-like --state-dir under a file', [...EVAL, '--state-dir', 'principals.json/state'], 'principals.json', [
    '--state-dir',
  ]),
  {
    name: 'outputs: --force overwrites derived files the user did not name',
    setup: (ws) => ws.write('out.baseline.txt', 'mine\n'),
    argv: ['eval', '-c', 'baseline', '-c', 'title-boost-3', '--trec-run', 'out.txt', '--force', '--no-save'],
    expect: {
      code: 0,
      writes: ['out.baseline.txt', 'out.title-boost-3.txt'],
      check: (r, ws) => {
        wellFormedTrec(ws.read('out.baseline.txt'));
        wellFormedTrec(ws.read('out.title-boost-3.txt'));
        noTempFiles('.')(r, ws);
      },
    },
  },
  {
    name: 'outputs: a file the user named is replaced (atomically)',
    setup: (ws) => ws.write('out.txt', 'old\n'),
    argv: [...EVAL, '--trec-run', 'out.txt', '--no-save'],
    expect: {
      code: 0,
      writes: ['out.txt'],
      check: (r, ws) => {
        wellFormedTrec(ws.read('out.txt'));
        noTempFiles('.')(r, ws);
      },
    },
  },
  {
    name: 'outputs: compare writes --junit and --summary where asked',
    setup: (ws) => ws.write('reports/.keep', ''),
    argv: [...COMPARE, '--junit', 'reports/j.xml', '--summary', 'reports/s.md'],
    expect: {
      code: 0,
      writes: ['reports/j.xml', 'reports/s.md'],
      check: (r, ws) => {
        assert.match(ws.read('reports/j.xml'), /<testsuites/);
        assert.match(ws.read('reports/s.md'), /ndcg@10/);
        noTempFiles('reports')(r, ws);
      },
    },
  },
  {
    name: 'outputs: a document id holding a tab never breaks a TREC line',
    setup: (ws) =>
      ws.write(
        'data/products.jsonl',
        ws.read('data/products.jsonl') + JSON.stringify({ id: 'kopi\tgayo', title: 'Kopi gayo tab', text: 'kopi gayo' }) + '\n',
      ),
    argv: [...EVAL, '--trec-run', 'out.txt', '--no-save'],
    expect: { code: 0, writes: ['out.txt'], check: (_r, ws) => wellFormedTrec(ws.read('out.txt')) },
  },
  {
    name: 'outputs: --state-dir elsewhere leaves the workspace untouched',
    argv: [...EVAL, '--state-dir', '../state'],
    expect: { code: 0, check: (_r, ws) => assert.equal(readdirSync(ws.path('../state/runs')).filter(isRunFile).length, 1) },
  },
];

fuzzTable(
  'outputs',
  alsoThroughBinary(cases, [
    'outputs: --trec-run into a missing folder',
    'outputs: --trec-run onto the judgments',
    'outputs: .ranklab is a file',
  ]),
);
