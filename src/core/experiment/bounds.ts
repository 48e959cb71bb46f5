import type { JudgmentSet } from '../judgments/types';
import {
  type EvaluateOptions,
  type JudgedContext,
  type MetricSpec,
  type QueryContext,
  computeMetric,
  contextOfGrades,
  gainOf,
  judgedContext,
} from '../metrics';
import type { RankedDoc, Run } from '../run/types';
import { type Steps, runSync } from '../util/cooperative';
import { compareIdBytes } from '../util/id-order';
import { setKey } from '../util/records';

/**
 * Bounds on a comparison when judgments are incomplete: "would this win survive the documents nobody graded?"
 *
 * Today every unjudged document counts as grade 0. Here each unjudged document within the evaluated depth of
 * either list (the metric's cut-off k, or the whole list) may take any grade from 0 to the judgments' maximum G —
 * ONE grade per (query, document): a document both lists show has the same grade in both. The metric is then
 * recomputed as if those grades were judgments (so its normaliser moves too: recall's and AP's number of relevant
 * documents, nDCG's ideal ranking). Queries are independent, so the interval of the mean delta is the mean of the
 * per-query extremes. How each metric's per-query extremes are found exactly:
 *
 * - p@k, rbp@p: the delta is linear in each document's relevance x_d ∈ {0,1}, with weight w_d = its contribution
 *   to the candidate minus its contribution to the baseline. Max: every document with w_d > 0 relevant, the others
 *   not; min the reverse. Judging each list alone (candidate all-relevant vs baseline all-non-relevant) is wrong for
 *   a shared document: it cannot be relevant on one side and not on the other; its w_d is the difference of its two
 *   contributions (0 when it sits inside both top k).
 * - hit@k, mrr(@k): the value depends only on the first relevant document, and making more documents relevant
 *   never lowers either side, so an extreme is reached with at most one unjudged document relevant: all
 *   single-document choices and "none" are tried.
 * - recall@k: making m documents relevant adds m to R; for each m the best (worst) m weights are taken.
 * - ndcg(@k): for a fixed count of hypothetical grades (n_1..n_G) the ideal DCG is fixed, and the numerator
 *   Σ w_d gain(g_d) is largest when the gains, sorted, are paired with the weights sorted the same way
 *   (rearrangement inequality); every count vector is tried (C(U+G, G) of them).
 * - every other metric: all assignments are enumerated when there are few enough (grades {0, G} suffice for binary
 *   metrics and ERR, which is multilinear in the stop probabilities; nERR needs every grade). A query with more
 *   unjudged documents than that gets the sound but wide interval [−1, 1] and the bound is marked inexact.
 * judged@k has no bound (in the hypothetical world everything is judged). Under `judgedOnly` nothing unjudged is
 * scored, so no bounds are computed.
 */

/** Most assignments enumerated for one query and metric before falling back to [−1, 1]. */
const ENUMERATION_BUDGET = 4096;
/** Most count vectors tried for nDCG before falling back. */
const COUNT_VECTOR_BUDGET = 50_000;

export interface MetricBounds {
  /** The delta reported today (unjudged = not relevant). */
  delta: number;
  /** Lowest and highest mean delta over every grading of the unjudged documents. */
  low: number;
  high: number;
  /** False when some query had too many unjudged documents to bound exactly (it counted as [−1, 1]). */
  exact: boolean;
  inexactQueries: number;
  /** The sign of the delta is the same for every grading (a win stays a win, a loss a loss). */
  holds: boolean;
  /** Unjudged (query, document) pairs in queries whose delta can move: judging them decides the question. */
  deciding: number;
  verdict: string;
}

/** A query whose delta of some metric can move, and the unjudged documents that move it. */
interface Moving {
  qid: string;
  docs: readonly string[];
  lists: QueryLists;
}

export interface ComparisonBounds {
  /** Highest grade a hypothetical judgment may take (the judgments' maximum). */
  maxGrade: number;
  metrics: Record<string, MetricBounds>;
  /**
   * Every unjudged (query, document) pair that could flip some metric's verdict, for the judging pool to take
   * first: per query, document ids by their best rank in either list.
   */
  deciding: Record<string, string[]>;
  /** Number of pairs in `deciding`. */
  decidingCount: number;
  /**
   * Every judged grade of the compared queries is relevant (>= the threshold): the judgments list only relevant
   * documents, so an unjudged document means "not relevant" by construction, and the verdict says so once
   * instead of flagging every metric.
   */
  onlyRelevantJudged: boolean;
}

interface QueryBound {
  lo: number;
  hi: number;
  exact: boolean;
  unjudged: string[];
}

interface Side {
  docs: readonly RankedDoc[];
  /** 1-based rank within the evaluated depth, per document id. */
  rank: Map<string, number>;
}

/** Bounds for every metric of a comparison over the queries `qids`; undefined under judgedOnly. */
export function comparisonBounds(
  baseline: Run,
  candidate: Run,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  qids: string[],
): ComparisonBounds | undefined {
  return runSync(comparisonBoundsSteps(judgments, specs, options, qids, gradeQueries(baseline, candidate, judgments, options)));
}

/** comparisonBounds over lists already graded (gradeQueries), as steps: it yields after every query (see util/cooperative). */
export function* comparisonBoundsSteps(
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  qids: string[],
  graded: ReadonlyMap<string, QueryLists>,
): Steps<ComparisonBounds | undefined> {
  if (options.judgedOnly) return undefined;
  let maxGrade = options.relevanceThreshold;
  for (const q of judgments.qrels.values()) for (const g of q.values()) maxGrade = Math.max(maxGrade, g);
  const bounded = specs.filter((spec) => spec.kind !== 'judged');
  // Per metric, the queries whose delta can move and their unjudged documents (shared arrays, not one object per pair).
  const sums = bounded.map(() => ({ lo: 0, hi: 0, delta: 0, inexact: 0, pairs: 0, moving: [] as Moving[] }));
  // Query by query, every metric: each query's lists are graded once (QueryLists), not once per metric. Each
  // metric's sums still add the queries in the order of `qids`, so the figures are the same to the last bit.
  for (const qid of qids) {
    const lists = graded.get(qid)!;
    bounded.forEach((spec, m) => {
      const sum = sums[m]!; // one sum per bounded metric
      const r = boundsOf(spec, lists, options, maxGrade);
      sum.delta += lists.delta(spec);
      sum.lo += r.lo;
      sum.hi += r.hi;
      if (!r.exact) sum.inexact++;
      if (r.hi - r.lo > 1e-12) {
        sum.pairs += r.unjudged.length;
        sum.moving.push({ qid, docs: r.unjudged, lists });
      }
    });
    yield;
  }
  const metrics: Record<string, MetricBounds> = {};
  // Every document that could flip some metric's verdict, per query: one set however many metrics it could flip.
  const deciding = new Map<string, { docs: Set<string>; lists: QueryLists }>();
  bounded.forEach((spec, i) => {
    const { lo, hi, delta, inexact, pairs, moving } = sums[i]!; // one sum per bounded metric
    const n = qids.length || 1;
    const m = { delta: delta / n, low: lo / n, high: hi / n };
    const holds = (m.delta > 0 && m.low > 0) || (m.delta < 0 && m.high < 0) || (m.low === 0 && m.high === 0);
    if (!holds) {
      for (const { qid, docs, lists } of moving) {
        const q = deciding.get(qid) ?? deciding.set(qid, { docs: new Set(), lists }).get(qid)!;
        for (const doc of docs) q.docs.add(doc);
      }
    }
    metrics[spec.name] = {
      ...m,
      exact: inexact === 0,
      inexactQueries: inexact,
      holds,
      deciding: pairs,
      verdict: verdictOf(m.delta, holds, pairs, inexact),
    };
  });
  // Per query, the documents by their best rank in either whole list (the judging pool takes the top first).
  const byQuery: Record<string, string[]> = {};
  let decidingCount = 0;
  for (const qid of qids) {
    const q = deciding.get(qid);
    if (!q) continue;
    const [ra, rb] = q.lists.fullRanks();
    // By best rank, then id: ranks are small integers (every deciding document is in a list: the unjudged of some
    // depth), so one bucket per rank, sorted by id when it holds several.
    const buckets: string[][] = [];
    for (const doc of q.docs) (buckets[Math.min(ra.get(doc) ?? Infinity, rb.get(doc) ?? Infinity)] ??= []).push(doc);
    const ordered: string[] = [];
    for (const bucket of buckets) if (bucket) ordered.push(...(bucket.length > 1 ? bucket.sort(compareIdBytes) : bucket));
    setKey(byQuery, qid, ordered);
    decidingCount += ordered.length;
  }
  const onlyRelevantJudged = qids.every((q) => [...(judgments.qrels.get(q)?.values() ?? [])].every((g) => g >= options.relevanceThreshold));
  return { maxGrade, metrics, deciding: byQuery, decidingCount, onlyRelevantJudged };
}

function verdictOf(delta: number, holds: boolean, deciding: number, inexact: number): string {
  const what = delta > 0 ? 'the win' : delta < 0 ? 'the loss' : 'the tie';
  if (holds) return `${what} holds whatever the unjudged documents turn out to be`;
  const caveat = inexact ? ` (bound not exact on ${inexact} ${inexact === 1 ? 'query' : 'queries'} with many unjudged documents)` : '';
  return `could flip: ${deciding} unjudged ${deciding === 1 ? 'document decides' : 'documents decide'} it${caveat}`;
}

function rankWithin(docs: readonly RankedDoc[], depth: number): Map<string, number> {
  const m = new Map<string, number>();
  const n = Math.min(depth, docs.length);
  for (let i = 0; i < n; i++) m.set(docs[i]!.id, i + 1); // i < n ≤ docs.length
  return m;
}

/** Every judged query's two lists, graded once (QueryLists), for every part of a comparison that scores them. */
export function gradeQueries(baseline: Run, candidate: Run, judgments: JudgmentSet, options: EvaluateOptions): Map<string, QueryLists> {
  const out = new Map<string, QueryLists>();
  for (const [qid, qrels] of judgments.qrels)
    out.set(qid, new QueryLists(baseline.get(qid) ?? [], candidate.get(qid) ?? [], qrels, options));
  return out;
}

/**
 * One query's two lists, graded once. Every metric's bound asks for the delta under some hypothetical grades of
 * unjudged documents (hit/mrr: one per document, enumeration: thousands); looking each listed document up in the
 * judgments for every one of them was most of a comparison's time at 1,000 queries. Here the grades are looked up
 * once and a hypothesis only overwrites the positions of its documents, which gives the very arrays a fresh lookup
 * in the merged judgments would. Nothing outlives the comparison, so no judgments edit can make it stale.
 */
export class QueryLists {
  /** The judgments' context of this query (numbers of relevant documents, the ideal ranking's grades). */
  readonly judged: JudgedContext;
  private readonly grades: [(number | undefined)[], (number | undefined)[]];
  /** Each list's queryContext (baseline, candidate): what evaluateRun scores. */
  readonly contexts: [QueryContext, QueryContext];
  private positions?: [Map<string, number[]>, Map<string, number[]>];
  private readonly sides = new Map<number, { A: Side; B: Side; unjudged: string[] }>();
  private readonly leading = new Map<number, Set<string>>();
  /** Today's delta (no hypothesis) per metric name. */
  private readonly today = new Map<string, number>();

  constructor(
    readonly a: readonly RankedDoc[],
    readonly b: readonly RankedDoc[],
    readonly qrels: Map<string, number>,
    private readonly options: EvaluateOptions,
  ) {
    this.judged = judgedContext(qrels, options);
    this.grades = [a.map((d) => qrels.get(d.id)), b.map((d) => qrels.get(d.id))];
    this.contexts = [contextOfGrades(this.grades[0], this.judged), contextOfGrades(this.grades[1], this.judged)];
  }

  /** candidate − baseline of one metric, the unjudged documents graded as `extra` says (absent: not relevant). */
  delta(spec: MetricSpec, extra?: Map<string, number>): number {
    if (!extra?.size) {
      let d = this.today.get(spec.name); // asked by the metric's bound and by the sums
      if (d === undefined) this.today.set(spec.name, (d = computeMetric(spec, this.contexts[1]) - computeMetric(spec, this.contexts[0])));
      return d;
    }
    const judged = this.judgedWith(extra);
    this.positions ??= [positionsOf(this.a), positionsOf(this.b)];
    const [pa, pb] = this.positions;
    const graded = (grades: (number | undefined)[], at: Map<string, number[]>) => {
      let out: (number | undefined)[] | undefined; // copied only when a hypothesis lands in this list
      for (const [d, g] of extra) {
        for (const i of at.get(d) ?? []) (out ??= grades.slice())[i] = g;
      }
      return contextOfGrades(out ?? grades, judged);
    };
    return computeMetric(spec, graded(this.grades[1], pb)) - computeMetric(spec, graded(this.grades[0], pa));
  }

  /**
   * delta(spec, {doc: grade}) for a first-relevant metric (hit, mrr) and a grade at least the threshold, without
   * re-grading both lists: a side whose first relevant document within the cut-off becomes `doc` scores as its
   * list up to `doc`, made relevant (the metric's own code on that prefix); the other side as it is.
   */
  leaderDelta(spec: MetricSpec, doc: string, grade: number): number {
    const value = (side: 0 | 1) => {
      const list = side === 0 ? this.a : this.b;
      const grades = this.grades[side];
      const depth = Math.min(spec.k ?? Infinity, list.length);
      for (let i = 0; i < depth; i++) {
        if (list[i]!.id === doc) {
          // i < depth ≤ list.length
          const prefix = grades.slice(0, i);
          prefix.push(grade);
          return computeMetric(spec, contextOfGrades(prefix, this.judged));
        }
        const g = grades[i];
        if (g !== undefined && g >= this.options.relevanceThreshold) break;
      }
      return computeMetric(spec, this.contexts[side]);
    };
    return value(1) - value(0);
  }

  /** judgedContext of the judgments plus `extra`, from the judgments' own (the same numbers, without a merged map). */
  private judgedWith(extra: Map<string, number>): JudgedContext {
    let { numRelevant, numNonRelevant } = this.judged;
    const idealGrades = this.judged.idealGrades.slice();
    for (const [d, g] of extra) {
      if (this.qrels.has(d)) return judgedContext(new Map([...this.qrels, ...extra]), this.options); // overrides a judgment
      if (g >= this.options.relevanceThreshold) numRelevant++;
      else numNonRelevant++;
      if (g > 0) idealGrades.push(g);
    }
    idealGrades.sort((x, y) => y - x);
    return { ...this.judged, numRelevant, numNonRelevant, idealGrades };
  }

  /** Both lists' ranks within `depth`, and the unjudged documents among them (the same for every metric of that depth). */
  within(depth: number): { A: Side; B: Side; unjudged: string[] } {
    if (depth >= Math.max(this.a.length, this.b.length)) depth = Infinity; // the whole lists: one entry for @100, @1000 and none
    let s = this.sides.get(depth);
    if (!s) {
      const A: Side = { docs: this.a, rank: rankWithin(this.a, depth) };
      const B: Side = { docs: this.b, rank: rankWithin(this.b, depth) };
      // The baseline's documents in its order, then the candidate's not listed by the baseline.
      const unjudged: string[] = [];
      for (const d of A.rank.keys()) if (!this.qrels.has(d)) unjudged.push(d);
      for (const d of B.rank.keys()) if (!A.rank.has(d) && !this.qrels.has(d)) unjudged.push(d);
      s = { A, B, unjudged };
      this.sides.set(depth, s);
    }
    return s;
  }

  /**
   * The documents above the first relevant one of either list, within `depth`: the only ones whose becoming
   * relevant changes a first-relevant metric (hit, mrr) of that depth.
   */
  leaders(depth: number): Set<string> {
    let s = this.leading.get(depth);
    if (!s) {
      s = new Set();
      for (const [list, grades] of [
        [this.a, this.grades[0]],
        [this.b, this.grades[1]],
      ] as const) {
        for (let i = 0; i < Math.min(depth, list.length); i++) {
          const g = grades[i];
          if (g !== undefined && g >= this.options.relevanceThreshold) break;
          s.add(list[i]!.id); // i < list.length
        }
      }
      this.leading.set(depth, s);
    }
    return s;
  }

  /** Ranks in the whole lists (the judging pool's order). */
  fullRanks(): [Map<string, number>, Map<string, number>] {
    const { A, B } = this.within(Infinity);
    return [A.rank, B.rank];
  }
}

function positionsOf(docs: readonly RankedDoc[]): Map<string, number[]> {
  const at = new Map<string, number[]>();
  docs.forEach((d, i) => {
    const list = at.get(d.id);
    if (list) list.push(i);
    else at.set(d.id, [i]);
  });
  return at;
}

/** Extremes of (candidate − baseline) for one query and metric over every grading of its unjudged documents. */
export function queryBounds(
  spec: MetricSpec,
  a: readonly RankedDoc[],
  b: readonly RankedDoc[],
  qrels: Map<string, number>,
  options: EvaluateOptions,
  maxGrade: number,
): QueryBound {
  return boundsOf(spec, new QueryLists(a, b, qrels, options), options, maxGrade);
}

function boundsOf(spec: MetricSpec, lists: QueryLists, options: EvaluateOptions, maxGrade: number): QueryBound {
  const { A, B, unjudged } = lists.within(spec.k ?? Infinity);
  const delta = (extra?: Map<string, number>) => lists.delta(spec, extra);
  if (unjudged.length === 0) {
    const d = delta();
    return { lo: d, hi: d, exact: true, unjudged };
  }
  const qrels = lists.qrels;
  const T = options.relevanceThreshold;
  const weightOf = (contribution: (rank: number) => number) => (d: string) =>
    (B.rank.has(d) ? contribution(B.rank.get(d)!) : 0) - (A.rank.has(d) ? contribution(A.rank.get(d)!) : 0);
  switch (spec.kind) {
    case 'p':
      return linear(
        delta(),
        unjudged,
        weightOf(() => 1 / spec.k!),
      );
    case 'rbp': {
      const p = spec.param!;
      return linear(
        delta(),
        unjudged,
        weightOf((r) => (1 - p) * p ** (r - 1)),
      );
    }
    case 'hit':
    case 'mrr': {
      // A hypothesis on a document below the first relevant one (or past the cut-off) in both lists leaves both
      // values as they are: only the documents above it are tried (the others would give today's delta again).
      const leaders = lists.leaders(spec.k ?? Infinity);
      let lo = delta();
      let hi = lo;
      for (const d of unjudged) {
        if (!leaders.has(d)) continue;
        const v = lists.leaderDelta(spec, d, maxGrade);
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      return { lo, hi, exact: true, unjudged };
    }
    case 'recall':
      return recallBounds(A, B, qrels, T, unjudged);
    case 'ndcg':
      return (
        ndcgBounds(spec.k, A, B, qrels, lists.judged.idealGrades, options, maxGrade, unjudged) ?? enumerate(spec, delta, unjudged, maxGrade)
      );
    default:
      return enumerate(spec, delta, unjudged, maxGrade);
  }
}

/** Additive metrics: each document moves the delta by its own weight; one with weight 0 decides nothing. */
function linear(today: number, unjudged: string[], weight: (d: string) => number): QueryBound {
  let lo = today;
  let hi = today;
  const moving: string[] = [];
  for (const d of unjudged) {
    const x = weight(d);
    if (Math.abs(x) > 1e-15) moving.push(d);
    if (x > 0) hi += x;
    else lo += x;
  }
  return { lo, hi, exact: true, unjudged: moving };
}

function recallBounds(A: Side, B: Side, qrels: Map<string, number>, T: number, unjudged: string[]): QueryBound {
  let R0 = 0;
  for (const g of qrels.values()) if (g >= T) R0++;
  const relIn = (s: Side) => {
    let n = 0;
    for (const d of s.rank.keys()) if ((qrels.get(d) ?? -1) >= T) n++;
    return n;
  };
  const c = relIn(B) - relIn(A);
  const w = unjudged.map((d) => (B.rank.has(d) ? 1 : 0) - (A.rank.has(d) ? 1 : 0)).sort((x, y) => y - x);
  let lo = Infinity;
  let hi = -Infinity;
  // Running sums of the best and the worst m weights (integers: exact in any order), not a slice per m.
  let top = 0;
  let bottom = 0;
  for (let m = 0; m <= w.length; m++) {
    const R = R0 + m;
    if (m > 0) {
      // 1 ≤ m ≤ w.length: both ends are weights.
      top += w[m - 1]!;
      bottom += w[w.length - m]!;
    }
    hi = Math.max(hi, R === 0 ? 0 : (c + top) / R);
    lo = Math.min(lo, R === 0 ? 0 : (c + bottom) / R);
  }
  return { lo, hi, exact: true, unjudged };
}

/** `judged`: the grades > 0 of the judged documents, highest first (the query's idealGrades). */
function ndcgBounds(
  k: number | undefined,
  A: Side,
  B: Side,
  qrels: Map<string, number>,
  judged: readonly number[],
  options: EvaluateOptions,
  G: number,
  unjudged: string[],
): QueryBound | undefined {
  const U = unjudged.length;
  if (countVectors(U, G) > COUNT_VECTOR_BUDGET) return undefined;
  const disc = (s: Side, d: string) => (s.rank.has(d) ? 1 / Math.log2(s.rank.get(d)! + 1) : 0);
  let C = 0;
  for (const s of [A, B]) {
    for (const [d, r] of s.rank) C += ((s === B ? 1 : -1) * gainOf(qrels.get(d), options.gain)) / Math.log2(r + 1);
  }
  const w = unjudged.map((d) => disc(B, d) - disc(A, d)).sort((x, y) => y - x);
  // Little work per count vector (a query can have thousands of them): see visitOnes.
  const prefix = [0];
  for (let i = 0; i < U; i++) prefix.push(prefix[i]! + w[i]!); // prefix has i + 1 sums; w has U weights
  const gain = Array.from({ length: G + 1 }, (_, x) => gainOf(x, options.gain));
  const depth = k ?? Infinity;
  // The ideal ranking never reaches past its judged.length + U graded documents: their discounts' logs, once.
  const log2 = Float64Array.from({ length: Math.min(depth, judged.length + U) }, (_, r) => Math.log2(r + 2));
  let lo = Infinity;
  let hi = -Infinity;
  const counts = new Array<number>(G + 1).fill(0); // counts[g] documents get grade g (g ≥ 1)
  const visit = (g: number, left: number) => {
    if (g <= 1) return visitOnes(g === 1 ? left : 0); // g = 0: G = 0, only the count vector of no hypothetical grade
    for (let n = 0; n <= left; n++) {
      counts[g] = n;
      visit(g - 1, left - n);
    }
    counts[g] = 0;
  };
  // The last level, every count n of grade-1 documents at once. The numerators pair the hypothetical gains, best
  // first, with runs of w, summed from prefix sums (down pairs them with w reversed, i.e. from the end). The ideal
  // ranking (the judged grades and the hypothetical ones merged, best first, cut at k) with n ones is the one with
  // none followed by n ones (a judged grade goes first on ties), so one running sum serves the whole row.
  // Bounds below: counts and gain have G + 1 entries (grades 0..G); prefix has U + 1 sums and the counts placed so far
  // never exceed U, so i + n ≤ U; log2 covers every rank the ideal ranking reaches (r < its length while next > 0);
  // n ≥ 1 happens only when G ≥ 1, so gain[1] is there then.
  const visitOnes = (left: number) => {
    let upRest = C;
    let downRest = C;
    let i = 0;
    for (let x = G; x >= 2; x--) {
      const n = counts[x]!;
      upRest += gain[x]! * (prefix[i + n]! - prefix[i]!);
      downRest += gain[x]! * (prefix[U - i]! - prefix[U - i - n]!);
      i += n;
    }
    let idcg = 0;
    let j = 0;
    let x = G;
    let remaining = counts[G]!;
    let r = 0;
    for (; r < depth; r++) {
      while (x >= 2 && remaining === 0) remaining = counts[--x]!;
      const hyp = x >= 2 ? x : 0;
      const judgedNext = judged[j];
      const next = judgedNext !== undefined && judgedNext >= hyp ? (j++, judgedNext) : hyp > 0 ? (remaining--, hyp) : 0;
      if (next === 0) break;
      idcg += (gain[next] ?? gainOf(next, options.gain)) / log2[r]!;
    }
    for (let n = 0; n <= left; n++) {
      if (n > 0 && r < depth) idcg += gain[1]! / log2[r++]!;
      // n = 0 adds nothing (+ 0 leaves a sum as it is; gain[1] does not exist when G = 0).
      const up = n === 0 ? upRest : upRest + gain[1]! * (prefix[i + n]! - prefix[i]!);
      const down = n === 0 ? downRest : downRest + gain[1]! * (prefix[U - i]! - prefix[U - i - n]!);
      hi = Math.max(hi, idcg === 0 ? 0 : up / idcg);
      lo = Math.min(lo, idcg === 0 ? 0 : down / idcg);
    }
  };
  visit(G, U);
  return { lo, hi, exact: true, unjudged };
}

/** C(U + G, G): the number of ways to give U documents grades, counting only how many get each grade ≥ 1. */
function countVectors(U: number, G: number): number {
  let c = 1;
  for (let i = 1; i <= G; i++) c = (c * (U + i)) / i;
  return c;
}

function enumerate(spec: MetricSpec, delta: (extra: Map<string, number>) => number, unjudged: string[], G: number): QueryBound {
  // Graded RBP divides by the query's highest grade, which a hypothesis can raise: every level, not just the ends.
  const levels = spec.kind === 'nerr' || spec.kind === 'grbp' ? Array.from({ length: G + 1 }, (_, g) => g) : [0, G];
  if (levels.length ** unjudged.length > ENUMERATION_BUDGET) return { lo: -1, hi: 1, exact: false, unjudged };
  let lo = Infinity;
  let hi = -Infinity;
  const digits = new Array<number>(unjudged.length).fill(0);
  for (;;) {
    const v = delta(new Map(unjudged.map((d, i) => [d, levels[digits[i]!]!]))); // a digit per document, each < levels.length
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
    let i = 0;
    while (i < digits.length && ++digits[i]! === levels.length) digits[i++] = 0;
    if (i === digits.length) break;
  }
  return { lo, hi, exact: true, unjudged };
}
