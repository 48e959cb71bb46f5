/**
 * The verdict on one response of an access check: what counts as a leak and where, and the checks of a search view
 * and of suggestions against the source (the files' access fields). check-acl.ts runs them over a local pipeline,
 * engine-check.ts over an external engine.
 */
import type { Principal } from '../acl/policy';
import type { Suggestion } from '../retrieval/pipeline';
import type { SearchView } from './search-view';
import type { SourceTruth } from './source-truth';

/** Where a forbidden document showed through. */
export type LeakPlace = 'results' | 'total' | 'suggestion' | 'facet' | 'snippet';
export const LEAK_PLACES: readonly LeakPlace[] = ['results', 'total', 'suggestion', 'facet', 'snippet'];

export interface AclViolation {
  config: string;
  principal: string;
  /** The query, or the typed prefix for a suggestion. */
  query: string;
  /** The forbidden document ('' when a count is too high but no single document can be named). */
  docId: string;
  where: LeakPlace;
  detail: string;
}

export interface PostFilterDepth {
  /** The config's `acl.candidates`. */
  candidates: number;
  /** Mean page fill if the page took the first `candidates` of the unfiltered list (= what post-filter gives). */
  fillAtCandidates: number;
  /** Mean page fill with an unlimited candidate list (what pre-filter can reach for this ranking). */
  fillPossible: number;
  /**
   * Smallest candidate depth N such that at least 95% of the queries fill their page as far as the
   * permitted matches allow (min(pageSize, permitted matches)); null when even the deepest list does not.
   */
  depthFor95: number | null;
  /** Length of the deepest unfiltered list looked at (the whole ranking). */
  deepest: number;
}

export interface PrincipalAclReport {
  queries: number;
  prefixes: number;
  resultsChecked: number;
  suggestionsChecked: number;
  violations: number;
  byPlace: Record<LeakPlace, number>;
  /** Documents the principal may see according to the source files. */
  visibleDocuments: number;
  /** Documents the index filter lets through although the source forbids them (a stale or broken filter): a failure. */
  filterExtra: number;
  /** Their ids, sorted. */
  filterExtraDocuments: string[];
  /** Mean of (results returned / page size) over the queries. */
  pageFill: number;
  /** Queries whose page has fewer than pageSize results / none at all. */
  shortPages: number;
  emptyPages: number;
  /**
   * recall@pageSize over the queries that count as this principal (`judgmentsVisibleTo`, as `eval --as`), judged on
   * the documents they may see; null when no query counts.
   */
  recall: number | null;
  /** Queries the recall mean is over. */
  recallQueries: number;
  /** Queries left out because every relevant document is invisible to the principal. */
  excludedQueries: string[];
  postFilter?: PostFilterDepth;
  /** Engine configs: queries the engine could not answer (not checked, so the check fails). */
  failedQueries?: number;
  /** Engine configs: queries whose hit count exceeds the matches listed for verification (MATCH_LIMIT). */
  countsUnverified?: number;
}

export interface VerifyContext {
  config: string;
  query: string;
  /** Most documents `total` may count: permitted matching documents per the source (see checkAcl). */
  totalBound?: number;
}

/**
 * Checks one search response against the source: every result, every snippet, every document counted in the
 * total and every facet count must come from a document the principal may see.
 */
export function verifySearchView(
  view: Pick<SearchView, 'results' | 'total' | 'facets' | 'matches'>,
  truth: SourceTruth,
  principal: Principal,
  ctx: VerifyContext,
): AclViolation[] {
  const out: AclViolation[] = [];
  const flag = (where: LeakPlace, docId: string, detail: string) =>
    out.push({ config: ctx.config, principal: principal.name, query: ctx.query, docId, where, detail });
  for (const r of view.results) {
    const visible = truth.isVisible(principal, r.id);
    if (!visible)
      flag(
        'results',
        r.id,
        truth.docs.has(r.id) ? 'returned, but the source metadata does not permit it' : 'returned, but it is not in the source corpus',
      );
    if (r.snippet !== undefined) {
      const text = visible ? truth.snippetText(r.id) : undefined;
      const core = r.snippet.replace(/^…/, '').replace(/…$/, '').trim();
      if (text === undefined) flag('snippet', r.id, 'snippet shown from a document the principal may not see');
      else if (!text.includes(core)) flag('snippet', r.id, 'snippet text does not come from this (permitted) document');
    }
  }
  const forbidden = view.matches.filter((id) => !truth.isVisible(principal, id));
  for (const id of forbidden) flag('total', id, 'counted in the hit count and facets, but not permitted');
  if (forbidden.length === 0 && ctx.totalBound !== undefined && view.total > ctx.totalBound) {
    flag('total', '', `hit count ${view.total} is more than the ${ctx.totalBound} permitted matching documents`);
  }
  const expected = new Map<string, number>();
  for (const id of view.matches) {
    if (!truth.isVisible(principal, id)) continue;
    for (const tag of new Set(truth.tags(id))) expected.set(tag, (expected.get(tag) ?? 0) + 1);
  }
  for (const [tag, n] of Object.entries(view.facets.tags)) {
    const allowed = expected.get(tag) ?? 0;
    if (n > allowed) {
      const culprit = forbidden.find((id) => truth.tags(id).includes(tag)) ?? '';
      flag('facet', culprit, `tag "${tag}" shows ${n}, permitted matching documents carry it ${allowed} time(s)`);
    }
  }
  return out;
}

/** Every suggestion (as displayed) must consist of terms that one document the principal may see contains. */
export function verifySuggestions(
  suggestions: readonly Pick<Suggestion, 'suggestion'>[],
  truth: SourceTruth,
  principal: Principal,
  ctx: VerifyContext & { termIndex: Map<string, string[]> },
): AclViolation[] {
  const out: AclViolation[] = [];
  for (const s of suggestions) {
    const holders = truth.docsWithTerms(s.suggestion.split(' ').filter(Boolean), ctx.termIndex);
    if (holders.some((id) => truth.isVisible(principal, id))) continue;
    out.push({
      config: ctx.config,
      principal: principal.name,
      query: ctx.query,
      docId: holders[0] ?? '',
      where: 'suggestion',
      detail: holders.length
        ? `"${s.suggestion}" occurs only in documents the principal may not see`
        : `"${s.suggestion}" occurs in no source document`,
    });
  }
  return out;
}
