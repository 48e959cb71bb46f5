// Item D: score ties within the evaluated depth, and the exact range of nDCG@k and P@k over tie orders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tieReport } from '../../../src/core/experiment/ties';
import { loadJudgments } from '../../../src/core/judgments';
import fc from 'fast-check';
import {
  DEFAULT_METRIC_OPTIONS,
  type EvaluateOptions,
  type MetricSpec,
  computeMetric,
  evaluateRun,
  parseMetricList,
  queryContext,
} from '../../../src/core/metrics';
import { readTrecRun } from '../../../src/core/run/trec-run';
import type { RankedDoc, Run } from '../../../src/core/run/types';
import { judgmentsOf } from '../../helpers/judgments';
import { COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';
import { createRng } from '../../../src/core/util/random';

const close = (a: number, b: number, msg = '') => assert.ok(Math.abs(a - b) < 1e-9, `${msg}: ${a} vs ${b}`);
const docs = (spec: [string, number][]): RankedDoc[] => spec.map(([id, score]) => ({ id, score }));

test('hand-computed: a tie group at ranks 2-4 holding the only grade-3 document', () => {
  // Given order (trec_eval: docid descending in the tie): a(0) d(0) c(3) b(unjudged) e(1).
  const run: Run = new Map([
    [
      'q',
      docs([
        ['a', 3],
        ['d', 2],
        ['c', 2],
        ['b', 2],
        ['e', 1],
      ]),
    ],
  ]);
  const judgments = judgmentsOf({ q: { a: 0, c: 3, d: 0, e: 1 } });
  const r = tieReport(run, judgments, parseMetricList('p@2,ndcg@3,mrr'), DEFAULT_METRIC_OPTIONS);
  assert.deepEqual(r.queriesWithTies, ['q']);
  assert.equal(r.depth, null); // mrr has no cut-off: the whole list is evaluated
  // P@2: reported [a, d] = 0; best [a, c] = 1/2; worst [a, d|b] = 0.
  assert.deepEqual([r.ranges['p@2'].min, r.ranges['p@2'].value, r.ranges['p@2'].max], [0, 0, 0.5]);
  // nDCG@3, gain 2^g−1, IDCG@3 = 7 + 1/log2(3): reported c at rank 3 → 7/2; best c at rank 2 → 7/log2(3); worst c at 4 → 0.
  const idcg = 7 + 1 / Math.log2(3);
  close(r.ranges['ndcg@3'].value, 3.5 / idcg, 'value');
  close(r.ranges['ndcg@3'].max, 7 / Math.log2(3) / idcg, 'max');
  close(r.ranges['ndcg@3'].min, 0, 'min');
  assert.equal(r.ranges['ndcg@3'].queriesAffected, 1);
  assert.equal(r.ranges.mrr, undefined); // only nDCG and P get a range
});

test('a tie below the evaluated depth is not counted; no ties, no change', () => {
  const run: Run = new Map([
    [
      'q',
      docs([
        ['a', 3],
        ['b', 2],
        ['c', 1],
        ['d', 1],
      ]),
    ],
  ]);
  const r = tieReport(run, judgmentsOf({ q: { c: 1 } }), parseMetricList('p@2'), DEFAULT_METRIC_OPTIONS);
  assert.equal(r.depth, 2);
  assert.deepEqual(r.queriesWithTies, []);
  assert.equal(r.ranges['p@2'].queriesAffected, 0);
});

/** Every order of the documents inside each tie group (independent brute force). */
function* tieOrders(list: RankedDoc[]): Generator<RankedDoc[]> {
  if (list.length === 0) return yield [];
  let end = 1;
  while (end < list.length && list[end].score === list[0].score) end++;
  for (const head of permutations(list.slice(0, end))) for (const tail of tieOrders(list.slice(end))) yield [...head, ...tail];
}
function* permutations<T>(xs: T[]): Generator<T[]> {
  if (xs.length <= 1) return yield xs;
  for (let i = 0; i < xs.length; i++) for (const p of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) yield [xs[i], ...p];
}

test('random queries: the reported min/max equal a brute force over every tie order', () => {
  const rnd = createRng(7);
  for (let trial = 0; trial < 60; trial++) {
    const n = 2 + Math.floor(rnd() * 7);
    const list = docs(Array.from({ length: n }, (_, i) => [`d${i}`, Math.floor(rnd() * 3)] as [string, number])).sort(
      (a, b) => b.score - a.score,
    );
    const grades: Record<string, number> = {};
    for (const d of list) if (rnd() < 0.7) grades[d.id] = Math.floor(rnd() * 4);
    grades.extra = 2; // a relevant document that was not retrieved
    const judgments = judgmentsOf({ q: grades });
    const specs = parseMetricList('p@3,ndcg@3,ndcg');
    for (const judgedOnly of [false, true]) {
      const options = { ...DEFAULT_METRIC_OPTIONS, relevanceThreshold: 2, judgedOnly };
      const r = tieReport(new Map([['q', list]]), judgments, specs, options);
      for (const s of specs) {
        let lo = Infinity;
        let hi = -Infinity;
        for (const order of tieOrders(list)) {
          const v = computeMetric(s, queryContext(order, judgments.qrels.get('q')!, options));
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
        close(r.ranges[s.name].min, lo, `trial ${trial} ${s.name} min`);
        close(r.ranges[s.name].max, hi, `trial ${trial} ${s.name} max`);
      }
    }
  }
});

test('cacm BM25 run (163 tied pairs): ties are found and the reported value lies in the range', { skip: COLLECTIONS_SKIP }, () => {
  const dir = collectionPath('cacm');
  const r = tieReport(
    readTrecRun(join(dir, 'run.bm25.txt')).run,
    loadJudgments({ qrels: join(dir, 'qrels.tsv') }),
    parseMetricList('ndcg@10,p@10'),
    { gain: 'linear', relevanceThreshold: 1 },
  );
  assert.ok(r.queriesWithTies.length > 0);
  for (const range of Object.values(r.ranges)) assert.ok(range.min <= range.value + 1e-12 && range.value <= range.max + 1e-12);
});

/** The report as it was computed before it reused the run's evaluation: every query re-ordered and evaluated in both orders. */
function referenceReport(run: Run, judgments: ReturnType<typeof judgmentsOf>, specs: MetricSpec[], options: EvaluateOptions) {
  const depth = specs.some((s) => s.param === undefined || s.k === undefined) ? null : Math.max(...specs.map((s) => s.k!));
  const best: Run = new Map();
  const worst: Run = new Map();
  const queriesWithTies: string[] = [];
  for (const [qid, qrels] of judgments.qrels) {
    const given = run.get(qid);
    if (!given) continue;
    const list = options.judgedOnly ? given.filter((d) => qrels.has(d.id)) : given;
    const groups: RankedDoc[][] = [];
    list.forEach((d, i) => (i > 0 && d.score === list[i - 1].score ? groups[groups.length - 1].push(d) : groups.push([d])));
    let start = 0;
    let tied = false;
    for (const g of groups) {
      if (g.length > 1 && (depth === null || start < depth)) tied = true;
      start += g.length;
    }
    if (tied) queriesWithTies.push(qid);
    const grade = (d: RankedDoc) => qrels.get(d.id) ?? 0;
    best.set(
      qid,
      groups.flatMap((g) => [...g].sort((a, b) => grade(b) - grade(a))),
    );
    worst.set(
      qid,
      groups.flatMap((g) => [...g].sort((a, b) => grade(a) - grade(b))),
    );
  }
  const ranged = specs.filter((s) => s.kind === 'ndcg' || s.kind === 'p');
  const ranges: Record<string, unknown> = {};
  const [given, hi, lo] = [run, best, worst].map((r) => evaluateRun(r, judgments, ranged, options));
  for (const s of ranged) {
    let affected = 0;
    for (const [qid, v] of hi.perQuery) if (Math.abs(v[s.name] - lo.perQuery.get(qid)![s.name]) > 1e-12) affected++;
    ranges[s.name] = { value: given.means[s.name], min: lo.means[s.name], max: hi.means[s.name], queriesAffected: affected };
  }
  return { depth, queries: judgments.qrels.size, queriesWithTies, ranges };
}

test('many queries with ties (some unjudged, some missing from the run): the same report as re-evaluating every query in both orders', () => {
  fc.assert(
    fc.property(
      fc.integer(),
      fc.boolean(),
      fc.boolean(),
      fc.constantFrom('ndcg@3,p@2,mrr', 'p@5,ndcg@10', 'ndcg,map'),
      (seed, judgedOnly, excludeNoRelevant, metrics) => {
        const rnd = createRng(seed);
        const run: Run = new Map();
        const grades: Record<string, Record<string, number>> = {};
        for (let q = 0; q < 12; q++) {
          const n = Math.floor(rnd() * 9);
          const list = docs(Array.from({ length: n }, (_, i) => [`d${i}`, Math.floor(rnd() * 4)] as [string, number])).sort(
            (a, b) => b.score - a.score,
          );
          if (rnd() < 0.9) run.set(`q${q}`, list);
          grades[`q${q}`] = { extra: 1 + Math.floor(rnd() * 2) };
          for (const d of list) if (rnd() < 0.6) grades[`q${q}`][d.id] = Math.floor(rnd() * 4);
        }
        const judgments = judgmentsOf(grades);
        const specs = parseMetricList(metrics);
        const options = { ...DEFAULT_METRIC_OPTIONS, judgedOnly, excludeNoRelevant, relevanceThreshold: 1 + Math.floor(rnd() * 2) };
        const expected = referenceReport(run, judgments, specs, options);
        assert.deepEqual(tieReport(run, judgments, specs, options), expected);
        assert.deepEqual(tieReport(run, judgments, specs, options, evaluateRun(run, judgments, specs, options)), expected);
      },
    ),
    { numRuns: 300 },
  );
});
