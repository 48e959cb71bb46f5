import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type RankConfig, modeLabel } from '../config';
import type { Document } from '../corpus/document';
import { readCorpusFile } from '../corpus';
import { judgmentsVisibleTo } from '../judgments';
import { evaluateRun, parseMetric } from '../metrics';
import { configAnalyzer } from '../retrieval/analyzer';
import type { Suggestion } from '../retrieval/pipeline';
import type { Run } from '../run/types';
import type { RanklabSession } from './session';
import { InputError } from '../util/diagnostics';
import { type Principal, maySee } from '../acl/policy';
import { findPrincipal } from '../acl/principals';
import { ReferenceAcl } from '../acl/reference-acl';
import { type SearchView, buildSearchView, suggestFor, tagCounts } from './search-view';
import { SourceTruth } from './source-truth';

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
}

export interface AclReport {
  violations: AclViolation[];
  /** Responses verified: searches plus suggestion lists, over every config and principal. */
  checked: number;
  byPrincipal: Record<string, Record<string, PrincipalAclReport>>;
  configs: { name: string; mode: string; aclMode: string; pageSize: number }[];
  failed: { config: string; message: string }[];
  documents: number;
  /** Documents with none of the fields the rule reads; they are public or private according to `missingAcl`. */
  documentsWithoutAcl: number;
  missingAcl: 'public' | 'private';
  /** Documents with a present but invalid access field: visible to nobody, and a failure unless allowed. */
  invalidAcl: number;
  invalidAclDocuments: { id: string; file: string; line: number; fields: string[] }[];
  queries: number;
  prefixes: number;
}

export interface CheckAclOptions {
  configs?: RankConfig[];
  principals?: string[];
  /** Check autocomplete for the typing prefixes of every query (default true). */
  prefixes?: boolean;
  /** Stops the check (between queries and prefixes, at most ~50 ms apart) with the abort reason. */
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
  /** Called when a config has been checked completely (or reported as failed). */
  onConfigDone?: (config: string) => void;
  /**
   * Replaces the filter handed to retrieval (not the one used for verification). For testing the checker
   * itself: a deliberately broken predicate (a wrong rule, a lenient field parser) must be caught.
   */
  filterFor?: (principal: string, filter: (docId: string) => boolean) => (docId: string) => boolean;
}

/**
 * Prefixes a user types on the way to a query, bounded: the first word letter by letter (1..min(length, 8)
 * letters), then for each later word up to the fourth, the words before it plus its first 1, 2 and 3 letters
 * and the whole word. Lower-cased, whitespace collapsed, deduplicated over all queries.
 */
export function typingPrefixes(queries: readonly string[], maxWords = 4): string[] {
  const out = new Set<string>();
  for (const q of queries) {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean).slice(0, maxWords);
    if (words.length === 0) continue;
    for (let n = 1; n <= Math.min(words[0].length, 8); n++) out.add(words[0].slice(0, n));
    out.add(words[0]);
    for (let i = 1; i < words.length; i++) {
      const before = words.slice(0, i).join(' ');
      for (const n of [1, 2, 3]) if (n < words[i].length) out.add(`${before} ${words[i].slice(0, n)}`);
      out.add(`${before} ${words[i]}`);
    }
  }
  return [...out];
}

interface VerifyContext {
  config: string;
  query: string;
  /** Most documents `total` may count: permitted matching documents per the source (see checkAcl). */
  totalBound?: number;
}

/**
 * Checks one search response against the source: every result, every snippet, every document counted in the
 * total and every facet count must come from a document the principal may see.
 */
export function verifySearchView(view: Pick<SearchView, 'results' | 'total' | 'facets' | 'matches'>, truth: SourceTruth, principal: Principal, ctx: VerifyContext): AclViolation[] {
  const out: AclViolation[] = [];
  const flag = (where: LeakPlace, docId: string, detail: string) => out.push({ config: ctx.config, principal: principal.name, query: ctx.query, docId, where, detail });
  for (const r of view.results) {
    const visible = truth.isVisible(principal, r.id);
    if (!visible) flag('results', r.id, truth.docs.has(r.id) ? 'returned, but the source metadata does not permit it' : 'returned, but it is not in the source corpus');
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
export function verifySuggestions(suggestions: readonly Pick<Suggestion, 'suggestion'>[], truth: SourceTruth, principal: Principal, ctx: VerifyContext & { termIndex: Map<string, string[]> }): AclViolation[] {
  const out: AclViolation[] = [];
  for (const s of suggestions) {
    const holders = truth.docsWithTerms(s.suggestion.split(' ').filter(Boolean), ctx.termIndex);
    if (holders.some((id) => truth.isVisible(principal, id))) continue;
    out.push({
      config: ctx.config, principal: principal.name, query: ctx.query, docId: holders[0] ?? '', where: 'suggestion',
      detail: holders.length ? `"${s.suggestion}" occurs only in documents the principal may not see` : `"${s.suggestion}" occurs in no source document`,
    });
  }
  return out;
}

function emptyByPlace(): Record<LeakPlace, number> {
  return { results: 0, total: 0, suggestion: 0, facet: 0, snippet: 0 };
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/**
 * Runs every labeled query (and every typing prefix, for autocomplete) as every principal under every
 * config and verifies that nothing shown comes from a document the principal may not see, re-deriving
 * visibility from the corpus files. Also measures page fill, recall as the principal and, for post-filter
 * configs, how deep the unfiltered candidate list must be to fill the page.
 */
export async function checkAcl(session: RanklabSession, opts: CheckAclOptions = {}): Promise<AclReport> {
  const work = session.work(opts.signal);
  const policy = session.policy();
  // The corpus files read again (no snapshot, no cache), pausing between files: visibility from the independent
  // reference evaluator over the raw files, text and snippets from a fresh read by the corpus readers.
  const reference = await ReferenceAcl.fromDiskSliced(session.root, session.workspace.settings.corpus, policy, work.phase('corpus', 0, 'access check'));
  const truth = await SourceTruth.fromDiskSliced(session.root, session.workspace.settings.corpus, reference, work.phase('corpus', 0, 'access check'));
  const all = session.principals();
  const source = session.principalsFile() ?? 'principals.json';
  const principals = (opts.principals ?? all.map((p) => p.name)).map((n) => findPrincipal(all, n, source));
  const configs = opts.configs ?? session.configEntries().filter((e) => e.config).map((e) => e.config!);
  const judgments = session.judgments();
  const queries = [...judgments.qrels.keys()]
    .map((qid) => ({ qid, text: judgments.queries.get(qid)?.text ?? '' }))
    .filter((q) => q.text.trim());
  const prefixes = opts.prefixes === false ? [] : typingPrefixes(queries.map((q) => q.text));
  const corpus = await session.loadCorpus(work);
  const byId = new Map<string, Document>(corpus.docs.map((d) => [d.id, d]));
  const docs = (id: string) => byId.get(id);
  const settings = session.workspace.settings;

  const report: AclReport = {
    violations: [], checked: 0, byPrincipal: {}, configs: [], failed: [],
    documents: truth.docs.size, documentsWithoutAcl: reference.followingMissingAcl(truth.docs.keys()), missingAcl: policy.missingAcl,
    invalidAcl: 0, invalidAclDocuments: reference.invalidDocuments(truth.docs.keys()),
    queries: queries.length, prefixes: prefixes.length,
  };
  report.invalidAcl = report.invalidAclDocuments.length;

  for (const config of configs) {
    opts.signal?.throwIfAborted();
    // A config that cannot run (e.g. a reranker model that is not available offline; it may fail only at the
    // first query) is reported and the others are still checked.
    try {
      const part = await checkConfig(config);
      report.configs.push({ name: config.name, mode: modeLabel(config), aclMode: config.acl.mode, pageSize: config.pageSize });
      report.byPrincipal[config.name] = part.perPrincipal;
      report.violations.push(...part.violations);
      report.checked += part.checked;
    } catch (e) {
      if (!(e instanceof InputError) || opts.signal?.aborted) throw e;
      report.failed.push({ config: config.name, message: e.message });
    }
    opts.onConfigDone?.(config.name);
  }
  return report;

  async function checkConfig(config: RankConfig) {
    const part = { perPrincipal: {} as Record<string, PrincipalAclReport>, violations: [] as AclViolation[], checked: 0 };
    const engine = await session.engine(config, work.labelled(config.name));
    const analyzer = configAnalyzer(config);
    const termIndex = config.lexical ? truth.termIndex(Object.keys(config.lexical.fields), analyzer) : undefined;
    const postFilter = config.acl.mode === 'post-filter';
    // Unfiltered, once per query: every matching document (bounds the permitted total) and, for post-filter
    // configs, the whole unfiltered ranking (to count how deep the candidates must go).
    const unfiltered = new Map<string, { matches: string[]; ranking: string[] }>();
    const slicer = work.phase('access-check', queries.length * (1 + principals.length) + prefixes.length * principals.length, config.name);
    let done = 0;
    const step = async () => {
      if (slicer.due()) await slicer.pause(done);
      work.throwIfAborted();
      done++;
    };
    for (const q of queries) {
      await step();
      const r = await engine.search(q.text, { collectMatches: true, stageDepth: postFilter ? corpus.docs.length : undefined, signal: opts.signal });
      unfiltered.set(q.qid, { matches: r.matches ?? [], ranking: r.docs.map((d) => d.id) });
    }
    const vectorDepth = config.vector ? config.vector.depth + (config.lexical?.depth ?? 0) : 0;
    const perPrincipal = part.perPrincipal;

    for (const principal of principals) {
      opts.onProgress?.(`${config.name} as ${principal.name}`);
      const access = session.accessFor(principal.name);
      const filter = opts.filterFor ? opts.filterFor(principal.name, access.filter) : access.filter;
      const visible = truth.visibleIds(principal);
      // The filter retrieval actually used, applied to every indexed document.
      const extra = corpus.docs.map((d) => d.id).filter((id) => filter(id) && !visible.has(id)).sort();
      const pr: PrincipalAclReport = {
        queries: 0, prefixes: 0, resultsChecked: 0, suggestionsChecked: 0, violations: 0, byPlace: emptyByPlace(),
        visibleDocuments: visible.size, filterExtra: extra.length, filterExtraDocuments: extra,
        pageFill: 0, shortPages: 0, emptyPages: 0, recall: null, recallQueries: 0, excludedQueries: [],
      };
      const add = (vs: AclViolation[]) => {
        for (const v of vs) {
          part.violations.push(v);
          pr.byPlace[v.where]++;
        }
        pr.violations += vs.length;
      };
      const fills: number[] = [];
      const run: Run = new Map();
      for (const q of queries) {
        await step();
        const view = await buildSearchView(engine, q.text, { filter, pageSize: config.pageSize, docs, analyzer, signal: opts.signal });
        const u = unfiltered.get(q.qid)!;
        const lexicalBound = u.matches.filter((id) => visible.has(id)).length;
        const totalBound = config.vector ? Math.max(lexicalBound, Math.min(visible.size, vectorDepth)) : lexicalBound;
        add(verifySearchView(view, truth, principal, { config: config.name, query: q.text, totalBound }));
        pr.queries++;
        pr.resultsChecked += view.results.length;
        part.checked++;
        fills.push(view.results.length / config.pageSize);
        if (view.results.length < config.pageSize) pr.shortPages++;
        if (view.results.length === 0) pr.emptyPages++;
        run.set(q.qid, view.results.map((r) => ({ id: r.id, score: r.score })));
      }
      if (termIndex && engine.suggest) {
        for (const prefix of prefixes) {
          await step();
          const suggestions = suggestFor(engine, prefix, { filter, limit: 10 });
          add(verifySuggestions(suggestions, truth, principal, { config: config.name, query: prefix, termIndex }));
          pr.prefixes++;
          pr.suggestionsChecked += suggestions.length;
          part.checked++;
        }
      }
      pr.pageFill = mean(fills);
      const counted = judgmentsVisibleTo(judgments, (id) => visible.has(id), { principal: principal.name, relevanceThreshold: settings.relevanceThreshold });
      const spec = parseMetric(`recall@${config.pageSize}`);
      const evaluation = evaluateRun(run, counted.judgments, [spec], { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold });
      pr.excludedQueries = counted.excluded.map((x) => x.qid);
      pr.recallQueries = evaluation.queries;
      pr.recall = evaluation.queries ? evaluation.means[spec.name] : null;
      if (postFilter) pr.postFilter = postFilterDepth([...unfiltered.values()].map((u) => u.ranking), visible, config.pageSize, config.acl.candidates);
      perPrincipal[principal.name] = pr;
    }
    slicer.end();
    return part;
  }
}

/** See PostFilterDepth. `rankings` are the unfiltered final rankings, one per query. */
export function postFilterDepth(rankings: readonly string[][], visible: ReadonlySet<string>, pageSize: number, candidates: number): PostFilterDepth {
  const needs: number[] = [];
  const atCandidates: number[] = [];
  const possible: number[] = [];
  for (const ranking of rankings) {
    const permitted = ranking.filter((id) => visible.has(id)).length;
    const want = Math.min(pageSize, permitted);
    possible.push(want / pageSize);
    atCandidates.push(Math.min(pageSize, ranking.slice(0, candidates).filter((id) => visible.has(id)).length) / pageSize);
    let need = 0;
    for (let i = 0, seen = 0; i < ranking.length && seen < want; i++) {
      if (visible.has(ranking[i])) seen++;
      need = i + 1;
    }
    needs.push(want === 0 ? 0 : need);
  }
  needs.sort((a, b) => a - b);
  const k = Math.ceil(0.95 * needs.length) - 1;
  return {
    candidates,
    fillAtCandidates: mean(atCandidates),
    fillPossible: mean(possible),
    depthFor95: needs.length ? needs[Math.max(0, k)] : null,
    deepest: Math.max(0, ...rankings.map((r) => r.length)),
  };
}

/**
 * What makes an access check fail, in one place for the CLI and the extension's Testing view: a leak, an index
 * filter that permits what the files forbid (stale or broken), and documents with invalid access fields (a
 * warning instead with `allowInvalidAcl`). Messages name the principal, the config and the documents.
 */
export function aclFindings(report: AclReport, opts: { allowInvalidAcl?: boolean } = {}): { failures: string[]; warnings: string[] } {
  const failures: string[] = [];
  const warnings: string[] = [];
  if (report.violations.length) failures.push(`${report.violations.length} violation(s): something a principal may not see was shown`);
  for (const [config, byPrincipal] of Object.entries(report.byPrincipal)) {
    for (const [name, r] of Object.entries(byPrincipal)) {
      if (r.filterExtra === 0) continue;
      failures.push(`the index filter of ${name} permits ${r.filterExtra} document(s) the source files forbid: ${preview(r.filterExtraDocuments)} (config ${config}; a stale or broken filter)`);
    }
  }
  if (report.invalidAcl) {
    const where = report.invalidAclDocuments.map((d) => `${d.file}:${d.line} (${d.id}: ${d.fields.join(', ')})`);
    (opts.allowInvalidAcl ? warnings : failures).push(`${report.invalidAcl} document(s) with invalid access fields, visible to nobody: ${preview(where)}`);
  }
  return { failures, warnings };
}

function preview(items: readonly string[], max = 10): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} … (+${items.length - max})`;
}

export interface DisplayCheck {
  kept: string[];
  dropped: { id: string; reason: string }[];
}

/**
 * The last check before results are shown: each document's file is read again (not the index, not the
 * corpus snapshot) and the access rule applied to what is on disk now; documents that fail are dropped and
 * reported. Without a principal (unrestricted) it only checks that each document is still in its file.
 * Cost: one read per distinct file of the documents asked about.
 */
export function verifyAtDisplay(session: RanklabSession, principalName: string | undefined, docIds: readonly string[]): DisplayCheck {
  const principal = principalName === undefined ? undefined : findPrincipal(session.principals(), principalName, session.principalsFile() ?? 'principals.json');
  const policy = session.policy();
  const settings = session.workspace.settings.corpus;
  const known = new Map(session.corpus().docs.map((d) => [d.id, d.source.path]));
  const files = new Map<string, Map<string, Document> | undefined>();
  const readFile = (path: string) => {
    if (!files.has(path)) {
      try {
        const abs = join(session.root, path);
        const r = readCorpusFile(abs, path, statSync(abs).size, settings);
        files.set(path, new Map(r.docs.map((d) => [d.id, d])));
      } catch {
        files.set(path, undefined);
      }
    }
    return files.get(path);
  };
  const out: DisplayCheck = { kept: [], dropped: [] };
  for (const id of docIds) {
    const path = known.get(id);
    const fresh = path ? readFile(path)?.get(id) : undefined;
    if (!fresh) out.dropped.push({ id, reason: path ? `no longer in ${path}` : 'not in the corpus' });
    else if (principal && !maySee(policy, principal, fresh)) out.dropped.push({ id, reason: `${path}: access changed on disk; ${principal.name} may not see it` });
    else out.kept.push(id);
  }
  return out;
}

/**
 * `search --verify`: runs the display check over every document behind the view (the page, the hit count and
 * the facets) and returns the view without the dropped ones: results filtered, `total` and the tag facets
 * recounted, and a note saying what was checked.
 */
export function verifyView(session: RanklabSession, principalName: string | undefined, view: SearchView): { view: SearchView; dropped: DisplayCheck['dropped'] } {
  const ids = [...new Set([...view.results.map((r) => r.id), ...view.matches])];
  const check = verifyAtDisplay(session, principalName, ids);
  const dropped = new Set(check.dropped.map((d) => d.id));
  const matches = view.matches.filter((id) => !dropped.has(id));
  const what = principalName === undefined
    ? `verified ${ids.length} documents against the files: unrestricted (no --as), so nothing to hide; checked only that each is still in its file`
    : `verified ${ids.length} documents (the page, the hit count and the facets) against the files as ${principalName}`;
  const notes = [...view.notes, `${what}; ${check.dropped.length ? `${check.dropped.length} dropped` : 'none dropped'}`];
  for (const d of check.dropped) notes.push(`display check dropped ${d.id}: ${d.reason}`);
  return {
    view: {
      ...view,
      results: view.results.filter((r) => !dropped.has(r.id)),
      total: Math.max(0, view.total - (view.matches.length - matches.length)),
      facets: { tags: tagCounts(matches, (id) => session.document(id)) },
      matches,
      notes,
    },
    dropped: check.dropped,
  };
}
