import { fuseHybrid } from '../fusion';
import { rankOf, type Step } from './step';

/** The lexical and the vector list fused by weighted reciprocal rank fusion (a hybrid config). */
export const fuseStep: Step = {
  name: 'fuse',
  runs: ({ config }, { outputs }) => !!(config.hybrid && outputs.has('lexical') && outputs.has('vector')),
  run({ config }, { outputs, options }) {
    const h = config.hybrid!;
    const depth = options.stageDepth ?? h.depth;
    return { hits: fuseHybrid(h, outputs.get('lexical')!.hits, outputs.get('vector')!.hits, depth) };
  },
  explain({ config }, { outputs, options }, out, docId) {
    const h = config.hybrid!;
    const depth = options.stageDepth ?? h.depth;
    // The same sum as reciprocalRankFusion, in its order, so it equals the fused score exactly.
    const lists = (['lexical', 'vector'] as const).map((name) => {
      const r = rankOf(outputs.get(name)!.hits.slice(0, depth), docId);
      const weight = h.weights[name];
      return { name, rank: r, weight, contribution: r === null ? 0 : weight / (h.k + r) };
    });
    const sum = lists.reduce((s, l) => s + l.contribution, 0);
    const fusion = { k: h.k, depth, lists, sum };
    const rank = rankOf(out.hits, docId);
    const parts = lists.map((l) => `${l.name} ${l.rank ?? '-'}`).join(', ');
    if (rank !== null)
      // rankOf's rank is a position (from 1) in the list it searched
      return { step: 'fuse', rank, score: out.hits[rank - 1]!.score, outcome: 'kept', note: `rank ${rank} (${parts})`, fusion };
    if (lists.every((l) => l.rank === null))
      return { step: 'fuse', rank: null, score: null, outcome: 'not-reached', note: 'in neither list', fusion };
    return { step: 'fuse', rank: null, score: sum, outcome: 'below-depth', note: `below depth ${depth} (${parts})`, fusion };
  },
};
