import { rerankCandidates } from '../rerank';
import type { Step } from './step';

/** The first `topN` candidates scored by the reranker; the best `topM` kept, in its order. */
export const rerankStep: Step = {
  name: 'rerank',
  stage: 'rerank',
  runs: ({ reranker, config }) => !!(reranker && config.rerank),
  async run({ reranker, config, docsById, rerankCache }, { text, hits, options }) {
    const r = config.rerank!;
    const out = await rerankCandidates(reranker!, text, hits, docsById, {
      topN: r.topN, topM: r.topM, maxPassageChars: r.maxPassageChars, cache: rerankCache, signal: options.signal,
    });
    return { hits: out.hits, cached: out.scored === 0 };
  },
};
