import type { QueryContext } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

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

export const JUDGED: MetricDefinition = {
  name: 'judged',
  aliases: [],
  param: { name: 'k', required: true, description: 'cut-off (required)' },
  label: 'Judged',
  description: 'label coverage: share of the shown top k that carries any judgment (grade 0 included)',
  formula: '|judged ∩ top k| / min(k, retrieved); 0 when nothing was retrieved',
  reference: 'ir_measures `Judged@k`',
  ties: TIE_RULE,
  binary: false,
  variant: () => 'share of shown results with any judgment',
  compute: (ctx, k) => judgedAt(ctx, k!),
};
