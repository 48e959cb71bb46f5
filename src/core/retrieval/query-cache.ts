import type { ScoredId } from './ranking';

const LIMIT = 4000;

/**
 * Per-query results of a vector stage that do not depend on the config's boosts, weights or fusion: the query's
 * embedding, and the unfiltered neighbours at a given depth and effective ef (exact keys, so a cached list is the
 * list a fresh search returns). Held by the vector stage, so every engine sharing the stage shares it; emptied when
 * the vectors change. Least recently used entries go first beyond `limit` queries.
 */
export class VectorQueryCache {
  private readonly vectors = new Map<string, Float32Array>();
  private readonly neighbours = new Map<string, ScoredId[]>();

  constructor(private readonly limit = LIMIT) {}

  /** The query's embedding, computed once. */
  async vector(text: string, compute: () => Promise<Float32Array>): Promise<Float32Array> {
    const hit = touch(this.vectors, text);
    if (hit) return hit;
    const v = await compute();
    put(this.vectors, text, v, this.limit);
    return v;
  }

  /** The unfiltered neighbours under `key` (search kind, depth, ef, query text), searched once. */
  hits(key: string, compute: () => ScoredId[]): { hits: ScoredId[]; cached: boolean } {
    const hit = touch(this.neighbours, key);
    if (hit) return { hits: hit.slice(), cached: true };
    const hits = compute();
    put(this.neighbours, key, hits.slice(), this.limit);
    return { hits, cached: false };
  }

  clear(): void {
    this.vectors.clear();
    this.neighbours.clear();
  }
}

function touch<V>(map: Map<string, V>, key: string): V | undefined {
  const v = map.get(key);
  if (v === undefined) return undefined;
  map.delete(key);
  map.set(key, v);
  return v;
}

function put<V>(map: Map<string, V>, key: string, value: V, limit: number): void {
  if (map.size >= limit) map.delete(map.keys().next().value as string);
  map.set(key, value);
}
