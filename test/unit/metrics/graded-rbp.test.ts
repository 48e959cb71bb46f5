// Graded RBP (trec_eval 10's `rbp`), computed by hand. The same three queries were scored by trec_eval 10.0 built
// from the NIST sources, once, by hand (`-q -m rbp.p=0.5`: q1 0.5208, q2 0.3125, q3 0.2500; `rbp.p=0.8`: q2 0.1400).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeMetric, DEFAULT_METRIC_OPTIONS, evaluateRun, parseMetric, parseMetricList } from '../../../src/core/metrics';
import type { Run } from '../../../src/core/run/types';
import { judgmentsOf } from '../../helpers/judgments';

const close = (actual: number, expected: number) => assert.ok(Math.abs(actual - expected) < 1e-12, `expected ${expected}, got ${actual}`);

const list = (...ids: string[]) => ids.map((id, i) => ({ id, score: ids.length - i }));
const run: Run = new Map([
  ['q1', list('d1', 'd2', 'd3', 'd4')], // grades 3, 0, unjudged, 1; highest grade of q1: 3
  ['q2', list('a', 'b')], // grades 2, 1; q2 also judges m at 4 (not retrieved): gains are grade/4
  ['q3', list('y', 'x')], // binary: y unjudged, x relevant
]);
const judgments = judgmentsOf({ q1: { d1: 3, d2: 0, d4: 1 }, q2: { a: 2, b: 1, m: 4 }, q3: { x: 1 } });

test('grbp@p: (1−p) Σ (grade / highest grade of the query) p^(i−1)', () => {
  const ev = evaluateRun(run, judgments, parseMetricList('grbp@0.5,rbp@0.5'), DEFAULT_METRIC_OPTIONS);
  const q = (qid: string, m: string) => ev.perQuery.get(qid)![m];
  close(q('q1', 'grbp@0.5'), 0.5 * (3 / 3 + (1 / 3) * 0.5 ** 3)); // 0.520833…
  close(q('q2', 'grbp@0.5'), 0.5 * (2 / 4 + (1 / 4) * 0.5)); // 0.3125
  close(q('q3', 'grbp@0.5'), 0.5 * 0.5); // binary grades: the binary value
  close(q('q3', 'grbp@0.5'), q('q3', 'rbp@0.5'));
  // Binary RBP counts d1 and d4 alike (1 each): graded RBP is lower whenever a relevant grade is below the top.
  close(q('q1', 'rbp@0.5'), 0.5 * (1 + 0.5 ** 3));
  const p8 = evaluateRun(run, judgments, parseMetricList('grbp@0.8'), DEFAULT_METRIC_OPTIONS);
  close(p8.perQuery.get('q2')!['grbp@0.8'], 0.2 * (2 / 4 + 0.8 * (1 / 4))); // 0.14
});

test('grbp ignores the relevance threshold (every grade above 0 gains) and reports the RBP residual', () => {
  const options = { ...DEFAULT_METRIC_OPTIONS, relevanceThreshold: 3 };
  const ev = evaluateRun(run, judgments, parseMetricList('grbp@0.5'), options);
  close(ev.perQuery.get('q2')!['grbp@0.5'], 0.3125);
  // q1: d3 (rank 3) unjudged, and everything below rank 4: (1−p)·p² + p⁴
  close(ev.residuals.perQuery.get('q1')!['grbp@0.5'], 0.5 * 0.25 + 0.5 ** 4);
});

test('names: rbp_graded is an alias, p defaults to 0.8, the variant says graded', () => {
  assert.equal(parseMetric('rbp_graded@0.9').name, 'grbp@0.9');
  assert.equal(parseMetric('grbp').name, 'grbp@0.8');
  assert.match(describeMetric(parseMetric('grbp@0.8'), DEFAULT_METRIC_OPTIONS), /^RBP@0\.8, graded: gain grade\/maxGrade/);
  assert.throws(() => parseMetric('grbp@1.5'), /persistence/);
});
