import { reciprocalRankFusion } from '../fusion';
import type { Step } from './step';

/** The lexical and the vector list fused by weighted reciprocal rank fusion (a hybrid config). */
export const fuseStep: Step = {
  name: 'fuse',
  stage: 'fused',
  runs: ({ config }, { outputs }) => !!(config.hybrid && outputs.has('lexical') && outputs.has('vector')),
  run({ config }, { outputs, options }) {
    const h = config.hybrid!;
    const depth = options.stageDepth ?? h.depth;
    const hits = reciprocalRankFusion([
      { name: 'lexical', docs: outputs.get('lexical')!.hits, weight: h.weights.lexical, depth },
      { name: 'vector', docs: outputs.get('vector')!.hits, weight: h.weights.vector, depth },
    ], h.k).slice(0, depth);
    return { hits };
  },
};
