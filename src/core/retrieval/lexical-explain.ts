/**
 * Why one document has its lexical score: the BM25 terms MiniSearch summed for it, one by one. Mirrors MiniSearch 7's
 * `executeQuerySpec` / `termResults` / `calcBM25Score` (read from its private index state, as lexical.ts does for the
 * average lengths), so the parts add up to what `LexicalIndex.search` scores; test/unit/retrieval/explain.test.ts fails
 * should MiniSearch score differently.
 */
import type { LexicalIndex, LexicalQueryOptions } from './lexical';

/** One (field, query term, index term) of the sum. contribution = boost · weight · bm25 · coordination. */
export interface LexicalPart {
  field: string;
  /** The analysed query term. */
  queryTerm: string;
  /** The index term it matched: itself, or a prefix or fuzzy expansion of it. */
  term: string;
  match: 'exact' | 'prefix' | 'fuzzy';
  /** Expansion weight: 1 for the term itself; MiniSearch's prefix (0.375·len/(len+0.3·dist)) or fuzzy (0.45·len/(len+dist)). */
  weight: number;
  /** Term frequency in the field. */
  tf: number;
  /** The field's length as MiniSearch counts it: its distinct terms. */
  fieldLength: number;
  avgFieldLength: number;
  /** Documents whose field holds the term, and documents in the index. */
  df: number;
  docCount: number;
  /** ln(1 + (N − df + 0.5)/(df + 0.5)). */
  idf: number;
  /** 1 − b + b · fieldLength / avgFieldLength. */
  lengthNorm: number;
  /** idf · (d + tf·(k1+1) / (tf + k1·lengthNorm)). */
  bm25: number;
  boost: number;
  /** The coordination factor applied (the distinct query terms matched), 1 when coordination is off. */
  coordination: number;
  contribution: number;
}

export interface LexicalExplanation {
  parts: LexicalPart[];
  /** Σ contribution: the lexical score when the document is a match. */
  sum: number;
  /** Distinct query terms matched in a boosted field, and those not matched. */
  matchedTerms: string[];
  missingTerms: string[];
  combineWith: 'AND' | 'OR';
  /** Does it match at all (OR: one term; AND: every term)? */
  matched: boolean;
  coordination: number | null;
  bm25: { k1: number; b: number; d: number };
}

type FieldTermData = Map<number, Map<number, number>>;
interface MiniSearchState {
  _index: {
    get(term: string): FieldTermData | undefined;
    atPrefix(prefix: string): Iterable<[string, FieldTermData]>;
    fuzzyGet(term: string, maxDistance: number): Map<string, [FieldTermData, number]>;
  };
  _idToShortId: Map<string, number>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
}

// MiniSearch's defaults (defaultSearchOptions): the weights of expansions and the cap of a fractional fuzzy distance.
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;

/** Every BM25 term behind `docId`'s lexical score for `text` under `options` (boosts, scoring, AND/OR, coordination). */
export function explainLexical(
  index: LexicalIndex,
  text: string,
  docId: string,
  options: Omit<LexicalQueryOptions, 'depth' | 'filter'>,
): LexicalExplanation {
  const ms = index.miniSearchFor('Explaining a lexical score') as unknown as MiniSearchState;
  const { k1, b, d } = options.bm25;
  // Each query token is its own MiniSearch query; a repeated term is scored (and summed) again, as MiniSearch does.
  const queryTerms = index.analyzer.analyze(text);
  const distinct = [...new Set(queryTerms)];
  const short = ms._idToShortId.get(docId);
  const fields = index.fields.flatMap((field) => {
    const boost = options.boosts[field] ?? 0;
    return boost > 0 ? [{ field, boost }] : [];
  });
  const parts: LexicalPart[] = [];
  if (short !== undefined) {
    for (const queryTerm of queryTerms) {
      const expansions = expansionsOf(ms, queryTerm, options.prefix, options.fuzzy);
      for (const { field, boost } of fields) {
        const fieldId = ms._fieldIds[field];
        if (fieldId === undefined) throw new Error(`explain: MiniSearch does not index the field '${field}'`);
        const fieldLength = ms._fieldLength.get(short)?.[fieldId] ?? 0;
        // MiniSearch keeps an average per field once a document is indexed (this one is).
        const avgFieldLength = ms._avgFieldLength[fieldId]!;
        for (const e of expansions) {
          const postings = e.data.get(fieldId);
          const tf = postings?.get(short);
          if (!postings || tf === undefined) continue;
          const df = postings.size;
          const idf = Math.log(1 + (ms._documentCount - df + 0.5) / (df + 0.5));
          const lengthNorm = 1 - b + (b * fieldLength) / avgFieldLength;
          const bm25 = idf * (d + (tf * (k1 + 1)) / (tf + k1 * lengthNorm));
          parts.push({
            field,
            queryTerm,
            term: e.term,
            match: e.match,
            weight: e.weight,
            tf,
            fieldLength,
            avgFieldLength,
            df,
            docCount: ms._documentCount,
            idf,
            lengthNorm,
            bm25,
            boost,
            coordination: 1,
            contribution: 0,
          });
        }
      }
    }
  }
  const matchedTerms = distinct.filter((t) => parts.some((p) => p.queryTerm === t));
  const coordination = options.coordination ? matchedTerms.length : null;
  for (const p of parts) {
    p.coordination = coordination ?? 1;
    p.contribution = p.boost * p.weight * p.bm25 * p.coordination;
  }
  const matched = matchedTerms.length > 0 && (options.combineWith === 'OR' || matchedTerms.length === distinct.length);
  return {
    parts,
    sum: parts.reduce((s, p) => s + p.contribution, 0),
    matchedTerms,
    missingTerms: distinct.filter((t) => !matchedTerms.includes(t)),
    combineWith: options.combineWith,
    matched,
    coordination,
    bm25: { k1, b, d },
  };
}

/** The index terms one query term is scored on, with their weights (MiniSearch's executeQuerySpec). */
function expansionsOf(
  ms: MiniSearchState,
  term: string,
  prefix: boolean,
  fuzzy: number,
): Array<{ term: string; data: FieldTermData; match: LexicalPart['match']; weight: number }> {
  const out: Array<{ term: string; data: FieldTermData; match: LexicalPart['match']; weight: number }> = [];
  const own = ms._index.get(term);
  if (own) out.push({ term, data: own, match: 'exact', weight: 1 });
  const prefixed = new Set<string>();
  if (prefix) {
    for (const [t, data] of ms._index.atPrefix(term)) {
      const distance = t.length - term.length;
      if (!distance) continue;
      prefixed.add(t);
      out.push({ term: t, data, match: 'prefix', weight: (PREFIX_WEIGHT * t.length) / (t.length + 0.3 * distance) });
    }
  }
  if (fuzzy > 0) {
    const maxDistance = fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fuzzy)) : fuzzy;
    if (maxDistance) {
      for (const [t, [data, distance]] of ms._index.fuzzyGet(term, maxDistance)) {
        if (!distance || prefixed.has(t)) continue; // a prefix expansion is scored as one
        out.push({ term: t, data, match: 'fuzzy', weight: (FUZZY_WEIGHT * t.length) / (t.length + distance) });
      }
    }
  }
  return out;
}
