/**
 * What a judge reads: the passage of a document around the query's terms, with the places of those terms, found
 * the way the index finds them (the config's analyzer: case, stop words, stemming). The text stays plain text;
 * highlights are character ranges, so a view draws them as text nodes and <mark> elements, never as HTML.
 */
import type { Document } from '../corpus/document';
import type { Analyzer } from '../retrieval/analyzer';

export interface HighlightedText {
  text: string;
  /** [start, end) character ranges of query terms in `text`, in order, not overlapping. */
  marks: Array<[number, number]>;
  /** The text was cut before / after what is shown. */
  cutStart: boolean;
  cutEnd: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Ranges of the words of `text` whose index term is one of `terms`. */
export function termMarks(text: string, terms: ReadonlySet<string>, analyzer: Analyzer): Array<[number, number]> {
  const marks: Array<[number, number]> = [];
  if (terms.size === 0) return marks;
  for (const m of text.matchAll(WORD)) {
    const term = analyzer.processTerm(m[0]);
    if (term !== null && terms.has(term)) marks.push([m.index!, m.index! + m[0].length]);
  }
  return marks;
}

/**
 * The window of about `chars` characters of the document's body (whitespace collapsed) that holds the most
 * distinct query terms (then the most occurrences, then the earliest), cut at word boundaries; the whole body when
 * it is short. Without a match, the beginning.
 */
export function passageAround(
  doc: Pick<Document, 'title' | 'body'>,
  query: string,
  analyzer: Analyzer,
  chars = 700,
): { title: HighlightedText; passage: HighlightedText } {
  const terms = new Set(analyzer.analyze(query));
  const title = { text: doc.title, marks: termMarks(doc.title, terms, analyzer), cutStart: false, cutEnd: false };
  const body = doc.body.replace(/\s+/g, ' ').trim();
  const all = termMarks(body, terms, analyzer);
  if (body.length <= chars) return { title, passage: { text: body, marks: all, cutStart: false, cutEnd: false } };
  let start = 0;
  if (all.length > 0) {
    const termOf = (m: [number, number]) => analyzer.processTerm(body.slice(m[0], m[1]));
    let best = { distinct: -1, count: -1, at: 0 };
    // Windows start a little before a match, so the first term has some context.
    for (let i = 0; i < all.length && i < 2000; i++) {
      const at = Math.max(0, all[i]![0] - Math.floor(chars / 5));
      const inside = all.filter(([s, e]) => s >= at && e <= at + chars);
      const distinct = new Set(inside.map(termOf)).size;
      if (distinct > best.distinct || (distinct === best.distinct && inside.length > best.count))
        best = { distinct, count: inside.length, at };
    }
    start = best.at;
  }
  if (start > 0) {
    const space = body.indexOf(' ', start);
    start = space >= 0 && space < start + 40 ? space + 1 : start;
  }
  let end = Math.min(body.length, start + chars);
  if (end < body.length) {
    const space = body.lastIndexOf(' ', end);
    if (space > start) end = space;
  }
  const text = body.slice(start, end);
  const marks = all.filter(([s, e]) => s >= start && e <= end).map(([s, e]) => [s - start, e - start] as [number, number]);
  return { title, passage: { text, marks, cutStart: start > 0, cutEnd: end < body.length } };
}
