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
  description:
    'expected rate of relevant documents seen by a user who goes on to the next rank with probability p; reported with its residual',
  formula: '(1−p) Σ_{i≤n} r_i p^(i−1), r_i = 1 if relevant; residual = (1−p) Σ over unjudged i of p^(i−1) + p^n',
  reference: 'Moffat & Zobel 2008, "Rank-biased precision for measurement of retrieval effectiveness"; ir_measures `RBP(p, rel)`',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx, p) => rbp(ctx, p!),
  residual: (ctx, p) => rbpResidual(ctx, p!),
};

/**
 * Graded RBP as trec_eval 10's `rbp` computes it: (1 − p) Σ_{i=1..n} g_i p^{i−1} with g_i = grade_i / G, G the
 * highest grade judged for the query (so every gain lies in [0, 1] and a perfect list of top-graded documents
 * scores 1); unjudged documents gain 0. trec_eval takes a grade's gain as the grade and rescales the gains to
 * [0, 1] when the largest is above 1 ("per email conversation with Alistair Moffat", m_rbp.c); with grades 0/1
 * that is binary RBP at threshold 1. No relevance threshold applies: every grade above 0 gains.
 */
export function gradedRbp(ctx: QueryContext, p: number): number {
  const top = ctx.idealGrades[0] ?? 0; // grades > 0, highest first
  if (top === 0) return 0;
  let sum = 0;
  let weight = 1;
  for (const g of ctx.grades) {
    if (g !== undefined && g > 0) sum += (g / top) * weight;
    weight *= p;
  }
  return (1 - p) * sum;
}

export const GRADED_RBP: MetricDefinition = {
  name: 'grbp',
  aliases: ['rbp_graded'],
  param: RBP.param,
  label: 'RBP',
  description: "RBP with graded gains: each grade counts as its share of the query's highest grade; reported with its residual",
  formula: "(1−p) Σ_{i≤n} (g_i / G) p^(i−1), G = highest grade judged for the query (0 when none); residual as RBP's",
  reference: 'Moffat & Zobel 2008; trec_eval 10 `rbp` (gains rescaled to [0, 1]; ranx `rbp` uses the grade itself, unscaled)',
  ties: TIE_RULE,
  binary: false,
  variant: () => 'graded: gain grade/maxGrade (trec_eval 10 rbp), every grade > 0 gains',
  compute: (ctx, p) => gradedRbp(ctx, p!),
  // Gains are at most 1, so an unjudged document could add at most what a relevant one adds in binary RBP.
  residual: (ctx, p) => rbpResidual(ctx, p!),
};
