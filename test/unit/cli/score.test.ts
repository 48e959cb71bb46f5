import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';
import { syntheticCollection } from '../../helpers/synthetic-collection';

/** qrels and a BM25 run (made by `ranklab eval --trec-run`) of a generated MED-sized collection. */
const generated = (() => {
  const dir = syntheticCollection({ docs: 1033, queries: 30 });
  const run = join(mkdtempSync(join(tmpdir(), 'ranklab-score-')), 'run.bm25.txt');
  const r = ranklab(['eval', '--workspace', dir, '--state-dir', join(run, '..', 'state'), '--no-save', '--trec-run', run]);
  if (r.code !== 0) throw new Error(r.stderr);
  return { qrels: join(dir, 'qrels.tsv'), run };
})();

function scoreJson(qrels: string, run: string) {
  const r = ranklab(['score', '--qrels', qrels, '--run', run, '--metrics', 'ndcg@10,p@5,mrr', '--gain', 'linear', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

test('score --format json prints the documented shape', () => {
  const out = scoreJson(generated.qrels, generated.run);
  assert.equal(out.queries, 30);
  assert.deepEqual(Object.keys(out.metrics), ['ndcg@10', 'p@5', 'mrr']);
  for (const m of ['ndcg@10', 'p@5', 'mrr']) assert.ok(out.metrics[m] > 0 && out.metrics[m] <= 1, `${m} ${out.metrics[m]}`);
  assert.equal(Object.keys(out.perQuery).length, 30);
  assert.match(out.judgments, /^sha256:[0-9a-f]{16}$/);
  assert.ok(Array.isArray(out.skipped));
  assert.match(out.variant.metrics['ndcg@10'], /gain rel \(linear\)/);
});

test("score on med's BM25 run prints trec_eval's means", { skip: COLLECTIONS_SKIP }, () => {
  const out = scoreJson(collectionPath('med', 'qrels.tsv'), collectionPath('med', 'run.bm25.txt'));
  assert.equal(out.queries, 30);
  assert.equal(out.metrics['ndcg@10'].toFixed(4), '0.6700'); // trec_eval ndcg_cut_10 all
  assert.equal(out.metrics['p@5'].toFixed(4), '0.7067');
  assert.equal(out.metrics.mrr.toFixed(4), '0.9194');
});

test('score reports the variant, lists ignored run queries and missing ones', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-score-'));
  writeFileSync(join(dir, 'qrels.txt'), 'q1 0 a 2\nq1 0 b 1\nq2 0 c 1\n');
  writeFileSync(join(dir, 'run.txt'), 'q1 Q0 b 1 2.0 x\nq1 Q0 a 2 1.0 x\nq9 Q0 a 1 1.0 x\n');
  const r = ranklab(['score', '--qrels', join(dir, 'qrels.txt'), '--run', join(dir, 'run.txt'), '--metrics', 'p@1,ndcg@2', '--per-query']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /nDCG@2, gain 2\^rel−1/);
  assert.match(r.stdout, /1 judged queries have no results in the run and score 0: q2/);
  assert.match(r.stdout, /1 run queries have no judgments and were ignored: q9/);
  // q1: b (grade 1) then a (grade 2): DCG = 1 + 3/log2(3); IDCG = 3 + 1/log2(3); mean over q1 and q2 (0)
  const ndcgQ1 = (1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3));
  assert.match(r.stdout, new RegExp(`ndcg@2\\s+${(ndcgQ1 / 2).toFixed(4)}`));
});

test('unusable input exits 2 with a message saying what and where', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-score-'));
  writeFileSync(join(dir, 'empty.txt'), '');
  writeFileSync(join(dir, 'run.txt'), 'q1 Q0 a 1 1 x\n');
  const missing = ranklab(['score', '--qrels', join(dir, 'nope.txt'), '--run', join(dir, 'run.txt')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /nope\.txt/);
  const empty = ranklab(['score', '--qrels', join(dir, 'empty.txt'), '--run', join(dir, 'run.txt')]);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /empty\.txt/);
  const badMetric = ranklab(['score', '--qrels', generated.qrels, '--run', generated.run, '--metrics', 'bleu']);
  assert.equal(badMetric.code, 2);
  assert.match(badMetric.stderr, /unknown metric "bleu"/);
  const noRun = ranklab(['score', '--qrels', generated.qrels]);
  assert.equal(noRun.code, 2);
  assert.match(noRun.stderr, /--run: is required/);
});

test('malformed qrels lines are reported with file and line on stderr and the valid ones still scored', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-score-'));
  writeFileSync(join(dir, 'qrels.txt'), 'q1 0 a 1\nq1 0 b x\nq1 0 c\n');
  writeFileSync(join(dir, 'run.txt'), 'q1 Q0 a 1 2 x\n');
  const r = ranklab(['score', '--qrels', join(dir, 'qrels.txt'), '--run', join(dir, 'run.txt'), '--metrics', 'p@1', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /qrels\.txt:2: error/);
  assert.match(r.stderr, /qrels\.txt:3: error/);
  assert.equal(JSON.parse(r.stdout).metrics['p@1'], 1);
});

test('ids that are not UTF-8 are refused, not merged: the two Latin-1 documents no longer both match one judgment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-score-'));
  const latin1 = (s: string) => Buffer.from(s, 'latin1');
  writeFileSync(join(dir, 'qrels.txt'), latin1('q1 0 caf\u00e9 1\nq1 0 d1 1\n'));
  writeFileSync(join(dir, 'run.txt'), latin1('q1 Q0 caf\u00e9 1 2 t\nq1 Q0 caf\u00e8 2 1 t\nq1 Q0 d1 3 0.5 t\n'));
  const args = ['score', '--qrels', join(dir, 'qrels.txt'), '--run', join(dir, 'run.txt'), '--metrics', 'p@2,ap', '--format', 'json'];
  const strict = ranklab([...args, '--strict']);
  assert.equal(strict.code, 2, strict.stderr);
  assert.match(strict.stderr, /qrels\.txt:1: error: byte 0xE9 at column 9 is not UTF-8/);
  assert.match(strict.stderr, /run\.txt:2: error: document id: byte 0xE8 at column 10 is not UTF-8/);
  const lenient = ranklab(args);
  assert.equal(lenient.code, 0, lenient.stderr);
  // Left: q1 judges d1 only, the run ranks d1 alone; before, caf\xE9 and caf\xE8 both matched "caf\uFFFD" (AP 2.0).
  const out = JSON.parse(lenient.stdout);
  assert.equal(out.metrics.ap, 1);
  assert.equal(out.metrics['p@2'], 0.5);
});
