import { embedQuery } from '../providers/embed';
import { rankOf, type Step } from './step';

/** When the permitted share of the corpus is below this, vector pre-filtering uses exact search. */
export const EXACT_FALLBACK_SHARE = 0.05;

/**
 * The query's embedding against the document vectors: HNSW, or exact search (with `exact`, or when a pre-filter
 * leaves too few documents for the graph to find enough of them).
 */
export const vectorStep: Step = {
  name: 'vector',
  retrieves: true,
  runs: ({ exact, embedder, config }) => !!(exact && embedder && config.vector),
  async run({ exact, hnsw, embedder, config, vectorCache }, { text, options, pre }) {
    const v = config.vector!;
    const depth = options.stageDepth ?? v.depth;
    const embed = () => embedQuery(embedder!, text, options.signal);
    const q = vectorCache ? await vectorCache.vector(text, embed) : await embed();
    // Unfiltered lists are cached under every setting that shapes them, so a cached list is what a search returns.
    if (!hnsw && !pre && vectorCache) return vectorCache.hits(`exact\u0000${depth}\u0000${text}`, () => exact!.search(q, depth));
    if (!hnsw) return { hits: exact!.search(q, depth, pre) };
    if (!pre && vectorCache)
      return vectorCache.hits(`hnsw\u0000${depth}\u0000${v.hnsw.efSearch}\u0000${text}`, () => hnsw.search(q, depth, v.hnsw.efSearch));
    if (!pre) return { hits: hnsw.search(q, depth, v.hnsw.efSearch) };
    const permitted = exact!.permittedCount(pre);
    const share = exact!.size ? permitted / exact!.size : 0;
    const hits = share < EXACT_FALLBACK_SHARE ? undefined : hnsw.search(q, depth, v.hnsw.efSearch, pre);
    if (hits && hits.length >= Math.min(depth, permitted)) return { hits };
    return { hits: exact!.search(q, depth, pre), notes: [`vector: exact filtered fallback (${(share * 100).toFixed(1)}% permitted)`] };
  },
  async explain({ exact, hnsw, embedder, config }, { text, options, pre }, out, docId) {
    const depth = options.stageDepth ?? config.vector!.depth;
    const q = await embedQuery(embedder!, text, options.signal);
    const producedBy = !hnsw || out.notes?.some((n) => n.startsWith('vector: exact')) ? ('exact' as const) : ('hnsw' as const);
    const all = exact!.search(q, exact!.size, pre);
    const exactRank = rankOf(all, docId);
    // rankOf's rank is a position (from 1) in the list it searched.
    const exactSimilarity = exactRank === null ? null : all[exactRank - 1]!.score;
    const rank = rankOf(out.hits, docId);
    const similarity = rank === null ? exactSimilarity : out.hits[rank - 1]!.score;
    const vector = {
      similarity,
      producedBy,
      exactRank,
      exactSimilarity,
      differsFromExact: rank !== exactRank && (rank !== null || exactRank! <= depth),
      depth,
    };
    const base = { step: 'vector' as const, vector };
    if (rank !== null) {
      const vsExact = producedBy === 'hnsw' && rank !== exactRank ? `; exact search ranks it ${exactRank ?? 'nowhere'}` : '';
      return {
        ...base,
        rank,
        score: out.hits[rank - 1]!.score,
        outcome: 'kept',
        note: `rank ${rank} by ${producedBy} (similarity ${similarity!.toFixed(4)})${vsExact}`,
      };
    }
    if (!exact!.vectorOf(docId))
      return { ...base, rank: null, score: null, outcome: 'not-matched', note: 'not matched (no vector for this document)' };
    if (pre && !pre(docId)) return { ...base, rank: null, score: null, outcome: 'filtered', note: 'filtered by access' };
    if (exactRank !== null && exactRank <= depth) {
      return {
        ...base,
        rank: null,
        score: null,
        outcome: 'not-matched',
        note: `not found by HNSW (exact search ranks it ${exactRank}, within depth ${depth})`,
      };
    }
    return { ...base, rank: null, score: null, outcome: 'below-depth', note: `below depth ${depth} (exact rank ${exactRank})` };
  },
};
