import { type QueryContext, isRelevant } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/**
 * Rank-biased precision (Moffat & Zobel 2008), binary: RBP = (1 − p) Σ_{i=1..n} r_i p^{i−1}, r_i = 1 when the
 * document at rank i is relevant (grade ≥ threshold), n = the length of the list. A user reads rank i+1 after
 * rank i with probability p (the persistence).
 */
export function rbp(ctx: QueryContext, p: number): number {
  let sum = 0;
  let weight = 1;
  for (const g of ctx.grades) {
    if (isRelevant(g, ctx)) sum += weight;
    weight *= p;
  }
  return (1 - p) * sum;
}

/**
 * The RBP residual (Moffat & Zobel 2008, §4): how much RBP could still rise if every unknown document were
 * relevant — the unjudged documents in the list, (1 − p) Σ_{unjudged i} p^{i−1}, plus everything below the end
 * of the list, p^n. RBP + residual is the upper end of the score. (trec_eval's `rbp_resid` prints 0 instead
 * of p^n for a list without unjudged documents; otherwise it is this value.)
 */
export function rbpResidual(ctx: QueryContext, p: number): number {
  let sum = 0;
  let weight = 1;
  for (const g of ctx.grades) {
    if (g === undefined) sum += weight;
    weight *= p;
  }
  return (1 - p) * sum + weight;
}

export const RBP: MetricDefinition = {
  name: 'rbp',
  aliases: [],
  param: { name: 'p', required: false, default: 0.8, description: 'persistence p in (0, 1) (optional; default 0.8 as ir_measures)' },
  label: 'RBP',
  description: 'expected rate of relevant documents seen by a user who goes on to the next rank with probability p; reported with its residual',
  formula: '(1−p) Σ_{i≤n} r_i p^(i−1), r_i = 1 if relevant; residual = (1−p) Σ over unjudged i of p^(i−1) + p^n',
  reference: 'Moffat & Zobel 2008, "Rank-biased precision for measurement of retrieval effectiveness"; ir_measures `RBP(p, rel)`',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx, p) => rbp(ctx, p!),
  residual: (ctx, p) => rbpResidual(ctx, p!),
};
