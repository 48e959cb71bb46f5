import type { HybridConfig } from '../config/types';
import { compareScored, type ScoredId } from './ranking';

export interface RrfList {
  name: string;
  /** Best first; only the order is used. */
  docs: readonly { id: string }[];
  weight?: number;
  /** Only the first `depth` documents of this list take part (default: all). */
  depth?: number;
}

export interface FusedDoc extends ScoredId {
  /** 1-based rank of the document in each list that contained it. */
  ranks: Record<string, number>;
}

/**
 * Reciprocal rank fusion: score(d) = Σ_lists w_list / (k + rank_list(d)), ranks 1-based, scores of the input lists
 * ignored. Ties are ordered like everything else (doc id descending), so results are deterministic.
 */
export function reciprocalRankFusion(lists: readonly RrfList[], k = 60): FusedDoc[] {
  const fused = new Map<string, FusedDoc>();
  for (const list of lists) {
    const weight = list.weight ?? 1;
    const depth = Math.min(list.depth ?? Infinity, list.docs.length);
    for (let i = 0; i < depth; i++) {
      const id = list.docs[i]!.id; // i < depth ≤ docs.length
      let entry = fused.get(id);
      if (!entry) {
        entry = { id, score: 0, ranks: {} };
        fused.set(id, entry);
      }
      if (entry.ranks[list.name] !== undefined) continue; // a duplicate further down a list counts once
      entry.ranks[list.name] = i + 1;
      entry.score += weight / (k + i + 1);
    }
  }
  return [...fused.values()].sort(compareScored);
}

/**
 * A hybrid config's fusion, as the fuse step does it: the lexical and the vector list (best first), each cut at
 * `depth`, fused with the config's weights and RRF k, the fused list cut at `depth`. The Tune engine fuses cached
 * lists through this same function, so its lists equal the pipeline's.
 */
export function fuseHybrid(
  h: HybridConfig,
  lexical: readonly { id: string }[],
  vector: readonly { id: string }[],
  depth: number = h.depth,
): FusedDoc[] {
  return reciprocalRankFusion(
    [
      { name: 'lexical', docs: lexical, weight: h.weights.lexical, depth },
      { name: 'vector', docs: vector, weight: h.weights.vector, depth },
    ],
    h.k,
  ).slice(0, depth);
}
