import { type QueryContext, relevantInTop } from './context';

/** recall@k = (relevant documents in the top k) / (relevant documents judged for the query); 0 when there are none (trec_eval recall.k). */
export function recallAt(ctx: QueryContext, k: number): number {
  return ctx.numRelevant === 0 ? 0 : relevantInTop(ctx, k) / ctx.numRelevant;
}
