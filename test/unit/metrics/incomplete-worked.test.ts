// Hand-computed values for the metrics built for incomplete judgments (worked on paper; see each comment).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_METRIC_OPTIONS,
  computeMetric,
  parseMetric,
  queryContext,
  rbpResidual,
  type MetricOptions,
} from '../../../src/core/metrics';

// Ranked: u1 (unjudged), r1 (1), n1 (0), u2 (unjudged), r2 (2). Not retrieved: n2 (0), r3 (1).
// Threshold 1: R = 3 (r1, r2, r3), N = 2 (n1, n2).
const docs = ['u1', 'r1', 'n1', 'u2', 'r2'].map((id, i) => ({ id, score: 10 - i }));
const qrels = new Map([
  ['r1', 1],
  ['n1', 0],
  ['r2', 2],
  ['n2', 0],
  ['r3', 1],
]);
const value = (name: string, options: MetricOptions = DEFAULT_METRIC_OPTIONS) =>
  computeMetric(parseMetric(name), queryContext(docs, qrels, options));
const close = (a: number, b: number, msg: string) => assert.ok(Math.abs(a - b) < 1e-9, `${msg}: ${a} vs ${b}`);

test('bpref: r1 has no judged non-relevant above (1), r2 has n1 above (1 − 1/min(2,3)); (1 + 0.5) / 3', () => {
  close(value('bpref'), 0.5, 'bpref');
  // The unjudged documents do not count: removing them changes nothing.
  close(value('bpref', { ...DEFAULT_METRIC_OPTIONS, judgedOnly: true }), 0.5, 'bpref condensed');
});

test('infAP: r1 at rank 2 adds 1/2 + (1/2)(0/1)(…) = 0.5; r2 at rank 5 adds 1/5 + (4/5)(2/4)((1+ε)/(2+2ε)) = 0.4; / 3', () => {
  close(value('infap'), 0.9 / 3, 'infAP');
});

test('rprec: R = 3, one relevant (r1) in the top 3 → 1/3; R larger than the list pads with non-relevant', () => {
  close(value('rprec'), 1 / 3, 'rprec');
  const short = queryContext([{ id: 'r1', score: 1 }], qrels, DEFAULT_METRIC_OPTIONS);
  close(computeMetric(parseMetric('rprec'), short), 1 / 3, 'rprec short list');
});

test('success@k is hit@k: 0 at 1, 1 at 2', () => {
  assert.equal(value('success@1'), 0);
  assert.equal(value('success@2'), 1);
  assert.equal(parseMetric('success@2').name, 'hit@2');
});

test('rbp@0.5: (1−p)(p^1 + p^4) = 0.28125; residual (1−p)(p^0 + p^3) + p^5 = 0.59375', () => {
  close(value('rbp@0.5'), 0.5 * (0.5 + 0.0625), 'rbp');
  close(rbpResidual(queryContext(docs, qrels, DEFAULT_METRIC_OPTIONS), 0.5), 0.5 * (1 + 0.125) + 0.5 ** 5, 'residual');
  // Upper end = the RBP of the list with every unjudged document relevant plus the tail p^5.
  const allRelevant = new Map([...qrels, ['u1', 1], ['u2', 1]]);
  close(
    value('rbp@0.5') + rbpResidual(queryContext(docs, qrels, DEFAULT_METRIC_OPTIONS), 0.5),
    computeMetric(parseMetric('rbp@0.5'), queryContext(docs, allRelevant, DEFAULT_METRIC_OPTIONS)) + 0.5 ** 5,
    'rbp + residual',
  );
});

test('err@5 and nerr@5: R(g) = (2^g − 1)/16; ideal [2, 1, 1]', () => {
  const err = (1 / 2) * (1 / 16) + (1 / 5) * (15 / 16) * (3 / 16); // 0.06640625
  close(value('err@5'), err, 'err@5');
  const ideal = 3 / 16 + (1 / 2) * (13 / 16) * (1 / 16) + (1 / 3) * (13 / 16) * (15 / 16) * (1 / 16);
  close(value('nerr@5'), err / ideal, 'nerr@5');
  close(value('err@1'), 0, 'err@1 (unjudged on top)');
  // gdeval's maximum grade is 4 whatever the scale: grade 4 stops 15/16 of users, grade 7 counts as 4.
  const top = (g: number) =>
    computeMetric(parseMetric('err@1'), queryContext([{ id: 'a', score: 1 }], new Map([['a', g]]), DEFAULT_METRIC_OPTIONS));
  close(top(4), 15 / 16, 'grade 4');
  close(top(7), 15 / 16, 'grade 7');
});

test('--judged-only condenses the list before every metric: [r1, n1, r2]', () => {
  const o = { ...DEFAULT_METRIC_OPTIONS, judgedOnly: true };
  close(value('p@2', o), 1 / 2, 'p@2');
  close(value('ap', o), (1 + 2 / 3) / 3, 'ap');
  close(value('mrr', o), 1, 'mrr');
  close(value('judged@3', o), 1, 'judged@3');
  close(value('p@2'), 1 / 2, 'p@2 uncondensed ([u1, r1])');
  close(value('mrr'), 1 / 2, 'mrr uncondensed');
});
