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
  assert.deepEqual(run.get('q1')!.map((d) => d.id), ['a', '9', '100', '10']);
});

test('duplicates and malformed lines are reported with their line, the rest is kept', () => {
  const path = file('\uFEFFq1 Q0 a 1 3 t\r\nq1 Q0 b 2 2\r\nq1 Q0 a 3 1 t\r\nq1 Q0 c 4 x t\r\n# comment\r\nq2 Q0 z 1 1 t\r\n');
  const { run, diagnostics } = readTrecRun(path);
  assert.deepEqual(diagnostics.map((d) => [d.line, d.message.split(';')[0]]), [
    [2, 'expected 6 columns "qid Q0 docid rank score tag", found 5'],
    [3, 'duplicate document "a" for query "q1" (first at line 1)'],
    [4, 'score "x" is not a number'],
  ]);
  assert.deepEqual([...run.keys()], ['q1', 'q2']);
  assert.deepEqual(run.get('q1')!.map((d) => d.id), ['a']);
});

test('an empty run is unusable input', () => {
  assert.throws(() => readTrecRun(file('')), /no valid run line/);
  assert.throws(() => readTrecRun('/nonexistent/run.txt'), /not found/);
});

test('written runs read back identically', () => {
  const run = new Map([['q1', [{ id: 'b', score: 0.25 }, { id: 'a', score: 0.125 }]], ['q2', [{ id: 'x', score: 1e-7 }]]]);
  const back = readTrecRun(file(formatTrecRun(run, 'mytag')));
  assert.deepEqual([...back.run.entries()], [...run.entries()]);
  assert.equal(back.tag, 'mytag');
});
