/** Grading in the editor: the judging view over the pool of unjudged documents (src/extension/judging/). */
import type { RanklabContext } from '../context';
import type { JudgeRequest } from '../judging/panel';

/**
 * Opens the judging view. Arguments (all optional): `configs` to pool (default: the dashboard's baseline and
 * candidate, else every config), and `qid` + `docId` to show that pair first (the dashboard's "judge" action).
 * Returns the view it shows (tests read it).
 */
export const judgeUnjudged = (ctx: RanklabContext) => async (arg?: JudgeRequest) =>
  ctx.judging.open(arg && typeof arg === 'object' ? arg : {});
