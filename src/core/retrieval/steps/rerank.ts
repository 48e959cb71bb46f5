import { rerankCandidates } from '../rerank';
import { rankOf, type Step } from './step';

/** The first `topN` candidates scored by the reranker; the best `topM` kept, in its order. */
export const rerankStep: Step = {
  name: 'rerank',
  runs: ({ reranker, config }) => !!(reranker && config.rerank),
  async run({ reranker, config, docsById, rerankCache }, { text, hits, options }) {
    const r = config.rerank!;
    const out = await rerankCandidates(reranker!, text, hits, docsById, {
      topN: r.topN,
      topM: r.topM,
      maxPassageChars: r.maxPassageChars,
      cache: rerankCache,
      signal: options.signal,
    });
    return { hits: out.hits, cached: out.scored === 0 };
  },
  explain({ reranker, config, docsById, rerankCache }, { text, hits }, out, docId) {
    const { topN, topM } = config.rerank!;
    const rankBefore = rankOf(hits, docId);
    const rankAfter = rankOf(out.hits, docId);
    const doc = docsById.get(docId);
    // Every candidate scored went through the shared cache (rerankCandidates), so a candidate cut by topM is there too.
    // (rankOf's rank is a position, from 1, in the list it searched.)
    const modelScore =
      rankAfter !== null ? out.hits[rankAfter - 1]!.score : doc ? (rerankCache.get(reranker!.id, text, doc.hash) ?? null) : null;
    const rerank = { modelScore, rankBefore, rankAfter, topN, topM };
    if (rankAfter !== null)
      return {
        step: 'rerank',
        rank: rankAfter,
        score: modelScore,
        outcome: 'kept',
        note: `model score ${modelScore!.toFixed(4)}: rank ${rankBefore} → ${rankAfter}`,
        rerank,
      };
    if (rankBefore === null)
      return { step: 'rerank', rank: null, score: null, outcome: 'not-reached', note: 'not among its candidates', rerank };
    if (rankBefore > topN)
      return {
        step: 'rerank',
        rank: null,
        score: null,
        outcome: 'below-depth',
        note: `not reranked: rank ${rankBefore} is beyond topN ${topN}`,
        rerank,
      };
    return {
      step: 'rerank',
      rank: null,
      score: modelScore,
      outcome: 'below-depth',
      note: `model score ${modelScore?.toFixed(4) ?? '?'} puts it below topM ${topM}`,
      rerank,
    };
  },
};
