import type { Diagnostic } from '../util/diagnostics';
import { fingerprintJudgments } from './fingerprint';
import { describeLocation, judgmentKey } from './keys';
import { DEFAULT_RATER, type MergeOptions, describeMerge, mergeRatings } from './merge';
import type { JudgmentSet, Query, SourceLocation } from './types';

/**
 * Collects queries and judgments from one or more files and applies the duplicate rules once:
 * the same (query, document) twice from the same rater with the same grade is a warning, with different grades an
 * error; either way the first one read is kept. Queries with the same id follow the same rule on their text.
 * Judgments belong to `rater` (set by the loader per source; DEFAULT_RATER for sources that name none); grades of
 * one pair by different raters are not duplicates: `build` merges them (src/core/judgments/merge.ts).
 */
export class JudgmentBuilder {
  readonly queries = new Map<string, Query>();
  readonly queryLocations = new Map<string, SourceLocation>();
  /** The default rater's grades (the only ones when no source names a rater). */
  readonly qrels = new Map<string, Map<string, number>>();
  readonly locations = new Map<string, SourceLocation>();
  /** Every rater's grades and their locations, in the order raters were first read. */
  readonly byRater = new Map<string, Map<string, Map<string, number>>>([[DEFAULT_RATER, this.qrels]]);
  readonly locationsByRater = new Map<string, Map<string, SourceLocation>>([[DEFAULT_RATER, this.locations]]);
  readonly diagnostics: Diagnostic[] = [];
  readonly sources: string[] = [];
  /** Rater of the judgments added next. */
  rater = DEFAULT_RATER;

  addSource(file: string): void {
    if (!this.sources.includes(file)) this.sources.push(file);
  }

  /** Returns false when the judgment was a duplicate (and not added). */
  addJudgment(qid: string, docId: string, grade: number, at: SourceLocation): boolean {
    const key = judgmentKey(qid, docId);
    let qrels = this.byRater.get(this.rater);
    let locations = this.locationsByRater.get(this.rater);
    if (!qrels || !locations) {
      this.byRater.set(this.rater, (qrels = new Map<string, Map<string, number>>()));
      this.locationsByRater.set(this.rater, (locations = new Map<string, SourceLocation>()));
    }
    const first = locations.get(key);
    let docs = qrels.get(qid);
    const previous = docs?.get(docId);
    if (previous !== undefined) {
      const where = first ? describeLocation(first, at.file) : 'an earlier line';
      if (previous === grade) {
        this.report(at, 'warning', `duplicate judgment for query "${qid}" document "${docId}" (same grade ${grade} as ${where}); kept one`);
      } else {
        this.report(
          at,
          'error',
          `conflicting grades for query "${qid}" document "${docId}": ${previous} at ${where} and ${grade} at line ${at.line}; kept the first (${previous})`,
        );
      }
      return false;
    }
    if (!docs) qrels.set(qid, (docs = new Map<string, number>()));
    docs.set(docId, grade);
    locations.set(key, at);
    return true;
  }

  /** Every judged query id (any rater) with the location of its first judgment. */
  judgedQueries(): Map<string, SourceLocation | undefined> {
    const out = new Map<string, SourceLocation | undefined>();
    for (const [rater, qrels] of this.byRater) {
      for (const [qid, docs] of qrels) {
        if (out.has(qid) || docs.size === 0) continue;
        out.set(qid, this.locationsByRater.get(rater)!.get(judgmentKey(qid, docs.keys().next().value as string)));
      }
    }
    return out;
  }

  /** Returns false when a query with this id was already read (and this one was not added). */
  addQuery(query: Query, at: SourceLocation): boolean {
    const existing = this.queries.get(query.id);
    if (existing) {
      const first = this.queryLocations.get(query.id);
      const where = first ? describeLocation(first, at.file) : 'an earlier line';
      if (sameQuery(existing, query)) {
        this.report(at, 'warning', `duplicate query "${query.id}" (same as ${where}); kept one`);
      } else {
        this.report(at, 'error', `query id "${query.id}" is used twice with different content (first at ${where}); kept the first`);
      }
      return false;
    }
    this.queries.set(query.id, query);
    this.queryLocations.set(query.id, at);
    return true;
  }

  report(at: SourceLocation, severity: Diagnostic['severity'], message: string): void {
    this.diagnostics.push({ file: at.file, line: at.line, severity, message });
  }

  /**
   * Queries that only have judgments get an entry with empty text, as `JudgmentSet` promises. With raters (any
   * rater other than the default, or several), `qrels` holds the merged grades and `ratings` every rater's own.
   */
  build(mergeOptions: MergeOptions = {}): JudgmentSet {
    const raters = [...this.byRater].filter(([r, q]) => q.size > 0 || r !== DEFAULT_RATER);
    const rated = raters.length > 1 || (raters.length === 1 && raters[0]![0] !== DEFAULT_RATER);
    const named = mergeOptions.merge?.startsWith('rater:') ? mergeOptions.merge.slice('rater:'.length) : undefined;
    if (named && !this.byRater.has(named)) {
      this.diagnostics.push({
        file: this.sources[0] ?? '',
        line: 0,
        severity: 'warning',
        message: `merge "rater:${named}": no judgments by rater "${named}" (raters: ${raters.map(([r]) => r).join(', ') || 'none'}); nothing is judged`,
      });
    }
    const { qrels, locations } =
      rated || named
        ? mergeRatings(new Map(raters), this.locationsByRater, mergeOptions)
        : { qrels: this.qrels, locations: this.locations };
    const queries = new Map(this.queries);
    for (const [qid] of raters.flatMap(([, q]) => [...q])) {
      if (!queries.has(qid)) queries.set(qid, { id: qid, text: '', tags: [] });
    }
    const merge = rated || named ? describeMerge(mergeOptions) : undefined;
    const set: JudgmentSet = {
      queries,
      qrels,
      fingerprint: fingerprintJudgments(queries, qrels, merge),
      sources: [...this.sources],
      diagnostics: [...this.diagnostics],
      locations,
      queryLocations: this.queryLocations,
    };
    if (merge) {
      set.merge = merge;
      set.ratings = new Map(raters);
      set.ratingLocations = new Map(raters.map(([r]) => [r, this.locationsByRater.get(r)!]));
    }
    return set;
  }
}

function sameQuery(a: Query, b: Query): boolean {
  return a.text === b.text && a.split === b.split && [...a.tags].sort().join('\u0000') === [...b.tags].sort().join('\u0000');
}
