import { type QueryContext, relevantInTop } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/** recall@k = (relevant documents in the top k) / (relevant documents judged for the query); 0 when there are none (trec_eval recall.k). */
export function recallAt(ctx: QueryContext, k: number): number {
  return ctx.numRelevant === 0 ? 0 : relevantInTop(ctx, k) / ctx.numRelevant;
}

export const RECALL: MetricDefinition = {
  name: 'recall',
  aliases: ['r'],
  param: { name: 'k', required: true, description: 'cut-off (required)' },
  label: 'Recall',
  description: 'share of the relevant documents that are in the top k',
  formula: '|relevant ∩ top k| / R; R = relevant judged for the query; 0 when R = 0',
  reference: 'trec_eval `recall.k`',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx, k) => recallAt(ctx, k!),
};
