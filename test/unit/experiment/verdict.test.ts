// The verdict that opens every comparison (src/core/experiment/verdict.ts), on comparisons small enough to work out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns } from '../../../src/core/experiment/compare';
import { checkGates } from '../../../src/core/experiment/gates';
import { verdictOf } from '../../../src/core/experiment/verdict';
import { queriesToDetect } from '../../../src/core/experiment/stats';
import { comparisonJson, formatComparison } from '../../../src/core/report/comparison';
import { parseMetricList } from '../../../src/core/metrics';
import type { Run } from '../../../src/core/run/types';
import { judgmentsOf } from '../../helpers/judgments';

const list = (...ids: string[]) => ids.map((id, i) => ({ id, score: ids.length - i }));
const opts = { gain: 'exp' as const, relevanceThreshold: 1 };

// The 4-query comparison of compare.test.ts: p@1 [1,0,1,0] -> [0,1,1,1]; slice proc loses q1, nav wins both.
const small = judgmentsOf(
  { q1: { a: 1 }, q2: { b: 1 }, q3: { c: 1 }, q4: { d: 1 } },
  { q1: { tags: ['proc'] }, q2: { tags: ['nav'] }, q3: { tags: ['proc'] }, q4: { tags: ['nav'], split: 'holdout' } },
);
const cmp = compareRuns(
  {
    name: 'baseline',
    run: new Map([
      ['q1', list('a', 'x')],
      ['q2', list('x', 'b')],
      ['q3', list('c')],
      ['q4', list('x', 'd')],
    ]),
  },
  {
    name: 'candidate',
    run: new Map([
      ['q1', list('x', 'a')],
      ['q2', list('b', 'x')],
      ['q3', list('c')],
      ['q4', list('d', 'x')],
    ]),
  },
  small,
  parseMetricList('p@1'),
  opts,
  { minSliceSize: 2 },
);
const gates = checkGates({ min: { 'p@1': 0.8 }, maxRegression: { 'p@1': 0.1 }, maxSliceRegression: { 'p@1': 0.2 } }, cmp);

test('a change that is not significant: the line, gates on the metric, the worst slice, and the MDE by hand', () => {
  const v = verdictOf(cmp, gates);
  assert.equal(v.outcome, 'no significant change');
  const m = v.metrics[0];
  assert.equal(m.metric, 'p@1');
  assert.equal(m.delta, 0.25);
  assert.equal(m.significant, false, 'p = 1 (8 sign flips of [-1, +1, +1], all |sum| >= 1)');
  // min 0.8 fails (0.75), maxRegression passes, maxSliceRegression: nav, proc (drop 0.5: fails), split:tune, split:holdout
  assert.deepEqual(m.gates, { passed: 4, total: 6, failed: ['p@1 >= 0.8', 'p@1 drop vs baseline <= 0.2 in slice proc'] });
  assert.deepEqual(m.worstSlice, {
    name: 'proc',
    queries: 2,
    delta: -0.5,
    pAdjusted: cmp.slices.proc.metrics['p@1'].pAdjusted,
    significant: false,
  });
  // deltas [-1, +1, 0, +1]: mean 0.25, sd = sqrt(2.75 / 3) = 0.957427; MDE = (t(.975,3) 3.182446 + t(.8,3) 0.978472) · sd / 2
  assert.ok(Math.abs(m.mde.sd! - 0.957427) < 1e-6);
  assert.ok(Math.abs(m.mde.value! - ((3.182446 + 0.978472) * 0.957427) / 2) < 1e-5, String(m.mde.value));
  assert.equal(m.mde.queriesFor, queriesToDetect(0.01, m.mde.sd!));
  assert.match(
    v.mde,
    /^With 4 queries, changes smaller than ±1\.99\d\d in p@1 cannot be told from noise \(80% power, two-sided α = 0\.05\); about [\d,]+ queries would be needed to detect ±0\.01\.$/,
  );
  assert.match(
    m.line,
    /^p@1 \+0\.2500 \(0\.5000 → 0\.7500\), 95% CI \[[-+]\d\.\d{4}, [-+]\d\.\d{4}\]: not significant \(p adj\. 1\.0000\); gates 4\/6 pass; worst slice proc -0\.5000 \(2 queries\); MDE ±1\.99\d\d/,
  );
  assert.equal(v.headline, 'candidate vs baseline: no significant change on the metric; 2 of 6 gates fail');
  assert.equal(v.basis, '4 queries, significant = Holm-adjusted p < 0.05 over 5 tests');
});

test('the unjudged documents appear in the line only when they could flip the sign', () => {
  // The small judgments with one non-relevant grade (of a document no list shows, so the figures are the same).
  const graded = judgmentsOf(
    { q1: { a: 1, y: 0 }, q2: { b: 1 }, q3: { c: 1 }, q4: { d: 1 } },
    { q1: { tags: ['proc'] }, q2: { tags: ['nav'] }, q3: { tags: ['proc'] }, q4: { tags: ['nav'], split: 'holdout' } },
  );
  const withZero = compareRuns(
    {
      name: 'baseline',
      run: new Map([
        ['q1', list('a', 'x')],
        ['q2', list('x', 'b')],
        ['q3', list('c')],
        ['q4', list('x', 'd')],
      ]),
    },
    {
      name: 'candidate',
      run: new Map([
        ['q1', list('x', 'a')],
        ['q2', list('b', 'x')],
        ['q3', list('c')],
        ['q4', list('d', 'x')],
      ]),
    },
    graded,
    parseMetricList('p@1'),
    opts,
    { minSliceSize: 2 },
  );
  const v = verdictOf(withZero, gates).metrics[0];
  const b = withZero.bounds!.metrics['p@1'];
  assert.equal(b.holds, false, 'x, unjudged, could be relevant');
  assert.ok(v.couldFlip);
  assert.match(v.line, /unjudged documents could flip it \(delta could be [-+]\d\.\d{4} to [-+]\d\.\d{4}; \d+ decide it\)$/);
  assert.equal(verdictOf(withZero, gates).unjudgedNote, undefined);
  // Judgments that list only relevant documents (every grade 1): the same bounds, said once for the whole verdict.
  const onlyRelevant = verdictOf(cmp, gates);
  assert.equal(cmp.bounds!.metrics['p@1'].holds, false);
  assert.equal(onlyRelevant.metrics[0].couldFlip, undefined);
  assert.doesNotMatch(onlyRelevant.metrics[0].line, /unjudged/);
  assert.match(onlyRelevant.unjudgedNote!, /^The judgments list only relevant documents/);
  // every document judged: nothing could flip
  const judged = judgmentsOf({ q1: { a: 1, x: 0 }, q2: { b: 1, x: 0 }, q3: { c: 1 }, q4: { d: 1, x: 0 } });
  const full = compareRuns(
    {
      name: 'b',
      run: new Map([
        ['q1', list('a', 'x')],
        ['q2', list('x', 'b')],
        ['q3', list('c')],
        ['q4', list('x', 'd')],
      ]),
    },
    {
      name: 'c',
      run: new Map([
        ['q1', list('x', 'a')],
        ['q2', list('b', 'x')],
        ['q3', list('c')],
        ['q4', list('d', 'x')],
      ]),
    },
    judged,
    parseMetricList('p@1'),
    opts,
  );
  assert.equal(verdictOf(full, []).metrics[0].couldFlip, undefined);
  assert.doesNotMatch(verdictOf(full, []).metrics[0].line, /unjudged/);
});

/** 10 queries on p@1: the candidate finds the relevant document first in `wins` of them, the baseline in none. */
function tenQueries(wins: number) {
  const qrels: Record<string, Record<string, number>> = {};
  const base: Run = new Map();
  const cand: Run = new Map();
  for (let i = 0; i < 10; i++) {
    qrels[`q${i}`] = { [`r${i}`]: 1 };
    base.set(`q${i}`, list('junk', `r${i}`));
    cand.set(`q${i}`, i < wins ? list(`r${i}`, 'junk') : list('junk', `r${i}`));
  }
  return { judgments: judgmentsOf(qrels, {}), base, cand };
}

test('a significant gain and a significant drop; no spread means no MDE', () => {
  const { judgments, base, cand } = tenQueries(8);
  const up = compareRuns({ name: 'old', run: base }, { name: 'new', run: cand }, judgments, parseMetricList('p@1'), opts);
  // 8 differences of +1, 2 ties: exact permutation p = 2 / 2^8; one test, so Holm leaves it
  assert.equal(up.metrics['p@1'].pAdjusted, 2 / 256);
  const v = verdictOf(up, []);
  assert.equal(v.outcome, 'improved');
  assert.deepEqual(v.improved, ['p@1']);
  assert.equal(v.headline, 'new vs old: significant gain on 1 metric (p@1); no gates checked');
  assert.equal(v.basis, '10 queries, significant = Holm-adjusted p < 0.05 over 1 test');
  assert.match(v.metrics[0].line, /: significant gain \(p adj\. 0\.0078\); no gate; no slice regresses; MDE ±/);

  const down = verdictOf(compareRuns({ name: 'new', run: cand }, { name: 'old', run: base }, judgments, parseMetricList('p@1'), opts), []);
  assert.equal(down.outcome, 'regressed');
  assert.match(down.headline, /^old vs new: significant drop on 1 metric \(p@1\)/);

  const all = tenQueries(10);
  const same = verdictOf(
    compareRuns({ name: 'a', run: all.cand }, { name: 'b', run: all.cand }, all.judgments, parseMetricList('p@1'), opts),
    [],
  );
  assert.equal(same.metrics[0].mde.value, 0);
  assert.match(same.mde, /both runs score every query the same on p@1: there is no spread/);
});

test('the report starts with the verdict and explains its terms; the JSON carries it', () => {
  for (const format of ['table', 'markdown'] as const) {
    const text = formatComparison(cmp, format, { gates });
    const lines = text.split('\n');
    assert.match(lines[2], /^(\*\*)?Verdict: candidate vs baseline: no significant change/, format);
    const legend = text.indexOf('MDE = minimum detectable effect');
    assert.ok(legend > 0 && legend < text.indexOf('metric '), `${format}: the legend comes with the verdict, before the tables`);
    assert.match(text, /rel\. = delta \/ baseline; p perm\. = two-sided paired permutation/);
  }
  const json = comparisonJson(cmp, gates) as { verdict: { outcome: string; metrics: { metric: string }[] } };
  assert.equal(json.verdict.outcome, 'no significant change');
  assert.deepEqual(
    json.verdict.metrics.map((m) => m.metric),
    ['p@1'],
  );
});
