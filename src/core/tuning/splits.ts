import { createHash } from 'node:crypto';
import type { JudgmentSet } from '../judgments';

/** Which queries choose the parameters (`tune`) and which judge the choice (`holdout`). */
export interface TuneHoldout {
  tune: string[];
  holdout: string[];
  /** `judgments`: the queries' own `split` field; `hash`: no query is marked holdout, so a hash of the id decides. */
  source: 'judgments' | 'hash';
}

/** Share of queries the hash split holds out when the judgments mark none (one in four). */
export const HASH_HOLDOUT_SHARE = 0.25;

/** A stable number in [0, 1) per query id: the same id lands on the same side on every machine and run. */
function unitHash(qid: string): number {
  return createHash('sha256').update(qid).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * The tuning split of judged queries: the judgments' own (`"split": "holdout"`; no split = tune) when any query is
 * marked holdout, else a deterministic hash split (HASH_HOLDOUT_SHARE of the queries, by sha256 of the id).
 */
export function tuneHoldoutSplit(judgments: JudgmentSet): TuneHoldout {
  const qids = [...judgments.qrels.keys()];
  const marked = qids.filter((q) => judgments.queries.get(q)?.split === 'holdout');
  if (marked.length > 0) {
    const held = new Set(marked);
    return { tune: qids.filter((q) => !held.has(q)), holdout: marked, source: 'judgments' };
  }
  const holdout = qids.filter((q) => unitHash(q) < HASH_HOLDOUT_SHARE);
  const held = new Set(holdout);
  return { tune: qids.filter((q) => !held.has(q)), holdout, source: 'hash' };
}

/**
 * K disjoint folds covering every query: queries ordered by the hash of their id (ties by id), then dealt round the
 * folds, so fold sizes differ by at most one and a query's fold does not depend on the order of the judgments.
 */
export function kFolds(qids: readonly string[], k: number): string[][] {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`kFolds: k must be a whole number of at least 2, got ${k}`);
  const order = [...new Set(qids)].map((q) => ({ q, h: unitHash(q) })).sort((a, b) => a.h - b.h || (a.q < b.q ? -1 : a.q > b.q ? 1 : 0));
  const folds: string[][] = Array.from({ length: k }, () => []);
  order.forEach(({ q }, i) => folds[i % k].push(q));
  return folds;
}
