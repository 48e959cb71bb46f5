import type { JudgmentSet } from '../judgments/types';
import { type EvaluateOptions, type Evaluation, type MetricSpec, computeMetric, evaluateRun, queryContext } from '../metrics';
import type { RankedDoc, Run } from '../run/types';

/** The metrics whose range over tie orders is reported: nDCG and P (their extremes are known exactly, below). */
const TIE_RANGE_KINDS = new Set(['ndcg', 'p']);

export interface TieRange {
  /** Mean over queries with the ranking as given (the reported value). */
  value: number;
  /** Mean over queries with every tie group ordered worst first / best first. */
  min: number;
  max: number;
  /** Queries whose value differs between the worst and the best tie order. */
  queriesAffected: number;
}

export interface TieReport {
  /** Evaluated depth: the largest cut-off among the metrics; null = the whole list (a metric without cut-off). */
  depth: number | null;
  queries: number;
  /** Queries with two or more documents of exactly equal score within the evaluated depth (a group starting there). */
  queriesWithTies: string[];
  /** Per nDCG / P metric asked for. */
  ranges: Record<string, TieRange>;
}

/**
 * Score ties and what they could change. Every tool orders tied documents somehow (Ranklab and trec_eval: docid
 * descending; others keep the file's order), and equal runs have scored differently for it. For each query the
 * run is re-ordered twice, only inside groups of equal score: best first (grade descending, unjudged as 0) and
 * worst first (grade ascending). By the rearrangement inequality that order gives the largest DCG@k (the
 * discounts decrease, IDCG does not change) and the most relevant documents above any cut-off, so the two runs
 * give the exact min and max of nDCG@k and P@k over all tie orders. With `judgedOnly`, ties are looked for in the
 * condensed list (the one that is scored). `evaluation`, when given, is the run's own evaluateRun under the same
 * judgments and options (with these metrics among its own): the values as given, not computed again.
 */
export function tieReport(
  run: Run,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
  evaluation?: Pick<Evaluation, 'perQuery' | 'means'>,
): TieReport {
  const depth = specs.some((s) => s.param === undefined || s.k === undefined) ? null : Math.max(...specs.map((s) => s.k!));
  // Only the queries with equal scores are re-ordered, and an order is kept only when it moves a grade: the metrics
  // see a list's grades alone, so an order that leaves every position its grade scores as the list given.
  const reordered = new Map<string, Reordered>();
  const queriesWithTies: string[] = [];
  for (const [qid, qrels] of judgments.qrels) {
    const given = run.get(qid);
    if (!given) continue;
    const docs = options.judgedOnly ? given.filter((d) => qrels.has(d.id)) : given;
    const first = firstTie(docs);
    if (first < 0) continue; // no two scores equal: both orders are the list itself
    if (depth === null || first < depth) queriesWithTies.push(qid); // the first group of equal scores starts first
    // A group already in an order's grade order stays as it is (the sort is stable), so that order moves a grade
    // exactly when two equal-score neighbours are out of it.
    const grade = (d: RankedDoc) => qrels.get(d.id) ?? 0;
    let bestMoves = false;
    let worstMoves = false;
    for (let i = first + 1; i < docs.length; i++) {
      const doc = docs[i]!; // 1 ≤ i < docs.length: both are there
      const previous = docs[i - 1]!;
      if (doc.score !== previous.score) continue;
      const g = grade(doc);
      const above = grade(previous);
      if (g > above) bestMoves = true;
      else if (g < above) worstMoves = true;
    }
    if (!bestMoves && !worstMoves) continue;
    const groups = tieGroups(docs);
    const order = (moves: boolean, compare: (a: RankedDoc, b: RankedDoc) => number) =>
      moves ? groups.flatMap((g) => [...g.docs].sort(compare)) : undefined;
    reordered.set(qid, { best: order(bestMoves, (a, b) => grade(b) - grade(a)), worst: order(worstMoves, (a, b) => grade(a) - grade(b)) });
  }
  const ranged = specs.filter((s) => TIE_RANGE_KINDS.has(s.kind));
  const ranges: Record<string, TieRange> = {};
  if (ranged.length) {
    const given = evaluation ?? evaluateRun(run, judgments, ranged, options);
    const hi = reorderedValues(given, reordered, 'best', judgments, ranged, options);
    const lo = reorderedValues(given, reordered, 'worst', judgments, ranged, options);
    for (const s of ranged) {
      let affected = 0;
      // Both orders hold every query with a value of every ranged metric (reorderedValues).
      for (const [qid, v] of hi) if (Math.abs(v[s.name]! - lo.get(qid)![s.name]!) > 1e-12) affected++;
      ranges[s.name] = { value: given.means[s.name] ?? NaN, min: meanOf(lo, s.name), max: meanOf(hi, s.name), queriesAffected: affected };
    }
  }
  return { depth, queries: judgments.qrels.size, queriesWithTies, ranges };
}

/**
 * The per-query values of `given` (the run's evaluation, same options) with the re-ordered queries evaluated in
 * one tie order: what evaluateRun of the re-ordered run gives (the same queries, in the same order), without
 * evaluating again the queries whose list does not change.
 */
function reorderedValues(
  given: Pick<Evaluation, 'perQuery'>,
  reordered: Map<string, Reordered>,
  order: 'best' | 'worst',
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions,
): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const [qid, values] of given.perQuery) {
    const list = reordered.get(qid)?.[order];
    if (!list) {
      out.set(qid, values);
      continue;
    }
    const ctx = queryContext(list, judgments.qrels.get(qid)!, options);
    out.set(qid, Object.fromEntries(specs.map((s) => [s.name, computeMetric(s, ctx)])));
  }
  return out;
}

/** Mean over queries, summed in their order (as evaluateRun's means). */
function meanOf(perQuery: Map<string, Record<string, number>>, name: string): number {
  let sum = 0;
  for (const v of perQuery.values()) sum += v[name]!; // each query has a value of every metric
  return perQuery.size === 0 ? 0 : sum / perQuery.size;
}

/** A query's list in the best and the worst tie order, each only when it gives some position another grade. */
type Reordered = { best?: RankedDoc[]; worst?: RankedDoc[] };

/** Where the first two consecutive documents with exactly equal scores start (0-based); -1 when there are none. */
function firstTie(docs: readonly RankedDoc[]): number {
  let previous: RankedDoc | undefined;
  for (const [i, d] of docs.entries()) {
    if (previous && d.score === previous.score) return i - 1;
    previous = d;
  }
  return -1;
}

/** Maximal runs of consecutive documents with exactly equal scores (0-based start). */
function tieGroups(docs: readonly RankedDoc[]): { start: number; length: number; docs: RankedDoc[] }[] {
  const groups: { start: number; length: number; docs: RankedDoc[] }[] = [];
  let last: (typeof groups)[number] | undefined;
  for (const [i, d] of docs.entries()) {
    if (last && d.score === last.docs[0]!.score) {
      last.docs.push(d); // a group is made with its first document
      last.length++;
    } else groups.push((last = { start: i, length: 1, docs: [d] }));
  }
  return groups;
}
