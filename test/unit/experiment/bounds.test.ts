// Item C: the interval of a comparison's delta over every grading of the unjudged documents, with one grade per
// (query, document) shared by both lists. Hand-computed cases, then a brute force over every grade (0..G) of
// every unjudged document as the independent check of each metric's exact method.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { comparisonBounds, comparisonBoundsSteps, gradeQueries, queryBounds } from '../../../src/core/experiment/bounds';
import { compareRuns, compareRunsSliced } from '../../../src/core/experiment/compare';
import { Work } from '../../../src/core/util/cooperative';
import { DEFAULT_METRIC_OPTIONS, computeMetric, parseMetric, parseMetricList, queryContext } from '../../../src/core/metrics';
import type { RankedDoc, Run } from '../../../src/core/run/types';
import { createRng } from '../../../src/core/util/random';
import { judgmentsOf } from '../../helpers/judgments';

const list = (...ids: string[]): RankedDoc[] => ids.map((id, i) => ({ id, score: 100 - i }));
const close = (a: number, b: number, msg = '') => assert.ok(Math.abs(a - b) < 1e-9, `${msg}: ${a} vs ${b}`);
const O = DEFAULT_METRIC_OPTIONS;

test('a shared unjudged document cannot be relevant on one side only: the naive per-side bound is wrong', () => {
  // Both lists show the unjudged u at rank 1; baseline shows n (non-relevant) at 2, candidate r (relevant) at 2.
  const qrels = new Map([
    ['n', 0],
    ['r', 1],
  ]);
  const a = list('u', 'n');
  const b = list('u', 'r');
  const r = queryBounds(parseMetric('p@2'), a, b, qrels, O, 1);
  // Today: 1/2 − 0 = +0.5. Whatever u is, it adds the same to both sides: the delta stays +0.5.
  close(r.lo, 0.5, 'lo');
  close(r.hi, 0.5, 'hi');
  assert.deepEqual(r.unjudged, []); // u decides nothing
  // The naive per-side bound — candidate with u relevant minus baseline with u not — would claim up to +1,
  // and baseline-relevant minus candidate-not would claim 0: an interval [0, 1] no grading can reach the ends of.
  const naiveHigh =
    computeMetric(parseMetric('p@2'), queryContext(b, new Map([...qrels, ['u', 1]]), O)) -
    computeMetric(parseMetric('p@2'), queryContext(a, qrels, O));
  close(naiveHigh, 1, 'naive');
  // The same with a gain-weighted metric, at different ranks: u at 1 in the baseline, 2 in the candidate.
  const n = queryBounds(parseMetric('ndcg@2'), list('u', 'r'), list('r', 'u'), new Map([['r', 1]]), { ...O, gain: 'linear' }, 1);
  // u non-relevant: nDCG equal? baseline DCG = 1/log2(3), candidate 1; IDCG = 1 → delta 1 − 0.6309 = 0.3691.
  // u relevant: IDCG = 1 + 1/log2(3), both lists have DCG 1 + 1/log2(3) → delta 0.
  close(n.hi, 1 - 1 / Math.log2(3), 'ndcg hi');
  close(n.lo, 0, 'ndcg lo');
});

test('a win that can flip, and one that cannot', () => {
  const judgments = judgmentsOf({ q1: { r1: 1, n1: 0 }, q2: { r2: 1, n2: 0 } });
  // q1: baseline shows r1 at 1; candidate shows two unjudged documents. q2: candidate r2 above n2, baseline reverses.
  const baseline: Run = new Map([
    ['q1', list('r1', 'n1')],
    ['q2', list('n2', 'r2')],
  ]);
  const candidate: Run = new Map([
    ['q1', list('u1', 'u2')],
    ['q2', list('r2', 'n2')],
  ]);
  const b = comparisonBounds(baseline, candidate, judgments, parseMetricList('p@1,mrr'), O, ['q1', 'q2'])!;
  // p@1: q1 −1 today (0 − 1), up to 0 if u1 is relevant; q2 +1 fixed. Mean: 0 today, interval [0, +0.5].
  close(b.metrics['p@1'].delta, 0, 'p@1 delta');
  close(b.metrics['p@1'].low, 0, 'p@1 low');
  close(b.metrics['p@1'].high, 0.5, 'p@1 high');
  assert.equal(b.metrics['p@1'].holds, false);
  assert.match(b.metrics['p@1'].verdict, /could flip: 1 unjudged document decides it/);
  // mrr: q1 today 0 − 1 = −1; u1 relevant → 0; u2 relevant → −0.5. q2: 1 − 0.5 = +0.5. Mean −0.25 in [−0.25, +0.25].
  close(b.metrics.mrr.low, -0.25, 'mrr low');
  close(b.metrics.mrr.high, 0.25, 'mrr high');
  assert.equal(b.metrics.mrr.deciding, 2);
  assert.deepEqual(b.deciding, { q1: ['u1', 'u2'] });
  assert.equal(b.decidingCount, 2);

  // Cannot flip: the candidate's win on q2 is judged; q1's unjudged documents sit at the same rank on both sides.
  const fixed = comparisonBounds(
    new Map([
      ['q1', list('u1', 'n1')],
      ['q2', list('n2', 'r2')],
    ]),
    new Map([
      ['q1', list('u1', 'r1')],
      ['q2', list('r2', 'n2')],
    ]),
    judgments,
    parseMetricList('p@2,p@1'),
    O,
    ['q1', 'q2'],
  )!;
  assert.equal(fixed.metrics['p@2'].holds, true);
  close(fixed.metrics['p@2'].low, 0.25, 'p@2 low'); // q1 +0.5 (u1 adds to both), q2 0
  assert.equal(fixed.metrics['p@2'].verdict, 'the win holds whatever the unjudged documents turn out to be');
  assert.equal(fixed.metrics['p@1'].holds, true); // q1: u1 at rank 1 on both sides, q2: +1
  assert.deepEqual(fixed.deciding, {});
});

test('compareRuns carries the bounds; --judged-only has none', () => {
  const judgments = judgmentsOf({ q1: { r1: 1 }, q2: { r2: 1 } });
  const a: Run = new Map([
    ['q1', list('u', 'r1')],
    ['q2', list('r2')],
  ]);
  const b: Run = new Map([
    ['q1', list('r1', 'u')],
    ['q2', list('r2')],
  ]);
  const cmp = compareRuns({ name: 'a', run: a }, { name: 'b', run: b }, judgments, parseMetricList('p@1'), O, {
    bootstrapSamples: 100,
    permutationSamples: 100,
  });
  assert.ok(cmp.bounds);
  close(cmp.bounds.metrics['p@1'].low, 0, 'low'); // q1: u relevant → both 1 at rank 1? no: baseline u@1, candidate r1@1 → 1 − 1
  close(cmp.bounds.metrics['p@1'].high, 0.5, 'high');
  const condensed = compareRuns(
    { name: 'a', run: a },
    { name: 'b', run: b },
    judgments,
    parseMetricList('p@1'),
    { ...O, judgedOnly: true },
    { bootstrapSamples: 100, permutationSamples: 100 },
  );
  assert.equal(condensed.bounds, undefined);
});

test('brute force over every grade 0..G of every unjudged document equals each exact method', () => {
  const rnd = createRng(18);
  const metrics = [
    'p@3',
    'recall@3',
    'hit@2',
    'mrr@3',
    'mrr',
    'ndcg@3',
    'ndcg',
    'rbp@0.7',
    'err@3',
    'nerr@3',
    'ap',
    'bpref',
    'infap',
    'rprec',
  ];
  for (let trial = 0; trial < 80; trial++) {
    const G = 1 + Math.floor(rnd() * 3);
    const pool = Array.from({ length: 7 }, (_, i) => `d${i}`);
    const qrels = new Map<string, number>();
    for (const d of pool) if (rnd() < 0.5) qrels.set(d, Math.floor(rnd() * (G + 1)));
    if (rnd() < 0.5) qrels.set('away', 1 + Math.floor(rnd() * G)); // judged, never retrieved
    const pick = () =>
      pool
        .filter(() => rnd() < 0.6)
        .sort(() => rnd() - 0.5)
        .slice(0, 5);
    const a = list(...pick());
    const b = list(...pick());
    for (const name of metrics) {
      const spec = parseMetric(name);
      for (const options of [
        { ...O, gain: 'linear' as const },
        { ...O, relevanceThreshold: Math.min(2, G) },
      ]) {
        const r = queryBounds(spec, a, b, qrels, options, G);
        const depth = spec.k ?? Infinity;
        const shown = [...new Set([...a.slice(0, depth), ...b.slice(0, depth)].map((d) => d.id))].filter((d) => !qrels.has(d));
        let lo = Infinity;
        let hi = -Infinity;
        const digits = shown.map(() => 0);
        for (;;) {
          const q = new Map([...qrels, ...shown.map((d, i) => [d, digits[i]] as [string, number])]);
          const v = computeMetric(spec, queryContext(b, q, options)) - computeMetric(spec, queryContext(a, q, options));
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
          let i = 0;
          while (i < digits.length && ++digits[i] === G + 1) digits[i++] = 0;
          if (i === digits.length) break;
        }
        assert.ok(r.exact, `${name}: small case bounded exactly`);
        close(r.lo, lo, `trial ${trial} ${name} lo (G ${G}, threshold ${options.relevanceThreshold})`);
        close(r.hi, hi, `trial ${trial} ${name} hi (G ${G}, threshold ${options.relevanceThreshold})`);
      }
    }
  }
});

test('hit and mrr: the same bounds, to the bit, as re-grading both lists for every one-document hypothesis (lists with repeated ids)', () => {
  fc.assert(
    fc.property(
      fc.integer(),
      fc.constantFrom('hit@1', 'hit@3', 'mrr@2', 'mrr@4', 'mrr'),
      fc.integer({ min: 1, max: 3 }),
      (seed, name, T) => {
        const rnd = createRng(seed);
        const pool = Array.from({ length: 9 }, (_, i) => `d${i}`);
        const pick = () => Array.from({ length: Math.floor(rnd() * 8) }, () => pool[Math.floor(rnd() * pool.length)]); // repeats allowed
        const a = list(...pick());
        const b = list(...pick());
        const qrels = new Map<string, number>();
        for (const d of pool) if (rnd() < 0.4) qrels.set(d, Math.floor(rnd() * 4));
        const options = { ...O, relevanceThreshold: T };
        const spec = parseMetric(name);
        const G = 3;
        // The reference: every unjudged document in either top k made relevant alone, both lists graded afresh.
        const depth = spec.k ?? Infinity;
        const value = (docs: RankedDoc[], q: Map<string, number>) => computeMetric(spec, queryContext(docs, q, options));
        let lo = value(b, qrels) - value(a, qrels);
        let hi = lo;
        for (const d of new Set([...a.slice(0, depth), ...b.slice(0, depth)].map((x) => x.id))) {
          if (qrels.has(d)) continue;
          const q = new Map([...qrels, [d, G]]);
          const v = value(b, q) - value(a, q);
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
        const r = queryBounds(spec, a, b, qrels, options, G);
        assert.equal(r.lo, lo);
        assert.equal(r.hi, hi);
      },
    ),
    { numRuns: 2000 },
  );
});

test('the deciding documents of a query come by their best rank in either list, equal ranks by id', () => {
  // p@3, j1 relevant in both lists: today's delta 0, and every unjudged document could move it (weights ±1/3).
  const baseline: Run = new Map([['q', list('ub', 'j1', 'ud')]]);
  const candidate: Run = new Map([['q', list('ua', 'uc', 'j1')]]);
  const b = comparisonBounds(baseline, candidate, judgmentsOf({ q: { j1: 1 } }), parseMetricList('p@3'), O, ['q'])!;
  assert.deepEqual(b.deciding, { q: ['ua', 'ub', 'uc', 'ud'] }); // ua and ub both first somewhere: by id
  assert.equal(b.decidingCount, 4);
});

test('the bounds pause after every query: a comparison can be cancelled while they run', async () => {
  const qids = Array.from({ length: 5 }, (_, i) => `q${i}`);
  const baseline: Run = new Map(qids.map((q) => [q, list('a', 'u1', 'u2')]));
  const candidate: Run = new Map(qids.map((q) => [q, list('u2', 'a', 'u3')]));
  const judgments = judgmentsOf(Object.fromEntries(qids.map((q) => [q, { a: 1 }])));
  const specs = parseMetricList('p@2,mrr');
  const steps = comparisonBoundsSteps(judgments, specs, O, qids, gradeQueries(baseline, candidate, judgments, O));
  let pauses = 0;
  for (let r = steps.next(); !r.done; r = steps.next()) pauses++;
  assert.equal(pauses, qids.length);
  // In a comparison: every pause reports the tests done so far; the statistics' last report is followed by the
  // bounds' pauses (before, the comparison ended there). Cancel at the first of those.
  const controller = new AbortController();
  const reports: number[] = [];
  const work = new Work({
    signal: controller.signal,
    sliceMs: 0,
    onProgress: (p) => {
      if (p.done > 0 && reports.at(-1) === p.done) controller.abort(new Error('cancelled in the bounds'));
      reports.push(p.done);
    },
  });
  await assert.rejects(
    compareRunsSliced({ name: 'b', run: baseline }, { name: 'c', run: candidate }, judgments, specs, O, work.phase('statistics', 0), {
      bootstrapSamples: 10,
      permutationSamples: 10,
    }),
    /cancelled in the bounds/,
  );
});
