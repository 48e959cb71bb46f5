// N-way comparison (compareMany): every candidate against one baseline, ONE Holm correction over all of them, worked by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MixedPrincipalsError, compareMany, compareRuns } from '../../../src/core/experiment/compare';
import { checkGates } from '../../../src/core/experiment/gates';
import { comparisonMatrix } from '../../../src/core/experiment/matrix';
import { formatMany, manyJUnit, manyJson } from '../../../src/core/report/matrix';
import { parseMetricList } from '../../../src/core/metrics';
import type { Run } from '../../../src/core/run/types';
import { judgmentsOf } from '../../helpers/judgments';

const list = (...ids: string[]) => ids.map((id, i) => ({ id, score: ids.length - i }));
const opts = { gain: 'exp' as const, relevanceThreshold: 1 };
const qrels: Record<string, Record<string, number>> = {};
for (let i = 0; i < 10; i++) qrels[`q${i}`] = { [`r${i}`]: 1 };
const judgments = judgmentsOf(qrels);
/** The relevant document first in the queries `first` says, second elsewhere. */
const run = (first: (i: number) => boolean): Run =>
  new Map(Array.from({ length: 10 }, (_, i) => [`q${i}`, first(i) ? list(`r${i}`, 'junk') : list('junk', `r${i}`)]));
const baseline = { name: 'base', run: run(() => false) };
const a = { name: 'a', run: run((i) => i < 8) }; // 8 wins, 2 ties on p@1 (+1) and mrr (+0.5)
const b = { name: 'b', run: run((i) => i < 5) }; // 5 wins, 5 ties
const specs = parseMetricList('p@1,mrr');

test('one Holm–Bonferroni correction over the candidates × metrics matrix, by hand', () => {
  const many = compareMany(baseline, [a, b], judgments, specs, opts);
  // exact permutation p: a: 2/2^8 on both metrics, b: 2/2^5 on both; Holm over 4 tests:
  // 0.0078125·4 = 0.03125, 0.0078125·3 → running max 0.03125, 0.0625·2 = 0.125, 0.0625·1 → 0.125
  const [ca, cb] = many.comparisons;
  assert.equal(ca.metrics['p@1'].pPermutation, 2 / 256);
  assert.equal(cb.metrics['p@1'].pPermutation, 2 / 32);
  assert.deepEqual(
    [ca.metrics['p@1'].pAdjusted, ca.metrics.mrr.pAdjusted, cb.metrics['p@1'].pAdjusted, cb.metrics.mrr.pAdjusted],
    [0.03125, 0.03125, 0.125, 0.125],
  );
  assert.equal(many.tests, 4);
  assert.equal(ca.tests, 4);
  assert.match(
    many.correction,
    /^Holm–Bonferroni over 4 permutation tests of 2 candidates \(a: 2 metrics × overall, 0 slices and 0 splits; b: /,
  );
  // alone, a's p-values would be corrected over its own 2 tests only
  assert.equal(compareRuns(baseline, a, judgments, specs, opts).metrics['p@1'].pAdjusted, 2 * (2 / 256));

  const m = comparisonMatrix(many, [[], []]);
  assert.deepEqual(m.metrics, ['p@1', 'mrr']);
  assert.deepEqual(m.baseline.means, { 'p@1': 0, mrr: 0.5 });
  assert.deepEqual(
    m.rows.map((r) => [r.candidate, r.cells['p@1'].mean, r.cells['p@1'].delta, r.cells['p@1'].significant, r.verdict.outcome]),
    [
      ['a', 0.8, 0.8, true, 'improved'],
      ['b', 0.5, 0.5, false, 'no significant change'],
    ],
  );
});

test('gates per candidate, and every report format carries every candidate', () => {
  const many = compareMany(baseline, [a, b], judgments, specs, opts);
  const gates = many.comparisons.map((cmp) => checkGates({ min: { 'p@1': 0.6 } }, cmp));
  assert.deepEqual(
    gates.map((g) => g[0].passed),
    [true, false],
  );
  const m = comparisonMatrix(many, gates);
  assert.deepEqual(
    m.rows.map((r) => r.gates),
    [
      { passed: 1, total: 1, failed: [] },
      { passed: 0, total: 1, failed: ['p@1 >= 0.6'] },
    ],
  );

  const table = formatMany(many, gates, 'table');
  assert.match(
    table,
    /^Ranklab compare: 2 candidates vs baseline base\n\nVerdict \(10 queries, significant = Holm-adjusted p < 0\.05 over 4 tests of 2 candidates\):\n  a vs base: significant gain on 2 metrics \(p@1, mrr\); gates 1\/1 pass\n/,
  );
  assert.match(table, /\n  b vs base: no significant change on any of 2 metrics; 1 of 1 gates fail\n/);
  assert.match(
    table,
    /\na +0\.8000 \+0\.8000\* \[[^\]]+\] +0\.9000 \+0\.4000\* \[[^\]]+\] +1\/1\n/,
    'a row: mean, delta, significance mark, CI per metric',
  );
  assert.match(table, /\nb +0\.5000 \+0\.5000 \[[^\]]+\] +0\.7500 \+0\.2500 \[[^\]]+\] +0\/1\n/);
  assert.match(table, /\* = significant: the delta survives one Holm–Bonferroni correction over all 4 tests/);
  assert.match(formatMany(many, gates, 'markdown'), /^## Ranklab: 2 candidates vs base\n/);

  const json = manyJson(many, gates);
  assert.deepEqual(json.candidates, ['a', 'b']);
  assert.equal(json.matrix.rows[1].cells['p@1'].pAdjusted, 0.125);
  assert.equal(json.comparisons[0].verdict.outcome, 'improved');
  assert.equal(json.comparisons[1].gates[0].passed, false);

  const xml = manyJUnit(many, gates);
  assert.match(xml, /<testsuites name="ranklab gates: a, b vs base" tests="2" failures="1">/);
  assert.match(xml, /<testsuite name="a vs base" tests="1" failures="0">/);
  assert.match(xml, /<testsuite name="b vs base" tests="1" failures="1">/);
  assert.match(xml, /5 queries below 0\.6 \(p@1 of the candidate\), worst first:\n {2}q5/); // q5..q9 at 0
});

test('a candidate made as another principal is refused before any work, unless allowed', () => {
  assert.throws(
    () => compareMany({ ...baseline, principal: null }, [a, { ...b, principal: 'ayu' }], judgments, specs, opts),
    MixedPrincipalsError,
  );
  const many = compareMany({ ...baseline, principal: null }, [a, { ...b, principal: 'ayu' }], judgments, specs, opts, {
    allowMixedPrincipals: true,
  });
  assert.equal(many.comparisons[1].principals.mixed, true);
  assert.equal(many.comparisons[0].principals.mixed, false);
});
