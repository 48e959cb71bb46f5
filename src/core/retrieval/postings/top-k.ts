import type { DocFilter } from '../doc-filter';
import { TopK, type ScoredId } from '../ranking';
import type { Postings } from './postings';

/** MiniSearch's default weights of prefix and fuzzy expansions (its `defaultSearchOptions`), and fuzzy's cap. */
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const MAX_FUZZY = 6;
/**
 * Pruning compares upper bounds with the k-th score. Bounds and scores are summed in different orders (and the
 * exact score goes through MiniSearch's ×q/q), so they may differ in the last bits: a document is skipped only
 * when its bound is below the threshold by more than this relative margin, far above any rounding.
 */
const MARGIN = 1 + 1e-9;

export interface TopKQuery {
  /** Analysed query terms in query order, repeats kept (MiniSearch scores a repeated term once per occurrence). */
  terms: string[];
  /** [field number, boost] of the searched fields (boost > 0), in index field order. */
  fields: Array<[number, number]>;
  /** MiniSearch's BM25+ parameters (k = k1). */
  bm25: { k: number; b: number; d: number };
  prefix: boolean;
  fuzzy: number;
  combineWith: 'AND' | 'OR';
  coordination: boolean;
  depth: number;
  filter?: DocFilter;
}

/** MiniSearch's BM25 idf of a term in `df` of `documentCount` documents (the one expression every scorer uses). */
export function idfOf(documentCount: number, df: number): number {
  return Math.log(1 + (documentCount - df + 0.5) / (df + 0.5));
}

/** One posting list in play: a (field, query-term occurrence, vocabulary expansion) with its weight and bound. */
interface List {
  field: number;
  norm: Float64Array;
  /** Term weight (1, or MiniSearch's prefix / fuzzy weight) and idf. */
  weight: number;
  idf: number;
  boost: number;
  /** Distinct query term number (for the quality: distinct terms matched). */
  source: number;
  start: number;
  end: number;
  /** Upper bound of boost · weight · bm25 over the list. */
  ub: number;
}

/** Occurrence group: the lists of one query-term occurrence in one field (canonical order: MiniSearch's). */
interface Group {
  source: number;
  from: number;
  to: number;
}

/**
 * Exact top-`depth` BM25 over the postings, with MaxScore pruning (Turtle & Flood 1995): lists are ordered by
 * upper bound; the lowest-bound lists whose bounds add up to less than the current k-th score cannot bring a
 * document into the top k on their own, so candidates come only from the others ("essential" lists) and the rest
 * are probed (galloping) for candidates that might still make it. Every candidate's score is computed exactly as
 * the exhaustive path does (MiniSearch's per-field search, then `recombine`): same terms, same expansions and
 * weights, same floating-point operations in the same order, so scores are bit-identical, and ties fall to
 * compareScored. The total (matching, permitted documents) is counted apart over every list, without scoring.
 */
export function topKSearch(p: Postings, q: TopKQuery): { hits: ScoredId[]; total: number } {
  const distinct = [...new Set(q.terms)];
  const termCount = distinct.length;
  if (termCount === 0 || q.fields.length === 0) return { hits: [], total: 0 };
  const sourceOf = new Map(distinct.map((t, i) => [t, i]));
  const { k, b, d } = q.bm25;
  const k1p1 = k + 1;

  // Lists in canonical order: field, then query-term occurrence, then expansion in MiniSearch's order.
  const expansions = new Map<string, Array<[number, number]>>(); // term -> [term number, weight]
  const lists: List[] = [];
  const groups: Group[] = [];
  const fieldGroups: Array<{ boost: number; from: number; to: number }> = [];
  for (const [field, boost] of q.fields) {
    const norm = p.norms(field, k, b);
    const g0 = groups.length;
    for (const term of q.terms) {
      let exp = expansions.get(term);
      if (!exp) expansions.set(term, (exp = expand(p, term, q.prefix, q.fuzzy)));
      const from = lists.length;
      for (const [t, weight] of exp) {
        // t is a term number and field < fieldCount: l is a list, so start / end have it.
        const l = t * p.fieldCount + field;
        const start = p.start[l]!;
        const end = p.end[l]!;
        if (end === start) continue;
        const df = end - start;
        const idf = idfOf(p.documentCount, df);
        const bound = weight * (idf * p.listMax(l, norm, k, b, d));
        lists.push({ field, norm, weight, idf, boost, source: sourceOf.get(term)!, start, end, ub: boost * bound });
      }
      if (lists.length > from) groups.push({ source: sourceOf.get(term)!, from, to: lists.length });
    }
    if (groups.length > g0) fieldGroups.push({ boost, from: g0, to: groups.length });
  }

  const filter = q.filter;
  const bits = filter?.permitted ? p.bitmap(filter.permitted) : undefined;
  const permittedAt = (n: number): boolean => (bits ? bits[n] === 1 : filter ? filter(p.ids[n]!) : true);
  const and = q.combineWith === 'AND';
  const total = countMatches(p, lists, termCount, and, permittedAt);
  if (q.depth <= 0 || total === 0) return { hits: [], total };

  const n = lists.length;
  const docs = p.docs;
  const tfs = p.tfs;
  const pos = Int32Array.from(lists, (l) => l.start);
  // Ascending bound; prefix[j] bounds the score of a document found only in byBound[0..j).
  // Below, byBound holds the n list numbers; pos has one position per list, and lists[l].start ≤ pos[l] ≤
  // lists[l].end ≤ docs.length, so docs and tfs are read only at pos[l] < lists[l].end; a document number indexes the
  // per-document arrays (norm, ids, bits: docSpace long); groups and fieldGroups hold ranges of lists and groups.
  const byBound = Array.from({ length: n }, (_, i) => i).sort((x, y) => lists[x]!.ub - lists[y]!.ub);
  // With coordination a document's score is multiplied by the distinct terms it matched: at most those of the lists.
  const prefix = new Float64Array(n + 1);
  const ubSum = new Float64Array(n + 1);
  const seenSources = new Set<number>();
  for (let j = 0; j < n; j++) {
    const list = lists[byBound[j]!]!;
    const sum = ubSum[j]! + list.ub; // ubSum and prefix have n + 1 entries
    ubSum[j + 1] = sum;
    seenSources.add(list.source);
    prefix[j + 1] = q.coordination ? sum * seenSources.size : sum;
  }
  const coordinationCap = q.coordination ? termCount : 1;

  const heap = new TopK(q.depth);
  let threshold = -Infinity;
  let firstEssential = 0;
  // Per candidate: which distinct terms matched in the current field / in any searched field (stamps, not clears).
  const fieldStamp = new Uint32Array(termCount);
  const anyStamp = new Uint32Array(termCount);
  let stamp = 0;
  let candidate = 0;

  for (;;) {
    let doc = 0x7fffffff;
    for (let j = firstEssential; j < n; j++) {
      const l = byBound[j]!;
      const at = pos[l]!;
      if (at < lists[l]!.end && docs[at]! < doc) doc = docs[at]!;
    }
    if (doc === 0x7fffffff) break;

    let worth = true;
    if (threshold > -Infinity) {
      let bound = 0;
      for (let j = firstEssential; j < n; j++) {
        const list = lists[byBound[j]!]!;
        const at = pos[byBound[j]!]!;
        if (at < list.end && docs[at] === doc) {
          const tf = tfs[at]!;
          bound += list.boost * (list.weight * (list.idf * (d + (tf * k1p1) / (tf + list.norm[doc]!))));
        }
      }
      bound = (bound + ubSum[firstEssential]!) * coordinationCap;
      worth = bound * MARGIN >= threshold;
    }
    if (worth && permittedAt(doc)) {
      // Bring every list to `doc` (essential ones are there or past it; the others gallop).
      for (let j = 0; j < firstEssential; j++) {
        const l = byBound[j]!;
        pos[l] = gallop(docs, pos[l]!, lists[l]!.end, doc);
      }
      // Exact score, in MiniSearch's order: per field Σ_occurrences (Σ_expansions w·bm25), ×q/q; then Σ boost·raw.
      let score = 0;
      candidate++;
      let quality = 0;
      for (const fg of fieldGroups) {
        stamp++;
        let fieldSum = 0;
        let fieldQuality = 0;
        for (let g = fg.from; g < fg.to; g++) {
          const group = groups[g]!;
          let termSum = 0;
          let matched = false;
          for (let i = group.from; i < group.to; i++) {
            const at = pos[i]!;
            if (at < lists[i]!.end && docs[at] === doc) {
              const list = lists[i]!;
              const tf = tfs[at]!;
              termSum += list.weight * (list.idf * (d + (tf * k1p1) / (tf + list.norm[doc]!)));
              matched = true;
            }
          }
          if (!matched) continue;
          fieldSum += termSum;
          if (fieldStamp[group.source] !== stamp) {
            fieldStamp[group.source] = stamp;
            fieldQuality++;
          }
          if (anyStamp[group.source] !== candidate) {
            anyStamp[group.source] = candidate;
            quality++;
          }
        }
        if (fieldQuality > 0) score += fg.boost * ((fieldSum * fieldQuality) / fieldQuality);
      }
      if (quality > 0 && (!and || quality === termCount)) {
        heap.offer(p.ids[doc]!, q.coordination ? score * quality : score);
        if (heap.full) {
          threshold = heap.worstScore;
          while (firstEssential < n && prefix[firstEssential + 1]! * MARGIN < threshold) firstEssential++;
        }
      }
    }
    // Past `doc` on every essential list.
    for (let j = firstEssential; j < n; j++) {
      const l = byBound[j]!;
      if (pos[l]! < lists[l]!.end && docs[pos[l]!] === doc) pos[l]!++;
    }
  }
  return { hits: heap.sorted(), total };
}

/**
 * A query term's vocabulary expansions, [term number, weight], in the order MiniSearch's `executeQuerySpec`
 * visits them: the term itself (weight 1), prefix completions, then fuzzy neighbours not already prefix matches.
 * Also read by the tuner (tuning/tuner.ts), which re-scores a query's candidates under other k1, b and d.
 */
export function expand(p: Postings, term: string, prefix: boolean, fuzzy: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  // A vocabulary that is also the term map (built postings) gives each expansion's number as its value.
  const numberOf = (t: string, value: unknown): number =>
    p.vocabulary === (p.termNumbers as unknown) ? (value as number) : p.termNumbers.get(t)!;
  const exact = p.termNumbers.get(term);
  if (exact !== undefined) out.push([exact, 1]);
  const prefixed = new Set<string>();
  if (prefix) {
    for (const [t, value] of p.vocabulary.atPrefix(term)) {
      const distance = t.length - term.length;
      if (!distance) continue;
      prefixed.add(t);
      out.push([numberOf(t, value), (PREFIX_WEIGHT * t.length) / (t.length + 0.3 * distance)]);
    }
  }
  if (fuzzy > 0) {
    const maxDistance = fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fuzzy)) : fuzzy;
    if (maxDistance) {
      for (const [t, [value, distance]] of p.vocabulary.fuzzyGet(term, maxDistance)) {
        if (!distance || prefixed.has(t)) continue;
        out.push([numberOf(t, value), (FUZZY_WEIGHT * t.length) / (t.length + distance)]);
      }
    }
  }
  return out;
}

/** First position in [from, end) whose document is ≥ target (exponential then binary search). */
function gallop(docs: Int32Array, from: number, end: number, target: number): number {
  // end ≤ docs.length; every read is at a position below end.
  if (from >= end || docs[from]! >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < end && docs[hi]! < target) {
    lo = hi;
    step <<= 1;
    hi = from + step;
  }
  if (hi > end) hi = end;
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid]! < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * Matching, permitted documents over every list (no scoring): OR = in any list; AND = every distinct query term
 * matched in some searched field (lists visited term by term, a per-document count of terms seen).
 */
function countMatches(p: Postings, lists: List[], termCount: number, and: boolean, permittedAt: (n: number) => boolean): number {
  const docs = p.docs;
  let total = 0;
  // Positions stay within a list (end ≤ docs.length); document numbers are below docSpace, the length of seen,
  // count and last.
  if (!and) {
    const seen = new Uint8Array(p.docSpace);
    for (const l of lists) {
      for (let i = l.start; i < l.end; i++) {
        const n = docs[i]!;
        if (seen[n]) continue;
        seen[n] = 1;
        if (permittedAt(n)) total++;
      }
    }
    return total;
  }
  const count = new Uint16Array(p.docSpace);
  const last = new Int32Array(p.docSpace).fill(-1);
  for (let s = 0; s < termCount; s++) {
    for (const l of lists) {
      if (l.source !== s) continue;
      for (let i = l.start; i < l.end; i++) {
        const n = docs[i]!;
        if (last[n] === s) continue;
        last[n] = s;
        if (++count[n]! === termCount && permittedAt(n)) total++;
      }
    }
  }
  return total;
}
