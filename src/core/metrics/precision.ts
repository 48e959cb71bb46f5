import { type QueryContext, relevantInTop } from './context';

/**
 * p@k = (relevant documents in the top k) / k.
 * Always divides by k, even when fewer than k documents were retrieved (trec_eval P.k).
 */
export function precisionAt(ctx: QueryContext, k: number): number {
  return relevantInTop(ctx, k) / k;
}
