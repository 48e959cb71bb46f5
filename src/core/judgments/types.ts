import type { Diagnostic } from '../util/diagnostics';

export type Split = 'tune' | 'holdout';

/** Where a judgment or query was read from (1-based line; 0 = the whole file). */
export interface SourceLocation {
  file: string;
  line: number;
}

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
  /** Where each judgment came from, keyed by `${qid}\t${docid}` (see `judgmentKey`). */
  locations?: Map<string, SourceLocation>;
  /** Where each query's text came from, keyed by query id. */
  queryLocations?: Map<string, SourceLocation>;
  /**
   * Present when judgments carry raters (a source names one, or several raters graded): how `qrels` was merged
   * from `ratings` (src/core/judgments/merge.ts), in words; it is part of the fingerprint.
   */
  merge?: string;
  /** Every rater's own grades: rater → qid → document → grade. */
  ratings?: Map<string, Map<string, Map<string, number>>>;
  /** Where each rater's grades were read, keyed by `judgmentKey`. */
  ratingLocations?: Map<string, Map<string, SourceLocation>>;
  /**
   * Set on a subset (one split, one principal's view): whether the whole set's own marks or the hash decided the
   * tune/holdout split (see `splitSourceOf`, src/core/judgments/splits.ts); absent on a whole set, worked out from it.
   */
  splitSource?: 'judgments' | 'hash';
}
