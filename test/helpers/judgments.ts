import type { JudgmentSet, Query } from '../../src/core/judgments/types';

/** Builds an in-memory judgment set for hand-computed metric tests. */
export function judgmentsOf(
  qrels: Record<string, Record<string, number>>,
  queries: Partial<Record<string, Partial<Query>>> = {},
): JudgmentSet {
  const set: JudgmentSet = { queries: new Map(), qrels: new Map(), fingerprint: 'test', sources: [], diagnostics: [] };
  for (const [qid, grades] of Object.entries(qrels)) {
    set.qrels.set(qid, new Map(Object.entries(grades)));
    set.queries.set(qid, { id: qid, text: '', tags: [], ...queries[qid] });
  }
  return set;
}
