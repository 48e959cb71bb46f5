import type { Document } from '../../corpus/document';
import { type Steps, runSync } from '../../util/cooperative';
import type { Analyzer } from '../analyzer';
import { fieldText } from '../ranking';
import { Postings } from './postings';
import { FrontCodedVocabulary } from './vocabulary';

/** Postings are gathered in chunks of this many bytes, freed one by one once laid out. */
const CHUNK = 1 << 22;
/** Room for one gathered posting: two varints of up to 5 bytes. */
const MAX_ENTRY = 10;

/**
 * The postings of these documents built straight from the analyzer, without a MiniSearch index in between: the
 * same arrays `Postings.fromMiniSearch` copies from a fresh `LexicalIndex.build` of the same documents
 * (test/unit/retrieval/postings-build.test.ts). MiniSearch's `add`, repeated here:
 * - documents are numbered 0..n-1 in order; a missing id or a duplicate one is refused;
 * - a field's length is the number of distinct raw tokens (before processTerm: stop words count);
 * - processTerm's result is indexed when truthy, every element of it when an array;
 * - the average length is the exact mean, integer sum / document count (LexicalIndex.exactAverageLengths);
 * - term numbers follow the iteration order of the radix tree MiniSearch builds by inserting the terms in first-occurrence
 *   order, derived without the tree (tree-order.ts); the vocabulary is front-coded (vocabulary.ts), and answers the
 *   prefix / fuzzy expansions as that tree does, in its order.
 * Memory: per posting, a list number and a tf as varints while gathering (~3-4 bytes: frequent terms get low numbers),
 * then a document and a tf laid out (8 bytes): ~12 bytes a posting at the peak.
 */
export function buildPostings(docs: readonly Document[], fields: readonly string[], analyzer: Analyzer): Postings {
  return runSync(buildPostingsSteps(docs, fields, analyzer));
}

/** `buildPostings` yielding after each document (util/cooperative: runSync, or runSliced to pause between slices). */
export function* buildPostingsSteps(docs: readonly Document[], fields: readonly string[], analyzer: Analyzer): Steps<Postings> {
  const fieldCount = fields.length;
  const n = docs.length;
  const ids: string[] = new Array<string>(n);
  const seen = new Set<string>();
  const lengths = fields.map(() => new Int32Array(n));
  // term -> provisional number (first occurrence); a Map is far faster to look up than the radix tree.
  const provisional = new Map<string, number>();
  let tf: Int32Array = new Int32Array(1024); // per provisional term, within one field of one document (0 between fields)
  const touched: number[] = [];
  let listCounts: Int32Array = new Int32Array(1024 * fieldCount); // postings per provisional list (term · fieldCount + field)
  const gathered = new Gathered();
  const docEnd = new Float64Array(n); // postings gathered up to the end of each document

  const add = (term: string): void => {
    let t = provisional.get(term);
    if (t === undefined) {
      t = provisional.size;
      provisional.set(term, t);
      if (t >= tf.length) tf = grow(tf, t + 1);
    }
    if (tf[t]!++ === 0) touched.push(t); // t < tf.length: grown above
  };
  // d < n = docs.length; f < fieldCount = fields.length = lengths.length; a provisional term t has its tf slot
  // (tf grows with the terms) and its lists (listCounts grows before they are counted).
  for (let d = 0; d < n; d++) {
    const doc = docs[d]!;
    const id = doc.id;
    if (id == null) throw new Error(`document ${d + 1} has no id`);
    if (seen.has(id)) throw new Error(`duplicate document id ${id}`);
    seen.add(id);
    ids[d] = id;
    for (let f = 0; f < fieldCount; f++) {
      const text = fieldText(doc, fields[f]!) as string | null | undefined;
      if (text == null) continue; // MiniSearch skips the field: no length either
      const tokens = analyzer.tokenize(String(text));
      lengths[f]![d] = new Set(tokens).size;
      for (const token of tokens) {
        const processed = analyzer.processTerm(token) as string | string[] | null | undefined;
        if (Array.isArray(processed)) for (const t of processed) add(t);
        else if (processed) add(processed);
      }
      if (provisional.size * fieldCount > listCounts.length) listCounts = grow(listCounts, provisional.size * fieldCount);
      for (const t of touched) {
        const l = t * fieldCount + f;
        if (l > 0xffffffff) throw new Error(`too many terms × fields for the postings (${provisional.size} × ${fieldCount})`);
        gathered.push(l, tf[t]!);
        listCounts[l]!++;
        tf[t] = 0;
      }
      touched.length = 0;
    }
    docEnd[d] = gathered.length;
    yield d + 1;
  }
  seen.clear();

  // The vocabulary, front-coded, its terms numbered in the order of the radix tree MiniSearch's `add` would have built
  // by inserting them in first-occurrence order (vocabulary.ts: without building it).
  const { vocabulary, numberOf: finalOf } = FrontCodedVocabulary.build(provisional);
  provisional.clear();
  const termCount = vocabulary.size;

  // Lay the postings out by final list number: counts, prefix sums, then a scatter in document order (so each
  // list's documents ascend), freeing the gathered chunks as they are read.
  const lists = termCount * fieldCount;
  const start = new Int32Array(lists);
  const end = new Int32Array(lists);
  // t < termCount = finalOf.length, a final number is below termCount, and listCounts covers every provisional list.
  for (let t = 0; t < termCount; t++)
    for (let f = 0; f < fieldCount; f++) end[finalOf[t]! * fieldCount + f] = listCounts[t * fieldCount + f]!;
  let at = 0;
  for (let l = 0; l < lists; l++) {
    const count = end[l]!; // l < lists = end.length
    start[l] = at;
    end[l] = at; // the write cursor until the scatter is done
    at += count;
  }
  const total = gathered.length;
  const postingDocs = new Int32Array(total);
  const postingTfs = new Uint32Array(total);
  const maxTf = new Int32Array(lists);
  const minLength = new Int32Array(lists).fill(0x7fffffff);
  let d = 0;
  // pl is a provisional list, so (pl - f) / fieldCount a provisional term (finalOf has it) and l a final list; i is
  // gathered before docEnd[n - 1] = total, so d < n (lengths[f] is n long).
  gathered.drain((i, pl, count) => {
    while (d < n && docEnd[d]! <= i) d++;
    const f = pl % fieldCount;
    const l = finalOf[(pl - f) / fieldCount]! * fieldCount + f;
    const p = end[l]!++;
    postingDocs[p] = d;
    postingTfs[p] = count;
    if (count > maxTf[l]!) maxTf[l] = count;
    const len = lengths[f]![d]!;
    if (len < minLength[l]!) minLength[l] = len;
  });

  const avgLength = lengths.map((ls) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += ls[i]!; // each is n long
    return n > 0 ? sum / n : 0;
  });
  return new Postings({
    fieldCount,
    termNumbers: vocabulary,
    vocabulary,
    start,
    end,
    maxTf,
    minLength,
    docs: postingDocs,
    tfs: postingTfs,
    lengths,
    avgLength,
    ids,
    documentCount: n,
    docSpace: n,
  });
}

function grow(a: Int32Array, atLeast: number): Int32Array {
  const b = new Int32Array(Math.max(atLeast, a.length * 2));
  b.set(a);
  return b;
}

/**
 * The gathered (list number, tf) pairs, append-only, as unsigned LEB128 varints in fixed chunks (no doubling copies),
 * read back once in order by `drain`. A pair never straddles two chunks.
 */
class Gathered {
  private chunks: Uint8Array[] = [];
  private used: number[] = [];
  private last = new Uint8Array(0);
  private at = 0;
  length = 0;

  push(list: number, tf: number): void {
    if (this.at + MAX_ENTRY > this.last.length) {
      if (this.chunks.length > 0) this.used[this.chunks.length - 1] = this.at;
      this.last = new Uint8Array(CHUNK);
      this.chunks.push(this.last);
      this.at = 0;
    }
    this.at = writeVarint(this.last, this.at, list);
    this.at = writeVarint(this.last, this.at, tf);
    this.length++;
  }

  /** Calls `each(position, list, tf)` in order, dropping the chunks as it goes. */
  drain(each: (i: number, list: number, tf: number) => void): void {
    if (this.chunks.length > 0) this.used[this.chunks.length - 1] = this.at;
    let i = 0;
    // A chunk c < chunks.length has its used count; each pair was written whole below it.
    for (let c = 0; c < this.chunks.length; c++) {
      const bytes = this.chunks[c]!;
      const end = this.used[c]!;
      let p = 0;
      while (p < end) {
        let list = 0;
        let shift = 0;
        let b: number;
        do {
          b = bytes[p++]!;
          list += (b & 0x7f) * 2 ** shift;
          shift += 7;
        } while (b & 0x80);
        let tf = 0;
        shift = 0;
        do {
          b = bytes[p++]!;
          tf += (b & 0x7f) * 2 ** shift;
          shift += 7;
        } while (b & 0x80);
        each(i++, list, tf);
      }
      this.chunks[c] = EMPTY;
    }
    this.chunks = [];
    this.used = [];
    this.last = EMPTY;
    this.at = this.length = 0;
  }
}

function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 128);
  }
  bytes[at++] = value;
  return at;
}

const EMPTY = new Uint8Array(0);
