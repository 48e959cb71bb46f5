import { type QueryContext, isRelevant } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

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

export const AP: MetricDefinition = {
  name: 'ap',
  aliases: ['map', 'map_cut'],
  param: { name: 'k', required: false, description: 'cut-off (optional; whole list without it)' },
  label: 'AP',
  description: 'average precision; its mean over queries is MAP',
  formula: '(1/R) Σ over ranks r ≤ k of relevant documents of P@r; R = relevant judged for the query; 0 when R = 0',
  reference: 'trec_eval `map`, `map_cut.k`',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx, k) => averagePrecision(ctx, k),
};
