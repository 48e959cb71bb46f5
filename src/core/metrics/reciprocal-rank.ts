import { type QueryContext, isRelevant } from './context';

/**
 * Reciprocal rank: 1 / rank of the first relevant document within the top k (whole list when k is
 * undefined, as trec_eval recip_rank); 0 when none. Averaged over queries it is MRR.
 */
export function reciprocalRank(ctx: QueryContext, k?: number): number {
  const n = k === undefined ? ctx.grades.length : Math.min(k, ctx.grades.length);
  for (let i = 0; i < n; i++) if (isRelevant(ctx.grades[i], ctx)) return 1 / (i + 1);
  return 0;
}
