import type { Diagnostic } from '../util/diagnostics';

export type Split = 'tune' | 'holdout';

/** A labeled query. Tags name the slices it belongs to (e.g. "procedural", "lang:id"). */
export interface Query {
  id: string;
  text: string;
  tags: string[];
  split?: Split;
}

/**
 * Labeled queries with graded judgments (0 = not relevant, 1..3 by convention; no fixed maximum).
 * `qrels.get(qid).get(docid)` is the grade; a document absent from the map is unjudged.
 */
export interface JudgmentSet {
  /** Every query that has judgments or text, keyed by id. Text may be '' when only qrels were given. */
  queries: Map<string, Query>;
  qrels: Map<string, Map<string, number>>;
  /** Content hash over the normalised judgments and queries. */
  fingerprint: string;
  /** The files this set was read from. */
  sources: string[];
  /** Every problem found while reading; the valid lines were kept. */
  diagnostics: Diagnostic[];
}
