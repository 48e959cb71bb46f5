import { basename } from 'node:path';
import { annRecallAtK } from '../retrieval/exact';
import { type Evaluation, type EvaluateOptions as MetricOptions, type MetricSpec, evaluateRun } from '../metrics';
import { latencySummary } from '../experiment/compare';
import { type RunKey, findCachedRun, saveRun } from '../experiment/run-store';
import { runFileStamp } from '../experiment/comparison-cache';
import { runEvaluationOf, writeRunEvaluation } from '../experiment/evaluation-cache';
import { runIdOfFile } from '../run/run-files';
import { cachedLearnedModels } from '../retrieval/engine';
import type { RankConfig } from '../config';
import type { Corpus } from '../corpus';
import { type ExcludedQuery, type JudgmentSet, judgmentsVisibleTo, missingQueryText, withoutQueries } from '../judgments';
import { engineReferenceAcl } from './engine-check';
import { isRemoteEngine } from '../engines/remote-engine';
import type { SearchResult } from '../retrieval/pipeline';
import {
  SAVED_TITLE_DEPTH,
  type StageName,
  type Run,
  type RunAccess,
  type SavedQueryResult,
  type SavedRun,
  type StageCandidates,
} from '../run/types';
import { stageCandidatesOfSaved } from '../experiment/stage-recall';
import { sortTrecOrder } from '../run/trec-order';
import type { Work, WorkProgress } from '../util/cooperative';
import { InputError, errorAt } from '../util/diagnostics';
import type { RanklabSession } from './session';
import { RUN_FORMAT } from '../run/run-format';

import { TOOL_VERSION } from '../util/version';

export { TOOL_VERSION };

export interface EvaluateConfigOptions {
  specs: MetricSpec[];
  metricOptions: MetricOptions;
  split?: 'tune' | 'holdout' | 'all';
  principal?: string;
  /** Save the run under .ranklab/runs (default true). */
  save?: boolean;
  /** Reuse the newest saved run made from the same inputs (RunKey: config, corpus, judgments, access, tool, models; default false). */
  reuse?: boolean;
  /** k for the ANN-vs-exact recall report (default 10). */
  annK?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Every phase of this evaluation (corpus, index builds, the query loop), labelled with the config's name. */
  onWork?: (progress: WorkProgress) => void;
  /** Once the queries are run and scored, before the run is saved (not called for a reused run): its figures sooner. */
  onScored?: (scored: { evaluation: Evaluation; run: Run }) => void | Promise<void>;
  /** Once the run is saved: its file and what was written (the editor's run index takes it without decoding the file). */
  onSaved?: (path: string, saved: SavedRun) => void;
}

export interface ConfigEvaluation {
  config: RankConfig;
  saved: SavedRun;
  path?: string;
  reused: boolean;
  evaluation: Evaluation;
  run: Run;
  latencies: Map<string, Record<string, number>>;
  /** Each stage's whole output per query (for stage recall); absent for runs saved before it was stored. */
  stageIds?: StageCandidates;
  /** Queries that could not be run (no text) and notes from the engine. */
  notes: string[];
  /** Under a principal: queries left out because every relevant document is invisible to them (not run, not scored). */
  excluded: ExcludedQuery[];
  /**
   * Queries the engine could not answer (after its retries): left out of the scores, not scored 0, and listed
   * with the error. A run with failed queries is incomplete: it is saved with them but never reused or compared.
   */
  failed: FailedQuery[];
  /** How much of the work was already done by other configs of the session (absent for a reused run). */
  sharing?: Sharing;
}

/** What an evaluation took over from earlier ones through the session's shared indexes and score caches. */
export interface Sharing {
  /** Parts of the engine built for another config (the config's name per part: lexical, vector, rerank). */
  sharedWith: Partial<Record<'lexical' | 'vector' | 'rerank', string>>;
  /** Per stage, the queries whose scores all came from the shared caches (not scored again), of `queries` run. */
  cachedQueries: Partial<Record<StageName, number>>;
  queries: number;
}

export interface FailedQuery {
  qid: string;
  error: string;
}

/** Queries per `searchMany` call: progress and cancellation are checked between calls. */
const MANY_CHUNK = 100;

/**
 * Runs every labeled query of the session under one config (as a principal, on one split), scores the
 * results and saves the run. Every long step (corpus loading, index builds, the query loop) pauses at least
 * every 50 ms; when `signal` aborts, it stops there with the abort reason and nothing is saved. A remote engine
 * gets the queries in batches (Engine.searchMany), checked for cancellation between batches.
 */
export async function evaluateConfig(session: RanklabSession, config: RankConfig, opts: EvaluateConfigOptions): Promise<ConfigEvaluation> {
  const { work, corpus, judgments, excluded } = await prepare(session, config, opts);
  const key = await runKey(session, config, corpus.fingerprint, judgments.fingerprint, opts.principal, work);
  // An engine's index can change without Ranklab knowing: its runs are always made afresh.
  if (opts.reuse && !config.engine) {
    const hit = findCachedRun(session.workspace.runsDir, key, session.options.log);
    if (hit) {
      const run: Run = new Map(hit.saved.queries.map((q) => [q.qid, q.docs]));
      const latencies = new Map(hit.saved.queries.map((q) => [q.qid, q.latencyMs]));
      const stageIds = stageCandidatesOfSaved(hit.saved);
      return {
        config,
        saved: hit.saved,
        path: hit.path,
        reused: true,
        evaluation: evaluateRun(run, judgments, opts.specs, opts.metricOptions),
        run,
        latencies,
        stageIds,
        notes: [],
        excluded,
        failed: [],
      };
    }
  }
  const {
    engine,
    run,
    latencies,
    results,
    stageIds,
    notes,
    failed,
    sharing,
    annRecall,
    evaluation,
    judgments: scored,
  } = await runQueries(session, config, opts, work, judgments, false);
  await opts.onScored?.({ evaluation, run });
  const qids = [...judgments.qrels.keys()];
  const queries: SavedQueryResult[] = qids
    .filter((q) => run.has(q))
    .map((qid) => ({
      qid,
      text: judgments.queries.get(qid)?.text ?? '',
      docs: run.get(qid)!,
      total: results.get(qid)!.total,
      latencyMs: latencies.get(qid)!,
      metrics: evaluation.perQuery.get(qid) ?? {},
      notes: results.get(qid)!.notes.length ? results.get(qid)!.notes : undefined,
      stageIds: storedStageIds(stageIds.get(qid)!, run.get(qid)!),
    }));
  const saved: SavedRun = {
    format: RUN_FORMAT,
    provenance: {
      config: config.name,
      configHash: config.configHash,
      corpus: corpus.fingerprint,
      judgments: scored.fingerprint,
      createdAt: new Date().toISOString(),
      tool: TOOL_VERSION,
      access: key.access,
      models: await engine.learnedModels(opts.signal),
    },
    config,
    metricSpecs: opts.specs.map((s) => s.name),
    metrics: evaluation.means,
    latency: latencySummary(latencies),
    annRecall,
    principal: opts.principal,
    queries,
    ...(failed.length ? { failedQueries: failed } : {}),
  };
  if (corpus.docs.length > 0) saved.titles = titlesOfTop(run, titlesIn(corpus, run));
  let path: string | undefined;
  if (opts.save !== false) {
    const runsDir = session.workspace.runsDir;
    path = saveRun(runsDir, saved, session.workspace.settings.runs.keep, (m) => notes.push(m));
    // Its per-query values, for the statistics of any comparison with it on these judgments (evaluation-cache.ts).
    const key = { run: runFileStamp(runIdOfFile(basename(path))!, path), judgments: evaluation.judgments, options: opts.metricOptions };
    writeRunEvaluation(runsDir, key, runEvaluationOf(evaluation.perQuery, saved), session.options.log);
    opts.onSaved?.(path, saved);
  }
  return { config, saved, path, reused: false, evaluation, run, latencies, stageIds, notes, excluded, failed, sharing };
}

/** What evaluating and scoring share: the corpus loaded, the config checked against it, the judgments to run. */
async function prepare(session: RanklabSession, config: RankConfig, opts: ScoreConfigOptions) {
  const work = session.work(opts.signal, opts.onWork).labelled(config.name);
  const corpus = await session.loadCorpus(work);
  assertFindsSomething(session, config);
  const { judgments, excluded } =
    config.engine && opts.principal && corpus.docs.length === 0
      ? await judgmentsAsOnEngine(session, config, opts, work)
      : session.judgmentsAs({ split: opts.split, principal: opts.principal, relevanceThreshold: opts.metricOptions.relevanceThreshold });
  const noText = missingQueryText(judgments);
  if (noText) throw noText;
  return { work, corpus, judgments, excluded };
}

/** A config that could find nothing (no searched field has text) is refused, not scored 0 (CLI, editor and sweep alike). */
export function assertFindsSomething(session: RanklabSession, config: RankConfig): void {
  const unusable = session.configCorpusDiagnostics(config).filter((d) => d.severity === 'error');
  const [first, ...rest] = unusable;
  if (first) throw errorAt(first, rest);
}

/** The options of scoreConfig: evaluateConfig's, without what only concerns a saved run. */
export type ScoreConfigOptions = Omit<EvaluateConfigOptions, 'save' | 'reuse' | 'annK'>;

/** What scoreConfig gives: the run and its metrics (see ConfigEvaluation). */
export type ConfigScores = Pick<ConfigEvaluation, 'config' | 'evaluation' | 'run' | 'notes' | 'excluded' | 'failed' | 'sharing'>;

/**
 * Runs and scores every labeled query under one config as evaluateConfig does (same run, same metrics), keeping only
 * the scores: nothing is saved, and what only a saved run holds (latencies, stage lists, titles, ANN recall, learned
 * models) is not collected. For a sweep, which evaluates hundreds of configs and keeps none.
 */
export async function scoreConfig(session: RanklabSession, config: RankConfig, opts: ScoreConfigOptions): Promise<ConfigScores> {
  const { work, judgments, excluded } = await prepare(session, config, opts);
  const { run, notes, failed, sharing, evaluation } = await runQueries(session, config, opts, work, judgments, true);
  return { config, evaluation, run, notes, excluded, failed, sharing };
}

/**
 * The query loop of evaluateConfig and scoreConfig, and the metrics of its run. `lean`: only the run (no latencies,
 * totals, notes per query, stage lists or ANN recall).
 */
async function runQueries(
  session: RanklabSession,
  config: RankConfig,
  opts: ScoreConfigOptions & { annK?: number },
  work: Work,
  judgments: JudgmentSet,
  lean: boolean,
) {
  const engine = await session.engine(config, work);
  const access = opts.principal ? session.accessFor(opts.principal) : undefined;
  const qids = [...judgments.qrels.keys()];
  const run: Run = new Map();
  const latencies = new Map<string, Record<string, number>>();
  const results = new Map<string, { total: number; notes: string[] }>();
  const stageIds: StageCandidates = new Map();
  const notes: string[] = [];
  const annK = opts.annK ?? 10;
  const annPairs: { ann: string[]; exact: string[] }[] = [];
  const measureAnn = !lean && !!config.vector && !config.vector.exact;
  // One untimed query first: the first search pays for JIT compilation and lazy loading, not for ranking.
  const searchOptions = { filter: access?.filter, principal: access?.principal, signal: opts.signal };
  const warmup = qids.map((q) => judgments.queries.get(q)?.text ?? '').find((t) => t.trim());
  // Whether the warm-up query's scores were cached already counts for it, not the (then cached) search in the loop.
  const warm = warmup ? (await engine.search(warmup, searchOptions)).cached : undefined;
  const sharing: Sharing = { sharedWith: { ...engine.build.sharedWith }, cachedQueries: {}, queries: 0 };
  const failed: FailedQuery[] = [];
  let done = 0;
  const record = async (qid: string, text: string, r: SearchResult | Error) => {
    if (r instanceof Error) {
      failed.push({ qid, error: r.message });
      notes.push(`query ${qid} failed and is left out of the scores: ${r.message}`);
      return;
    }
    const docs = sortTrecOrderStable(r.docs);
    sharing.queries++;
    for (const [stage, yes] of Object.entries(text === warmup && warm ? warm : (r.cached ?? {})) as [StageName, boolean][]) {
      if (yes) sharing.cachedQueries[stage] = (sharing.cachedQueries[stage] ?? 0) + 1;
    }
    run.set(qid, docs);
    if (lean) return;
    latencies.set(qid, { ...r.latencyMs });
    results.set(qid, { total: r.total, notes: r.notes });
    stageIds.set(qid, r.stageIds);
    if (measureAnn) {
      const ann = r.vectorIds?.slice(0, annK);
      const exact = await engine.exactVectorSearch(text, annK, access?.filter);
      if (ann && exact) annPairs.push({ ann, exact });
    }
  };
  const runnable: { qid: string; text: string }[] = [];
  for (const qid of qids) {
    const text = judgments.queries.get(qid)?.text ?? '';
    if (text.trim()) runnable.push({ qid, text });
    else notes.push(`query ${qid} has no text and was not run (it scores 0)`);
  }
  const slicer = work.phase('queries', qids.length);
  if (engine.searchMany) {
    // A remote engine: batched and parallel requests; a query that still fails is reported, the rest kept.
    for (let i = 0; i < runnable.length; i += MANY_CHUNK) {
      work.throwIfAborted();
      const chunk = runnable.slice(i, i + MANY_CHUNK);
      const answers = await engine.searchMany(
        chunk.map((q) => q.text),
        searchOptions,
      );
      for (const [j, q] of chunk.entries()) await record(q.qid, q.text, answers[j]!); // one answer per query
      done += chunk.length;
      opts.onProgress?.(done, qids.length);
    }
  } else {
    for (const { qid, text } of runnable) {
      if (slicer.due()) await slicer.pause(done);
      work.throwIfAborted();
      await record(qid, text, await engine.search(text, searchOptions));
      done++; // not inside `onProgress?.(…)`: without a listener the argument is never evaluated
      opts.onProgress?.(done, qids.length);
    }
  }
  slicer.end();
  const scored = failed.length
    ? withoutQueries(
        judgments,
        failed.map((f) => f.qid),
      )
    : judgments;
  const evaluation = evaluateRun(run, scored, opts.specs, opts.metricOptions);
  const annRecall = annPairs.length
    ? annRecallAtK(
        annPairs.map((p) => p.ann),
        annPairs.map((p) => p.exact),
        annK,
      )
    : undefined;
  return { engine, run, latencies, results, stageIds, notes, failed, sharing, annRecall, evaluation, judgments: scored };
}

/** "index shared with baseline (lexical); cached scores reused for 94 of 94 queries (lexical)"; '' when nothing was. */
export function describeSharing(s: Sharing): string {
  const byOwner = new Map<string, string[]>();
  for (const [part, owner] of Object.entries(s.sharedWith)) byOwner.set(owner!, [...(byOwner.get(owner!) ?? []), part]);
  const out = [...byOwner].map(([owner, parts]) => `index shared with ${owner} (${parts.join(', ')})`);
  const cached = Object.entries(s.cachedQueries).map(([stage, n]) => `${stage} ${n} of ${s.queries}`);
  if (cached.length) out.push(`cached scores reused for ${cached.join(', ')} queries`);
  return out.join('; ');
}

/**
 * An engine config run as a principal in a workspace without a copy of the corpus: which judged documents the
 * principal may see is decided by the workspace's rule over the access fields the engine stores for them.
 */
async function judgmentsAsOnEngine(
  session: RanklabSession,
  config: RankConfig,
  opts: ScoreConfigOptions,
  work: Work,
): Promise<{ judgments: JudgmentSet; excluded: ExcludedQuery[] }> {
  const set = session.judgmentsFor({ split: opts.split });
  const engine = await session.engine(config, work);
  if (!isRemoteEngine(engine)) throw new Error('internal: an engine config without a remote engine');
  const ids = [...new Set([...set.qrels.values()].flatMap((docs) => [...docs.keys()]))];
  const { reference } = await engineReferenceAcl(engine, ids, session.policy(), opts.signal);
  const principal = session.accessFor(opts.principal!).principal;
  const relevanceThreshold = opts.metricOptions.relevanceThreshold ?? session.workspace.settings.relevanceThreshold;
  return judgmentsVisibleTo(set, (id) => reference.visible(principal, id), { principal: principal.name, relevanceThreshold });
}

/** One title per distinct document of the runs' top SAVED_TITLE_DEPTH (see SavedRun.titles), in first-seen order. */
export function titlesOfTop(run: Run, titleOf: (id: string) => string | undefined): Record<string, string> {
  const titles = new Map<string, string>();
  for (const docs of run.values()) {
    for (const d of docs.slice(0, SAVED_TITLE_DEPTH)) {
      if (titles.has(d.id)) continue;
      const title = titleOf(d.id);
      if (title) titles.set(d.id, title);
    }
  }
  return Object.fromEntries(titles); // own data properties, even for an id like "__proto__"
}

/**
 * The titles of the documents of the runs' tops, found in one pass over the corpus: indexing every id for a few
 * thousand lookups (session.document) took ~1 s of a warm start at 1M documents.
 */
function titlesIn(corpus: Corpus, run: Run): (id: string) => string | undefined {
  const wanted = new Set<string>();
  for (const docs of run.values()) for (const d of docs.slice(0, SAVED_TITLE_DEPTH)) wanted.add(d.id);
  const titles = new Map<string, string>();
  for (const d of corpus.docs) if (wanted.has(d.id) && !titles.has(d.id)) titles.set(d.id, d.title);
  return (id) => titles.get(id);
}

/** A stage whose output is exactly the final list (the last stage, usually) is not stored twice. */
function storedStageIds(stages: Partial<Record<string, string[]>>, final: readonly { id: string }[]): SavedQueryResult['stageIds'] {
  const same = (ids: string[]) => ids.length === final.length && ids.every((id, i) => id === final[i]?.id);
  return Object.fromEntries(Object.entries(stages).filter(([, ids]) => !same(ids!)));
}

/**
 * Everything that shapes the results of `config` on this corpus and these judgments, as `principal` (RunKey).
 * The learned models come from the cache when it knows them for this corpus, else from the engine (which then
 * trains them, as the evaluation would).
 */
async function runKey(
  session: RanklabSession,
  config: RankConfig,
  corpus: string,
  judgments: string,
  principal: string | undefined,
  work: Work,
): Promise<RunKey> {
  const policy = session.policy();
  const access: RunAccess = {
    principal: principal ? { ...session.accessFor(principal).principal } : null,
    rule: policy.rule,
    missingAcl: policy.missingAcl,
  };
  const cacheDir = session.options.writeCache !== false ? session.workspace.cacheDir : undefined;
  const models = cachedLearnedModels(config, corpus, cacheDir) ?? (await (await session.engine(config, work)).learnedModels(work.signal));
  return { config: config.name, configHash: config.configHash, corpus, judgments, principal, tool: TOOL_VERSION, access, models };
}

/**
 * Final lists are put in trec_eval order (score desc, docid desc) only where scores tie, so that an
 * exported TREC run scores exactly like the in-memory one. Lists whose scores are not descending
 * (none of ours) would be re-ordered; that would be a bug upstream, so it is refused loudly.
 */
function sortTrecOrderStable<T extends { id: string; score: number }>(docs: T[]): T[] {
  for (const [i, doc] of docs.entries()) {
    const above = docs[i - 1];
    if (above && doc.score > above.score + 1e-12) throw new InputError(`internal: final list not sorted by score at rank ${i + 1}`);
  }
  return sortTrecOrder([...docs]);
}
