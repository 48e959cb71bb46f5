import type { GainKind, QueryContext } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/** Gain of a grade: 2^rel − 1 (exp) or rel (linear). Grades <= 0 and unjudged documents gain nothing. */
export function gainOf(grade: number | undefined, kind: GainKind): number {
  if (grade === undefined || grade <= 0) return 0;
  return kind === 'exp' ? 2 ** grade - 1 : grade;
}

/** DCG@k = Σ_{i=1..k} gain(rel_i) / log2(i + 1). */
export function dcg(grades: readonly (number | undefined)[], k: number | undefined, kind: GainKind): number {
  const n = k === undefined ? grades.length : Math.min(k, grades.length);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += gainOf(grades[i], kind) / Math.log2(i + 2);
  return sum;
}

/**
 * nDCG@k = DCG@k / IDCG@k. The ideal ranking is built from EVERY judged document of the query with
 * grade > 0, retrieved or not (trec_eval ndcg_cut). Taking the ideal from the retrieved grades only
 * would reward a system for missing relevant documents. The relevance threshold does not change
 * gains or the ideal (as in trec_eval). IDCG = 0 gives 0.
 */
export function ndcgAt(ctx: Pick<QueryContext, 'grades' | 'idealGrades' | 'numRelevant' | 'options'>, k?: number): number {
  const ideal = dcg(ctx.idealGrades, k, ctx.options.gain);
  return ideal === 0 ? 0 : dcg(ctx.grades, k, ctx.options.gain) / ideal;
}

export const NDCG: MetricDefinition = {
  name: 'ndcg',
  aliases: ['ndcg_cut'],
  param: { name: 'k', required: false, description: 'cut-off (optional; whole list without it)' },
  label: 'nDCG',
  description: 'graded gain discounted by rank, normalised by the ideal ranking of every judged document',
  formula:
    'DCG@k / IDCG@k; DCG@k = Σ_{i≤k} gain(rel_i) / log2(i+1), gain 2^rel−1 (default) or rel (`--gain linear`); IDCG from all judged documents with grade > 0, retrieved or not; 0 when IDCG = 0',
  reference: 'Järvelin & Kekäläinen 2002; trec_eval `ndcg_cut.k` (linear gain)',
  ties: TIE_RULE,
  binary: false,
  variant: (o) => `gain ${o.gain === 'exp' ? '2^rel−1' : 'rel (linear)'}, log2(rank+1) discount, ideal over all judged documents`,
  compute: (ctx, k) => ndcgAt(ctx, k),
};
