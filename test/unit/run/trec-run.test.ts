import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatTrecRun, readTrecRun } from '../../../src/core/run/trec-run';

function file(content: string | Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-run-'));
  const path = join(dir, 'run.txt');
  writeFileSync(path, content);
  return path;
}

test('orders by score descending, ties by docid descending as strings, ignoring the rank column', () => {
  const path = file(['q1 Q0 10 1 1.5 t', 'q1 Q0 9 2 1.5 t', 'q1 Q0 100 3 1.5 t', 'q1 Q0 a 4 2.0 t'].join('\n'));
  const { run, tag, diagnostics } = readTrecRun(path);
  assert.deepEqual(diagnostics, []);
  assert.equal(tag, 't');
  // "9" > "100" > "10" in string order
  assert.deepEqual(
    run.get('q1')!.map((d) => d.id),
    ['a', '9', '100', '10'],
  );
});

test('duplicates and malformed lines are reported with their line, the rest is kept', () => {
  const path = file('\uFEFFq1 Q0 a 1 3 t\r\nq1 Q0 b 2 2\r\nq1 Q0 a 3 1 t\r\nq1 Q0 c 4 x t\r\n# comment\r\nq2 Q0 z 1 1 t\r\n');
  const { run, diagnostics } = readTrecRun(path);
  assert.deepEqual(
    diagnostics.map((d) => [d.line, d.message.split(';')[0]]),
    [
      [2, 'expected 6 columns "qid Q0 docid rank score tag", found 5'],
      [3, 'duplicate document "a" for query "q1" (first at line 1)'],
      [4, 'score "x" is not a number'],
    ],
  );
  assert.deepEqual([...run.keys()], ['q1', 'q2']);
  assert.deepEqual(
    run.get('q1')!.map((d) => d.id),
    ['a'],
  );
});

test('an empty run is unusable input', () => {
  assert.throws(() => readTrecRun(file('')), /no valid run line/);
  assert.throws(() => readTrecRun('/nonexistent/run.txt'), /not found/);
});

test('written runs read back identically', () => {
  const run = new Map([
    [
      'q1',
      [
        { id: 'b', score: 0.25 },
        { id: 'a', score: 0.125 },
      ],
    ],
    ['q2', [{ id: 'x', score: 1e-7 }]],
  ]);
  const back = readTrecRun(file(formatTrecRun(run, 'mytag')));
  assert.deepEqual([...back.run.entries()], [...run.entries()]);
  assert.equal(back.tag, 'mytag');
});

test('scores are read as trec_eval reads them (C atof): hexadecimal, exponents, signs; the rest is reported', () => {
  const path = file(
    [
      'q1 Q0 hex 1 0x10 t', // 16, as glibc's atof (and so trec_eval) reads it; not 0
      'q1 Q0 neghex 2 -0x1.8p1 t', // -3 (Number() refuses this)
      'q1 Q0 exp 3 1e1 t',
      'q1 Q0 dot 4 .5 t',
      'q1 Q0 bin 5 0b11 t', // Number() says 3; strtod stops after "0": not wholly a number
      'q1 Q0 prefix 6 12abc t',
      'q1 Q0 inf 7 inf t',
      'q1 Q0 huge 8 1e999 t',
      'q1 Q0 long 9 3.14159265358979323846264338327950288 t', // beyond the fast path: same double as strtod
    ].join('\n'),
  );
  const { run, diagnostics } = readTrecRun(path);
  assert.deepEqual(
    run.get('q1')!.map((d) => [d.id, d.score]),
    [
      ['hex', 16],
      ['exp', 10],
      ['long', Math.PI],
      ['dot', 0.5],
      ['neghex', -3],
    ],
  );
  assert.deepEqual(
    diagnostics.map((d) => [d.line, d.message]),
    [
      [5, 'score "0b11" is not a number; line skipped'],
      [6, 'score "12abc" is not a number; line skipped'],
      [7, 'score "inf" is not a finite number; line skipped'],
      [8, 'score "1e999" is not a finite number; line skipped'],
    ],
  );
});

test('the fast decimal path gives exactly the double that Number() (correctly rounded, as strtod) gives', () => {
  const scores = [
    '0',
    '-0.0',
    '1',
    '0.1',
    '0.3',
    '123456789012345',
    '1234567890123456',
    '9.999999999999999',
    '1e22',
    '1e23',
    '1e-22',
    '4.35e-7',
    '-17.000001',
    '0.000000000000000000001',
    '2.2250738585072014e-308',
    '+7',
    '007.50',
  ];
  const path = file(scores.map((s, i) => `q Q0 d${i} ${i} ${s} t`).join('\n'));
  const got = new Map(
    readTrecRun(path)
      .run.get('q')!
      .map((d) => [d.id, d.score]),
  );
  scores.forEach((s, i) => assert.ok(Object.is(got.get(`d${i}`), Number(s)), `${s}: ${got.get(`d${i}`)} vs ${Number(s)}`));
});

test('columns split on any C whitespace; CR-only line ends; interleaved queries still catch duplicates with their first line', () => {
  const crOnly = readTrecRun(file('q1 Q0 a 1 2 t\rq1 Q0 b 2 1 t\r'));
  assert.deepEqual(
    crOnly.run.get('q1')!.map((d) => d.id),
    ['a', 'b'],
  );
  const tabs = readTrecRun(file('q1\tQ0\ta\t1\t2\tt\nq1 \v Q0\fb 2 1 t \r\n'));
  assert.deepEqual(
    tabs.run.get('q1')!.map((d) => d.id),
    ['a', 'b'],
  );
  const interleaved = readTrecRun(
    file(
      ['q1 Q0 a 1 3 t', 'q2 Q0 a 1 3 t', 'q1 Q0 b 2 2 t', 'q2 Q0 b 2 2 t', 'q1 Q0 a 3 1 t', 'q2 Q0 c 3 1 t', 'q2 Q0 a 4 0 t'].join('\n'),
    ),
  );
  assert.deepEqual(
    interleaved.diagnostics.map((d) => d.message.split(';')[0]),
    ['duplicate document "a" for query "q1" (first at line 1)', 'duplicate document "a" for query "q2" (first at line 2)'],
  );
  assert.deepEqual(
    [...interleaved.run.entries()].map(([q, docs]) => [q, docs.map((d) => d.id)]),
    [
      ['q1', ['a', 'b']],
      ['q2', ['a', 'b', 'c']],
    ],
  );
});

test('non-ASCII ids and qids are decoded as UTF-8; equal ids share one string', () => {
  const { run } = readTrecRun(file('\uFEFFq\u00e9 Q0 caf\u00e9 1 2 t\nq\u00e9 Q0 \u6587\u66f8 2 1 t\nq2 Q0 caf\u00e9 1 1 t\n'));
  assert.deepEqual(
    run.get('q\u00e9')!.map((d) => d.id),
    ['caf\u00e9', '\u6587\u66f8'],
  );
  assert.equal(run.get('q2')![0].id, 'caf\u00e9');
});

test('a large run with repeated documents reads the same as a line-by-line reference parse', () => {
  const lines: string[] = [];
  const expected = new Map<string, Array<{ id: string; score: number }>>();
  for (let q = 0; q < 50; q++) {
    const list: Array<{ id: string; score: number }> = [];
    for (let r = 0; r < 200; r++) {
      const id = `doc-${(q * 31 + r * 17) % 997}`;
      if (list.some((d) => d.id === id)) continue;
      const score = Math.round((200 - r) * 1000 + (r % 7)) / 1000;
      list.push({ id, score });
      lines.push(`${q} Q0 ${id} ${r + 1} ${score} tag`);
    }
    expected.set(
      String(q),
      list.sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : -1)),
    );
  }
  const { run, diagnostics } = readTrecRun(file(lines.join('\n') + '\n'));
  assert.deepEqual(diagnostics, []);
  assert.deepEqual([...run.entries()], [...expected.entries()]);
});

test('a query or document id that is not UTF-8 is refused at its line: different bytes never become one id', () => {
  const latin1 = (s: string) => Buffer.from(s, 'latin1');
  const path = file(Buffer.concat([latin1('q1 Q0 caf\u00e9 1 2 t\nq1 Q0 caf\u00e8 2 1 t\nq1 Q0 ok 3 0.5 t\nq\u00e9 Q0 ok 1 1 t\n')]));
  const { run, diagnostics } = readTrecRun(path);
  assert.deepEqual(
    run.get('q1')!.map((d) => d.id),
    ['ok'],
  );
  assert.equal(run.size, 1);
  assert.deepEqual(
    diagnostics.map((d) => `${d.line}:${d.message.split(' (')[0]}`),
    [
      '1:document id: byte 0xE9 at column 10 is not UTF-8',
      '2:document id: byte 0xE8 at column 10 is not UTF-8',
      '4:query id: byte 0xE9 at column 2 is not UTF-8',
    ],
  );
});
