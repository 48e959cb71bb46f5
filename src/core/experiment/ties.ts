import type { JudgmentSet } from '../judgments/types';
import { type EvaluateOptions, type MetricSpec, evaluateRun } from '../metrics';
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
 * condensed list (the one that is scored).
 */
export function tieReport(run: Run, judgments: JudgmentSet, specs: MetricSpec[], options: EvaluateOptions): TieReport {
  const depth = specs.some((s) => s.param === undefined || s.k === undefined) ? null : Math.max(...specs.map((s) => s.k!));
  const best: Run = new Map();
  const worst: Run = new Map();
  const queriesWithTies: string[] = [];
  for (const [qid, qrels] of judgments.qrels) {
    const given = run.get(qid);
    if (!given) continue;
    const docs = options.judgedOnly ? given.filter((d) => qrels.has(d.id)) : given;
    const groups = tieGroups(docs);
    if (groups.some((g) => g.length > 1 && (depth === null || g.start < depth))) queriesWithTies.push(qid);
    if (groups.length === docs.length) {
      // No two scores equal: both orders are the list itself (not two sorted copies of it).
      best.set(qid, docs);
      worst.set(qid, docs);
      continue;
    }
    const grade = (d: RankedDoc) => qrels.get(d.id) ?? 0;
    best.set(qid, groups.flatMap((g) => [...g.docs].sort((a, b) => grade(b) - grade(a))));
    worst.set(qid, groups.flatMap((g) => [...g.docs].sort((a, b) => grade(a) - grade(b))));
  }
  const ranged = specs.filter((s) => TIE_RANGE_KINDS.has(s.kind));
  const ranges: Record<string, TieRange> = {};
  if (ranged.length) {
    const given = evaluateRun(run, judgments, ranged, options);
    const hi = evaluateRun(best, judgments, ranged, options);
    const lo = evaluateRun(worst, judgments, ranged, options);
    for (const s of ranged) {
      let affected = 0;
      for (const [qid, v] of hi.perQuery) if (Math.abs(v[s.name] - lo.perQuery.get(qid)![s.name]) > 1e-12) affected++;
      ranges[s.name] = { value: given.means[s.name], min: lo.means[s.name], max: hi.means[s.name], queriesAffected: affected };
    }
  }
  return { depth, queries: judgments.qrels.size, queriesWithTies, ranges };
}

/** Maximal runs of consecutive documents with exactly equal scores (0-based start). */
function tieGroups(docs: readonly RankedDoc[]): { start: number; length: number; docs: RankedDoc[] }[] {
  const groups: { start: number; length: number; docs: RankedDoc[] }[] = [];
  for (let i = 0; i < docs.length; i++) {
    const last = groups[groups.length - 1];
    if (last && docs[i].score === last.docs[0].score) {
      last.docs.push(docs[i]);
      last.length++;
    } else groups.push({ start: i, length: 1, docs: [docs[i]] });
  }
  return groups;
}
