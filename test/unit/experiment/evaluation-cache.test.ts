// A run's per-query metric values kept beside the runs (core evaluation-cache.ts): read back only under every input
// they were computed from (run file, judgments, metric options) and only with every metric asked for; a later
// evaluation adds its metrics; entries of a removed run go with it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { COMPARISON_CACHE_DIR, pruneComparisonCache, runFileStamp } from '../../../src/core/experiment/comparison-cache';
import { type RunEvaluation, readRunEvaluation, runEvaluationOf, writeRunEvaluation } from '../../../src/core/experiment/evaluation-cache';

const OPTIONS = { gain: 'exp' as const, relevanceThreshold: 1 };

function store() {
  const dir = mkdtempSync(path.join(tmpdir(), 'ranklab-evalcache-'));
  const file = path.join(dir, 'a.json');
  writeFileSync(file, '{}');
  const key = () => ({ run: runFileStamp('a', file), judgments: 'sha256:j1', options: OPTIONS });
  return { dir, file, key };
}

const evaluation = (specs: Record<string, number[]>): RunEvaluation => ({
  values: new Map(['q1', 'q2', 'q3'].map((q, i) => [q, Object.fromEntries(Object.entries(specs).map(([s, v]) => [s, v[i]]))])),
  missing: ['q3'],
  notEvaluated: [{ qid: 'qx', text: 'a query nobody judged' }],
});

test('values come back as written, in query order, with what the run lacks and what was not evaluated', () => {
  const { dir, key } = store();
  const e = evaluation({ 'ndcg@10': [0.5, 1, 0], 'p@5': [0.2, 0.4, 0] });
  assert.equal(writeRunEvaluation(dir, key(), e), true);
  assert.deepEqual(readRunEvaluation(dir, key(), ['ndcg@10', 'p@5']), e);
  assert.deepEqual(readRunEvaluation(dir, key(), ['p@5'])!.values.get('q2'), { 'p@5': 0.4 }, 'only the metrics asked for');
  assert.equal(readRunEvaluation(dir, key(), ['ndcg@10', 'mrr']), undefined, 'a metric never evaluated: a miss');
});

test('another judgments fingerprint, metric option or run file is a miss', () => {
  const { dir, file, key } = store();
  writeRunEvaluation(dir, key(), evaluation({ 'ndcg@10': [0.5, 1, 0] }));
  assert.equal(readRunEvaluation(dir, { ...key(), judgments: 'sha256:j2' }, ['ndcg@10']), undefined);
  assert.equal(readRunEvaluation(dir, { ...key(), options: { ...OPTIONS, gain: 'linear' } }, ['ndcg@10']), undefined);
  assert.equal(readRunEvaluation(dir, { ...key(), options: { ...OPTIONS, relevanceThreshold: 2 } }, ['ndcg@10']), undefined);
  utimesSync(file, new Date(), new Date(Date.now() + 5000)); // the run file rewritten
  assert.equal(readRunEvaluation(dir, key(), ['ndcg@10']), undefined);
});

test('a later evaluation of the same run adds its metrics; another query set replaces them', () => {
  const { dir, key } = store();
  writeRunEvaluation(dir, key(), evaluation({ 'ndcg@10': [0.5, 1, 0] }));
  writeRunEvaluation(dir, key(), evaluation({ 'p@5': [0.2, 0.4, 0] }));
  assert.deepEqual(readRunEvaluation(dir, key(), ['ndcg@10', 'p@5']), evaluation({ 'ndcg@10': [0.5, 1, 0], 'p@5': [0.2, 0.4, 0] }));
  const two: RunEvaluation = {
    values: new Map([
      ['q1', { mrr: 1 }],
      ['q2', { mrr: 0.5 }],
    ]),
    missing: [],
    notEvaluated: [],
  };
  writeRunEvaluation(dir, key(), two);
  assert.equal(readRunEvaluation(dir, key(), ['ndcg@10']), undefined, 'values of another query set are not mixed in');
  assert.deepEqual(readRunEvaluation(dir, key(), ['mrr']), two);
});

test('a garbled entry is a miss; entries of a removed run are pruned with it', () => {
  const { dir, key } = store();
  writeRunEvaluation(dir, key(), evaluation({ 'ndcg@10': [0.5, 1, 0] }));
  const cache = path.join(dir, COMPARISON_CACHE_DIR);
  const [name] = readdirSync(cache);
  assert.match(name, /^[0-9a-f]{12}-[0-9a-f]{32}\.json\.gz$/, 'named by its run alone');
  writeFileSync(path.join(cache, name), 'garbage');
  assert.equal(readRunEvaluation(dir, key(), ['ndcg@10']), undefined);
  writeRunEvaluation(dir, key(), evaluation({ 'ndcg@10': [0.5, 1, 0] }));
  assert.deepEqual(pruneComparisonCache(dir, ['a']), [], 'its run is still there');
  rmSync(path.join(dir, 'a.json'));
  assert.deepEqual(pruneComparisonCache(dir, []), [name]);
});

test('runEvaluationOf: evaluated queries the run lacks, and the run queries not evaluated with their text', () => {
  const values = new Map([
    ['q1', { m: 1 }],
    ['q2', { m: 0 }],
  ]);
  const saved = {
    queries: [
      { qid: 'q1', text: 'one' },
      { qid: 'q9', text: 'nine' },
    ],
  } as Parameters<typeof runEvaluationOf>[1];
  assert.deepEqual(runEvaluationOf(values, saved), { values, missing: ['q2'], notEvaluated: [{ qid: 'q9', text: 'nine' }] });
});
