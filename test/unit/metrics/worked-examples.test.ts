// The worked examples of DEVELOPERS.md, computed by hand, as unit tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_METRIC_OPTIONS,
  evaluateRun,
  parseMetricList,
  queryContext,
  computeMetric,
  parseMetric,
  dcg,
} from '../../../src/core/metrics';
import type { Run } from '../../../src/core/run/types';
import { judgmentsOf } from '../../helpers/judgments';

const close = (actual: number, expected: number, digits = 3) =>
  assert.ok(Math.abs(actual - expected) < 0.5 * 10 ** -digits, `expected ${expected}, got ${actual}`);

/** A ranked list d1..dn and qrels that give the listed grades at those ranks (null = unjudged). */
function ranked(grades: (number | null)[], extraJudged: Record<string, number> = {}) {
  const docs = grades.map((_, i) => ({ id: `d${i + 1}`, score: grades.length - i }));
  const qrels = new Map<string, number>();
  grades.forEach((g, i) => g !== null && qrels.set(`d${i + 1}`, g));
  for (const [id, g] of Object.entries(extraJudged)) qrels.set(id, g);
  return { docs, qrels };
}

function metric(name: string, grades: (number | null)[], extraJudged: Record<string, number> = {}) {
  const { docs, qrels } = ranked(grades, extraJudged);
  return computeMetric(parseMetric(name), queryContext(docs, qrels, DEFAULT_METRIC_OPTIONS));
}

test('relevance [1,0,1,0,0] with 4 relevant in the corpus: P@5 = 0.40, R@5 = 0.50', () => {
  const missing = { m1: 1, m2: 1 }; // two relevant documents that were not retrieved
  close(metric('p@5', [1, 0, 1, 0, 0], missing), 0.4, 6);
  close(metric('recall@5', [1, 0, 1, 0, 0], missing), 0.5, 6);
});

test('first relevant at ranks 1, 3, 2: MRR = 0.611', () => {
  const run: Run = new Map([
    [
      'a',
      [
        { id: 'x', score: 3 },
        { id: 'n1', score: 2 },
      ],
    ],
    [
      'b',
      [
        { id: 'n1', score: 3 },
        { id: 'n2', score: 2 },
        { id: 'x', score: 1 },
      ],
    ],
    [
      'c',
      [
        { id: 'n1', score: 3 },
        { id: 'x', score: 2 },
      ],
    ],
  ]);
  const judgments = judgmentsOf({ a: { x: 1, n1: 0 }, b: { x: 2, n1: 0, n2: 0 }, c: { x: 1 } });
  const ev = evaluateRun(run, judgments, parseMetricList('mrr'));
  close(ev.means.mrr, 0.611);
  close(ev.means.mrr, (1 + 1 / 3 + 1 / 2) / 3, 12);
});

test('graded [2,0,3,1], gain 2^rel-1: DCG 6.931, IDCG 9.393, nDCG 0.74', () => {
  close(dcg([2, 0, 3, 1], undefined, 'exp'), 6.931);
  close(dcg([3, 2, 1], undefined, 'exp'), 9.393);
  close(metric('ndcg@4', [2, 0, 3, 1]), 0.738);
  assert.equal(metric('ndcg@4', [2, 0, 3, 1]).toFixed(2), '0.74');
});

test('"kopi gayo" [3,1,0,2,0] with a fourth relevant document judged 1: P@5 0.60, R@5 0.75, DCG@5 8.923, nDCG@5 0.908', () => {
  const fourth = { 'kopi-gayo-history': 1 };
  close(metric('p@5', [3, 1, 0, 2, 0], fourth), 0.6, 6);
  close(metric('recall@5', [3, 1, 0, 2, 0], fourth), 0.75, 6);
  close(dcg([3, 1, 0, 2, 0], 5, 'exp'), 8.923);
  close(dcg([3, 2, 1, 1], 5, 'exp'), 9.823);
  close(metric('ndcg@5', [3, 1, 0, 2, 0], fourth), 0.908);
  // The often-quoted 0.95 takes the ideal from the retrieved grades only; Ranklab does not.
  close(dcg([3, 1, 0, 2, 0], 5, 'exp') / dcg([3, 2, 1], 5, 'exp'), 0.95, 2);
  assert.ok(Math.abs(metric('ndcg@5', [3, 1, 0, 2, 0], fourth) - 0.95) > 0.03);
});

test('linear gain uses the grade itself', () => {
  const { docs, qrels } = ranked([2, 0, 3, 1]);
  const ctx = queryContext(docs, qrels, { gain: 'linear', relevanceThreshold: 1 });
  const expected = (2 + 3 / 2 + 1 / Math.log2(5)) / (3 + 2 / Math.log2(3) + 1 / 2);
  close(computeMetric(parseMetric('ndcg@4'), ctx), expected, 12);
});

test('hit@k, AP, judged@k and the relevance threshold, by hand', () => {
  // grades at ranks 1..5: unjudged, 0, 2, unjudged, 1 ; one more relevant (grade 3) not retrieved
  const grades = [null, 0, 2, null, 1];
  const extra = { missing: 3 };
  assert.equal(metric('hit@2', grades, extra), 0);
  assert.equal(metric('hit@3', grades, extra), 1);
  close(metric('ap', grades, extra), (1 / 3 + 2 / 5) / 3, 12); // relevant at ranks 3 and 5, R = 3
  close(metric('judged@5', grades, extra), 3 / 5, 12);
  close(metric('judged@10', grades, extra), 3 / 5, 12); // divides by the 5 shown, not by 10
  close(metric('mrr', grades, extra), 1 / 3, 12);
  close(metric('mrr@2', grades, extra), 0, 12);
  const { docs, qrels } = ranked(grades, extra);
  const strict = queryContext(docs, qrels, { gain: 'exp', relevanceThreshold: 2 });
  assert.equal(computeMetric(parseMetric('p@5'), strict), 1 / 5);
  assert.equal(computeMetric(parseMetric('recall@5'), strict), 1 / 2);
  // the threshold does not change nDCG gains or the ideal (trec_eval)
  const loose = queryContext(docs, qrels, { gain: 'exp', relevanceThreshold: 1 });
  assert.equal(computeMetric(parseMetric('ndcg@5'), strict), computeMetric(parseMetric('ndcg@5'), loose));
});

test('queries without relevant documents and queries missing from the run count as 0 in the mean', () => {
  const run: Run = new Map([
    ['q1', [{ id: 'a', score: 1 }]],
    ['stray', [{ id: 'a', score: 1 }]],
  ]);
  const judgments = judgmentsOf({ q1: { a: 1 }, q2: { b: 1 }, q3: { c: 0 } });
  const ev = evaluateRun(run, judgments, parseMetricList('p@1'));
  assert.equal(ev.queries, 3);
  close(ev.means['p@1'], 1 / 3, 12);
  assert.deepEqual(ev.missingFromRun, ['q2', 'q3']);
  assert.deepEqual(ev.noRelevant, ['q3']);
  assert.deepEqual(ev.unjudgedRunQueries, ['stray']);
  const excluded = evaluateRun(run, judgments, parseMetricList('p@1'), { gain: 'exp', relevanceThreshold: 1, excludeNoRelevant: true });
  assert.equal(excluded.queries, 2);
  close(excluded.means['p@1'], 1 / 2, 12);
});

test('metric names parse to canonical specs and bad names are refused', () => {
  assert.deepEqual(
    parseMetricList('ndcg@10, MRR@10,p@5,recall@100,mrr,ap,judged@10,hit@5,p@5').map((s) => s.name),
    ['ndcg@10', 'mrr@10', 'p@5', 'recall@100', 'mrr', 'ap', 'judged@10', 'hit@5'],
  );
  assert.throws(() => parseMetric('p'), /needs a cut-off/);
  assert.throws(() => parseMetric('bleu@4'), /unknown metric/);
  assert.throws(() => parseMetric('ndcg@0'), /at least 1/);
});
