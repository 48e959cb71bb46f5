import type { QueryContext } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/**
 * bpref (Buckley & Voorhees 2004), exactly as trec_eval 10.0 computes it (the corrected version of v8.0):
 *   bpref = (1/R) Σ_{judged relevant retrieved d} (1 − min(n_d, R) / min(N, R))
 * n_d = judged non-relevant documents ranked above d, N = judged non-relevant documents of the query (grade
 * below the threshold, retrieved or not), R = relevant judged. The term is 1 when n_d = 0. Unjudged documents
 * are skipped: they neither help nor hurt, which is the point of the measure. 0 when R = 0.
 */
export function bpref(ctx: QueryContext): number {
  const R = ctx.numRelevant;
  if (R === 0) return 0;
  const denominator = Math.min(ctx.numNonRelevant, R);
  let nonRelevantAbove = 0;
  let sum = 0;
  for (const g of ctx.grades) {
    if (g === undefined) continue;
    if (g < ctx.options.relevanceThreshold) nonRelevantAbove++;
    else sum += nonRelevantAbove === 0 ? 1 : 1 - Math.min(nonRelevantAbove, R) / denominator;
  }
  return sum / R;
}

export const BPREF: MetricDefinition = {
  name: 'bpref',
  aliases: [],
  label: 'bpref',
  description: 'share of (relevant, judged non-relevant) pairs ranked in the right order; unjudged documents ignored',
  formula:
    '(1/R) Σ over relevant retrieved d of (1 − min(n_d, R) / min(N, R)); n_d = judged non-relevant above d, N = judged non-relevant for the query; 0 when R = 0',
  reference: 'Buckley & Voorhees 2004, "Retrieval evaluation with incomplete information"; trec_eval `bpref`',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx) => bpref(ctx),
};
