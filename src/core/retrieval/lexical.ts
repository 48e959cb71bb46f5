import MiniSearch from 'minisearch';
import type { Document } from '../corpus/document';
import type { Bm25Params } from '../config/types';
import { type Slicer, type Steps, runSliced, runSync } from '../util/cooperative';
import { compareIdBytes } from '../util/id-order';
import type { Analyzer } from './analyzer';
import { buildPostingsSteps } from './postings/build';
import { Postings } from './postings/postings';
import { topKSearch } from './postings/top-k';
import { compareScored, fieldText, type ScoredId } from './ranking';

/** Settings that change per-field BM25 scores (boosts and combineWith do not). */
export interface LexicalScoringSettings {
  bm25: Bm25Params;
  prefix: boolean;
  fuzzy: number;
}

export interface LexicalQueryOptions extends LexicalScoringSettings {
  /** Field -> boost; fields with boost 0 (or absent) are not searched. */
  boosts: Record<string, number>;
  combineWith: 'AND' | 'OR';
  /** Multiply by the number of distinct query terms matched, as MiniSearch does (default false: plain BM25). */
  coordination?: boolean;
  depth: number;
  /** Pre-filter: only documents for which this returns true are scored and counted. */
  filter?: (docId: string) => boolean;
}

export interface LexicalResult {
  hits: ScoredId[];
  /** Matching (and permitted) documents, before the depth cut. */
  total: number;
}

/**
 * Per-field BM25 scores of every candidate of one query, independent of boosts.
 * MiniSearch scores a document as quality · Σ_terms Σ_fields boost_f · bm25(term, f), where quality is the number
 * of distinct query terms matched in the searched fields. We keep S_f = Σ_terms bm25(term, f) and which query
 * terms matched in f, so any boost vector (and AND/OR) is a cheap recombination.
 */
export interface FieldScores {
  docIds: string[];
  /** Distinct query terms (after analysis). */
  termCount: number;
  /** Words of 32 bits per document in the term masks. */
  maskWords: number;
  perField: Map<string, { raw: Float64Array; mask: Uint32Array }>;
}

const QUERY_CACHE_LIMIT = 4000;
/**
 * `search` answers a query's first passes with pruned top-k and fills the field-score cache on the pass after
 * these: from then on (a boost sweep, a third config) every answer is a recombination. Measured
 * (bench/lexical-topk.mts, docs/benchmarks.md): the exhaustive pass that fills the cache costs ~5 pruned searches
 * at 10k and ~20 at 50k, a recombination a third (10k) to a tenth (50k) of one; caching on the first repeat would
 * make a plain two-config compare slower, and only sweeps of more than ~10 (10k) to ~25 (50k) boost vectors win.
 */
const PRUNED_PASSES_BEFORE_CACHING = 2;

/**
 * What a postings-only index (LexicalIndex.buildPostingsOnly: no MiniSearch, for large corpora) cannot do, thrown with
 * the feature that asked (explain, suggestions, incremental updates, cached field scores).
 */
export class NeedsMiniSearch extends Error {
  constructor(what: string, documentCount: number) {
    super(
      `${what} needs the full MiniSearch index, and the lexical index of this corpus (${documentCount.toLocaleString('en')} documents) ` +
        'was built without it (postings only, to fit in memory): searches and evaluations are exact, but explanations, ' +
        'suggestions, incremental updates and boost sweeps are not available at this size',
    );
  }
}

export class LexicalIndex {
  private readonly ms?: MiniSearch<Document>;
  private readonly cache = new Map<string, FieldScores>();
  /** Pruned passes so far per uncached (query, scoring settings) key (bounded like the cache). */
  private readonly passes = new Map<string, number>();
  /** Compact postings for pruned top-k: a copy of MiniSearch's (built on first use, dropped on every change), or the index itself when postings only. */
  private compact?: Postings;
  /** A postings-only index's ids, for `has` (built on first use). */
  private idSet?: Set<string>;

  /** `source`: a loaded MiniSearch index, postings built without one (postings only), or nothing (a new, empty index). */
  constructor(
    readonly fields: string[],
    readonly analyzer: Analyzer,
    source?: MiniSearch<Document> | Postings,
  ) {
    if (source instanceof Postings) this.compact = source;
    else {
      this.ms = source ?? new MiniSearch<Document>(LexicalIndex.miniSearchOptions(fields, analyzer));
      if (source) this.exactAverageLengths();
    }
  }

  /** The MiniSearch index of record; a postings-only index throws NeedsMiniSearch naming `what` wanted it. */
  miniSearchFor(what: string): MiniSearch<Document> {
    if (!this.ms) throw new NeedsMiniSearch(what, this.documentCount);
    return this.ms;
  }

  get miniSearch(): MiniSearch<Document> {
    return this.miniSearchFor('This use of the lexical index');
  }

  /** Built without MiniSearch (LexicalIndex.buildPostingsOnly)? */
  get postingsOnly(): boolean {
    return !this.ms;
  }

  /** The MiniSearch options an index with these fields and analyzer is built (and loaded) with. */
  static miniSearchOptions(fields: string[], analyzer: Analyzer) {
    return {
      fields,
      idField: 'id',
      storeFields: [] as string[],
      extractField: (doc: Document, field: string) => (field === 'id' ? doc.id : fieldText(doc, field)),
      tokenize: analyzer.tokenize,
      processTerm: (t: string) => analyzer.processTerm(t),
      // Discarded documents are skipped at search time anyway; background vacuuming would only add timers.
      autoVacuum: false as const,
    };
  }

  static build(docs: readonly Document[], fields: string[], analyzer: Analyzer): LexicalIndex {
    return runSync(LexicalIndex.buildSteps(docs, fields, analyzer));
  }

  /** `build` pausing between documents (see util/cooperative); stops with the slicer's abort reason. */
  static buildSliced(docs: readonly Document[], fields: string[], analyzer: Analyzer, slicer: Slicer): Promise<LexicalIndex> {
    return runSliced(LexicalIndex.buildSteps(docs, fields, analyzer), slicer);
  }

  /**
   * An index of the compact postings alone, built straight from the analyzer (postings/build.ts): a fraction of
   * MiniSearch's memory and build time, the same search answers; what needs MiniSearch throws NeedsMiniSearch.
   */
  static buildPostingsOnly(docs: readonly Document[], fields: string[], analyzer: Analyzer): LexicalIndex {
    return new LexicalIndex(fields, analyzer, runSync(buildPostingsSteps(docs, fields, analyzer)));
  }

  static async buildPostingsOnlySliced(
    docs: readonly Document[],
    fields: string[],
    analyzer: Analyzer,
    slicer: Slicer,
  ): Promise<LexicalIndex> {
    return new LexicalIndex(fields, analyzer, await runSliced(buildPostingsSteps(docs, fields, analyzer), slicer));
  }

  private static *buildSteps(docs: readonly Document[], fields: string[], analyzer: Analyzer): Steps<LexicalIndex> {
    const index = new LexicalIndex(fields, analyzer);
    for (const [i, doc] of docs.entries()) {
      index.miniSearch.add(doc);
      yield i + 1;
    }
    index.exactAverageLengths();
    return index;
  }

  get documentCount(): number {
    return this.ms ? this.ms.documentCount : this.compact!.documentCount;
  }

  has(id: string): boolean {
    if (this.ms) return this.ms.has(id);
    return (this.idSet ??= new Set(this.compact!.ids.filter((x) => x !== undefined))).has(id);
  }

  /**
   * Adds new documents, replaces documents whose id is already indexed, removes `deleteIds`; no rebuild.
   * Ends with a vacuum: MiniSearch drops postings of discarded documents lazily *while* scoring, so until then
   * document frequencies (and scores) would differ from a fresh index.
   */
  async update(upserts: readonly Document[], deleteIds: readonly string[] = []): Promise<void> {
    this.miniSearchFor('An incremental update of the lexical index');
    for (const id of deleteIds) if (this.miniSearch.has(id)) this.miniSearch.discard(id);
    for (const doc of upserts) {
      if (this.miniSearch.has(doc.id)) this.miniSearch.discard(doc.id);
      this.miniSearch.add(doc);
    }
    this.cache.clear(); // document frequencies and lengths changed
    this.passes.clear();
    this.compact = undefined;
    if (this.miniSearch.dirtCount > 0) await this.miniSearch.vacuum({ batchSize: 100_000, batchWait: 0 });
    this.exactAverageLengths();
  }

  /**
   * MiniSearch keeps each field's average length (BM25's avgdl) as a running mean, updated on every add and
   * removal, so an index updated in place ends a few ulps away from a fresh build of the same documents, and so
   * do its scores. Set to the exact mean (an integer sum over the count), the average depends only on which
   * documents are indexed: an updated, a loaded and a fresh index score identically. (Private MiniSearch 7 state;
   * test/unit/retrieval/reproducible.test.ts fails should it change.)
   */
  private exactAverageLengths(): void {
    const ms = this.ms as unknown as { _fieldLength: Map<number, number[]>; _avgFieldLength: number[]; _documentCount: number };
    const sums = this.fields.map(() => 0);
    for (const lengths of ms._fieldLength.values()) for (let f = 0; f < sums.length; f++) sums[f]! += lengths[f] ?? 0; // f < sums.length
    sums.forEach((sum, f) => (ms._avgFieldLength[f] = ms._documentCount > 0 ? sum / ms._documentCount : 0));
  }

  /** Are the per-field scores of this query under these settings cached (fieldScores will not search)? */
  hasFieldScores(query: string, settings: LexicalScoringSettings): boolean {
    return this.cache.has(scoresKey(query, settings));
  }

  /** The compact postings (built from MiniSearch's index on first use after a build, load or update). */
  postings(): Postings {
    return (this.compact ??= Postings.fromMiniSearch(this.miniSearch as MiniSearch<never>, this.fields));
  }

  /** Per-field scores for a query, computed once per (query, scoring settings) and then reused. */
  fieldScores(query: string, settings: LexicalScoringSettings): FieldScores {
    const key = scoresKey(query, settings);
    const hit = this.cache.get(key);
    if (hit) {
      // refresh LRU position
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    this.miniSearchFor('Per-field scores (a boost sweep or tuning)');
    const scores = this.computeFieldScores(query, settings);
    if (this.cache.size >= QUERY_CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, scores);
    return scores;
  }

  private computeFieldScores(query: string, settings: LexicalScoringSettings): FieldScores {
    const terms = [...new Set(this.analyzer.analyze(query))];
    const termIndex = new Map(terms.map((t, i) => [t, i]));
    const maskWords = Math.max(1, Math.ceil(terms.length / 32));
    const slot = new Map<string, number>();
    const docIds: string[] = [];
    const fieldHits: Array<{ field: string; hits: Array<{ slot: number; raw: number; terms: string[] }> }> = [];
    for (const field of this.fields) {
      const results =
        terms.length === 0
          ? []
          : this.miniSearch.search(query, {
              fields: [field],
              combineWith: 'OR',
              bm25: { k: settings.bm25.k1, b: settings.bm25.b, d: settings.bm25.d },
              prefix: settings.prefix,
              fuzzy: settings.fuzzy > 0 ? settings.fuzzy : false,
            });
      const hits = results.map((r) => {
        const id = r.id as string; // MiniSearch types ids as any; ours are strings
        let s = slot.get(id);
        if (s === undefined) {
          s = docIds.length;
          slot.set(id, s);
          docIds.push(id);
        }
        // MiniSearch multiplied by the number of query terms matched in this field; undo it.
        return { slot: s, raw: r.score / Math.max(1, r.queryTerms.length), terms: r.queryTerms };
      });
      fieldHits.push({ field, hits });
    }
    const perField = new Map<string, { raw: Float64Array; mask: Uint32Array }>();
    for (const { field, hits } of fieldHits) {
      const raw = new Float64Array(docIds.length);
      const mask = new Uint32Array(docIds.length * maskWords);
      for (const h of hits) {
        raw[h.slot] = h.raw;
        for (const t of h.terms) {
          const i = termIndex.get(t);
          // slot < docIds.length and i < terms.length ≤ 32 · maskWords: the word is in mask.
          if (i !== undefined) mask[h.slot * maskWords + (i >>> 5)]! |= 1 << (i & 31);
        }
      }
      perField.set(field, { raw, mask });
    }
    return { docIds, termCount: terms.length, maskWords, perField };
  }

  /**
   * Autocomplete with MiniSearch's autoSuggest: the last word is a prefix, words are ANDed, and `filter` is
   * applied to the matching documents, so suggestions are built only from permitted documents. autoSuggest
   * joins *every* term a document matched (for "kopi g": "kopi gram gayo gula ..."), so its groups are split
   * into one suggestion per completion of the last word: the earlier words plus that completion, scored by the
   * sum over the groups that contain it. As a second guard each suggestion's exact terms are searched again
   * (AND, filtered) and it is dropped unless one permitted document contains them all.
   */
  suggest(
    prefix: string,
    options: { filter?: (docId: string) => boolean; limit?: number; fuzzy?: number } = {},
  ): Array<{ suggestion: string; terms: string[]; score: number }> {
    this.miniSearchFor('Suggestions');
    const limit = options.limit ?? 10;
    const filter = options.filter;
    const tokens = this.analyzer.tokenize(prefix);
    const lastRaw = tokens[tokens.length - 1];
    if (lastRaw === undefined) return []; // no token
    const last = (this.analyzer.processTerm(lastRaw) ?? lastRaw).toLowerCase();
    const earlier = [...new Set(this.analyzer.analyze(tokens.slice(0, -1).join(' ')))];
    const raw = this.miniSearch.autoSuggest(prefix, {
      fuzzy: options.fuzzy && options.fuzzy > 0 ? options.fuzzy : false,
      filter: filter ? (r) => filter(r.id as string) : undefined,
    });
    const merged = new Map<string, { terms: string[]; score: number }>();
    for (const group of raw) {
      const completions = group.terms.filter((t) => t.startsWith(last) && !earlier.includes(t));
      if (completions.length === 0 && group.terms.includes(last)) completions.push(last);
      for (const c of completions) {
        const terms = [...earlier.filter((t) => group.terms.includes(t)), c];
        const key = terms.join(' ');
        const m = merged.get(key);
        if (m) m.score += group.score;
        else merged.set(key, { terms, score: group.score });
      }
    }
    const ranked = [...merged].sort((a, b) => b[1].score - a[1].score || (a[0] < b[0] ? -1 : 1));
    const out: Array<{ suggestion: string; terms: string[]; score: number }> = [];
    for (const [suggestion, { terms, score }] of ranked) {
      if (out.length >= limit) break;
      if (!this.termsInPermittedDocument(terms, filter)) continue;
      out.push({ suggestion, terms, score });
    }
    return out;
  }

  /** Does one document that `filter` accepts contain every one of these index terms (as indexed, no prefix/fuzzy)? */
  termsInPermittedDocument(terms: string[], filter?: (docId: string) => boolean): boolean {
    if (terms.length === 0) return false;
    const hits = this.miniSearch.search(
      { queries: terms, combineWith: 'AND' },
      {
        prefix: false,
        fuzzy: false,
        // Index terms are already processed; processing them again (e.g. stemming a stem) could change them.
        processTerm: (t: string) => t,
        tokenize: (t: string) => [t],
        filter: filter ? (r) => filter(r.id as string) : undefined,
      },
    );
    return hits.length > 0;
  }

  /**
   * BM25 search with the given boosts: a recombination of the query's per-field scores when they are cached, else
   * pruned top-k over the compact postings; a query searched again and again (other boosts, other configs) gets its
   * field scores cached (PRUNED_PASSES_BEFORE_CACHING). Same hits, scores and totals either way.
   */
  search(query: string, options: LexicalQueryOptions): LexicalResult {
    if (!this.ms) return this.topK(query, options); // no field scores to cache: every pass is pruned (same answers)
    const key = scoresKey(query, options);
    if (this.cache.has(key)) return recombine(this.fieldScores(query, options), options);
    if (options.depth <= 0) return this.topK(query, options); // a count (the step's permitted total) is not a pass
    const passes = this.passes.get(key) ?? 0;
    if (passes >= PRUNED_PASSES_BEFORE_CACHING) {
      this.passes.delete(key);
      return recombine(this.fieldScores(query, options), options);
    }
    if (this.passes.size >= QUERY_CACHE_LIMIT) this.passes.delete(this.passes.keys().next().value as string);
    this.passes.set(key, passes + 1);
    return this.topK(query, options);
  }

  /** Exact top-`depth` by MaxScore over the compact postings (postings/top-k.ts); the cache is not used. */
  topK(query: string, options: LexicalQueryOptions): LexicalResult {
    const fields: Array<[number, number]> = [];
    this.fields.forEach((f, i) => {
      const boost = options.boosts[f] ?? 0;
      if (boost > 0) fields.push([i, boost]);
    });
    return topKSearch(this.postings(), {
      terms: this.analyzer.analyze(query),
      fields,
      bm25: { k: options.bm25.k1, b: options.bm25.b, d: options.bm25.d },
      prefix: options.prefix,
      fuzzy: options.fuzzy,
      combineWith: options.combineWith,
      coordination: !!options.coordination,
      depth: options.depth,
      filter: options.filter,
    });
  }
}

function scoresKey(query: string, settings: LexicalScoringSettings): string {
  return `${settings.bm25.k1},${settings.bm25.b},${settings.bm25.d},${settings.prefix},${settings.fuzzy}\u0000${query}`;
}

/**
 * Σ_f boost_f · S_f(doc), AND/OR, filtered, top depth; with `coordination`, × the distinct query terms matched in
 * the boosted fields, which reproduces MiniSearch's own boosted search exactly.
 * A sweep recombines the same scores hundreds of times, so this allocates nothing per candidate: the number of query
 * terms each candidate matches depends only on which fields are searched and is counted once per field set, and only
 * the candidates that can be in the top `depth` become objects and are sorted.
 */
export function recombine(scores: FieldScores, options: RecombineOptions): LexicalResult {
  const { docIds } = scores;
  const depth = Math.ceil(Math.max(0, options.depth));
  // Taken, not shared, while in use: a filter that itself recombined would get buffers of its own.
  const buffers = takeBuffers(docIds.length);
  const { slots, scores: kept } = buffers;
  const total = scoreCandidates(scores, options, slots, kept);
  // Long queries match most of the corpus: only the candidates scoring at least the depth-th best score are sorted
  // (those above it, and the ties at it, which compareScored orders by id).
  const floor = depthFloor(buffers, total, depth);
  const hits: ScoredId[] = [];
  // j < total ≤ the buffers' length; a slot is a candidate (below docIds.length).
  if (depth > 0) for (let j = 0; j < total; j++) if (kept[j]! >= floor) hits.push({ id: docIds[slots[j]!]!, score: kept[j]! });
  spare = buffers;
  hits.sort(compareScored);
  if (hits.length > depth) hits.length = depth;
  return { hits, total };
}

export type RecombineOptions = Pick<LexicalQueryOptions, 'boosts' | 'combineWith' | 'depth' | 'filter' | 'coordination'>;

/**
 * One query's cached field scores ranked again and again under other boosts (a sweep), as `recombine` ranks them
 * (same scores, same order, ties by id descending) but as candidate positions, not objects: the tie order by id is
 * computed once per query as an integer rank, so a recombination allocates nothing per candidate and compares no strings.
 */
export class CandidateRanker {
  /** Per candidate: its position among the query's candidates in descending id order (compareScored's tie order). */
  private readonly idRank: Int32Array;
  /** Its inverse: the candidate at each id rank. */
  private readonly slotOfIdRank: Int32Array;
  private readonly fields: string[];
  private readonly raws: Float64Array[];
  /** matchedTerms per set of searched fields (a bit per field of `fields`; up to 30 fields, else matchedTerms' own cache). */
  private readonly quality = new Map<number, Uint16Array>();

  /**
   * `idOrder`: every candidate's position in descending id order among any set of ids that holds them (idOrderOf),
   * so that many queries' candidates are put in id order by numbers, not by comparing strings again per query.
   */
  constructor(
    readonly scores: FieldScores,
    idOrder?: ReadonlyMap<string, number>,
  ) {
    const { docIds } = scores;
    const n = docIds.length;
    let byId: Int32Array;
    if (n < 2 ** 21) {
      // (order · 2^21 + slot) stays below 2^53 (orders below 2^31): a plain numeric sort, the slot in the low bits.
      const order = idOrder ?? idOrderOf(docIds);
      const keys = new Float64Array(n);
      for (let i = 0; i < n; i++) keys[i] = order.get(docIds[i]!)! * 2 ** 21 + i; // i < n = docIds.length
      keys.sort();
      byId = Int32Array.from(keys, (k) => k % 2 ** 21);
    } else {
      byId = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => compareIdBytes(docIds[b]!, docIds[a]!)); // slots < n
    }
    this.slotOfIdRank = byId;
    this.idRank = new Int32Array(n);
    byId.forEach((slot, r) => (this.idRank[slot] = r));
    this.fields = [...scores.perField.keys()];
    this.raws = this.fields.map((f) => scores.perField.get(f)!.raw);
  }

  /**
   * The top `options.depth` candidates (positions in `scores.docIds`), best first, written to `out` (at least as long
   * as the candidates); returns how many. `scoreOut` receives their scores.
   */
  rank(options: RecombineOptions, out: Int32Array, scoreOut?: Float64Array): number {
    const depth = Math.ceil(Math.max(0, options.depth));
    if (depth === 0) return 0;
    const raws: Float64Array[] = [];
    const boosts: number[] = [];
    let set = 0;
    this.fields.forEach((field, f) => {
      const boost = options.boosts[field] ?? 0;
      if (boost > 0) {
        raws.push(this.raws[f]!); // one raw column per field
        boosts.push(boost);
        set |= 1 << f;
      }
    });
    let quality = this.fields.length <= 30 ? this.quality.get(set) : undefined;
    if (!quality)
      this.quality.set(
        set,
        (quality = matchedTerms(
          this.scores,
          this.fields.filter((field) => (options.boosts[field] ?? 0) > 0),
        )),
      );
    const buffers = takeBuffers(this.scores.docIds.length);
    const { slots, scores: kept, mark } = buffers;
    const total = scoreResolved(
      this.scores,
      { raws, boosts, quality, minQuality: minQualityOf(this.scores, options), filter: options.filter, coordination: options.coordination },
      slots,
      kept,
    );
    const floor = depthFloor(buffers, total, depth);
    // Fewer than `depth` candidates score above the floor: those are sorted. Of the (often many) ties at the floor,
    // only the ones with the lowest id ranks fill the rest: marked by id rank, then read in id-rank order.
    let m = 0;
    let ties = 0;
    const idRank = this.idRank;
    // j < total ≤ the buffers' length; a slot is a candidate, which has an id rank (< candidates = mark's length);
    // out holds m positions j.
    for (let j = 0; j < total; j++) {
      if (kept[j]! > floor) out[m++] = j;
      else if (kept[j] === floor) {
        mark[idRank[slots[j]!]!] = 1;
        ties++;
      }
    }
    sortByScoreThenId(out, m, kept, slots, idRank);
    for (let i = 0; i < m; i++) {
      const j = out[i]!;
      if (scoreOut) scoreOut[i] = kept[j]!;
      out[i] = slots[j]!;
    }
    let n = m;
    if (ties > 0) {
      const bySlot = this.slotOfIdRank;
      for (let r = 0; ties > 0; r++) {
        if (mark[r] === 0) continue;
        mark[r] = 0;
        ties--;
        if (n < depth) {
          if (scoreOut) scoreOut[n] = floor;
          out[n++] = bySlot[r]!; // r < candidates: ties are left, so a marked rank is ahead
        }
      }
    }
    spare = buffers;
    return n;
  }
}

/** Each id's position in descending id order (compareScored's tie order), for CandidateRanker. */
export function idOrderOf(ids: Iterable<string>): Map<string, number> {
  const sorted = [...new Set(ids)].sort((a, b) => compareIdBytes(b, a));
  return new Map(sorted.map((id, r) => [id, r]));
}

/**
 * Sorts the first `m` entries of `order` (positions into `kept`/`slots`) by score descending, then by `idRank` of
 * their candidate ascending (compareScored's order): by hand, as a typed array's sort with a comparator is slow.
 */
function sortByScoreThenId(order: Int32Array, m: number, kept: Float64Array, slots: Int32Array, idRank: Int32Array): void {
  // Positions lo..hi stay within order[0..m); the scans stop at the pivot (or an equal) before leaving [lo, hi];
  // order holds positions into kept / slots, a slot has its idRank.
  const quick = (lo: number, hi: number): void => {
    while (hi - lo > 16) {
      const p = order[(lo + hi) >>> 1]!;
      const ps = kept[p]!;
      const pr = idRank[slots[p]!]!;
      let i = lo;
      let j = hi;
      while (i <= j) {
        for (let x = order[i]!; kept[x]! > ps || (kept[x] === ps && idRank[slots[x]!]! < pr); x = order[i]!) i++;
        for (let x = order[j]!; ps > kept[x]! || (ps === kept[x] && pr < idRank[slots[x]!]!); x = order[j]!) j--;
        if (i <= j) {
          const x = order[i]!;
          order[i++] = order[j]!;
          order[j--] = x;
        }
      }
      // Recurse into the smaller part, loop on the larger.
      if (j - lo < hi - i) {
        quick(lo, j);
        lo = i;
      } else {
        quick(i, hi);
        hi = j;
      }
    }
    for (let i = lo + 1; i <= hi; i++) {
      const x = order[i]!;
      const xs = kept[x]!;
      const xr = idRank[slots[x]!]!;
      let j = i - 1;
      while (j >= lo && (xs > kept[order[j]!]! || (xs === kept[order[j]!] && xr < idRank[slots[order[j]!]!]!))) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = x;
    }
  };
  quick(0, m - 1);
}

/** What scoring needs of a boost vector, resolved against one query's field scores. */
interface ResolvedBoosts {
  /** The searched fields' raw scores (fields with boost > 0, in index field order) and their boosts. */
  raws: Float64Array[];
  boosts: number[];
  /** Per candidate: distinct query terms matched in the searched fields. */
  quality: Uint16Array;
  minQuality: number;
  filter?: (docId: string) => boolean;
  coordination?: boolean;
}

function minQualityOf(scores: FieldScores, options: RecombineOptions): number {
  return options.combineWith === 'AND' ? Math.max(1, scores.termCount) : 1;
}

/**
 * Σ_f boost_f · S_f(doc) of every candidate that passes AND/OR and the filter (× the matched query terms with
 * `coordination`): their positions into `slots`, their scores into `kept`; returns how many.
 */
function scoreCandidates(scores: FieldScores, options: RecombineOptions, slots: Int32Array, kept: Float64Array): number {
  const active: Array<{ field: string; raw: Float64Array; boost: number }> = [];
  for (const [field, { raw }] of scores.perField) {
    const boost = options.boosts[field] ?? 0;
    if (boost > 0) active.push({ field, raw, boost });
  }
  const resolved: ResolvedBoosts = {
    raws: active.map((a) => a.raw),
    boosts: active.map((a) => a.boost),
    quality: matchedTerms(
      scores,
      active.map((a) => a.field),
    ),
    minQuality: minQualityOf(scores, options),
    filter: options.filter,
    coordination: options.coordination,
  };
  return scoreResolved(scores, resolved, slots, kept);
}

function scoreResolved(
  scores: FieldScores,
  { raws, boosts, quality, minQuality, filter, coordination }: ResolvedBoosts,
  slots: Int32Array,
  kept: Float64Array,
): number {
  const { docIds } = scores;
  const n = docIds.length;
  let total = 0;
  // i < n = docIds.length, the length of quality and of each raw column; boosts and raws go in pairs; total ≤ i.
  for (let i = 0; i < n; i++) {
    const q = quality[i]!;
    if (q < minQuality) continue; // no query term in any searched field (or not all of them, under AND)
    if (filter && !filter(docIds[i]!)) continue;
    // Summed in field order (MiniSearch's order of float operations). A field without the candidate adds +0, which
    // leaves the sum exactly as skipping it would (the sum starts at +0, so it is never -0).
    let score = 0;
    for (let f = 0; f < raws.length; f++) score += boosts[f]! * raws[f]![i]!;
    slots[total] = i;
    kept[total++] = coordination ? score * q : score;
  }
  return total;
}

/** The depth-th best of the first `total` scores (-Infinity when all of them make the cut). */
function depthFloor(buffers: Buffers, total: number, depth: number): number {
  if (total <= depth || depth <= 0) return -Infinity;
  buffers.select.set(buffers.scores.subarray(0, total));
  return nthLargest(buffers.select, total, depth - 1);
}

interface Buffers {
  slots: Int32Array;
  scores: Float64Array;
  select: Float64Array;
  /** All 0 between uses (CandidateRanker marks ties in it and clears each mark it reads). */
  mark: Uint8Array;
}

function takeBuffers(n: number): Buffers {
  const buffers =
    spare && spare.slots.length >= n
      ? spare
      : { slots: new Int32Array(n), scores: new Float64Array(n), select: new Float64Array(n), mark: new Uint8Array(n) };
  spare = undefined;
  return buffers;
}

/** recombine's buffers between calls (the largest needed so far), so that it allocates nothing per candidate. */
let spare: Buffers | undefined;

/** The value at position `t` (0-based) of the first `length` values of `a` in descending order (reorders `a`). */
function nthLargest(a: Float64Array, length: number, t: number): number {
  let lo = 0;
  let hi = length - 1;
  // 0 ≤ t < length ≤ a.length, and lo ≤ t ≤ hi throughout; the scans stop at the pivot (or an equal) within [lo, hi].
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! > pivot) i++;
      while (a[j]! < pivot) j--;
      if (i <= j) {
        const x = a[i]!;
        a[i++] = a[j]!;
        a[j--] = x;
      }
    }
    // a[lo..j] >= pivot >= a[i..hi], and everything between equals the pivot.
    if (t <= j) hi = j;
    else if (t >= i) lo = i;
    else return a[t]!;
  }
  return a[lo]!;
}

/** Per query's scores (kept as long as they are), per field set searched (JSON of the fields in order). */
const matchedTermsCache = new WeakMap<FieldScores, Map<string, Uint16Array>>();

/** Per candidate: how many distinct query terms it matches in the searched fields. */
function matchedTerms(scores: FieldScores, fields: readonly string[]): Uint16Array {
  const key = JSON.stringify(fields);
  let byFields = matchedTermsCache.get(scores);
  if (!byFields) matchedTermsCache.set(scores, (byFields = new Map<string, Uint16Array>()));
  const hit = byFields.get(key);
  if (hit) return hit;
  const { docIds, maskWords } = scores;
  const masks = fields.map((field) => scores.perField.get(field)!);
  const quality = new Uint16Array(docIds.length);
  const union = new Uint32Array(maskWords);
  // w < maskWords = union.length; mask has maskWords words per candidate.
  for (let i = 0; i < docIds.length; i++) {
    union.fill(0);
    for (const { raw, mask } of masks) {
      if (raw[i] === 0) continue;
      for (let w = 0; w < maskWords; w++) union[w]! |= mask[i * maskWords + w]!;
    }
    let q = 0;
    for (let w = 0; w < maskWords; w++) q += popcount(union[w]!);
    quality[i] = q;
  }
  byFields.set(key, quality);
  return quality;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
