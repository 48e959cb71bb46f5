// A comparison small enough to work out by hand: 4 queries, p@1, two slices, one holdout query.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareRuns, compareStatistics } from '../../../src/core/experiment/compare';
import { checkGates, gatesPassed } from '../../../src/core/experiment/gates';
import { comparisonJson, formatComparison, gatesJUnit } from '../../../src/core/report/comparison';
import { evaluateRun, parseMetricList } from '../../../src/core/metrics';
import { Work } from '../../../src/core/util/cooperative';
import type { Run } from '../../../src/core/run/types';
import { judgmentsOf } from '../../helpers/judgments';

const list = (...ids: string[]) => ids.map((id, i) => ({ id, score: ids.length - i }));
const judgments = judgmentsOf(
  { q1: { a: 1 }, q2: { b: 1 }, q3: { c: 1 }, q4: { d: 1 } },
  {
    q1: { text: 'espresso ratio', tags: ['proc'] },
    q2: { text: 'kopi gayo', tags: ['nav'] },
    q3: { text: 'how to roast', tags: ['proc'] },
    q4: { text: 'KG-250-WB', tags: ['nav'], split: 'holdout' },
  },
);
const baseline: Run = new Map([
  ['q1', list('a', 'x')],
  ['q2', list('x', 'b')],
  ['q3', list('c')],
  ['q4', list('x', 'd')],
]);
const candidate: Run = new Map([
  ['q1', list('x', 'a')],
  ['q2', list('b', 'x')],
  ['q3', list('c')],
  ['q4', list('d', 'x')],
]);
const latencies = new Map([
  ['q1', { total: 1 }],
  ['q2', { total: 2 }],
  ['q3', { total: 3 }],
  ['q4', { total: 100 }],
]);
const opts = { gain: 'exp' as const, relevanceThreshold: 1 };
const cmp = compareRuns(
  { name: 'baseline', run: baseline, latencies },
  { name: 'candidate', run: candidate },
  judgments,
  parseMetricList('p@1'),
  opts,
  { minSliceSize: 2 },
);

test('means, delta, wins/losses/ties and the exact permutation p by hand', () => {
  const m = cmp.metrics['p@1'];
  assert.equal(m.baseline, 0.5); // [1,0,1,0]
  assert.equal(m.candidate, 0.75); // [0,1,1,1]
  assert.equal(m.delta, 0.25);
  assert.equal(m.relativeDelta, 0.5);
  assert.deepEqual([cmp.wins['p@1'], cmp.losses['p@1'], cmp.ties['p@1']], [2, 1, 1]);
  // non-zero differences [-1, +1, +1]: every one of the 8 sign flips has |sum| >= 1, so p = 1
  assert.equal(m.pPermutation, 1);
  assert.equal(m.n, 4);
  assert.ok(m.ci95[0] <= m.delta && m.delta <= m.ci95[1]);
});

test('per query deltas worst first, with the documents that moved and their grades', () => {
  assert.deepEqual(
    cmp.queryDeltas.map((q) => [q.qid, q.delta]),
    [
      ['q1', -1],
      ['q2', 1],
      ['q4', 1],
    ],
  );
  assert.deepEqual(cmp.queryDeltas[0].moved, [
    { id: 'a', grade: 1, baselineRank: 1, candidateRank: null, change: 'out' },
    { id: 'x', grade: null, baselineRank: null, candidateRank: 1, change: 'in' },
  ]);
  assert.deepEqual(cmp.perQuery.q3['p@1'], { baseline: 1, candidate: 1, delta: 0 });
});

test('a slice that regresses while the mean improves is flagged; splits are compared', () => {
  assert.equal(cmp.slices.proc.metrics['p@1'].delta, -0.5); // q1 1->0, q3 1->1
  assert.equal(cmp.slices.nav.metrics['p@1'].delta, 1); // q2 0->1, q4 0->1
  const w = cmp.warnings.find((x) => x.kind === 'slice-regression');
  assert.ok(w && w.slice === 'proc', JSON.stringify(cmp.warnings));
  assert.equal(cmp.splits.tune!.metrics['p@1'].delta, 0); // q1..q3: [1,0,1] -> [0,1,1]
  assert.equal(cmp.splits.holdout!.metrics['p@1'].delta, 1);
  assert.match(cmp.correction, /Holm–Bonferroni over 5 permutation tests/); // overall + 2 slices + 2 splits
});

test('latency percentiles (nearest rank) and judged@k for both sides', () => {
  assert.deepEqual(cmp.latency.baseline.total, { p50: 2, p99: 100 });
  assert.deepEqual(cmp.latency.candidate, {});
  assert.equal(cmp.judged.k, 1);
  assert.equal(cmp.judged.baseline, 0.5); // a, x, c, x
  assert.equal(cmp.judged.candidate, 0.75); // x, b, c, d
});

test('gates: minimum, overall regression and per-slice regression, with the queries to blame', () => {
  const results = checkGates({ min: { 'p@1': 0.8 }, maxRegression: { 'p@1': 0.1 }, maxSliceRegression: { 'p@1': 0.2 } }, cmp);
  const byGate = Object.fromEntries(results.map((r) => [r.gate, r]));
  assert.equal(byGate['p@1 >= 0.8'].passed, false);
  assert.deepEqual(
    byGate['p@1 >= 0.8'].queries.map((q) => q.qid),
    ['q1'],
  );
  assert.equal(byGate['p@1 drop vs baseline <= 0.1'].passed, true);
  assert.equal(byGate['p@1 drop vs baseline <= 0.2 in slice proc'].passed, false);
  assert.deepEqual(byGate['p@1 drop vs baseline <= 0.2 in slice proc'].queries, [{ qid: 'q1', value: -1 }]);
  assert.equal(byGate['p@1 drop vs baseline <= 0.2 in slice nav'].passed, true);
  assert.equal(gatesPassed(results), false);
  const junit = gatesJUnit(results, cmp);
  assert.match(junit, new RegExp(`<testsuites name="ranklab gates: [^"]*" tests="${results.length}" failures="2">`)); // the minimum and the proc slice
  assert.match(
    junit,
    /<testcase classname="[^"]*" name="p@1 &gt;= 0.8">\n\s*<failure type="gate" message="p@1 &gt;= 0.8 failed: actual [^"]*">[^<]*\n {2}q1 &quot;espresso ratio&quot;: 0\.0000/,
  );
  assert.match(junit, /<testcase classname="[^"]*" name="p@1 drop vs baseline &lt;= 0.1"\/>/, 'a passing gate has no failure');
});

test('reports: text names the variant and the moved documents; JSON has the documented keys', () => {
  const text = formatComparison(cmp, 'table');
  assert.match(text, /Precision@1, relevant = grade ≥ 1/);
  assert.match(text, /x: in at 1, unjudged/);
  assert.match(text, /slice "proc" \(2 queries\) regresses by -0.5000/);
  const json = JSON.parse(JSON.stringify(comparisonJson(cmp)));
  for (const key of ['metrics', 'perQuery', 'wins', 'losses', 'ties', 'slices']) assert.ok(key in json, key);
  for (const key of ['baseline', 'candidate', 'delta', 'ci95', 'pPermutation', 'pTTest', 'pAdjusted'])
    assert.ok(key in json.metrics['p@1'], key);
  assert.deepEqual(json.perQuery.q1['p@1'], { baseline: 1, candidate: 0, delta: -1 });
});

test('runs made as different principals are not compared, unless allowed, and then the comparison says so first', () => {
  const specs = parseMetricList('p@1');
  const as = (principal: string | null | undefined) => ({ name: principal ? `run-as-${principal}` : 'run-all', run: baseline, principal });
  assert.throws(
    () => compareRuns(as('ayu'), { ...as(null), run: candidate }, judgments, specs, opts),
    (e: Error) =>
      e.name === 'MixedPrincipalsError' &&
      /baseline "run-as-ayu" was run as principal "ayu", candidate "run-all" without a principal \(every document\)/.test(e.message),
  );
  assert.throws(() => compareRuns(as('ayu'), as('sari'), judgments, specs, opts), /principal "ayu".*principal "sari"/);
  // Same principal, or a side whose principal is unknown (a TREC run from another engine): compared as before.
  assert.equal(compareRuns(as('ayu'), { ...as('ayu'), run: candidate }, judgments, specs, opts).principals.mixed, false);
  assert.equal(compareRuns(as(undefined), as('ayu'), judgments, specs, opts).principals.mixed, false);

  const mixed = compareRuns(as('ayu'), { ...as(null), run: candidate }, judgments, specs, opts, { allowMixedPrincipals: true });
  assert.deepEqual(mixed.principals, { baseline: 'ayu', candidate: null, mixed: true });
  assert.equal(mixed.warnings[0].kind, 'mixed-principals');
  assert.equal(mixed.metrics['p@1'].delta, 0.25, 'the figures themselves are computed as usual');
  const text = formatComparison(mixed, 'table');
  assert.match(
    text.split('\n').slice(0, 3).join('\n'),
    /MIXED PRINCIPALS: baseline "run-as-ayu" was run as principal "ayu", candidate "run-all" without a principal/,
  );
  assert.match(formatComparison(mixed, 'markdown').split('\n').slice(0, 3).join('\n'), /MIXED PRINCIPALS/);
  assert.equal(comparisonJson(mixed).principals.mixed, true);
});

test('the statistics from per-query values alone (compareStatistics) are exactly those of the whole comparison', async () => {
  // 60 queries, three metrics, two tags and a holdout split; the candidate differs on some queries, not all.
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const qrels: Record<string, Record<string, number>> = {};
  const about: Record<string, { text: string; tags: string[]; split?: 'holdout' }> = {};
  const [a, b]: Run[] = [new Map(), new Map()];
  for (let q = 0; q < 60; q++) {
    const qid = `q${q}`;
    const docs = Array.from({ length: 12 }, (_, i) => `d${q}-${i}`);
    qrels[qid] = Object.fromEntries(docs.filter(() => rnd() < 0.3).map((d) => [d, 1 + Math.floor(rnd() * 3)]));
    about[qid] = { text: `query ${q}`, tags: [rnd() < 0.5 ? 'nav' : 'info'], ...(q % 5 === 0 && { split: 'holdout' as const }) };
    a.set(qid, list(...docs.slice(0, 10)));
    b.set(qid, rnd() < 0.6 ? list(...[...docs].sort(() => rnd() - 0.5).slice(0, 10)) : list(...docs.slice(0, 10)));
  }
  const j = judgmentsOf(qrels, about);
  const specs = parseMetricList(['ndcg@10', 'p@5', 'mrr']);
  const full = compareRuns({ name: 'A', run: a, principal: null }, { name: 'B', run: b, principal: null }, j, specs, opts);
  const stats = await compareStatistics(
    { name: 'A', principal: null, values: evaluateRun(a, j, specs, opts).perQuery },
    { name: 'B', principal: null, values: evaluateRun(b, j, specs, opts).perQuery },
    j,
    specs,
    opts,
    new Work({}).phase('statistics', 0),
  );
  const { queryDeltas, latency: _l, judged: _j, bounds: _b, tieReports: _t, stageRecall: _s, warnings, ...rest } = full;
  const { queryDeltas: changes, warnings: statWarnings, ...statRest } = stats;
  assert.deepEqual(statRest, rest);
  assert.deepEqual(
    changes,
    queryDeltas.map(({ moved: _m, ...q }) => q),
  );
  assert.deepEqual(
    statWarnings,
    warnings.filter((w) => w.kind !== 'judged-coverage'),
  );
  assert.ok(Object.keys(stats.slices).length === 2 && stats.splits.holdout, 'slices and splits were compared');
  // A query set that differs between the sides is an error, not a comparison of different queries.
  const fewer = new Map([...evaluateRun(b, j, specs, opts).perQuery].slice(1));
  await assert.rejects(
    compareStatistics(
      { name: 'A', values: evaluateRun(a, j, specs, opts).perQuery },
      { name: 'B', values: fewer },
      j,
      specs,
      opts,
      new Work({}).phase('statistics', 0),
    ),
    /A has 60 queries, B 59/,
  );
});

test('a query id such as "__proto__" keeps its per-query figures like any other', () => {
  const j = judgmentsOf(JSON.parse('{"__proto__": {"a": 1}, "q2": {"b": 1}}'));
  const a: Run = new Map([
    ['__proto__', list('a', 'x')],
    ['q2', list('x', 'b')],
  ]);
  const b: Run = new Map([
    ['__proto__', list('x', 'a')],
    ['q2', list('b', 'x')],
  ]);
  const c = compareRuns({ name: 'A', run: a }, { name: 'B', run: b }, j, parseMetricList('p@1'), opts);
  assert.deepEqual(Object.keys(c.perQuery), ['__proto__', 'q2']);
  assert.deepEqual(Object.getOwnPropertyDescriptor(c.perQuery, '__proto__')?.value, { 'p@1': { baseline: 1, candidate: 0, delta: -1 } });
  assert.deepEqual(
    c.queryDeltas.map((q) => q.qid),
    ['__proto__', 'q2'],
  );
});
