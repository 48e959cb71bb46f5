import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { compareRuns } from '../../../src/core/experiment/compare';
import { checkGates } from '../../../src/core/experiment/gates';
import { readGoldenSet } from '../../../src/core/judgments/golden-set';
import { parseMetricList } from '../../../src/core/metrics/spec';
import type { Run } from '../../../src/core/run/types';
import {
  changedSettingLine,
  formatDelta,
  formatResultList,
  gateFindings,
  headline,
  queryVerdict,
} from '../../../src/extension/logic/findings';

test('headline: first metric with its change vs the baseline, then the second metric', () => {
  assert.equal(
    headline(['ndcg@10', 'mrr@10'], { 'ndcg@10': 0.742, 'mrr@10': 0.81 }, { 'ndcg@10': 0.73, 'mrr@10': 0.9 }),
    'nDCG@10 0.742 ▲0.012 vs baseline · MRR@10 0.810',
  );
  assert.equal(headline(['ndcg@10'], { 'ndcg@10': 0.5 }, { 'ndcg@10': 0.75 }), 'nDCG@10 0.500 ▼0.250 vs baseline');
  assert.equal(headline(['ndcg@10', 'mrr@10'], { 'ndcg@10': 0.5, 'mrr@10': 0.25 }), 'nDCG@10 0.500 (baseline) · MRR@10 0.250');
  assert.equal(formatDelta(0.0001), '±0.000');
});

const BASE = `{
  "description": "BM25",
  "lexical": {
    "fields": { "title": 1, "body": 1 },
    "combineWith": "OR"
  }
}`;

test('changedSettingLine points at the first setting that differs from the baseline', () => {
  const cand = `{
  "description": "title boosted",
  "lexical": {
    "fields": {
      "title": 3,
      "body": 1
    },
    "combineWith": "OR"
  }
}`;
  assert.deepEqual(changedSettingLine(cand, BASE), { line: 5, pointer: '/lexical/fields/title' });
  // A setting absent from the baseline counts as changed.
  const added = BASE.replace('"combineWith": "OR"', '"combineWith": "OR",\n    "fuzzy": 0.2');
  assert.deepEqual(changedSettingLine(added, BASE), { line: 6, pointer: '/lexical/fuzzy' });
  // Only the description differs: no setting to blame, first line.
  assert.deepEqual(changedSettingLine(BASE.replace('BM25', 'other'), BASE), { line: 0 });
  assert.deepEqual(changedSettingLine('{ broken', BASE), { line: 0 });
});

test('queryVerdict: below gates.min fails; a drop beyond maxRegression (or epsilon without a gate) fails', () => {
  const gates = { min: { 'ndcg@10': 0.65 }, maxRegression: { 'ndcg@10': 0.02 } };
  assert.match(queryVerdict('ndcg@10', 0.5, undefined, gates)!, /0\.500 is below the gate 0\.65/);
  assert.equal(queryVerdict('ndcg@10', 0.79, 0.8, gates), undefined, 'a drop of 0.01 is within the 0.02 gate');
  assert.match(queryVerdict('ndcg@10', 0.7, 0.8, gates)!, /regresses against the baseline: 0\.800 → 0\.700 \(−0\.100/);
  assert.match(queryVerdict('mrr@10', 0.499, 0.5, {})!, /regresses/, 'without a gate any drop beyond epsilon fails');
  assert.equal(queryVerdict('mrr@10', 0.5, 0.5, {}), undefined);
  assert.match(queryVerdict('mrr@10', undefined, 0.5, {})!, /not run/);
});

test('formatResultList marks grades and unjudged documents', () => {
  const text = formatResultList(
    [
      { id: 'a', score: 2, title: 'Alpha' },
      { id: 'b', score: 1 },
    ],
    new Map([['a', 3]]),
  );
  assert.equal(text, ' 1. a  [grade 3]  Alpha\n 2. b  [unjudged]\n');
  assert.equal(formatResultList([], undefined), '(no results)\n');
});

test('gateFindings names the failing gate and the worst queries of a real comparison', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-findings-'));
  const file = join(dir, 'golden.json');
  writeFileSync(
    file,
    JSON.stringify([
      { id: 'q1', query: 'tomato soup', judgments: { d1: 1 } },
      { id: 'q2', query: 'quick bread', judgments: { d2: 1 } },
      { id: 'q3', query: 'curry', judgments: { d3: 1 } },
    ]),
  );
  const judgments = readGoldenSet(file);
  const specs = parseMetricList(['hit@1']);
  const base: Run = new Map([
    ['q1', [{ id: 'd1', score: 1 }]],
    ['q2', [{ id: 'd2', score: 1 }]],
    ['q3', [{ id: 'd3', score: 1 }]],
  ]);
  const cand: Run = new Map([
    ['q1', [{ id: 'd1', score: 1 }]],
    ['q2', [{ id: 'x', score: 1 }]],
    ['q3', [{ id: 'd3', score: 1 }]],
  ]);
  const cmp = compareRuns(
    { name: 'base', run: base },
    { name: 'cand', run: cand },
    judgments,
    specs,
    { gain: 'exp', relevanceThreshold: 1 },
    { bootstrapSamples: 200, permutationSamples: 200 },
  );
  const gates = checkGates({ maxRegression: { 'hit@1': 0.1 } }, cmp);
  const findings = gateFindings(gates, cmp, 7);
  assert.equal(findings.length, 1);
  assert.equal(findings[0].line, 7);
  assert.equal(findings[0].severity, 'warning');
  // hit@1 falls from 3/3 to 2/3: a drop of 0.333 against a gate of 0.1; q2 is the query that lost.
  assert.match(findings[0].message, /hit@1 regresses the baseline beyond the gate: dropped 0\.333/);
  assert.match(findings[0].message, /q2 "quick bread" \(−1\.000\)/);
  assert.deepEqual(
    findings[0].queries.map((q) => q.qid),
    ['q2'],
  );
  assert.deepEqual(gateFindings(checkGates({ maxRegression: { 'hit@1': 0.5 } }, cmp), cmp, 1), []);
});
