import type { QueryContext } from './context';

/**
 * judged@k = share of the shown top-k documents that carry any judgment (grade 0 included): label
 * coverage. Divides by the number of documents actually in the top k (min(k, retrieved)), so a short
 * list is not penalised; 0 when nothing was retrieved. A low value means the scores are a lower bound.
 */
export function judgedAt(ctx: QueryContext, k: number): number {
  const n = Math.min(k, ctx.grades.length);
  if (n === 0) return 0;
  let judged = 0;
  for (let i = 0; i < n; i++) if (ctx.grades[i] !== undefined) judged++;
  return judged / n;
}
