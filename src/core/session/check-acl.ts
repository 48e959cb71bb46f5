import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type RankConfig, modeLabel } from '../config';
import type { Document } from '../corpus/document';
import { readCorpusFile } from '../corpus';
import { judgmentsVisibleTo } from '../judgments';
import { evaluateRun, parseMetric } from '../metrics';
import { configAnalyzer } from '../retrieval/analyzer';
import type { Run } from '../run/types';
import type { RanklabSession } from './session';
import { InputError } from '../util/diagnostics';
import { maySee } from '../acl/policy';
import { findPrincipal } from '../acl/principals';
import { ReferenceAcl } from '../acl/reference-acl';
import { type SearchView, buildSearchView, suggestFor, tagCounts } from './search-view';
import { SourceTruth } from './source-truth';
import { checkEngineConfig } from './engine-check';
import { isRemoteEngine } from '../engines/remote-engine';

// The verdict on one response (what a leak is, and the checks) lives in acl-verify.ts, shared with engine-check.ts.
export {
  type AclViolation,
  LEAK_PLACES,
  type LeakPlace,
  type PostFilterDepth,
  type PrincipalAclReport,
  verifySearchView,
  verifySuggestions,
} from './acl-verify';
import {
  type AclViolation,
  type LeakPlace,
  type PostFilterDepth,
  type PrincipalAclReport,
  verifySearchView,
  verifySuggestions,
} from './acl-verify';

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
  /** Those documents (all of them, in file order). */
  documentsWithoutAclList: { id: string; file: string; line: number }[];
  missingAcl: 'public' | 'private';
  /** Whether ranklab.json sets `acl.missingAcl`; documents public only by an unstated default fail the check. */
  missingAclStated: boolean;
  /** Principals checked, of the entries of the principals file (or of those asked for); skipped entries had an error. */
  principals: { checked: string[]; total: number; skipped: { name?: string; file: string; line: number; reason: string }[] };
  /** Documents with a present but invalid access field: visible to nobody, and a failure unless allowed. */
  invalidAcl: number;
  invalidAclDocuments: { id: string; file: string; line: number; fields: string[] }[];
  queries: number;
  prefixes: number;
  /** Engine configs: where the access fields the results were verified against came from. */
  aclSource?: Record<string, 'corpus' | 'engine'>;
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
  /**
   * Engine configs: verify against the access fields of the workspace's corpus files (`corpus`), or fetch them
   * from the engine (`engine`); `auto` (default): the corpus when the workspace has one.
   */
  aclSource?: 'corpus' | 'engine' | 'auto';
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
    const [first] = words;
    if (first === undefined) continue;
    for (let n = 1; n <= Math.min(first.length, 8); n++) out.add(first.slice(0, n));
    out.add(first);
    for (const [i, word] of words.entries()) {
      if (i === 0) continue;
      const before = words.slice(0, i).join(' ');
      for (const n of [1, 2, 3]) if (n < word.length) out.add(`${before} ${word.slice(0, n)}`);
      out.add(`${before} ${word}`);
    }
  }
  return [...out];
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
  const reference = await ReferenceAcl.fromDiskSliced(
    session.root,
    session.workspace.settings.corpus,
    policy,
    work.phase('corpus', 0, 'access check'),
  );
  const truth = await SourceTruth.fromDiskSliced(
    session.root,
    session.workspace.settings.corpus,
    reference,
    work.phase('corpus', 0, 'access check'),
  );
  const all = session.principals();
  const source = session.relativePath(session.principalsFile() ?? 'principals.json');
  const skipped = session.skippedPrincipals().filter((s) => !opts.principals || (s.name !== undefined && opts.principals.includes(s.name)));
  // A name whose only entries were skipped is reported as not checked; any other unknown name is an input error.
  const principals = (opts.principals ?? all.map((p) => p.name))
    .filter((n) => all.some((p) => p.name === n) || !skipped.some((s) => s.name === n))
    .map((n) => findPrincipal(all, n, source));
  // A mapping or rule that matches nothing: nothing can be checked (exit 2), rather than everything passing.
  session.requireDecidableAccess();
  const configs =
    opts.configs ??
    session
      .configEntries()
      .filter((e) => e.config)
      .map((e) => e.config!);
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
    violations: [],
    checked: 0,
    byPrincipal: {},
    configs: [],
    failed: [],
    documents: truth.docs.size,
    documentsWithoutAcl: 0,
    documentsWithoutAclList: reference.missingAclDocuments(truth.docs.keys()),
    missingAcl: policy.missingAcl,
    missingAclStated: settings.acl.missingAclStated,
    principals: {
      checked: principals.map((p) => p.name),
      total: principals.length + skipped.length,
      skipped: skipped.map((s) => ({ ...s, file: source })),
    },
    invalidAcl: 0,
    invalidAclDocuments: reference.invalidDocuments(truth.docs.keys()),
    queries: queries.length,
    prefixes: prefixes.length,
  };
  report.invalidAcl = report.invalidAclDocuments.length;
  report.documentsWithoutAcl = report.documentsWithoutAclList.length;

  for (const config of configs) {
    opts.signal?.throwIfAborted();
    // A config that cannot run (e.g. a reranker model that is not available offline; it may fail only at the
    // first query) is reported and the others are still checked.
    try {
      const part = await checkConfig(config);
      report.configs.push({
        name: config.name,
        mode: modeLabel(config),
        aclMode: config.engine ? 'engine filter' : config.acl.mode,
        pageSize: config.pageSize,
      });
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
    if (isRemoteEngine(engine)) {
      const source = opts.aclSource === 'engine' || ((opts.aclSource ?? 'auto') === 'auto' && truth.docs.size === 0) ? 'engine' : 'corpus';
      const r = await checkEngineConfig({
        config,
        engine,
        principals,
        queries,
        judgments,
        policy,
        relevanceThreshold: settings.relevanceThreshold,
        gain: settings.gain,
        truth: source === 'corpus' ? truth : undefined,
        docs,
        analyzer: configAnalyzer(config),
        signal: opts.signal,
        onProgress: opts.onProgress,
      });
      (report.aclSource ??= {})[config.name] = r.aclSource;
      return r;
    }
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
      const r = await engine.search(q.text, {
        collectMatches: true,
        stageDepth: postFilter ? corpus.docs.length : undefined,
        signal: opts.signal,
      });
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
      const extra = corpus.docs
        .map((d) => d.id)
        .filter((id) => filter(id) && !visible.has(id))
        .sort();
      const pr: PrincipalAclReport = {
        queries: 0,
        prefixes: 0,
        resultsChecked: 0,
        suggestionsChecked: 0,
        violations: 0,
        byPlace: emptyByPlace(),
        visibleDocuments: visible.size,
        filterExtra: extra.length,
        filterExtraDocuments: extra,
        pageFill: 0,
        shortPages: 0,
        emptyPages: 0,
        recall: null,
        recallQueries: 0,
        excludedQueries: [],
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
        run.set(
          q.qid,
          view.results.map((r) => ({ id: r.id, score: r.score })),
        );
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
      const counted = judgmentsVisibleTo(judgments, (id) => visible.has(id), {
        principal: principal.name,
        relevanceThreshold: settings.relevanceThreshold,
      });
      const spec = parseMetric(`recall@${config.pageSize}`);
      const evaluation = evaluateRun(run, counted.judgments, [spec], {
        gain: settings.gain,
        relevanceThreshold: settings.relevanceThreshold,
      });
      pr.excludedQueries = counted.excluded.map((x) => x.qid);
      pr.recallQueries = evaluation.queries;
      pr.recall = evaluation.queries ? (evaluation.means[spec.name] ?? null) : null;
      if (postFilter)
        pr.postFilter = postFilterDepth(
          [...unfiltered.values()].map((u) => u.ranking),
          visible,
          config.pageSize,
          config.acl.candidates,
        );
      perPrincipal[principal.name] = pr;
    }
    slicer.end();
    return part;
  }
}

/** See PostFilterDepth. `rankings` are the unfiltered final rankings, one per query. */
export function postFilterDepth(
  rankings: readonly string[][],
  visible: ReadonlySet<string>,
  pageSize: number,
  candidates: number,
): PostFilterDepth {
  const needs: number[] = [];
  const atCandidates: number[] = [];
  const possible: number[] = [];
  for (const ranking of rankings) {
    const permitted = ranking.filter((id) => visible.has(id)).length;
    const want = Math.min(pageSize, permitted);
    possible.push(want / pageSize);
    atCandidates.push(Math.min(pageSize, ranking.slice(0, candidates).filter((id) => visible.has(id)).length) / pageSize);
    let need = 0;
    let seen = 0;
    for (const [i, id] of ranking.entries()) {
      if (seen >= want) break;
      if (visible.has(id)) seen++;
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
    depthFor95: needs[Math.max(0, k)] ?? null, // null when there is no ranking
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
      failures.push(
        `the index filter of ${name} permits ${r.filterExtra} document(s) the source files forbid: ${preview(r.filterExtraDocuments)} (config ${config}; a stale or broken filter)`,
      );
    }
  }
  for (const [config, byPrincipal] of Object.entries(report.byPrincipal)) {
    const failed = Object.entries(byPrincipal).filter(([, r]) => r.failedQueries);
    if (failed.length)
      failures.push(
        `config ${config}: ${failed.map(([name, r]) => `${r.failedQueries} quer${r.failedQueries === 1 ? 'y' : 'ies'} as ${name}`).join(', ')} could not be checked (the engine did not answer)`,
      );
  }
  if (report.invalidAcl) {
    const where = report.invalidAclDocuments.map((d) => `${d.file}:${d.line} (${d.id}: ${d.fields.join(', ')})`);
    (opts.allowInvalidAcl ? warnings : failures).push(
      `${report.invalidAcl} document(s) with invalid or misspelled access fields, visible to nobody: ${preview(where)}`,
    );
  }
  // A check that did not check is not a pass: what was left out is named.
  for (const f of report.failed) failures.push(`config ${f.config} was not checked: ${f.message}`);
  for (const s of report.principals.skipped)
    failures.push(`principal ${s.name ? `"${s.name}"` : 'entry'} at ${s.file}:${s.line} was not checked: ${s.reason}`);
  if (report.documentsWithoutAcl && report.missingAcl === 'public') {
    const where = report.documentsWithoutAclList.map((d) => `${d.id} (${d.file}${d.line ? `:${d.line}` : ''})`);
    const message = `${report.documentsWithoutAcl} document(s) have none of the fields the access rule reads and are public only by acl.missingAcl: ${preview(where)}`;
    if (report.missingAclStated) warnings.push(message);
    else failures.push(`${message}; ranklab.json does not set "acl.missingAcl": state "public" if that is meant, or "private"`);
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
  const principal =
    principalName === undefined
      ? undefined
      : findPrincipal(session.principals(), principalName, session.principalsFile() ?? 'principals.json', session.skippedPrincipals());
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
    else if (principal && !maySee(policy, principal, fresh))
      out.dropped.push({ id, reason: `${path}: access changed on disk; ${principal.name} may not see it` });
    else out.kept.push(id);
  }
  return out;
}

/**
 * `search --verify`: runs the display check over every document behind the view (the page, the hit count and
 * the facets) and returns the view without the dropped ones: results filtered, `total` and the tag facets
 * recounted, and a note saying what was checked.
 */
export function verifyView(
  session: RanklabSession,
  principalName: string | undefined,
  view: SearchView,
): { view: SearchView; dropped: DisplayCheck['dropped'] } {
  const ids = [...new Set([...view.results.map((r) => r.id), ...view.matches])];
  const check = verifyAtDisplay(session, principalName, ids);
  const dropped = new Set(check.dropped.map((d) => d.id));
  const matches = view.matches.filter((id) => !dropped.has(id));
  const what =
    principalName === undefined
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
