import { fingerprintJudgments } from './fingerprint';
import { judgmentKey } from './keys';
import { querySplit, splitSourceOf } from './splits';
import type { JudgmentSet, Query, SourceLocation } from './types';

/** A judged query left out of scoring as a principal, and why. */
export interface ExcludedQuery {
  qid: string;
  reason: string;
}

/**
 * Which queries count when scoring as a principal, and with which judgments: the one definition that
 * `eval --as`, `compare --as` and check-acl's recall share.
 * - A query whose relevant documents (grade >= relevanceThreshold) are all invisible is left out and listed:
 *   no ranking could find anything for this principal, so scoring it 0 would measure the ACL, not the ranker.
 * - Every other query counts, judged only on the documents the principal may see (an invisible document is
 *   not a miss). A query with no relevant document at all is kept as it is without a principal (it scores 0,
 *   or is left out by excludeNoRelevant), even when none of its judged documents is visible.
 */
export function judgmentsVisibleTo(
  set: JudgmentSet,
  visible: (docId: string) => boolean,
  opts: { principal: string; relevanceThreshold: number },
): { judgments: JudgmentSet; excluded: ExcludedQuery[] } {
  const excluded: ExcludedQuery[] = [];
  const qrels = new Map<string, Map<string, number>>();
  const locations = new Map<string, SourceLocation>();
  for (const [qid, docs] of set.qrels) {
    const relevant = [...docs].filter(([, grade]) => grade >= opts.relevanceThreshold).map(([id]) => id);
    if (relevant.length > 0 && !relevant.some(visible)) {
      excluded.push({ qid, reason: `all ${relevant.length} relevant document(s) are invisible to ${opts.principal}` });
      continue;
    }
    const kept = new Map<string, number>();
    for (const [docId, grade] of docs) {
      if (!visible(docId)) continue;
      kept.set(docId, grade);
      const at = set.locations?.get(judgmentKey(qid, docId));
      if (at) locations.set(judgmentKey(qid, docId), at);
    }
    qrels.set(qid, kept);
  }
  return { judgments: withParts(set, set.queries, qrels, locations, set.queryLocations), excluded };
}

/** Queries of one split with their judgments: the workspace's one split (`querySplit`), kept by the subset. */
export function filterBySplit(set: JudgmentSet, split: 'tune' | 'holdout' | 'all'): JudgmentSet {
  if (split === 'all') return set;
  const source = splitSourceOf(set);
  const keep = (qid: string) => querySplit(set, qid, source) === split;
  const queries = new Map([...set.queries].filter(([qid]) => keep(qid)));
  const qrels = new Map([...set.qrels].filter(([qid]) => keep(qid)));
  const locations = set.locations && new Map([...set.locations].filter(([key]) => keep(key.slice(0, key.indexOf('\t')))));
  const queryLocations = set.queryLocations && new Map([...set.queryLocations].filter(([qid]) => keep(qid)));
  return withParts(set, queries, qrels, locations, queryLocations);
}

/** The set without these queries (e.g. queries an engine could not answer: scored neither 0 nor at all). */
export function withoutQueries(set: JudgmentSet, qids: Iterable<string>): JudgmentSet {
  const drop = new Set(qids);
  if (drop.size === 0) return set;
  const keep = (qid: string) => !drop.has(qid);
  const queries = new Map([...set.queries].filter(([qid]) => keep(qid)));
  const qrels = new Map([...set.qrels].filter(([qid]) => keep(qid)));
  const locations = set.locations && new Map([...set.locations].filter(([key]) => keep(key.slice(0, key.indexOf('\t')))));
  const queryLocations = set.queryLocations && new Map([...set.queryLocations].filter(([qid]) => keep(qid)));
  return withParts(set, queries, qrels, locations, queryLocations);
}

function withParts(
  set: JudgmentSet,
  queries: Map<string, Query>,
  qrels: Map<string, Map<string, number>>,
  locations: Map<string, SourceLocation> | undefined,
  queryLocations: Map<string, SourceLocation> | undefined,
): JudgmentSet {
  const out: JudgmentSet = {
    queries,
    qrels,
    fingerprint: fingerprintJudgments(queries, qrels, set.merge),
    sources: [...set.sources],
    diagnostics: [...set.diagnostics],
  };
  if (set.merge !== undefined) out.merge = set.merge;
  if (set.ratings) out.ratings = set.ratings;
  if (set.ratingLocations) out.ratingLocations = set.ratingLocations;
  // The split is the whole set's: a subset must not re-split (a tune-only set has no holdout mark left).
  out.splitSource = splitSourceOf(set);
  if (locations) out.locations = locations;
  if (queryLocations) out.queryLocations = queryLocations;
  return out;
}
