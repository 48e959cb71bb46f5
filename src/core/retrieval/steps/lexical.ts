import type { LexicalConfig } from '../../config/types';
import type { DocFilter } from '../doc-filter';
import type { LexicalQueryOptions } from '../lexical';
import { explainLexical } from '../lexical-explain';
import { rankOf, type Step } from './step';

/** BM25 over the config's fields, boosted (scores per field cached by the index, then recombined: see lexical.ts). */
export const lexicalStep: Step = {
  name: 'lexical',
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
  explain({ lexical, config }, { text, options, pre }, out, docId) {
    const lx = config.lexical!;
    const depth = options.stageDepth ?? lx.depth;
    const detail = explainLexical(lexical!, text, docId, lexicalQuery(lx, depth, pre));
    const base = { step: 'lexical' as const, lexical: detail };
    // rankOf's rank is a position (from 1) in the list it searched.
    const rank = rankOf(out.hits, docId);
    if (rank !== null)
      return {
        ...base,
        rank,
        score: out.hits[rank - 1]!.score,
        outcome: 'kept',
        note: `rank ${rank} of ${out.matched ?? out.hits.length} matches`,
      };
    if (!detail.matched) {
      const why =
        detail.matchedTerms.length === 0
          ? 'no query term in a searched field'
          : `AND: missing ${detail.missingTerms.map((t) => `'${t}'`).join(', ')}`;
      return { ...base, rank: null, score: null, outcome: 'not-matched', note: `not matched (${why})` };
    }
    if (pre && !pre(docId)) return { ...base, rank: null, score: null, outcome: 'filtered', note: 'matched, but filtered by access' };
    const all = lexical!.search(text, lexicalQuery(lx, Infinity, pre)).hits;
    const at = rankOf(all, docId);
    return {
      ...base,
      rank: null,
      score: at === null ? null : all[at - 1]!.score,
      outcome: 'below-depth',
      note: `below depth ${depth} (rank ${at} of ${all.length} matches)`,
    };
  },
};

/** The lexical index's query for a config: its boosts and scoring, at `depth`, through `filter`. */
export function lexicalQuery(lx: LexicalConfig, depth: number, filter?: DocFilter): LexicalQueryOptions {
  return {
    bm25: lx.bm25,
    prefix: lx.prefix,
    fuzzy: lx.fuzzy,
    boosts: lx.fields,
    combineWith: lx.combineWith,
    coordination: lx.coordination,
    depth,
    filter,
  };
}
