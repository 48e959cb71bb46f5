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
 * arrays (8.2 bytes a term measured with 2 million made-up terms, outside the V8 heap, stored as they are in the
 * postings cache), instead of MiniSearch's radix tree (248 bytes a term on the heap, rebuilt node by node from the
 * cache; `npm run bench:vocabulary`). It answers what the radix tree
 * answers for top-k.ts, term for term and in the same order: term numbers are the tree's iteration order
 * (tree-order.ts), atPrefix lists ascending term numbers, fuzzyGet descending ones (the tree's forward recursion),
 * with Levenshtein distances in UTF-16 code units as SearchableMap.fuzzyGet computes them.
 */
export class FrontCodedVocabulary implements Vocabulary, TermNumbers {
  readonly size: number;
  private readonly parts: VocabularyParts;
  private readonly cursor: Cursor;

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
    this.cursor = new Cursor(parts);
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
    for (const [i, t] of this.from(this.lowerBound(prefix)[0])) {
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
    // Only the band |row - column| ≤ maxDistance is computed (as SearchableMap does): cells outside it keep
    // maxDistance + 1, a lower bound of their true value that is already too far, so the band's values are exact.
    const dp = new Int32Array(rows * n).fill(maxDistance + 1);
    for (let j = 0; j < n; j++) dp[j] = j;
    const q = Uint16Array.from({ length: query.length }, (_, j) => query.charCodeAt(j));
    const found: Array<[number, string, number]> = [];
    const c = this.cursor;
    let common = 0; // code units the cursor's term shares with the one rows 0..valid were computed for
    let valid = 0;
    let more = c.seek(0);
    // Row r (r < rows) lies within dp; columns j < n within the row; q has n - 1 code units.
    while (more) {
      const units = c.units;
      const length = c.length;
      let r = Math.min(valid, common);
      let pruned = -1;
      for (; r < length; r++) {
        if (r + 1 >= rows) {
          pruned = r + 1;
          break;
        }
        const unit = units[r]!;
        const above = r * n;
        const here = above + n;
        let min = (dp[here] = r + 1);
        const last = Math.min(n - 1, r + 1 + maxDistance);
        for (let j = Math.max(1, r + 1 - maxDistance); j <= last; j++) {
          const d = Math.min(dp[above + j - 1]! + (unit === q[j - 1] ? 0 : 1), dp[above + j]! + 1, dp[here + j - 1]! + 1);
          dp[here + j] = d;
          if (d < min) min = d;
        }
        if (min > maxDistance) {
          pruned = r + 1;
          break;
        }
      }
      if (pruned < 0) {
        valid = length;
        const distance = dp[length * n + n - 1]!;
        if (distance <= maxDistance) found.push([this.parts.numbers[c.index]!, c.term(), distance]);
        more = c.next();
        common = c.shared;
      } else {
        // No term with this prefix matches: on to the first one without it.
        valid = pruned - 1;
        more = c.skip(pruned);
        common = c.shared;
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
    const [i, equal] = this.lowerBound(term);
    return equal ? i : -1;
  }

  /** First sorted index whose term is ≥ s (size when none), and whether it is s. */
  private lowerBound(s: string): [number, boolean] {
    const c = this.cursor; // reused: lookups run one at a time and do not yield
    // The first block whose first term is ≥ s: s's place is in the block before it, or at its start.
    let lo = 0;
    let hi = this.parts.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (c.compareFirst(mid, s) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return [0, this.size > 0 && c.seek(0) && c.compare(s) === 0];
    for (let more = c.seek((lo - 1) * BLOCK); more; more = c.next()) {
      const cmp = c.compare(s);
      if (cmp >= 0) return [c.index, cmp === 0];
    }
    return [this.size, false];
  }

  /** [sorted index, term] from `start` to the end. */
  private *from(start: number): Generator<[number, string], void, void> {
    const c = new Cursor(this.parts);
    for (let more = c.seek(start); more; more = c.next()) yield [c.index, c.term()];
  }
}

/**
 * Reads the sorted terms one after the other (`next`), or past every term that starts with the current term's first l
 * code units (`skip`: within a block from the shared-prefix lengths alone, across blocks by galloping over their first
 * terms, compared in place). The current term is kept as code units (`units`, `length`: no string is made unless
 * asked for); `shared`: code units it shares with the term before it (after a skip: with the skipped prefix).
 */
class Cursor {
  index = 0;
  length = 0;
  shared = 0;
  units = new Uint16Array(64);
  private at = 0;
  private readonly bytes: Uint8Array;
  private readonly blocks: Uint32Array;
  private readonly size: number;
  private readonly wide: boolean;

  constructor(parts: VocabularyParts) {
    this.bytes = parts.bytes;
    this.blocks = parts.blocks;
    this.size = parts.numbers.length;
    this.wide = parts.wide;
  }

  term(): string {
    return String.fromCharCode(...this.units.subarray(0, this.length));
  }

  /** To term `start` (decoding from its block's first); false when there is none. */
  seek(start: number): boolean {
    if (start >= this.size) return false;
    this.load(Math.floor(start / BLOCK));
    while (this.index < start) this.next();
    return true;
  }

  next(): boolean {
    const i = this.index + 1;
    if (i >= this.size) return false;
    if (i % BLOCK === 0) this.load(i / BLOCK);
    else this.entry(varint(this.bytes, this.at), after);
    return true;
  }

  /** Past every term starting with the current term's first `l` code units; false when none is left. */
  skip(l: number): boolean {
    // units[0..l) stay the prefix p throughout: skipped entries are not decoded, the first block loaded starts with p.
    const unit = this.wide ? 2 : 1;
    for (;;) {
      // Within the block: a term sharing ≥ l code units with the one before starts with p too.
      while ((this.index + 1) % BLOCK !== 0 && this.index + 1 < this.size) {
        const s = varint(this.bytes, this.at);
        if (s < l) {
          this.entry(s, after);
          return true;
        }
        const len = varint(this.bytes, after);
        this.at = after + len * unit;
        this.index++;
      }
      if (this.index + 1 >= this.size) return false;
      const b = (this.index + 1) / BLOCK;
      const nb = this.blocks.length;
      if (!this.firstStartsWith(b, l)) {
        this.load(b);
        if (this.shared > l) this.shared = l;
        return true;
      }
      // Blocks b.. start with p: gallop to the first that does not; the run of p ends in the block before it.
      let lo = b;
      let hi = b + 1;
      for (let step = 1; hi < nb && this.firstStartsWith(hi, l); step *= 2) {
        lo = hi;
        hi = b + step * 2;
      }
      if (hi > nb) hi = nb;
      while (lo + 1 < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.firstStartsWith(mid, l)) lo = mid;
        else hi = mid;
      }
      this.load(lo);
    }
  }

  /** The next entry of a block: it shares s code units with the current term, its suffix length's varint at a. */
  private entry(s: number, a: number): void {
    const len = varint(this.bytes, a);
    this.shared = s;
    this.at = this.decode(after, s, len, false);
    this.index++;
  }

  private load(block: number): void {
    const len = varint(this.bytes, this.blocks[block]!); // block < blocks.length
    this.at = this.decode(after, 0, len, true);
    this.index = block * BLOCK;
  }

  /** Code units [from, from + len) of the term from byte a; returns the byte after them. `compare`: sets shared. */
  private decode(a: number, from: number, len: number, compare: boolean): number {
    const end = from + len;
    if (end > this.units.length) {
      const grown = new Uint16Array(Math.max(end, 2 * this.units.length));
      grown.set(this.units);
      this.units = grown;
    }
    const units = this.units;
    const bytes = this.bytes;
    let same = compare ? Math.min(this.length, end) : 0;
    // k < end ≤ units.length; the bytes were written by encode.
    for (let k = from; k < end; k++) {
      const x = this.wide ? bytes[a]! | (bytes[a + 1]! << 8) : bytes[a]!;
      a += this.wide ? 2 : 1;
      if (compare && k < same && units[k] !== x) same = k;
      units[k] = x;
    }
    if (compare) this.shared = same;
    this.length = end;
    return a;
  }

  /** The current term against s, by code unit: negative, 0 or positive. */
  compare(s: string): number {
    const n = Math.min(this.length, s.length);
    for (let k = 0; k < n; k++) {
      const d = this.units[k]! - s.charCodeAt(k); // k < length ≤ units.length
      if (d !== 0) return d;
    }
    return this.length - s.length;
  }

  /** The first term of `block` against s, compared in place. */
  compareFirst(block: number, s: string): number {
    const len = varint(this.bytes, this.blocks[block]!); // block < blocks.length
    const a = after;
    const bytes = this.bytes;
    const n = Math.min(len, s.length);
    for (let k = 0; k < n; k++) {
      const x = this.wide ? bytes[a + 2 * k]! | (bytes[a + 2 * k + 1]! << 8) : bytes[a + k]!;
      const d = x - s.charCodeAt(k);
      if (d !== 0) return d;
    }
    return len - s.length;
  }

  /** Whether the first term of `block` starts with units[0..l), compared in place. */
  private firstStartsWith(block: number, l: number): boolean {
    const len = varint(this.bytes, this.blocks[block]!);
    if (len < l) return false;
    const a = after;
    const bytes = this.bytes;
    const units = this.units;
    for (let k = 0; k < l; k++) {
      const x = this.wide ? bytes[a + 2 * k]! | (bytes[a + 2 * k + 1]! << 8) : bytes[a + k]!;
      if (x !== units[k]) return false;
    }
    return true;
  }
}

/** The byte after the last varint read (varint returns its value). */
let after = 0;

function varint(bytes: Uint8Array, at: number): number {
  let v = 0;
  let shift = 0;
  let b: number;
  do {
    b = bytes[at++]!;
    v += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  after = at;
  return v;
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
