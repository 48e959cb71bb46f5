import { rankOf, type Step } from './step';

/**
 * ACL post-filter mode: retrieval ran unfiltered; of its first `candidates` documents, those the principal may not see
 * are dropped, so the page can come out short (said in a note). Not a stage of the run: the hits keep their ranks.
 */
export const postFilterStep: Step = {
  name: 'post-filter',
  runs: (_parts, { filter, pre }) => !!filter && !pre,
  run({ config }, { hits, options, filter }) {
    const pool = hits.slice(0, options.candidates ?? config.acl.candidates);
    const kept = pool.filter((h) => filter!(h.id));
    const wanted = options.pageSize ?? config.pageSize;
    if (kept.length >= wanted) return { hits: kept };
    return {
      hits: kept,
      notes: [`post-filter: ${kept.length} of ${pool.length} candidates permitted; page of ${wanted} short by ${wanted - kept.length}`],
    };
  },
  explain({ config }, { hits, options, filter }, out, docId) {
    const candidates = options.candidates ?? config.acl.candidates;
    const before = rankOf(hits, docId);
    const rank = rankOf(out.hits, docId);
    if (rank !== null)
      // rankOf's rank is a position (from 1) in the list it searched
      return { step: 'post-filter', rank, score: out.hits[rank - 1]!.score, outcome: 'kept', note: `permitted: rank ${before} → ${rank}` };
    if (before === null) return { step: 'post-filter', rank: null, score: null, outcome: 'not-reached', note: 'not among its candidates' };
    if (!filter!(docId)) return { step: 'post-filter', rank: null, score: null, outcome: 'filtered', note: 'filtered by access' };
    return {
      step: 'post-filter',
      rank: null,
      score: null,
      outcome: 'below-depth',
      note: `rank ${before} is beyond the ${candidates} candidates`,
    };
  },
};
