import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { HierarchicalNSW } from 'hnswlib-node';
import type { HnswParams } from '../config/types';
import { tempPathBeside, writeFileAtomic } from '../util/atomic-write';
import { type Slicer, type Steps, runSliced, runSync } from '../util/cooperative';
import type { ScoredId } from './ranking';

/**
 * HNSW (hnswlib-node) over document vectors, with a label <-> doc id mapping. Updates use markDelete + addPoint
 * (a changed document gets a fresh label); the index grows by doubling when full.
 */
export class HnswIndex {
  private readonly labelToId: Array<string | undefined> = [];
  private readonly idToLabel = new Map<string, number>();

  private constructor(
    private readonly hnsw: HierarchicalNSW,
    readonly dimension: number,
    readonly space: 'cosine' | 'ip',
    readonly params: HnswParams,
  ) {}

  static build(
    ids: readonly string[],
    vectors: readonly ArrayLike<number>[],
    dimension: number,
    space: 'cosine' | 'ip',
    params: HnswParams,
  ): HnswIndex {
    return runSync(HnswIndex.buildSteps(ids, vectors, dimension, space, params));
  }

  /** `build` pausing between points (hnswlib's addPoint blocks); stops with the slicer's abort reason. */
  static buildSliced(
    ids: readonly string[],
    vectors: readonly ArrayLike<number>[],
    dimension: number,
    space: 'cosine' | 'ip',
    params: HnswParams,
    slicer: Slicer,
  ): Promise<HnswIndex> {
    return runSliced(HnswIndex.buildSteps(ids, vectors, dimension, space, params), slicer);
  }

  private static *buildSteps(
    ids: readonly string[],
    vectors: readonly ArrayLike<number>[],
    dimension: number,
    space: 'cosine' | 'ip',
    params: HnswParams,
  ): Steps<HnswIndex> {
    if (vectors.length !== ids.length) throw new RangeError(`HNSW build: ${vectors.length} vectors for ${ids.length} ids`);
    const hnsw = new HierarchicalNSW(space, dimension);
    hnsw.initIndex(Math.max(16, ids.length), params.M, params.efConstruction, 100);
    const index = new HnswIndex(hnsw, dimension, space, params);
    for (const [i, id] of ids.entries()) {
      index.upsert(id, vectors[i]!); // as many vectors as ids (checked above)
      yield i + 1;
    }
    return index;
  }

  get size(): number {
    return this.idToLabel.size;
  }

  upsert(id: string, vector: ArrayLike<number>): void {
    if (vector.length !== this.dimension) throw new Error(`vector of ${id} has ${vector.length} dimensions, expected ${this.dimension}`);
    const old = this.idToLabel.get(id);
    if (old !== undefined) {
      this.hnsw.markDelete(old);
      this.labelToId[old] = undefined;
    }
    const label = this.labelToId.length;
    if (label >= this.hnsw.getMaxElements()) this.hnsw.resizeIndex(Math.max(16, this.hnsw.getMaxElements() * 2));
    this.hnsw.addPoint(Array.from(vector), label);
    this.labelToId.push(id);
    this.idToLabel.set(id, label);
  }

  delete(id: string): void {
    const label = this.idToLabel.get(id);
    if (label === undefined) return;
    this.hnsw.markDelete(label);
    this.labelToId[label] = undefined;
    this.idToLabel.delete(id);
  }

  /** Best first. Scores are similarities (1 - cosine distance, or the inner product). */
  search(query: ArrayLike<number>, k: number, efSearch = this.params.efSearch, filter?: (docId: string) => boolean): ScoredId[] {
    const n = Math.min(k, this.size);
    if (n <= 0) return [];
    this.hnsw.setEf(Math.max(efSearch, n));
    const labelFilter = filter
      ? (label: number) => {
          const id = this.labelToId[label];
          return id !== undefined && filter(id);
        }
      : undefined;
    const { neighbors, distances } = this.hnsw.searchKnn(Array.from(query), n, labelFilter);
    const out: ScoredId[] = [];
    for (const [i, label] of neighbors.entries()) {
      const id = this.labelToId[label];
      if (id !== undefined) out.push({ id, score: 1 - distances[i]! }); // a distance per neighbour
    }
    return out;
  }

  /** Writes `hnsw.bin` and `labels.json` into `dir` (both atomically). */
  save(dir: string): void {
    mkdirSync(dir, { recursive: true });
    const tmp = tempPathBeside(join(dir, 'hnsw.bin'));
    this.hnsw.writeIndexSync(tmp);
    renameSync(tmp, join(dir, 'hnsw.bin'));
    writeFileAtomic(
      join(dir, 'labels.json'),
      JSON.stringify({ dimension: this.dimension, space: this.space, params: this.params, labels: this.labelToId }),
    );
  }

  /** Loads what `save` wrote, or returns undefined when it is missing or unreadable. */
  static load(dir: string): HnswIndex | undefined {
    const bin = join(dir, 'hnsw.bin');
    const meta = join(dir, 'labels.json');
    if (!existsSync(bin) || !existsSync(meta)) return undefined;
    try {
      const m = JSON.parse(readFileSync(meta, 'utf8')) as {
        dimension: number;
        space: 'cosine' | 'ip';
        params: HnswParams;
        labels: Array<string | null>;
      };
      const hnsw = new HierarchicalNSW(m.space, m.dimension);
      hnsw.readIndexSync(bin);
      const index = new HnswIndex(hnsw, m.dimension, m.space, m.params);
      m.labels.forEach((id, label) => {
        index.labelToId[label] = id ?? undefined;
        if (id != null) index.idToLabel.set(id, label);
      });
      return index;
    } catch {
      return undefined;
    }
  }
}
