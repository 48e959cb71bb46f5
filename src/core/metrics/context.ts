/** Gain applied to a grade in (n)DCG: `exp` = 2^rel − 1 (default), `linear` = rel (trec_eval's ndcg_cut). */
export type GainKind = 'exp' | 'linear';

export interface MetricOptions {
  gain: GainKind;
  /** Grades at or above this count as relevant for binary metrics (P, recall, RR, AP, hit). Default 1. */
  relevanceThreshold: number;
  /**
   * Condensed lists (Sakai 2007; trec_eval -J): unjudged documents are removed from every ranked list before
   * any metric sees it, so the documents below move up. Default false.
   */
  judgedOnly?: boolean;
}

export const DEFAULT_METRIC_OPTIONS: MetricOptions = { gain: 'exp', relevanceThreshold: 1 };

/**
 * Threshold 0 is legal (trec_eval -l 0) but changes the question: a grade-0 judgment, "judged not relevant",
 * then counts as relevant for every binary metric. Said wherever a threshold of 0 is given.
 */
export const THRESHOLD_ZERO_WARNING =
  'relevance threshold 0 counts every judged document as relevant, grade 0 ("not relevant") included: P, recall, MRR, AP and hit then measure "judged", not "relevant" (as trec_eval -l 0); use 1 for the usual meaning';

/**
 * Everything a metric needs about one query, computed once.
 * `grades[i]` is the judgment of the document at rank i+1, or `undefined` when unjudged
 * (unjudged documents count as not relevant, as in trec_eval).
 */
export interface QueryContext {
  grades: (number | undefined)[];
  /** Number of judged documents with grade >= threshold (trec_eval's num_rel). */
  numRelevant: number;
  /** Number of judged documents with grade < threshold, retrieved or not (bpref's N). */
  numNonRelevant: number;
  /** Grades > 0 of every judged document of the query, highest first: the ideal ranking for IDCG. */
  idealGrades: number[];
  options: MetricOptions;
}

export function isRelevant(grade: number | undefined, ctx: QueryContext): boolean {
  return grade !== undefined && grade >= ctx.options.relevanceThreshold;
}

/** Number of relevant documents among the first `k` retrieved (all retrieved when k is undefined). */
export function relevantInTop(ctx: QueryContext, k?: number): number {
  const n = k === undefined ? ctx.grades.length : Math.min(k, ctx.grades.length);
  let count = 0;
  for (let i = 0; i < n; i++) if (isRelevant(ctx.grades[i], ctx)) count++;
  return count;
}
