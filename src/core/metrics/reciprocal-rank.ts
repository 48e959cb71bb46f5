import { type QueryContext, isRelevant } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/**
 * Reciprocal rank: 1 / rank of the first relevant document within the top k (whole list when k is
 * undefined, as trec_eval recip_rank); 0 when none. Averaged over queries it is MRR.
 */
export function reciprocalRank(ctx: QueryContext, k?: number): number {
  const n = k === undefined ? ctx.grades.length : Math.min(k, ctx.grades.length);
  for (let i = 0; i < n; i++) if (isRelevant(ctx.grades[i], ctx)) return 1 / (i + 1);
  return 0;
}

export const MRR: MetricDefinition = {
  name: 'mrr',
  aliases: ['rr', 'recip_rank'],
  param: { name: 'k', required: false, description: 'cut-off (optional; whole list without it)' },
  label: 'MRR',
  description: 'reciprocal rank of the first relevant document; its mean over queries is MRR',
  formula: '1 / rank of the first relevant document within the top k; 0 when none',
  reference: 'trec_eval `recip_rank`',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx, k) => reciprocalRank(ctx, k),
};
