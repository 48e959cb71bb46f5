/**
 * Grades from clicks by COEC, clicks over expected clicks (Zhang & Jones 2007; Chapelle & Zhang 2009 for the
 * position bias it corrects):
 * - position bias from the data: ctr[p] = clicks at position p / impressions at position p, over every logged
 *   result list (positions 1-based in the lists, as shown);
 * - for a (query, document): C = its clicks, E = Σ ctr[p] over its impressions at positions p, COEC = C / E
 *   (1: clicked as often as an average result at those positions; 2: twice as often);
 * - pairs shown fewer than `minImpressions` times get no grade (too few to tell), nor do pairs with E = 0;
 * - grade = how many of `thresholds` (default 0.5, 1, 2) COEC reaches: 0 below 0.5, 1 from 0.5, 2 from 1, 3 from 2.
 * Queries are matched by their normal form (./query-text.ts).
 */
import { normalizeQuery } from './query-text';

export interface Impression {
  query: string;
  /** Document ids as shown, first at position 1. */
  results: readonly string[];
  clicks: ReadonlySet<string>;
}

export interface ClickModelOptions {
  minImpressions: number;
  thresholds: readonly number[];
}

export const DEFAULT_CLICK_MODEL: ClickModelOptions = { minImpressions: 10, thresholds: [0.5, 1, 2] };

export interface ClickGrade {
  /** The query's normal form. */
  query: string;
  docId: string;
  grade: number;
  coec: number;
  clicks: number;
  expected: number;
  impressions: number;
}

export interface ClickModel {
  /** ctr[p − 1]: the click-through rate at position p. */
  ctr: number[];
  grades: ClickGrade[];
  /** Pairs left ungraded for being shown fewer than minImpressions times. */
  belowThreshold: number;
  impressions: number;
}

/** Click-through rate by position over all lists. */
export function positionCtr(impressions: readonly Impression[]): number[] {
  const shown: number[] = [];
  const clicked: number[] = [];
  for (const imp of impressions) {
    imp.results.forEach((doc, p) => {
      shown[p] = (shown[p] ?? 0) + 1;
      if (imp.clicks.has(doc)) clicked[p] = (clicked[p] ?? 0) + 1;
    });
  }
  return shown.map((n, p) => (clicked[p] ?? 0) / n);
}

export function coecGrades(impressions: readonly Impression[], opts: ClickModelOptions = DEFAULT_CLICK_MODEL): ClickModel {
  const ctr = positionCtr(impressions);
  const pairs = new Map<string, Map<string, { clicks: number; expected: number; impressions: number }>>();
  for (const imp of impressions) {
    const q = normalizeQuery(imp.query);
    let docs = pairs.get(q);
    if (!docs) pairs.set(q, (docs = new Map<string, { clicks: number; expected: number; impressions: number }>()));
    const seen = new Set<string>();
    imp.results.forEach((doc, p) => {
      if (seen.has(doc)) return; // a document listed twice counts at its first position
      seen.add(doc);
      let s = docs!.get(doc);
      if (!s) docs!.set(doc, (s = { clicks: 0, expected: 0, impressions: 0 }));
      s.impressions++;
      s.expected += ctr[p]!;
      if (imp.clicks.has(doc)) s.clicks++;
    });
  }
  const grades: ClickGrade[] = [];
  let belowThreshold = 0;
  for (const [query, docs] of [...pairs].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    for (const [docId, s] of docs) {
      if (s.impressions < opts.minImpressions) {
        belowThreshold++;
        continue;
      }
      if (s.expected === 0) continue;
      const coec = s.clicks / s.expected;
      grades.push({ query, docId, grade: opts.thresholds.filter((t) => coec >= t).length, coec, ...s });
    }
  }
  return { ctr, grades, belowThreshold, impressions: impressions.length };
}

/** The rater the click grades are written as; like an LLM rater, never merged into the scored grades unless named. */
export { CLICK_RATER } from '../judgments/merge';

/**
 * The grades of the queries that are in the judgments (matched by normal form), as the click rater's JSONL lines
 * (`{"qid", "docid", "grade", "rater": "clicks", "coec", "clicks", "expected", "impressions"}`), in query-id order.
 */
export function clickRatingLines(
  model: ClickModel,
  queries: ReadonlyMap<string, { id: string; text: string }>,
  rater: string,
): { text: string; graded: number; matchedQueries: number; unmatchedQueries: number } {
  const qidOf = new Map<string, string>();
  for (const q of queries.values()) if (!qidOf.has(normalizeQuery(q.text))) qidOf.set(normalizeQuery(q.text), q.id);
  const lines: { qid: string; line: string }[] = [];
  const matched = new Set<string>();
  const unmatched = new Set<string>();
  for (const g of model.grades) {
    const qid = qidOf.get(g.query);
    if (qid === undefined) {
      unmatched.add(g.query);
      continue;
    }
    matched.add(qid);
    const round = (x: number) => Math.round(x * 1e4) / 1e4;
    lines.push({
      qid,
      line: JSON.stringify({
        qid,
        docid: g.docId,
        grade: g.grade,
        rater,
        coec: round(g.coec),
        clicks: g.clicks,
        expected: round(g.expected),
        impressions: g.impressions,
      }),
    });
  }
  lines.sort((a, b) => (a.qid < b.qid ? -1 : a.qid > b.qid ? 1 : 0));
  return {
    text: lines.map((l) => l.line + '\n').join(''),
    graded: lines.length,
    matchedQueries: matched.size,
    unmatchedQueries: unmatched.size,
  };
}
