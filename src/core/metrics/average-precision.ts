import { type QueryContext, isRelevant } from './context';

/**
 * AP = (1 / R) Σ_{ranks r of relevant retrieved documents} P@r, R = relevant documents judged for the
 * query (trec_eval map); `ap@k` truncates the list at k first (trec_eval map_cut). 0 when R = 0.
 */
export function averagePrecision(ctx: QueryContext, k?: number): number {
  if (ctx.numRelevant === 0) return 0;
  const n = k === undefined ? ctx.grades.length : Math.min(k, ctx.grades.length);
  let found = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    if (isRelevant(ctx.grades[i], ctx)) {
      found++;
      sum += found / (i + 1);
    }
  }
  return sum / ctx.numRelevant;
}
