import type { QueryContext } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/**
 * The grade whose stopping probability is 1 − 1/2^4: gdeval (the TREC Web track's ERR, used by ir_measures)
 * fixes the maximum grade at 4 whatever the judgments' scale, so Ranklab does too (its values then equal
 * theirs). Grades above 4 count as 4.
 */
export const ERR_MAX_GRADE = 4;

/** Probability that a user stops at a document of this grade: (2^g − 1) / 2^4 (0 for unjudged and grade 0). */
export function stopProbability(grade: number | undefined): number {
  if (grade === undefined || grade <= 0) return 0;
  return (2 ** Math.min(grade, ERR_MAX_GRADE) - 1) / 2 ** ERR_MAX_GRADE;
}

/** ERR@k = Σ_{r=1..k} (1/r) R_r Π_{i<r} (1 − R_i), R_i = stopProbability(grade at rank i). */
export function errOf(grades: readonly (number | undefined)[], k: number | undefined): number {
  const n = k === undefined ? grades.length : Math.min(k, grades.length);
  let sum = 0;
  let reach = 1;
  for (let i = 0; i < n; i++) {
    const R = stopProbability(grades[i]);
    sum += (reach * R) / (i + 1);
    reach *= 1 - R;
  }
  return sum;
}

/** Expected reciprocal rank (Chapelle et al. 2009), graded, gdeval's variant. */
export function errAt(ctx: QueryContext, k?: number): number {
  return errOf(ctx.grades, k);
}

/**
 * nERR@k = ERR@k / ideal ERR@k, the ideal being every judged document of the query with grade > 0, retrieved
 * or not, best grade first (as nDCG's ideal); 0 when the query has no such document. In [0, 1].
 */
export function nerrAt(ctx: QueryContext, k?: number): number {
  const ideal = errOf(ctx.idealGrades, k);
  return ideal === 0 ? 0 : errOf(ctx.grades, k) / ideal;
}

const ERR_FORMULA = 'Σ_{r≤k} (1/r) R_r Π_{i<r} (1 − R_i), R = (2^min(g,4) − 1) / 2^4 (gdeval: maximum grade 4 whatever the scale)';

export const ERR: MetricDefinition = {
  name: 'err',
  aliases: [],
  param: { name: 'k', required: false, description: 'cut-off (optional; whole list without it)' },
  label: 'ERR',
  description: 'expected reciprocal rank of the document a cascading user stops at; graded',
  formula: ERR_FORMULA,
  reference: 'Chapelle, Metzler, Zhang & Grinspan 2009, "Expected reciprocal rank for graded relevance"; gdeval / ir_measures `ERR@k`',
  ties: TIE_RULE,
  binary: false,
  variant: () => 'graded, stop probability (2^rel−1)/16 (gdeval)',
  compute: (ctx, k) => errAt(ctx, k),
};

export const NERR: MetricDefinition = {
  name: 'nerr',
  aliases: [],
  param: { name: 'k', required: false, description: 'cut-off (optional; whole list without it)' },
  label: 'nERR',
  description: 'ERR normalised by the ERR of the ideal ranking, so that 1 is the best possible',
  formula: 'ERR@k / ERR@k of the ideal ranking (every judged document with grade > 0, retrieved or not, best first); 0 when there is none',
  reference: 'Chapelle et al. 2009; normalised as nDCG (ideal over all judged documents)',
  ties: TIE_RULE,
  binary: false,
  variant: () => 'graded, stop probability (2^rel−1)/16 (gdeval), ideal over all judged documents',
  compute: (ctx, k) => nerrAt(ctx, k),
};
