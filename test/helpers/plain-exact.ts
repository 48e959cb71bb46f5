// The exact scan as it was before the SIMD kernels (one float64 accumulator, a TopK heap offered every row,
// the filter called per row), kept as the oracle for the property tests and as the baseline of
// bench/vector-scan.mts: the same code, less the methods nothing here calls, plus an 'l2' space
// (-|q - x|^2, as the index defines it).
import { TopK, type ScoredId } from '../../src/core/retrieval/ranking';

export class PlainExactIndex {
  private matrix: Float32Array;
  private rowIds: Array<string | undefined> = [];
  private readonly rowOf = new Map<string, number>();
  private freeRows: number[] = [];

  constructor(
    readonly dimension: number,
    readonly space: 'cosine' | 'ip' | 'l2' = 'cosine',
    capacity = 1024,
  ) {
    this.matrix = new Float32Array(Math.max(1, capacity) * dimension);
  }

  get size(): number {
    return this.rowOf.size;
  }

  /** Adds or replaces the vector of `id`. */
  set(id: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimension) throw new Error(`vector of ${id} has ${vector.length} dimensions, expected ${this.dimension}`);
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.freeRows.pop() ?? this.rowIds.length;
      if ((row + 1) * this.dimension > this.matrix.length) {
        const grown = new Float32Array(Math.max((row + 1) * this.dimension, this.matrix.length * 2));
        grown.set(this.matrix);
        this.matrix = grown;
      }
      this.rowOf.set(id, row);
      this.rowIds[row] = id;
    }
    const off = row * this.dimension;
    const scale = this.space === 'cosine' ? inverseNorm(vector) : 1;
    for (let j = 0; j < this.dimension; j++) this.matrix[off + j] = vector[j] * scale;
  }

  delete(id: string): void {
    const row = this.rowOf.get(id);
    if (row === undefined) return;
    this.rowOf.delete(id);
    this.rowIds[row] = undefined;
    this.freeRows.push(row);
  }

  /** Top k by similarity (cosine or inner product), best first; `filter` limits the rows considered. */
  search(query: ArrayLike<number>, k: number, filter?: (docId: string) => boolean): ScoredId[] {
    const d = this.dimension;
    const q = new Float32Array(d);
    const scale = this.space === 'cosine' ? inverseNorm(query) : 1;
    for (let j = 0; j < d; j++) q[j] = query[j] * scale;
    const heap = new TopK(k);
    const m = this.matrix;
    for (let row = 0; row < this.rowIds.length; row++) {
      const id = this.rowIds[row];
      if (id === undefined) continue;
      if (filter && !filter(id)) continue;
      let s = 0;
      const off = row * d;
      if (this.space === 'l2') {
        for (let j = 0; j < d; j++) s -= (m[off + j] - q[j]) ** 2;
      } else {
        for (let j = 0; j < d; j++) s += m[off + j] * q[j];
      }
      heap.offer(id, s);
    }
    return heap.sorted();
  }
}

function inverseNorm(v: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < v.length; j++) s += v[j] * v[j];
  return s > 0 ? 1 / Math.sqrt(s) : 0;
}
