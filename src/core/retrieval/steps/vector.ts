import type { Step } from './step';

/** When the permitted share of the corpus is below this, vector pre-filtering uses exact search. */
export const EXACT_FALLBACK_SHARE = 0.05;

/**
 * The query's embedding against the document vectors: HNSW, or exact search (with `exact`, or when a pre-filter
 * leaves too few documents for the graph to find enough of them).
 */
export const vectorStep: Step = {
  name: 'vector',
  stage: 'vector',
  retrieves: true,
  runs: ({ exact, embedder, config }) => !!(exact && embedder && config.vector),
  async run({ exact, hnsw, embedder, config, vectorCache }, { text, options, pre }) {
    const v = config.vector!;
    const depth = options.stageDepth ?? v.depth;
    const embed = async () => (await embedder!.embed([text], 'query', options.signal))[0];
    const q = vectorCache ? await vectorCache.vector(text, embed) : await embed();
    // Unfiltered lists are cached under every setting that shapes them, so a cached list is what a search returns.
    if (!hnsw && !pre && vectorCache) return vectorCache.hits(`exact\u0000${depth}\u0000${text}`, () => exact!.search(q, depth));
    if (!hnsw) return { hits: exact!.search(q, depth, pre) };
    if (!pre && vectorCache) return vectorCache.hits(`hnsw\u0000${depth}\u0000${v.hnsw.efSearch}\u0000${text}`, () => hnsw.search(q, depth, v.hnsw.efSearch));
    if (!pre) return { hits: hnsw.search(q, depth, v.hnsw.efSearch) };
    const permitted = exact!.permittedCount(pre);
    const share = exact!.size ? permitted / exact!.size : 0;
    const hits = share < EXACT_FALLBACK_SHARE ? undefined : hnsw.search(q, depth, v.hnsw.efSearch, pre);
    if (hits && hits.length >= Math.min(depth, permitted)) return { hits };
    return { hits: exact!.search(q, depth, pre), notes: [`vector: exact filtered fallback (${(share * 100).toFixed(1)}% permitted)`] };
  },
};
