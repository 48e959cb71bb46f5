import { TopK, type ScoredId } from './ranking';

/**
 * Brute-force nearest neighbours: vectors in one Float32Array matrix (normalised for cosine), dot product,
 * top-k with a small heap. Rows are addressed by doc id; deleted rows are tombstoned and reused.
 */
export class ExactIndex {
  private matrix: Float32Array;
  private rowIds: Array<string | undefined> = [];
  private readonly rowOf = new Map<string, number>();
  private freeRows: number[] = [];

  constructor(readonly dimension: number, readonly space: 'cosine' | 'ip' = 'cosine', capacity = 1024) {
    this.matrix = new Float32Array(Math.max(1, capacity) * dimension);
  }

  get size(): number {
    return this.rowOf.size;
  }

  ids(): string[] {
    return [...this.rowOf.keys()];
  }

  vectorOf(id: string): Float32Array | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.matrix.slice(row * this.dimension, (row + 1) * this.dimension);
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
      for (let j = 0; j < d; j++) s += m[off + j] * q[j];
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

/**
 * ANN recall@k: per query |ann top-k ∩ exact top-k| / k, averaged over queries. When fewer than k documents can be
 * returned (small or filtered corpus), the denominator is the exact list's length (capped at k).
 */
export function annRecallAtK(ann: readonly (readonly string[])[], exact: readonly (readonly string[])[], k: number): number {
  if (ann.length !== exact.length) throw new Error('annRecallAtK: ann and exact need one list per query');
  if (exact.length === 0) return 1;
  let sum = 0;
  for (let i = 0; i < exact.length; i++) {
    const truth = exact[i].slice(0, k);
    if (truth.length === 0) {
      sum += 1;
      continue;
    }
    const want = new Set(truth);
    let hit = 0;
    for (const id of ann[i].slice(0, k)) if (want.has(id)) hit++;
    sum += hit / truth.length;
  }
  return sum / exact.length;
}
