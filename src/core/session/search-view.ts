import type { Document } from '../corpus/document';
import type { Principal } from '../acl/policy';
import type { Analyzer } from '../retrieval/analyzer';
import type { Engine, SearchResult, Suggestion } from '../retrieval/pipeline';
import type { RankedDoc } from '../run/types';

/**
 * What a user sees for one query, every part filtered by the same access predicate: the page of results
 * (with per-stage ranks and scores, title and snippet), the hit count and the tag facets. `matches` (the
 * documents behind `total` and the facets) is kept for the access checker and is not meant for display.
 */
export interface SearchView {
  total: number;
  results: SearchViewItem[];
  facets: { tags: Record<string, number> };
  notes: string[];
  matches: string[];
  latencyMs: Record<string, number>;
}

export interface SearchViewItem {
  id: string;
  score: number;
  title: string;
  stages: NonNullable<RankedDoc['stages']>;
  snippet?: string;
}

export interface SearchViewOptions {
  /** The principal's predicate; none = unrestricted. */
  filter?: (docId: string) => boolean;
  /** Who searches (a remote engine fills its access filter from it). */
  principal?: Principal;
  pageSize: number;
  /** Looks up a result's document (title, body, tags). */
  docs: (id: string) => Document | undefined;
  /** Finds the query terms in the snippet text the way the index does. */
  analyzer: Analyzer;
  /** Snippet length in characters (default 160; 0 = no snippets). */
  snippetChars?: number;
  signal?: AbortSignal;
}

/** Runs the query with the predicate inside retrieval and assembles everything the user sees from permitted documents only. */
export async function buildSearchView(engine: Engine, text: string, opts: SearchViewOptions): Promise<SearchView> {
  const r = await engine.search(text, {
    filter: opts.filter,
    principal: opts.principal,
    pageSize: opts.pageSize,
    collectMatches: true,
    fetchText: true,
    signal: opts.signal,
  });
  return searchViewOf(r, text, opts);
}

/** The view of one search result (run with `collectMatches` and `fetchText`): titles, snippets and facets. */
export function searchViewOf(
  r: SearchResult,
  text: string,
  opts: Pick<SearchViewOptions, 'docs' | 'analyzer' | 'snippetChars'>,
): SearchView {
  const matches = r.matches ?? r.docs.map((d) => d.id);
  const snippetChars = opts.snippetChars ?? 160;
  const results = r.docs.map((d): SearchViewItem => {
    // A remote engine's own copy of the text is what its users see; the workspace's copy otherwise.
    const doc = r.texts?.get(d.id) ?? opts.docs(d.id);
    const item: SearchViewItem = { id: d.id, score: d.score, title: doc?.title ?? '', stages: d.stages ?? {} };
    if (doc && snippetChars > 0) item.snippet = makeSnippet(doc, text, opts.analyzer, snippetChars);
    return item;
  });
  return {
    total: r.total,
    results,
    facets: { tags: tagCounts(matches, opts.docs) },
    notes: r.notes,
    matches,
    latencyMs: { ...r.latencyMs },
  };
}

/** Suggestions for a prefix from the principal's permitted documents; [] when the engine has no lexical stage. */
export function suggestFor(engine: Engine, prefix: string, opts: { filter?: (docId: string) => boolean; limit?: number }): Suggestion[] {
  return engine.suggest?.(prefix, { filter: opts.filter, limit: opts.limit }) ?? [];
}

/** A document's tags: `meta.tags` as a list, or a comma-separated string. */
export function tagsOf(meta: Record<string, unknown>): string[] {
  const t = meta.tags;
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string' && x !== '');
  if (typeof t === 'string')
    return t
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  return [];
}

export function tagCounts(ids: Iterable<string>, docs: (id: string) => Pick<Document, 'meta'> | undefined): Record<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const doc = docs(id);
    if (!doc) continue;
    for (const tag of new Set(tagsOf(doc.meta))) counts.set(tag, (counts.get(tag) ?? 0) + 1);
  }
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return Object.fromEntries(sorted);
}

/** The text a snippet is cut from: the body, or the title when the body is empty. Whitespace collapsed. */
export function snippetSource(doc: Pick<Document, 'title' | 'body'>): string {
  return (doc.body.trim() ? doc.body : doc.title).replace(/\s+/g, ' ').trim();
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * A short excerpt of the document around the first word whose index term is a query term (else around
 * the first word that starts with a query word, for half-typed words; else the beginning). Cut at word
 * boundaries; "…" marks a cut.
 */
export function makeSnippet(doc: Pick<Document, 'title' | 'body'>, query: string, analyzer: Analyzer, chars = 160): string {
  const text = snippetSource(doc);
  if (text.length <= chars) return text;
  const queryTerms = new Set(analyzer.analyze(query));
  const rawWords = analyzer.tokenize(query.toLowerCase()).filter((w) => w.length >= 2);
  let at = -1;
  let prefixAt = -1;
  for (const m of text.matchAll(WORD)) {
    const term = analyzer.processTerm(m[0]);
    if (term !== null && queryTerms.has(term)) {
      at = m.index!;
      break;
    }
    if (prefixAt < 0 && rawWords.some((w) => m[0].toLowerCase().startsWith(w))) prefixAt = m.index!;
  }
  if (at < 0) at = Math.max(prefixAt, 0);
  let start = Math.max(0, at - Math.floor(chars / 3));
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < at ? space + 1 : at;
  }
  let end = Math.min(text.length, start + chars);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > at) end = space;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
