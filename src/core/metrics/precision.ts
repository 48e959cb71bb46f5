import { type QueryContext, relevantInTop } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/**
 * p@k = (relevant documents in the top k) / k.
 * Always divides by k, even when fewer than k documents were retrieved (trec_eval P.k).
 */
export function precisionAt(ctx: QueryContext, k: number): number {
  return relevantInTop(ctx, k) / k;
}

export const PRECISION: MetricDefinition = {
  name: 'p',
  aliases: ['precision'],
  param: { name: 'k', required: true, description: 'cut-off (required)' },
  label: 'Precision',
  description: 'share of the top k that is relevant',
  formula: '|relevant ∩ top k| / k (always k, even when fewer were retrieved)',
  reference: 'trec_eval `P.k`',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx, k) => precisionAt(ctx, k!),
};
