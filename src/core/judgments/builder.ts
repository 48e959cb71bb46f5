import type { Diagnostic } from '../util/diagnostics';
import { fingerprintJudgments } from './fingerprint';
import { describeLocation, judgmentKey } from './keys';
import type { JudgmentSet, Query, SourceLocation } from './types';

/**
 * Collects queries and judgments from one or more files and applies the duplicate rules once:
 * the same (query, document) twice with the same grade is a warning, with different grades an error;
 * either way the first one read is kept. Queries with the same id follow the same rule on their text.
 */
export class JudgmentBuilder {
  readonly queries = new Map<string, Query>();
  readonly queryLocations = new Map<string, SourceLocation>();
  readonly qrels = new Map<string, Map<string, number>>();
  readonly locations = new Map<string, SourceLocation>();
  readonly diagnostics: Diagnostic[] = [];
  readonly sources: string[] = [];

  addSource(file: string): void {
    if (!this.sources.includes(file)) this.sources.push(file);
  }

  /** Returns false when the judgment was a duplicate (and not added). */
  addJudgment(qid: string, docId: string, grade: number, at: SourceLocation): boolean {
    const key = judgmentKey(qid, docId);
    const first = this.locations.get(key);
    let docs = this.qrels.get(qid);
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
    if (!docs) this.qrels.set(qid, (docs = new Map()));
    docs.set(docId, grade);
    this.locations.set(key, at);
    return true;
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

  /** Queries that only have judgments get an entry with empty text, as `JudgmentSet` promises. */
  build(): JudgmentSet {
    const queries = new Map(this.queries);
    for (const qid of this.qrels.keys()) {
      if (!queries.has(qid)) queries.set(qid, { id: qid, text: '', tags: [] });
    }
    return {
      queries,
      qrels: this.qrels,
      fingerprint: fingerprintJudgments(queries, this.qrels),
      sources: [...this.sources],
      diagnostics: [...this.diagnostics],
      locations: this.locations,
      queryLocations: this.queryLocations,
    };
  }
}

function sameQuery(a: Query, b: Query): boolean {
  return a.text === b.text && a.split === b.split && [...a.tags].sort().join('\u0000') === [...b.tags].sort().join('\u0000');
}
