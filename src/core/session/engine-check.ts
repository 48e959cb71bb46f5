import type { RankConfig } from '../config/types';
import type { Document } from '../corpus/document';
import type { RemoteEngine } from '../engines/remote-engine';
import { type JudgmentSet, judgmentsVisibleTo } from '../judgments';
import { evaluateRun, parseMetric } from '../metrics';
import type { Analyzer } from '../retrieval/analyzer';
import type { SearchResult } from '../retrieval/pipeline';
import type { Run } from '../run/types';
import { type AclPolicy, type Principal, ruleDocFields } from '../acl/policy';
import { ReferenceAcl, storedRecord } from '../acl/reference-acl';
import { searchViewOf, tagsOf } from './search-view';
import { SourceTruth } from './source-truth';
import type { AclViolation, PrincipalAclReport } from './acl-verify';
import { verifySearchView } from './acl-verify';

export interface EngineCheckInput {
  config: RankConfig;
  engine: RemoteEngine;
  principals: Principal[];
  queries: { qid: string; text: string }[];
  judgments: JudgmentSet;
  policy: AclPolicy;
  relevanceThreshold: number;
  gain: 'exp' | 'linear';
  /**
   * What the documents' access fields are, from the workspace's corpus files (read and evaluated by
   * ReferenceAcl). Undefined: fetched from the engine itself (`_mget`, Solr real-time get), for a workspace
   * without a copy of the corpus.
   */
  truth?: SourceTruth;
  /** The workspace's documents (tags for facet counts). */
  docs: (id: string) => Document | undefined;
  analyzer: Analyzer;
  signal?: AbortSignal;
  onProgress?: (message: string) => void;
}

export interface EngineCheckResult {
  perPrincipal: Record<string, PrincipalAclReport>;
  violations: AclViolation[];
  checked: number;
  /** Where the access fields the results were verified against came from. */
  aclSource: 'corpus' | 'engine';
}

/** Queries per `searchMany` call. */
const CHUNK = 100;

/**
 * check-acl against an external engine: every labeled query as every principal, with the engine's own access
 * filter filled from the principal's attributes (or sent with their credentials). Every returned id, and every
 * document behind the hit count (listed up to MATCH_LIMIT per query), is verified against the documents' access
 * fields and the workspace's rule — so a production filter that leaks (a `should` where a `filter` belongs, a
 * missing tenant clause) is found, and one that does not is proven on these queries. A query the engine could not
 * answer is counted (`failedQueries`) and fails the check: what was not checked is not proven.
 */
export async function checkEngineConfig(input: EngineCheckInput): Promise<EngineCheckResult> {
  const { config, engine, principals, queries, signal } = input;
  const answers = new Map<string, Array<SearchResult | Error>>();
  for (const principal of principals) {
    input.onProgress?.(`${config.name} as ${principal.name}`);
    const all: Array<SearchResult | Error> = [];
    for (let i = 0; i < queries.length; i += CHUNK) {
      signal?.throwIfAborted();
      const chunk = queries.slice(i, i + CHUNK).map((q) => q.text);
      all.push(
        ...(await engine.searchMany(chunk, { principal, pageSize: config.pageSize, collectMatches: true, fetchText: true, signal })),
      );
    }
    answers.set(principal.name, all);
  }

  let truth = input.truth;
  if (!truth) {
    const ids = new Set<string>();
    for (const list of answers.values())
      for (const r of list) if (!(r instanceof Error)) for (const id of r.matches ?? r.docs.map((d) => d.id)) ids.add(id);
    for (const docs of input.judgments.qrels.values()) for (const id of docs.keys()) ids.add(id);
    truth = await truthFromEngine(engine, [...ids], input.policy, signal);
  }

  const result: EngineCheckResult = { perPrincipal: {}, violations: [], checked: 0, aclSource: input.truth ? 'corpus' : 'engine' };
  for (const principal of principals) {
    const visible = truth.visibleIds(principal);
    const pr: PrincipalAclReport = {
      queries: 0,
      prefixes: 0,
      resultsChecked: 0,
      suggestionsChecked: 0,
      violations: 0,
      byPlace: { results: 0, total: 0, suggestion: 0, facet: 0, snippet: 0 },
      visibleDocuments: visible.size,
      filterExtra: 0,
      filterExtraDocuments: [],
      pageFill: 0,
      shortPages: 0,
      emptyPages: 0,
      recall: null,
      recallQueries: 0,
      excludedQueries: [],
      failedQueries: 0,
      countsUnverified: 0,
    };
    const fills: number[] = [];
    const run: Run = new Map();
    const mine = answers.get(principal.name)!;
    queries.forEach((q, i) => {
      const r = mine[i];
      // No answer is a failed query, not a passed one: what was not checked is not proven.
      if (r === undefined || r instanceof Error) {
        pr.failedQueries!++;
        return;
      }
      const view = searchViewOf(r, q.text, { docs: input.docs, analyzer: input.analyzer });
      const found = verifySearchView(view, truth!, principal, { config: config.name, query: q.text });
      for (const v of found) pr.byPlace[v.where]++;
      pr.violations += found.length;
      result.violations.push(...found);
      // Every document counted was listed and verified, unless the engine counts more than it listed.
      if (r.total > view.matches.length) pr.countsUnverified!++;
      pr.queries++;
      pr.resultsChecked += view.results.length;
      result.checked++;
      fills.push(view.results.length / config.pageSize);
      if (view.results.length < config.pageSize) pr.shortPages++;
      if (view.results.length === 0) pr.emptyPages++;
      run.set(
        q.qid,
        view.results.map((x) => ({ id: x.id, score: x.score })),
      );
    });
    pr.pageFill = fills.length ? fills.reduce((a, b) => a + b, 0) / fills.length : 0;
    const counted = judgmentsVisibleTo(input.judgments, (id) => visible.has(id), {
      principal: principal.name,
      relevanceThreshold: input.relevanceThreshold,
    });
    const spec = parseMetric(`recall@${config.pageSize}`);
    const evaluation = evaluateRun(run, counted.judgments, [spec], { gain: input.gain, relevanceThreshold: input.relevanceThreshold });
    pr.excludedQueries = counted.excluded.map((x) => x.qid);
    pr.recallQueries = evaluation.queries;
    pr.recall = evaluation.queries ? (evaluation.means[spec.name] ?? null) : null;
    result.perPrincipal[principal.name] = pr;
  }
  return result;
}

/**
 * The access fields of these documents as the engine stores them (`engine.aclFields`, plus any other field the
 * rule reads), to be evaluated with the workspace's rule by ReferenceAcl; an id the engine does not have is
 * visible to nobody. Also returns the stored fields (title, text, tags).
 */
export async function engineReferenceAcl(
  engine: RemoteEngine,
  ids: readonly string[],
  policy: AclPolicy,
  signal?: AbortSignal,
): Promise<{ reference: ReferenceAcl; stored: Map<string, Record<string, unknown>> }> {
  const e = engine.engine;
  // In a rule, tenant/groups/public name the access fields (under their engine names); other fields are read as they are.
  const ruleOwn = ruleDocFields(policy.rule).filter((f) => !['tenant', 'groups', 'public'].includes(f));
  const fields = [
    ...new Set([e.aclFields.tenant, e.aclFields.groups, e.aclFields.public, ...ruleOwn, e.fields.title, e.fields.text, 'tags']),
  ];
  const stored = await engine.fetchFields(ids, fields, signal);
  const where = `${e.url} index ${e.index}`;
  return {
    reference: new ReferenceAcl(
      [...stored].map(([id, raw]) => storedRecord(raw, id, where, e.aclFields)),
      policy,
    ),
    stored,
  };
}

/** SourceTruth over documents fetched from the engine (visibility counts are then over these documents only). */
async function truthFromEngine(engine: RemoteEngine, ids: string[], policy: AclPolicy, signal?: AbortSignal): Promise<SourceTruth> {
  const e = engine.engine;
  const { reference, stored } = await engineReferenceAcl(engine, ids, policy, signal);
  const docs: Document[] = [...stored].map(([id, raw]) => ({
    id,
    title: text(raw[e.fields.title]),
    body: text(raw[e.fields.text]),
    fields: {},
    meta: { tags: tagsOf(raw) },
    source: { path: `${e.url} index ${e.index}` },
    hash: '',
  }));
  return new SourceTruth(docs, (p, id) => reference.visible(p, id));
}

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.filter((x) => typeof x === 'string').join(' ');
  return '';
}
