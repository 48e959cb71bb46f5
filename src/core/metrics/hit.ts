import { type QueryContext, relevantInTop } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/** hit@k = 1 when at least one relevant document is in the top k, else 0 (the mean is the hit rate). */
export function hitAt(ctx: QueryContext, k: number): number {
  return relevantInTop(ctx, k) > 0 ? 1 : 0;
}

/**
 * One measure under two names: trec_eval's `success.k` ("a relevant doc has been retrieved" in the top k,
 * shorter lists padded with non-relevant ones) is exactly hit@k, so `success@k` is an alias, reported as hit@k.
 */
export const HIT: MetricDefinition = {
  name: 'hit',
  aliases: ['hits', 'success'],
  param: { name: 'k', required: true, description: 'cut-off (required)' },
  label: 'Hit rate',
  description:
    '1 if any relevant document is in the top k; `success@k` is the same measure (trec_eval `success.k`) and is reported as hit@k',
  formula: '1 if |relevant ∩ top k| > 0 else 0',
  reference: 'trec_eval `success.k` (Tomlinson)',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx, k) => hitAt(ctx, k!),
};
