/**
 * What engines of one session share: one built part (the lexical index, the vector stage, the reranker) per
 * index-shaping setting, and with it that part's per-query caches (per-field BM25 scores, query vectors and
 * neighbours, reranker scores). Two configs that differ only in boosts, `combineWith`, coordination, depths, BM25
 * parameters, prefix/fuzzy, RRF k or list weights get the same parts: evaluating the second is a recombination of
 * what the first cached, not a new index and a new search.
 */
import { stableStringify } from '../config/defaults';
import type { RankConfig } from '../config/types';
import { abortable } from '../util/cooperative';
import { configAnalyzer } from './analyzer';

export type SharedPartKind = 'lexical' | 'vector' | 'rerank';

/**
 * The sharing key of each part a config's engine builds: every setting that changes what the part holds, and
 * nothing that is applied per query. Lexical: the field list (in order: per-field scores are summed in that order)
 * and the analyzer; BM25 k1/b/d, prefix and fuzzy are part of the per-query score cache's key instead, so they
 * share the index. Vector: the embedder's settings, the space, exact search and its storage, the HNSW graph's
 * build parameters (efSearch is a search setting, part of the neighbour cache's key) and, for LSA, the analyzer
 * it is trained with. Rerank: the model's settings.
 */
export function indexShareKeys(config: RankConfig): Partial<Record<SharedPartKind, string>> {
  const keys: Partial<Record<SharedPartKind, string>> = {};
  if (config.lexical) keys.lexical = stableStringify({ fields: Object.keys(config.lexical.fields), analyzer: config.lexical.analyzer });
  if (config.vector) {
    const v = config.vector;
    keys.vector = stableStringify({
      embedder: v.embedder,
      space: v.space,
      exact: v.exact,
      storage: v.exact ? (v.storage ?? null) : null,
      hnsw: v.exact ? null : { M: v.hnsw.M, efConstruction: v.hnsw.efConstruction },
      analyzer: v.embedder.provider === 'lsa' ? configAnalyzer(config).key : null,
    });
  }
  if (config.rerank) keys.rerank = stableStringify(config.rerank.provider);
  return keys;
}

/** A part as an engine got it: the part, and the config whose engine built it. */
export interface SharedPart<T> {
  value: T;
  owner: string;
}

interface Entry {
  owner: string;
  pending: Promise<unknown>;
  /** The cancellation of the build still running (cleared once built). */
  signal?: AbortSignal;
}

/**
 * The parts of one session's engines by kind and key. A build follows the cancellation of the engine that started
 * it; an engine waiting for it stops only on its own cancellation and starts the build again if the starter
 * cancelled. A failed build is forgotten (the next engine tries again).
 */
export class SharedParts {
  private readonly entries = new Map<string, Entry>();

  /**
   * The part of `kind` under `key`: the one built already, else `make()`'s. `usable` says whether a built part
   * still serves (e.g. it was built from another corpus than the caller's); if not, it is replaced.
   */
  async use<T>(
    kind: SharedPartKind,
    key: string,
    owner: string,
    make: () => Promise<T>,
    opts: { signal?: AbortSignal; usable?: (part: T) => boolean } = {},
  ): Promise<SharedPart<T>> {
    const id = `${kind}\u0000${key}`;
    for (;;) {
      let entry = this.entries.get(id);
      if (entry?.signal?.aborted) entry = undefined;
      if (!entry) {
        const created: Entry = { owner, pending: make(), signal: opts.signal };
        created.pending.then(
          () => (created.signal = undefined),
          () => {
            if (this.entries.get(id) === created) this.entries.delete(id);
          },
        );
        this.entries.set(id, (entry = created));
      }
      let value: T;
      try {
        value = (await abortable(entry.pending, opts.signal)) as T;
      } catch (e) {
        if (entry.signal !== opts.signal && entry.signal?.aborted && !opts.signal?.aborted) continue;
        throw e;
      }
      if (opts.usable && !opts.usable(value)) {
        if (this.entries.get(id) === entry) this.entries.delete(id);
        continue;
      }
      return { value, owner: entry.owner };
    }
  }

  /** Forgets every part (engines holding one keep it). */
  clear(): void {
    this.entries.clear();
  }
}
