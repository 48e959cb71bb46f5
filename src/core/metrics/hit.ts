import { type QueryContext, relevantInTop } from './context';

/** hit@k = 1 when at least one relevant document is in the top k, else 0 (the mean is the hit rate). */
export function hitAt(ctx: QueryContext, k: number): number {
  return relevantInTop(ctx, k) > 0 ? 1 : 0;
}
