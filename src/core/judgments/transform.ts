import { fingerprintJudgments } from './fingerprint';
import { judgmentKey } from './keys';
import type { JudgmentSet, Query, SourceLocation } from './types';

/**
 * The judgments a principal can be evaluated on: judgments of documents it may not see are dropped,
 * and a query left with no judgment at all leaves `qrels` (its text stays in `queries`).
 * The fingerprint is recomputed, so results on the restricted set are never mistaken for the full one.
 */
export function restrictJudgments(set: JudgmentSet, allowedDocIds: (docId: string) => boolean): JudgmentSet {
  const qrels = new Map<string, Map<string, number>>();
  const locations = new Map<string, SourceLocation>();
  for (const [qid, docs] of set.qrels) {
    const kept = new Map<string, number>();
    for (const [docId, grade] of docs) {
      if (!allowedDocIds(docId)) continue;
      kept.set(docId, grade);
      const at = set.locations?.get(judgmentKey(qid, docId));
      if (at) locations.set(judgmentKey(qid, docId), at);
    }
    if (kept.size > 0) qrels.set(qid, kept);
  }
  return withParts(set, set.queries, qrels, locations, set.queryLocations);
}

/** Queries of one split with their judgments; a query without `split` counts as "tune". */
export function filterBySplit(set: JudgmentSet, split: 'tune' | 'holdout' | 'all'): JudgmentSet {
  if (split === 'all') return set;
  const queries = new Map<string, Query>();
  for (const [qid, q] of set.queries) if ((q.split ?? 'tune') === split) queries.set(qid, q);
  const qrels = new Map<string, Map<string, number>>();
  for (const [qid, docs] of set.qrels) if (queries.has(qid)) qrels.set(qid, docs);
  const locations = set.locations && new Map([...set.locations].filter(([key]) => queries.has(key.slice(0, key.indexOf('\t')))));
  const queryLocations = set.queryLocations && new Map([...set.queryLocations].filter(([qid]) => queries.has(qid)));
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
    fingerprint: fingerprintJudgments(queries, qrels),
    sources: [...set.sources],
    diagnostics: [...set.diagnostics],
  };
  if (locations) out.locations = locations;
  if (queryLocations) out.queryLocations = queryLocations;
  return out;
}
