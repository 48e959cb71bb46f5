import type { GainKind, QueryContext } from './context';

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
export function ndcgAt(ctx: QueryContext, k?: number): number {
  const ideal = dcg(ctx.idealGrades, k, ctx.options.gain);
  return ideal === 0 ? 0 : dcg(ctx.grades, k, ctx.options.gain) / ideal;
}
