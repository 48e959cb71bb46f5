import { type QueryContext, relevantInTop } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/**
 * R-precision = (relevant documents in the top R) / R, R = relevant judged for the query; a list shorter than
 * R is padded with non-relevant documents (trec_eval Rprec). It is both P@R and recall@R. 0 when R = 0.
 */
export function rPrecision(ctx: QueryContext): number {
  const R = ctx.numRelevant;
  return R === 0 ? 0 : relevantInTop(ctx, R) / R;
}

export const RPREC: MetricDefinition = {
  name: 'rprec',
  aliases: ['r-prec', 'r_prec'],
  label: 'R-precision',
  description: 'precision at rank R, where R is the number of relevant judged documents (= recall at R)',
  formula: '|relevant ∩ top R| / R; 0 when R = 0',
  reference: 'Buckley & Voorhees 2005 (TREC book, ch. 3); trec_eval `Rprec`',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx) => rPrecision(ctx),
};
