import type { DocFilter } from './doc-filter';
import { compareScored, type ScoredId } from './ranking';
import { halfTable, halfValue, toHalfBits } from './simd/half';
import { dotF16, dotF32, dotI8, l2F32 } from './simd/js-kernels';
import { type ScanKernels, instantiateScanKernels, scanModule } from './simd/kernels';

/** Similarity of the exact index: cosine, inner product, or negated squared Euclidean distance (larger = closer). */
export type ExactSpace = 'cosine' | 'ip' | 'l2';
/** How the exact index stores vectors: float32 as given, float16 (half the memory), int8 with a per-vector scale (a quarter). */
export type VectorStorage = 'float32' | 'float16' | 'int8';

export interface ExactIndexOptions {
  storage?: VectorStorage;
  /** Rows to make room for at first (grows by doubling). */
  capacity?: number;
  /** 'auto' (default): WebAssembly SIMD when available, else JS; 'simd' throws when it is not available. */
  kernel?: 'auto' | 'simd' | 'js';
}

// Rows are padded with zeros to whole 128-bit lanes, so the kernels never handle a partial lane.
const LANE_ELEMENTS: Record<VectorStorage, number> = { float32: 4, float16: 8, int8: 16 };
const ELEMENT_BYTES: Record<VectorStorage, number> = { float32: 4, float16: 2, int8: 1 };
const WASM_PAGE = 65536;
const INT8_MAX = 127;
/**
 * Above this share of the rows, a permitted set is searched by scanning every row and skipping the others
 * when selecting: rows read in sequence stream at memory speed, scattered rows cost about four times as
 * much each (measured with bench/vector-scan.mts: break-even near 20–30% at 100k × 384).
 */
const DENSE_SHARE = 0.25;

/**
 * Brute-force nearest neighbours over one contiguous matrix (in the kernels' WebAssembly memory, or a plain
 * buffer for the JS kernels). Rows are addressed by doc id; deleted rows are reused. Vectors are normalised
 * for cosine when stored. Each search scores a list of rows (all live rows, or the rows of a permitted set,
 * computed once per set and index layout; a dense set scans all rows and masks), then keeps the top k in
 * compareScored order (score desc, id desc).
 *
 * Scores: float32 rows are summed in float32 by the SIMD kernel (in float64 by the JS kernels). int8 rows
 * are integers times a per-row scale (max |x| / 127) and are multiplied exactly with the query quantised to
 * int16; float16 rows are IEEE halves. For l2 with float16/int8, -|q-x|^2 = -(|q|^2 - 2 q·x + |x|^2) with
 * |x|^2 of the stored vector.
 */
export class ExactIndex {
  readonly storage: VectorStorage;
  readonly kernel: 'simd' | 'js';
  /** Elements per stored row (the dimension rounded up to whole lanes). */
  private readonly padded: number;
  /** Bytes per stored row (a multiple of 16). */
  private readonly stride: number;
  /** Rows the matrix has room for; the kernels' scratch (query, row list, scores) lies after them. */
  private capacity: number;
  private readonly wasm?: ScanKernels;
  private bytes = new ArrayBuffer(0);
  private f32 = new Float32Array(0);
  private u16 = new Uint16Array(0);
  private i8 = new Int8Array(0);
  private rowScale = new Float64Array(0);
  private rowNorm2 = new Float64Array(0);
  private readonly rowIds: Array<string | undefined> = [];
  private readonly rowOf = new Map<string, number>();
  private readonly freeRows: number[] = [];
  /** Changes whenever a row is taken or freed: row lists computed before are stale. */
  private layoutVersion = 0;
  private live?: { version: number; rows: Int32Array };
  private readonly permittedRows = new WeakMap<ReadonlySet<string>, PermittedRows>();
  private scores = new Float64Array(0);

  constructor(
    readonly dimension: number,
    readonly space: ExactSpace = 'cosine',
    options: ExactIndexOptions = {},
  ) {
    this.storage = options.storage ?? 'float32';
    const lanes = LANE_ELEMENTS[this.storage];
    this.padded = Math.max(lanes, Math.ceil(dimension / lanes) * lanes);
    this.stride = this.padded * ELEMENT_BYTES[this.storage];
    const wanted = options.kernel ?? 'auto';
    const module = wanted === 'js' ? undefined : scanModule();
    if (wanted === 'simd' && !module) throw new Error('exact search: the WebAssembly SIMD kernels are not available');
    this.wasm = module ? instantiateScanKernels(module) : undefined;
    this.kernel = this.wasm ? 'simd' : 'js';
    this.capacity = 0;
    this.grow(Math.max(1, options.capacity ?? 1024));
  }

  get size(): number {
    return this.rowOf.size;
  }

  ids(): string[] {
    return [...this.rowOf.keys()];
  }

  /** The stored vector (normalised for cosine; as decoded from float16/int8). */
  vectorOf(id: string): Float32Array | undefined {
    const row = this.rowOf.get(id);
    if (row === undefined) return undefined;
    const off = row * this.padded;
    const out = new Float32Array(this.dimension);
    // A stored row lies within the buffer (its padded elements) and has its scale (rowScale: capacity rows).
    for (let j = 0; j < this.dimension; j++) {
      out[j] =
        this.storage === 'float32'
          ? this.f32[off + j]!
          : this.storage === 'float16'
            ? halfValue(this.u16[off + j]!)
            : this.i8[off + j]! * this.rowScale[row]!;
    }
    return out;
  }

  /** Adds or replaces the vector of `id`. */
  set(id: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimension) throw new Error(`vector of ${id} has ${vector.length} dimensions, expected ${this.dimension}`);
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.freeRows.pop() ?? this.rowIds.length;
      if (row >= this.capacity) this.grow(Math.max(row + 1, this.capacity * 2));
      this.rowOf.set(id, row);
      this.rowIds[row] = id;
      this.layoutVersion++;
    }
    this.encode(row, vector);
  }

  delete(id: string): void {
    const row = this.rowOf.get(id);
    if (row === undefined) return;
    this.rowOf.delete(id);
    this.rowIds[row] = undefined;
    this.freeRows.push(row);
    this.layoutVersion++;
  }

  /** How many stored vectors `filter` lets through (for a `permitted` filter: from its cached row list). */
  permittedCount(filter?: DocFilter): number {
    return filter?.permitted ? this.permittedRowsOf(filter.permitted).rows.length : this.rowsFor(filter).length;
  }

  /**
   * Top k by similarity, best first; `filter` limits the rows considered. A filter carrying its `permitted`
   * set costs in proportion to the permitted rows (no call per row); any other filter is called per row.
   */
  search(query: ArrayLike<number>, k: number, filter?: DocFilter): ScoredId[] {
    if (query.length !== this.dimension) throw new Error(`query vector has ${query.length} dimensions, expected ${this.dimension}`);
    let rows: Int32Array;
    let mask: Uint8Array | undefined;
    let top: number;
    if (filter?.permitted) {
      const p = this.permittedRowsOf(filter.permitted);
      top = Math.min(k, p.rows.length);
      // dense: scan every row in sequence and skip the others when selecting
      rows = p.mask ? this.liveRows() : p.rows;
      mask = p.mask;
    } else {
      rows = this.rowsFor(filter);
      top = Math.min(k, rows.length);
    }
    top = Math.floor(top);
    if (!(top > 0)) return [];
    return selectTop(this.scoreRows(query, rows), rows, top, this.rowIds, mask);
  }

  /** The rows of a permitted set, computed once per set and index layout (plus a row mask when it is dense). */
  private permittedRowsOf(permitted: ReadonlySet<string>): PermittedRows {
    let cached = this.permittedRows.get(permitted);
    if (!cached || cached.version !== this.layoutVersion) {
      const list: number[] = [];
      for (const id of permitted) {
        const row = this.rowOf.get(id);
        if (row !== undefined) list.push(row);
      }
      const rows = Int32Array.from(list).sort(); // ascending: the scan walks memory forwards
      let mask: Uint8Array | undefined;
      if (rows.length > DENSE_SHARE * this.rowOf.size) {
        mask = new Uint8Array(this.rowIds.length);
        for (const row of rows) mask[row] = 1;
      }
      cached = { version: this.layoutVersion, rows, mask };
      this.permittedRows.set(permitted, cached);
    }
    return cached;
  }

  /** Every live row, or those a filter function accepts (called per row). */
  private rowsFor(filter?: (docId: string) => boolean): Int32Array {
    if (!filter) return this.liveRows();
    const live = this.liveRows();
    const out = new Int32Array(live.length);
    let n = 0;
    for (let i = 0; i < live.length; i++) if (filter(this.rowIds[live[i]!]!)) out[n++] = live[i]!; // a live row has its id
    return out.subarray(0, n);
  }

  private liveRows(): Int32Array {
    if (this.live?.version !== this.layoutVersion) {
      const rows = new Int32Array(this.rowOf.size);
      let n = 0;
      for (let r = 0; r < this.rowIds.length; r++) if (this.rowIds[r] !== undefined) rows[n++] = r;
      this.live = { version: this.layoutVersion, rows };
    }
    return this.live.rows;
  }

  private encode(row: number, vector: ArrayLike<number>): void {
    const d = this.dimension;
    const off = row * this.padded;
    const scale = this.space === 'cosine' ? inverseNorm(vector) : 1;
    // j < d = vector.length (checked by set); the row's elements lie within the buffer, its scale within rowScale.
    if (this.storage === 'float32') {
      const m = this.f32;
      for (let j = 0; j < d; j++) m[off + j] = vector[j]! * scale;
      m.fill(0, off + d, off + this.padded); // the padding must be zero (this memory may have been scratch)
      return;
    }
    let norm2 = 0;
    if (this.storage === 'float16') {
      const m = this.u16;
      for (let j = 0; j < d; j++) {
        const bits = toHalfBits(vector[j]! * scale);
        m[off + j] = bits;
        norm2 += halfValue(bits) ** 2;
      }
      m.fill(0, off + d, off + this.padded);
    } else {
      const m = this.i8;
      let max = 0;
      for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(vector[j]! * scale));
      const s = max / INT8_MAX;
      for (let j = 0; j < d; j++) {
        const v = s > 0 ? Math.round((vector[j]! * scale) / s) : 0;
        m[off + j] = v;
        norm2 += (v * s) ** 2;
      }
      m.fill(0, off + d, off + this.padded);
      this.rowScale[row] = s;
    }
    this.rowNorm2[row] = norm2;
  }

  /** Scores of `rows` (in that order) in a reused buffer. */
  private scoreRows(query: ArrayLike<number>, rows: Int32Array): Float64Array {
    const n = rows.length;
    if (this.scores.length < n) this.scores = new Float64Array(Math.max(n, this.scores.length * 2));
    const out = this.scores;
    const d = this.dimension;
    const scale = this.space === 'cosine' ? inverseNorm(query) : 1;
    // j < d = query.length (checked by search) ≤ padded = q.length; i < n = rows.length ≤ out.length, and a row's
    // scale and norm are in rowScale / rowNorm2 (capacity rows).
    let qNorm2 = 0;
    if (this.storage === 'int8') {
      // The query as int16 with its own scale; every partial sum stays below 2^31 (exact integer products).
      let max = 0;
      for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(query[j]! * scale));
      const top = Math.min(32767, Math.floor((2 ** 31 - 1) / (INT8_MAX * this.padded)));
      const qs = max / top;
      const q = new Int16Array(this.padded);
      for (let j = 0; j < d; j++) {
        const x = query[j]! * scale;
        q[j] = qs > 0 ? Math.round(x / qs) : 0;
        qNorm2 += x * x;
      }
      this.run('dot_i8', q, rows, out);
      for (let i = 0; i < n; i++) out[i]! *= qs * this.rowScale[rows[i]!]!;
    } else {
      const q = new Float32Array(this.padded);
      for (let j = 0; j < d; j++) q[j] = query[j]! * scale;
      for (let j = 0; j < d; j++) qNorm2 += q[j]! * q[j]!;
      this.run(this.storage === 'float16' ? 'dot_f16' : this.space === 'l2' ? 'l2_f32' : 'dot_f32', q, rows, out);
    }
    if (this.space === 'l2' && this.storage !== 'float32') {
      for (let i = 0; i < n; i++) out[i] = 0 - (qNorm2 - 2 * out[i]! + this.rowNorm2[rows[i]!]!); // 0 - s: never -0
    }
    return out;
  }

  private run(
    kernel: 'dot_f32' | 'l2_f32' | 'dot_f16' | 'dot_i8',
    q: Float32Array | Int16Array,
    rows: Int32Array,
    out: Float64Array,
  ): void {
    const n = rows.length;
    const P = this.padded;
    if (!this.wasm) {
      if (kernel === 'dot_f32') dotF32(this.f32, q as Float32Array, P, rows, n, out);
      else if (kernel === 'l2_f32') l2F32(this.f32, q as Float32Array, P, rows, n, out);
      else if (kernel === 'dot_f16') dotF16(this.u16, halfTable(), q as Float32Array, P, rows, n, out);
      else dotI8(this.i8, q as Int16Array, P, rows, n, out);
      return;
    }
    // Scratch after the matrix: query, row list, results.
    const qAt = align16(this.capacity * this.stride);
    const rowsAt = qAt + align16(q.byteLength);
    const outAt = rowsAt + align16(4 * n);
    this.reserve(outAt + 4 * n);
    if (q instanceof Int16Array) new Int16Array(this.bytes, qAt, q.length).set(q);
    else new Float32Array(this.bytes, qAt, q.length).set(q);
    new Int32Array(this.bytes, rowsAt, n).set(rows);
    this.wasm[kernel](qAt, 0, this.stride, rowsAt, n, outAt, P);
    const result = kernel === 'dot_i8' ? new Int32Array(this.bytes, outAt, n) : new Float32Array(this.bytes, outAt, n);
    for (let i = 0; i < n; i++) out[i] = result[i]!; // result is n long
  }

  private grow(capacity: number): void {
    this.reserve(capacity * this.stride);
    if (this.storage !== 'float32') {
      const scale = new Float64Array(capacity);
      scale.set(this.rowScale);
      this.rowScale = scale;
      const norms = new Float64Array(capacity);
      norms.set(this.rowNorm2);
      this.rowNorm2 = norms;
    }
    this.capacity = capacity;
  }

  /** Makes the buffer at least `size` bytes long, keeping its content, and renews the views of it. */
  private reserve(size: number): void {
    if (this.bytes.byteLength >= size) return;
    if (this.wasm) {
      const memory = this.wasm.memory;
      const missing = size - memory.buffer.byteLength;
      try {
        if (missing > 0) memory.grow(Math.ceil(missing / WASM_PAGE));
      } catch {
        throw new Error(
          `exact search: ${(size / 2 ** 30).toFixed(1)} GiB of vectors do not fit in WebAssembly memory (4 GiB at most); use "storage": "float16" or "int8" (half or a quarter of the size)`,
        );
      }
      this.bytes = memory.buffer;
    } else {
      const grown = new ArrayBuffer(align16(Math.max(size, this.bytes.byteLength * 2)));
      new Uint8Array(grown).set(new Uint8Array(this.bytes));
      this.bytes = grown;
    }
    this.f32 = new Float32Array(this.bytes);
    this.u16 = new Uint16Array(this.bytes);
    this.i8 = new Int8Array(this.bytes);
  }
}

interface PermittedRows {
  version: number;
  rows: Int32Array;
  /** For a dense set: 1 for each permitted row (indexed by row). */
  mask?: Uint8Array;
}

function align16(n: number): number {
  return Math.ceil(n / 16) * 16;
}

function inverseNorm(v: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j]! * v[j]!;
  return s > 0 ? 1 / Math.sqrt(s) : 0;
}

/**
 * The k best of `rows` by `scores` (same positions), in compareScored order, leaving out rows that `mask`
 * has at 0: a heap of k positions whose root is the worst kept, so most rows cost one comparison.
 */
function selectTop(
  scores: Float64Array,
  rows: Int32Array,
  k: number,
  ids: ReadonlyArray<string | undefined>,
  mask?: Uint8Array,
): ScoredId[] {
  const heap = new Int32Array(k);
  let size = 0;
  // heap[0..size) holds positions i < rows.length (scores has one per row), size ≤ k = heap.length; rows listed
  // are live (their ids are there).
  // a ranks below b: lower score, or the same score and the smaller id (ties go by id descending)
  const below = (a: number, b: number) => scores[a]! < scores[b]! || (scores[a] === scores[b] && ids[rows[a]!]! < ids[rows[b]!]!);
  for (let i = 0; i < rows.length; i++) {
    if (mask && mask[rows[i]!] === 0) continue;
    if (size < k) {
      let c = size++;
      heap[c] = i;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (!below(heap[c]!, heap[p]!)) break;
        [heap[c], heap[p]] = [heap[p]!, heap[c]!];
        c = p;
      }
      continue;
    }
    const s = scores[i]!;
    const worst = scores[heap[0]!]!;
    if (s < worst || (s === worst && ids[rows[i]!]! < ids[rows[heap[0]!]!]!)) continue;
    heap[0] = i;
    let c = 0;
    for (;;) {
      const l = 2 * c + 1;
      const r = l + 1;
      let w = c;
      if (l < size && below(heap[l]!, heap[w]!)) w = l;
      if (r < size && below(heap[r]!, heap[w]!)) w = r;
      if (w === c) break;
      [heap[c], heap[w]] = [heap[w]!, heap[c]!];
      c = w;
    }
  }
  const out: ScoredId[] = [];
  for (let h = 0; h < size; h++) out.push({ id: ids[rows[heap[h]!]!]!, score: scores[heap[h]!]! });
  return out.sort(compareScored);
}

/**
 * ANN recall@k: per query |ann top-k ∩ exact top-k| / k, averaged over queries. When fewer than k documents can be
 * returned (small or filtered corpus), the denominator is the exact list's length (capped at k).
 */
export function annRecallAtK(ann: readonly (readonly string[])[], exact: readonly (readonly string[])[], k: number): number {
  if (ann.length !== exact.length) throw new Error('annRecallAtK: ann and exact need one list per query');
  if (exact.length === 0) return 1;
  let sum = 0;
  for (const [i, list] of exact.entries()) {
    const truth = list.slice(0, k);
    if (truth.length === 0) {
      sum += 1;
      continue;
    }
    const want = new Set(truth);
    let hit = 0;
    for (const id of ann[i]!.slice(0, k)) if (want.has(id)) hit++; // as many lists as exact (checked above)
    sum += hit / truth.length;
  }
  return sum / exact.length;
}
