import { createHash } from 'node:crypto';
import type { JudgmentSet, Split } from './types';

/**
 * The one tune/holdout split of a workspace, used by every command (`eval --split`, `compare --split` and its
 * tune/holdout rows, `gate`'s split slices, `sweep`, the editor): when any query carries a `split` mark (tune or
 * holdout) the judgments decide (a query without one is tune; every query marked tune means no holdout at all, as the
 * user said); when none does, a hash of the query id holds out
 * HASH_HOLDOUT_SHARE of the queries. The choice is made once on the whole set and kept by every subset
 * (`splitSource`), so a subset (one split, one principal's view) never re-splits its own queries.
 */

/** Which queries choose the parameters (`tune`) and which judge the choice (`holdout`). */
export interface TuneHoldout {
  tune: string[];
  holdout: string[];
  /** `judgments`: the queries' own `split` field; `hash`: no query has one, so a hash of the id decides. */
  source: SplitSource;
}

export type SplitSource = 'judgments' | 'hash';

/** Share of queries the hash split holds out when the judgments mark none (one in four). */
export const HASH_HOLDOUT_SHARE = 0.25;

/** A stable number in [0, 1) per query id: the same id lands on the same side on every machine and run. */
export function unitHash(qid: string): number {
  return createHash('sha256').update(qid).digest().readUInt32BE(0) / 2 ** 32;
}

/** Whether the judgments' own marks or the hash decide the split of this set (kept from the set it was cut from). */
export function splitSourceOf(set: JudgmentSet): SplitSource {
  if (set.splitSource) return set.splitSource;
  let source = worked.get(set);
  if (!source) {
    source = [...set.queries.values()].some((q) => q.split !== undefined) ? 'judgments' : 'hash';
    worked.set(set, source);
  }
  return source;
}

/** splitSourceOf of whole sets, worked out once each: callers ask query by query (querySplit). */
const worked = new WeakMap<JudgmentSet, SplitSource>();

/** The side of one query: its own mark when the judgments decide (none = tune), else the hash of its id. */
export function querySplit(set: JudgmentSet, qid: string, source: SplitSource = splitSourceOf(set)): Split {
  if (source === 'judgments') return set.queries.get(qid)?.split === 'holdout' ? 'holdout' : 'tune';
  return unitHash(qid) < HASH_HOLDOUT_SHARE ? 'holdout' : 'tune';
}

/** The judged queries of each side, in the order of the judgments. */
export function tuneHoldoutSplit(set: JudgmentSet): TuneHoldout {
  const source = splitSourceOf(set);
  const out: TuneHoldout = { tune: [], holdout: [], source };
  for (const qid of set.qrels.keys()) out[querySplit(set, qid, source)].push(qid);
  return out;
}
