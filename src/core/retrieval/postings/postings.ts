import type MiniSearch from 'minisearch';

/**
 * The slice of MiniSearch 7's private state `Postings.fromMiniSearch` copies: there MiniSearch stays the index of
 * record (adds, removals, vacuum, serialisation, the radix-tree vocabulary for prefix / fuzzy / autocomplete) and
 * the postings are a read-only, compact copy of its term -> field -> (doc, tf) maps, rebuilt after any change.
 * build.ts builds the same postings straight from the documents, without MiniSearch.
 * test/unit/retrieval/lexical-topk.test.ts fails should this state change shape.
 */
export interface MiniSearchState {
  _index: Vocabulary & Iterable<[string, Map<number, Map<number, number>>]>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentIds: Map<number, string>;
  _documentCount: number;
  _nextId: number;
}

/**
 * Query-term expansion, the calls MiniSearch's own search makes on its radix tree: MiniSearch's tree itself (postings
 * copied from MiniSearch), or the front-coded vocabulary of built postings (vocabulary.ts), whose values are the term
 * numbers. Either answers in the tree's order: atPrefix ascending, fuzzyGet descending tree order.
 */
export interface Vocabulary {
  has(term: string): boolean;
  atPrefix(prefix: string): Iterable<[string, unknown]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [unknown, number]>;
}

/** term -> term number, iterable in term-number order (a Map, or the front-coded vocabulary itself). */
export interface TermNumbers extends Iterable<[string, number]> {
  get(term: string): number | undefined;
}

/** What a Postings is made of: copied from MiniSearch (`fromMiniSearch`) or built from the documents (build.ts). */
export interface PostingsData {
  fieldCount: number;
  termNumbers: TermNumbers;
  vocabulary: Vocabulary;
  start: Int32Array;
  end: Int32Array;
  maxTf: Int32Array;
  minLength: Int32Array;
  docs: Int32Array;
  tfs: Uint32Array;
  lengths: Int32Array[];
  avgLength: number[];
  ids: Array<string | undefined>;
  documentCount: number;
  docSpace: number;
}

/** BM25 settings whose per-document norms and per-list maxima are kept at once (8 bytes a document or list each). */
const SETTINGS_KEPT = 8;

/**
 * Per field and term, the documents containing the term (ascending document numbers = MiniSearch's short ids)
 * and their term frequencies, all in two shared typed arrays (one pair of arrays per list would cost more in
 * object headers than the postings of rare terms weigh). Per list, the largest tf and the shortest field length
 * bound every BM25 score in it (BM25 grows with tf and shrinks with length), whatever k1 and b are.
 */
export class Postings implements PostingsData {
  readonly fieldCount: number;
  /** term -> term number; list of (term t, field f) is number t * fieldCount + f. */
  readonly termNumbers: TermNumbers;
  readonly start: Int32Array;
  readonly end: Int32Array;
  readonly maxTf: Int32Array;
  readonly minLength: Int32Array;
  readonly docs: Int32Array;
  readonly tfs: Uint32Array;
  /** Field lengths (tokens) per field, by document number. */
  readonly lengths: Int32Array[];
  readonly avgLength: number[];
  /** External id by document number (undefined for removed numbers). */
  readonly ids: Array<string | undefined>;
  readonly documentCount: number;
  /** Document numbers are below this. */
  readonly docSpace: number;
  readonly vocabulary: Vocabulary;
  /**
   * Caches that live as long as these postings: k1·(1 - b + b·len/avg) per (field, k1, b); the largest BM25 of each
   * list per (k1, b, d), computed on first use (NaN until then); permitted-set bitmaps.
   */
  readonly normCache = new Map<string, Float64Array>();
  readonly maxCache = new Map<string, Float64Array>();
  readonly bitmapCache = new WeakMap<ReadonlySet<string>, Uint8Array>();

  constructor(data: PostingsData) {
    this.fieldCount = data.fieldCount;
    this.termNumbers = data.termNumbers;
    this.vocabulary = data.vocabulary;
    this.start = data.start;
    this.end = data.end;
    this.maxTf = data.maxTf;
    this.minLength = data.minLength;
    this.docs = data.docs;
    this.tfs = data.tfs;
    this.lengths = data.lengths;
    this.avgLength = data.avgLength;
    this.ids = data.ids;
    this.documentCount = data.documentCount;
    this.docSpace = data.docSpace;
  }

  /** A copy of MiniSearch's index (which stays the index of record: vocabulary included). */
  static fromMiniSearch(miniSearch: MiniSearch<never>, fields: readonly string[]): Postings {
    const ms = miniSearch as unknown as MiniSearchState;
    const fieldCount = fields.length;
    const docSpace = ms._nextId;
    const ids = new Array<string | undefined>(docSpace);
    for (const [n, id] of ms._documentIds) ids[n] = id;
    const fieldIds = fields.map((f) => fieldIdOf(ms, f));
    const avgLength = fieldIds.map((id) => ms._avgFieldLength[id] ?? 0);
    const lengths = fields.map(() => new Int32Array(docSpace));
    // f < fieldCount = fieldIds.length = lengths.length (here and in the copy below).
    for (const [n, ls] of ms._fieldLength) for (let f = 0; f < fieldCount; f++) lengths[f]![n] = ls[fieldIds[f]!] ?? 0;

    const termNumbers = new Map<string, number>();
    const entries: Array<Map<number, Map<number, number>>> = [];
    let total = 0;
    for (const [term, data] of ms._index) {
      termNumbers.set(term, entries.length);
      entries.push(data);
      for (const id of fieldIds) total += data.get(id)?.size ?? 0;
    }
    const lists = entries.length * fieldCount;
    const start = new Int32Array(lists);
    const end = new Int32Array(lists);
    const maxTfs = new Int32Array(lists);
    const minLengths = new Int32Array(lists);
    const docs = new Int32Array(total);
    const tfs = new Uint32Array(total);
    let at = 0;
    for (let t = 0; t < entries.length; t++) {
      for (let f = 0; f < fieldCount; f++) {
        const l = t * fieldCount + f;
        const first = at;
        start[l] = first;
        const freqs = entries[t]!.get(fieldIds[f]!);
        const fieldLengths = lengths[f]!;
        let maxTf = 0;
        let minLength = 0x7fffffff;
        let sorted = true;
        if (freqs) {
          // Document numbers are below docSpace (fieldLengths' length); at stays below total (docs' length).
          for (const [doc, tf] of freqs) {
            if (ids[doc] === undefined) continue; // discarded, not yet vacuumed
            if (at > first && docs[at - 1]! > doc) sorted = false;
            docs[at] = doc;
            tfs[at] = tf;
            at++;
            if (tf > maxTf) maxTf = tf;
            const len = fieldLengths[doc]!;
            if (len < minLength) minLength = len;
          }
        }
        end[l] = at;
        maxTfs[l] = maxTf;
        minLengths[l] = minLength;
        if (!sorted) sortList(docs, tfs, first, at);
      }
    }
    return new Postings({
      fieldCount,
      termNumbers,
      vocabulary: ms._index,
      start,
      end,
      maxTf: maxTfs,
      minLength: minLengths,
      docs,
      tfs,
      lengths,
      avgLength,
      ids,
      documentCount: ms._documentCount,
      docSpace,
    });
  }

  /** Bytes held by the typed arrays (postings, bounds, lengths); the term map and ids are not counted. */
  get byteLength(): number {
    const arrays = [this.start, this.end, this.maxTf, this.minLength, this.docs, this.tfs, ...this.lengths];
    return arrays.reduce((s, a) => s + a.byteLength, 0);
  }

  get postingCount(): number {
    return this.docs.length;
  }

  /** k1·(1 - b + b·len/avg) per document of a field, as MiniSearch's BM25 computes it (same operations, same order). */
  norms(field: number, k: number, b: number): Float64Array {
    const key = `${field},${k},${b}`;
    let norm = this.normCache.get(key);
    if (!norm) {
      if (this.normCache.size >= SETTINGS_KEPT) this.normCache.clear(); // a k1/b sweep must not pile them up
      norm = new Float64Array(this.docSpace);
      const lengths = this.lengths[field];
      const avg = this.avgLength[field];
      if (lengths === undefined || avg === undefined) throw new RangeError(`postings: no field ${field} (of ${this.fieldCount})`);
      for (let n = 0; n < this.docSpace; n++) norm[n] = k * (1 - b + (b * lengths[n]!) / avg); // lengths: docSpace long
      this.normCache.set(key, norm);
    }
    return norm;
  }

  /**
   * The largest BM25 term score (before idf) in list `l`: max over its postings of d + tf·(k1+1)/(tf + norm), the
   * scorer's own expression, so it bounds every score of the list exactly. Scanned once per list and settings;
   * far tighter than the bound from the largest tf and the shortest field (which stays as a cheap fallback).
   */
  listMax(l: number, norm: Float64Array, k: number, b: number, d: number): number {
    const key = `${k},${b},${d}`;
    let maxima = this.maxCache.get(key);
    if (!maxima) {
      if (this.maxCache.size >= SETTINGS_KEPT) this.maxCache.clear();
      this.maxCache.set(key, (maxima = new Float64Array(this.start.length).fill(NaN)));
    }
    // l is a list (maxima, start and end have one entry each); its postings lie within docs / tfs, and their
    // document numbers within norm (docSpace long).
    let m = maxima[l]!;
    if (Number.isNaN(m)) {
      m = 0;
      const k1p1 = k + 1;
      for (let i = this.start[l]!; i < this.end[l]!; i++) {
        const tf = this.tfs[i]!;
        const s = d + (tf * k1p1) / (tf + norm[this.docs[i]!]!);
        if (s > m) m = s;
      }
      maxima[l] = m;
    }
    return m;
  }

  /** Permitted documents of an id set as a bitmap over document numbers (built once per set). */
  bitmap(permitted: ReadonlySet<string>): Uint8Array {
    let bits = this.bitmapCache.get(permitted);
    if (!bits) {
      bits = new Uint8Array(this.docSpace);
      for (let n = 0; n < this.docSpace; n++) {
        const id = this.ids[n];
        if (id !== undefined && permitted.has(id)) bits[n] = 1;
      }
      this.bitmapCache.set(permitted, bits);
    }
    return bits;
  }
}

/** MiniSearch's number of a field it indexes (the index is built with the same fields: a missing one is a bug). */
function fieldIdOf(ms: MiniSearchState, field: string): number {
  const id = ms._fieldIds[field];
  if (id === undefined) throw new RangeError(`postings: MiniSearch does not index the field '${field}'`);
  return id;
}

/** Sorts postings [s, e) by document number (MiniSearch re-adds a replaced document under a new number). */
function sortList(docs: Int32Array, tfs: Uint32Array, s: number, e: number): void {
  // s ≤ i < e ≤ docs.length = tfs.length.
  const order = Array.from({ length: e - s }, (_, i) => s + i).sort((a, b) => docs[a]! - docs[b]!);
  const sortedDocs = order.map((i) => docs[i]!);
  const sortedTfs = order.map((i) => tfs[i]!);
  docs.set(sortedDocs, s);
  tfs.set(sortedTfs, s);
}
