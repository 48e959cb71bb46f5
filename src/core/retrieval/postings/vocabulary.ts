import type { TermNumbers, Vocabulary } from './postings';
import { commonPrefix, treeOrder } from './tree-order';

/** Terms per block: the first whole, the others as (shared prefix, suffix) of the one before. */
const BLOCK = 16;
export const VOCABULARY_BLOCK = BLOCK;

/** The bytes a FrontCodedVocabulary is made of (what the postings cache stores). */
export interface VocabularyParts {
  /** Per block: the first term (varint length + code units), then per term varint shared, varint suffix length, suffix. */
  bytes: Uint8Array;
  /** Byte offset of each block. */
  blocks: Uint32Array;
  /** Term number (MiniSearch's tree order) of each term, in sorted order. */
  numbers: Int32Array;
  /** Code units as UTF-16LE (2 bytes) rather than Latin-1 (1 byte): some code unit is above 0xFF. */
  wide: boolean;
}

/**
 * The postings-only index's vocabulary (issue 32): the terms sorted by code unit and front-coded in blocks, in typed
 * arrays (~10-15 bytes a term, outside the V8 heap, stored as they are in the postings cache), instead of MiniSearch's
 * radix tree (~320 bytes a term on the heap, rebuilt node by node from the cache). It answers what the radix tree
 * answers for top-k.ts, term for term and in the same order: term numbers are the tree's iteration order
 * (tree-order.ts), atPrefix lists ascending term numbers, fuzzyGet descending ones (the tree's forward recursion),
 * with Levenshtein distances in UTF-16 code units as SearchableMap.fuzzyGet computes them.
 */
export class FrontCodedVocabulary implements Vocabulary, TermNumbers {
  readonly size: number;
  private readonly buf: Buffer;
  private readonly parts: VocabularyParts;
  private readonly unit: 1 | 2;
  private readonly encoding: 'latin1' | 'utf16le';

  constructor(parts: VocabularyParts) {
    const { bytes, blocks, numbers } = parts;
    if (blocks.length !== Math.ceil(numbers.length / BLOCK)) throw new RangeError('vocabulary: block count does not match the terms');
    for (let b = 0; b < blocks.length; b++)
      if (blocks[b]! >= bytes.length || (b > 0 && blocks[b]! <= blocks[b - 1]!)) throw new RangeError('vocabulary: damaged block offsets');
    const seen = new Uint8Array(numbers.length);
    for (const t of numbers) {
      if (t < 0 || t >= numbers.length || seen[t]) throw new RangeError('vocabulary: term numbers are not a permutation');
      seen[t] = 1;
    }
    this.parts = parts;
    this.size = numbers.length;
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.unit = parts.wide ? 2 : 1;
    this.encoding = parts.wide ? 'utf16le' : 'latin1';
  }

  /**
   * The vocabulary of the terms of `positions` (term -> its insertion position, MiniSearch's: first occurrence; the
   * positions are 0..size-1), with each one's term number: `numberOf[position]`.
   */
  static build(positions: ReadonlyMap<string, number>): { vocabulary: FrontCodedVocabulary; numberOf: Int32Array } {
    const sorted = [...positions.keys()].sort(); // by UTF-16 code unit
    const times = Int32Array.from(sorted, (t) => positions.get(t)!);
    const numbers = treeOrder(sorted, times);
    const numberOf = new Int32Array(sorted.length).fill(-1);
    for (let i = 0; i < sorted.length; i++) numberOf[times[i]!] = numbers[i]!;
    if (numberOf.includes(-1)) throw new RangeError('vocabulary: the insertion positions are not 0..size-1');
    return { vocabulary: new FrontCodedVocabulary(encode(sorted, numbers)), numberOf };
  }

  /** Its bytes, as the constructor takes them back. */
  toParts(): VocabularyParts {
    return this.parts;
  }

  /** Bytes held (all outside the V8 heap). */
  get byteLength(): number {
    const p = this.parts;
    return p.bytes.byteLength + p.blocks.byteLength + p.numbers.byteLength;
  }

  has(term: string): boolean {
    return this.find(term) >= 0;
  }

  get(term: string): number | undefined {
    const i = this.find(term);
    return i >= 0 ? this.parts.numbers[i] : undefined;
  }

  /** Every term starting with `prefix` (itself included), [term, term number], in ascending term number. */
  atPrefix(prefix: string): Array<[string, number]> {
    const out: Array<[string, number]> = [];
    for (const [i, t] of this.from(this.lowerBound(prefix))) {
      if (!t.startsWith(prefix)) break;
      out.push([t, this.parts.numbers[i]!]);
    }
    return out.sort((a, b) => a[1] - b[1]);
  }

  /**
   * Terms within `maxDistance` edits (Levenshtein, UTF-16 code units) of `query`: term -> [term number, distance],
   * in descending term number. One DP row per code unit of the terms, shared along their common prefix (the sorted
   * neighbour's); a prefix whose row is all above maxDistance cannot lead to a match, and its terms are skipped.
   */
  fuzzyGet(query: string, maxDistance: number): Map<string, [number, number]> {
    const n = query.length + 1;
    const rows = n + maxDistance + 1; // a term longer than query + maxDistance is pruned at that row
    const dp = new Int32Array(rows * n);
    for (let j = 0; j < n; j++) dp[j] = j;
    const q = Uint16Array.from({ length: query.length }, (_, j) => query.charCodeAt(j));
    const found: Array<[number, string, number]> = [];
    let prev = '';
    let valid = 0; // rows 0..valid hold prev's prefixes
    let it = this.from(0);
    let next = it.next();
    // Row r (r < rows) lies within dp; columns j < n within the row; q has n - 1 code units.
    while (!next.done) {
      const [index, term] = next.value;
      let r = Math.min(valid, commonPrefix(prev, term));
      prev = term;
      let pruned = -1;
      for (; r < term.length; r++) {
        if (r + 1 >= rows) {
          pruned = r + 1;
          break;
        }
        const c = term.charCodeAt(r);
        const above = r * n;
        const here = above + n;
        let min = (dp[here] = r + 1);
        for (let j = 1; j < n; j++) {
          const d = Math.min(dp[above + j - 1]! + (c === q[j - 1] ? 0 : 1), dp[above + j]! + 1, dp[here + j - 1]! + 1);
          dp[here + j] = d;
          if (d < min) min = d;
        }
        if (min > maxDistance) {
          pruned = r + 1;
          break;
        }
      }
      if (pruned < 0) {
        valid = term.length;
        const distance = dp[term.length * n + n - 1]!;
        if (distance <= maxDistance) found.push([this.parts.numbers[index]!, term, distance]);
        next = it.next();
      } else {
        // No term with this prefix matches: on to the first one without it.
        valid = pruned - 1;
        it = this.from(this.prefixEnd(term.slice(0, pruned), index));
        next = it.next();
      }
    }
    found.sort((a, b) => b[0] - a[0]);
    return new Map(found.map(([num, t, d]) => [t, [num, d]]));
  }

  /** [term, term number] in term-number order (the radix tree's iteration order). */
  *[Symbol.iterator](): IterableIterator<[string, number]> {
    const terms = new Array<string>(this.size);
    for (const [i, t] of this.from(0)) terms[this.parts.numbers[i]!] = t;
    for (let k = 0; k < terms.length; k++) yield [terms[k]!, k];
  }

  /** Sorted index of `term`, or -1. */
  private find(term: string): number {
    const i = this.lowerBound(term);
    if (i >= this.size) return -1;
    return this.termAt(i) === term ? i : -1;
  }

  /** First sorted index whose term is ≥ s (size when none). */
  private lowerBound(s: string): number {
    // The last block whose first term is < s: s's place is in it or at the next block's start.
    let lo = 0;
    let hi = this.parts.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.firstOf(mid) < s) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return 0;
    for (const [i, t] of this.from((lo - 1) * BLOCK)) if (t >= s || i >= lo * BLOCK) return i;
    return this.size;
  }

  /** First sorted index ≥ from whose term does not start with p (the terms from `from` on that do are contiguous). */
  private prefixEnd(p: string, from: number): number {
    const past = (t: string) => t > p && !t.startsWith(p);
    let lo = Math.floor(from / BLOCK) + 1;
    let hi = this.parts.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (past(this.firstOf(mid))) hi = mid;
      else lo = mid + 1;
    }
    for (const [i, t] of this.from(Math.max(from, (lo - 1) * BLOCK))) if (past(t)) return i;
    return this.size;
  }

  private termAt(i: number): string {
    for (const [k, t] of this.from(i - (i % BLOCK))) if (k === i) return t;
    throw new RangeError(`vocabulary: no term ${i}`);
  }

  private firstOf(block: number): string {
    let at = this.parts.blocks[block]!; // block < blocks.length
    const [len, p] = varint(this.parts.bytes, at);
    at = p;
    return this.buf.toString(this.encoding, at, at + len * this.unit);
  }

  /** [sorted index, term] from `start` to the end, decoding from start's block. */
  private *from(start: number): Generator<[number, string], void, void> {
    const bytes = this.parts.bytes;
    const u = this.unit;
    let b = Math.floor(start / BLOCK);
    let i = b * BLOCK;
    // A block b < blocks.length starts at blocks[b]; each term's varints and units lie within bytes (encode wrote them).
    for (; b < this.parts.blocks.length; b++) {
      let at = this.parts.blocks[b]!;
      let term = '';
      const end = Math.min(this.size, (b + 1) * BLOCK);
      for (let k = i; k < end; k++) {
        let shared = 0;
        if (k > b * BLOCK) [shared, at] = varint(bytes, at);
        let len: number;
        [len, at] = varint(bytes, at);
        term = term.slice(0, shared) + this.buf.toString(this.encoding, at, at + len * u);
        at += len * u;
        if (k >= start) yield [k, term];
      }
      i = end;
    }
  }
}

function varint(bytes: Uint8Array, at: number): [number, number] {
  let v = 0;
  let shift = 0;
  let b: number;
  do {
    b = bytes[at++]!;
    v += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [v, at];
}

/** Front-codes the sorted terms (two passes: sizes, then bytes). */
function encode(sorted: readonly string[], numbers: Int32Array): VocabularyParts {
  const wide = sorted.some((t) => /[^\x00-\xff]/.test(t));
  const u = wide ? 2 : 1;
  const varintBytes = (v: number) => (v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5);
  const shared = (i: number) => (i % BLOCK === 0 ? 0 : commonPrefix(sorted[i - 1]!, sorted[i]!));
  let size = 0;
  for (let i = 0; i < sorted.length; i++) {
    const s = shared(i);
    const len = sorted[i]!.length - s;
    size += (i % BLOCK === 0 ? 0 : varintBytes(s)) + varintBytes(len) + len * u;
  }
  const bytes = Buffer.alloc(size);
  const blocks = new Uint32Array(Math.ceil(sorted.length / BLOCK));
  let at = 0;
  const put = (v: number) => {
    while (v >= 0x80) {
      bytes[at++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 128);
    }
    bytes[at++] = v;
  };
  for (let i = 0; i < sorted.length; i++) {
    const t = sorted[i]!;
    const s = shared(i);
    if (i % BLOCK === 0) blocks[i / BLOCK] = at;
    else put(s);
    put(t.length - s);
    at += bytes.write(t.slice(s), at, wide ? 'utf16le' : 'latin1');
  }
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), blocks, numbers, wide };
}
