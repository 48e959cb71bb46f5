import type { LexicalConfig } from '../../config/types';
import type { DocFilter } from '../doc-filter';
import type { LexicalQueryOptions } from '../lexical';
import type { Step } from './step';

/** BM25 over the config's fields, boosted (scores per field cached by the index, then recombined: see lexical.ts). */
export const lexicalStep: Step = {
  name: 'lexical',
  stage: 'lexical',
  retrieves: true,
  runs: ({ lexical, config }) => !!(lexical && config.lexical),
  run({ lexical, config }, { text, options, filter, pre }) {
    const index = lexical!;
    const lx = config.lexical!;
    const cached = index.hasFieldScores(text, lx);
    // Unfiltered once (cached), then the predicate is applied while recombining: same set as MiniSearch's `filter`.
    const r = index.search(text, lexicalQuery(lx, options.stageDepth ?? lx.depth, pre));
    // Post-filter mode retrieves unfiltered; the matches the user may see are counted apart (from the cached scores).
    const matched = filter && !pre ? index.search(text, lexicalQuery(lx, 0, filter)).total : r.total;
    return { hits: r.hits, matched, cached, matches: () => index.search(text, lexicalQuery(lx, Infinity, filter)).hits.map((h) => h.id) };
  },
};

/** The lexical index's query for a config: its boosts and scoring, at `depth`, through `filter`. */
export function lexicalQuery(lx: LexicalConfig, depth: number, filter?: DocFilter): LexicalQueryOptions {
  return { bm25: lx.bm25, prefix: lx.prefix, fuzzy: lx.fuzzy, boosts: lx.fields, combineWith: lx.combineWith, coordination: lx.coordination, depth, filter };
}
