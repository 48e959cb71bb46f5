import type { QueryContext } from './context';
import { TIE_RULE, type MetricDefinition } from './definition';

/** trec_eval's smoothing constant in infAP's estimate of the precision above a relevant document. */
const EPSILON = 0.00001;

/**
 * infAP (Yilmaz & Aslam 2006), exactly as trec_eval 10.0 computes it. For each judged relevant document at
 * 1-based rank r (index j = r − 1) it adds the expected precision at r:
 *   j = 0:  1
 *   j > 0:  1/r + ((r−1)/r) · (judged above / (r−1)) · ((rel above + ε) / (rel above + nonrel above + 2ε))
 * "judged above" counts the judged documents among the r−1 above (relevant or not; trec_eval also counts
 * pooled-but-unjudged ones, which Ranklab's judgments cannot express: every unjudged document is outside the
 * pool). The sum is divided by R, the number of relevant judged documents; 0 when R = 0. With complete
 * judgments it equals AP.
 */
export function infAP(ctx: QueryContext): number {
  const R = ctx.numRelevant;
  if (R === 0) return 0;
  let relAbove = 0;
  let nonRelAbove = 0;
  let sum = 0;
  ctx.grades.forEach((g, j) => {
    if (g === undefined) return;
    if (g < ctx.options.relevanceThreshold) {
      nonRelAbove++;
      return;
    }
    if (j === 0) sum += 1;
    else
      sum += 1 / (j + 1) + (j / (j + 1)) * ((relAbove + nonRelAbove) / j) * ((relAbove + EPSILON) / (relAbove + nonRelAbove + 2 * EPSILON));
    relAbove++;
  });
  return sum / R;
}

export const INFAP: MetricDefinition = {
  name: 'infap',
  aliases: [],
  label: 'infAP',
  description: 'average precision estimated from the judged documents, treating unjudged ones as a random unjudged sample',
  formula:
    '(1/R) Σ over relevant retrieved at rank r of: 1 if r = 1, else 1/r + ((r−1)/r)·(judged above/(r−1))·((rel above+ε)/(judged above+2ε)), ε = 1e-5',
  reference: 'Yilmaz & Aslam 2006, "Estimating average precision with incomplete and imperfect judgments"; trec_eval `infAP`',
  ties: TIE_RULE,
  binary: true,
  compute: (ctx) => infAP(ctx),
};
