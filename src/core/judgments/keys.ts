import type { SourceLocation } from './types';

/** The key of `JudgmentSet.locations`: query id and document id joined by a tab. */
export function judgmentKey(qid: string, docId: string): string {
  return `${qid}\t${docId}`;
}

/** "line 7" within the same file, "other.tsv:7" across files: how a message names a second location. */
export function describeLocation(loc: SourceLocation, relativeTo: string): string {
  if (loc.file === relativeTo) return `line ${loc.line}`;
  return loc.line > 0 ? `${loc.file}:${loc.line}` : loc.file;
}

/** Orders ids the way people number them: "2" before "10", otherwise by code unit. */
export function compareIds(a: string, b: string): number {
  const na = /^\d+$/.test(a) ? Number(a) : NaN;
  const nb = /^\d+$/.test(b) ? Number(b) : NaN;
  if (!Number.isNaN(na) && !Number.isNaN(nb) && na !== nb) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Plain code-unit order (locale independent), for canonical forms. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
