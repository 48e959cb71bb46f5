import { fingerprint } from '../util/fingerprint';
import { compareCodeUnits } from './keys';
import type { Query } from './types';

/**
 * Hash over a canonical form: queries and documents sorted by id, tags sorted, so the same labels
 * in another file order give the same fingerprint while any grade, text, tag or split change does not.
 * Where the labels were read from (files, lines) is deliberately not part of it. `merge` (how several raters'
 * grades were merged, when there are raters) is: another policy is another set of labels.
 */
export function fingerprintJudgments(queries: Map<string, Query>, qrels: Map<string, Map<string, number>>, merge?: string): string {
  const qids = [...new Set([...queries.keys(), ...qrels.keys()])].sort(compareCodeUnits);
  return fingerprint(canonicalParts(qids, queries, qrels, merge));
}

function* canonicalParts(
  qids: string[],
  queries: Map<string, Query>,
  qrels: Map<string, Map<string, number>>,
  merge: string | undefined,
): Generator<string> {
  yield 'ranklab-judgments-v1';
  if (merge !== undefined) yield JSON.stringify(['merge', merge]);
  for (const qid of qids) {
    const q = queries.get(qid);
    yield JSON.stringify(['q', qid, q?.text ?? '', [...(q?.tags ?? [])].sort(compareCodeUnits), q?.split ?? null]);
    const docs = qrels.get(qid);
    if (!docs) continue;
    for (const docId of [...docs.keys()].sort(compareCodeUnits)) yield JSON.stringify(['d', docId, docs.get(docId)]);
  }
}
