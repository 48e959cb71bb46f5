import { annRecallAtK } from '../retrieval/exact';
import { type Evaluation, type EvaluateOptions as MetricOptions, type MetricSpec, evaluateRun } from '../metrics';
import { latencySummary } from '../experiment/compare';
import { findCachedRun, saveRun } from '../experiment/run-store';
import type { RankConfig } from '../config';
import type { Run, SavedQueryResult, SavedRun } from '../run/types';
import { sortTrecOrder } from '../run/trec-order';
import { InputError } from '../util/diagnostics';
import type { RanklabSession } from './session';

export const TOOL_VERSION = 'ranklab 0.1.0';

export interface EvaluateConfigOptions {
  specs: MetricSpec[];
  metricOptions: MetricOptions;
  split?: 'tune' | 'holdout' | 'all';
  principal?: string;
  /** Save the run under .ranklab/runs (default true). */
  save?: boolean;
  /** Reuse the newest saved run with the same config hash, corpus and judgment fingerprints (default false). */
  reuse?: boolean;
  /** k for the ANN-vs-exact recall report (default 10). */
  annK?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

export interface ConfigEvaluation {
  config: RankConfig;
  saved: SavedRun;
  path?: string;
  reused: boolean;
  evaluation: Evaluation;
  run: Run;
  latencies: Map<string, Record<string, number>>;
  /** Queries that could not be run (no text) and notes from the engine. */
  notes: string[];
}

/**
 * Runs every labeled query of the session under one config (as a principal, on one split), scores the
 * results and saves the run. Every long step (corpus loading, index builds, the query loop) pauses at least
 * every 50 ms; when `signal` aborts, it stops there with the abort reason and nothing is saved.
 */
export async function evaluateConfig(session: RanklabSession, config: RankConfig, opts: EvaluateConfigOptions): Promise<ConfigEvaluation> {
  const work = session.work(opts.signal).labelled(config.name);
  const corpus = await session.loadCorpus(work);
  const judgments = session.judgmentsFor({ split: opts.split, principal: opts.principal });
  if (opts.reuse) {
    const hit = findCachedRun(session.workspace.runsDir, { configHash: config.configHash, corpus: corpus.fingerprint, judgments: judgments.fingerprint, principal: opts.principal });
    if (hit) {
      const run: Run = new Map(hit.saved.queries.map((q) => [q.qid, q.docs]));
      const latencies = new Map(hit.saved.queries.map((q) => [q.qid, q.latencyMs]));
      return { config, saved: hit.saved, path: hit.path, reused: true, evaluation: evaluateRun(run, judgments, opts.specs, opts.metricOptions), run, latencies, notes: [] };
    }
  }
  const engine = await session.engine(config, work);
  const access = opts.principal ? session.accessFor(opts.principal) : undefined;
  const qids = [...judgments.qrels.keys()];
  const run: Run = new Map();
  const latencies = new Map<string, Record<string, number>>();
  const results = new Map<string, { total: number; notes: string[] }>();
  const notes: string[] = [];
  const annK = opts.annK ?? 10;
  const annPairs: { ann: string[]; exact: string[] }[] = [];
  const measureAnn = !!config.vector && !config.vector.exact;
  // One untimed query first: the first search pays for JIT compilation and lazy loading, not for ranking.
  const warmup = qids.map((q) => judgments.queries.get(q)?.text ?? '').find((t) => t.trim());
  if (warmup) await engine.search(warmup, { filter: access?.filter, signal: opts.signal });
  let done = 0;
  const slicer = work.phase('queries', qids.length);
  for (const qid of qids) {
    if (slicer.due()) await slicer.pause(done);
    work.throwIfAborted();
    const text = judgments.queries.get(qid)?.text ?? '';
    if (!text.trim()) {
      notes.push(`query ${qid} has no text and was not run (it scores 0)`);
      continue;
    }
    const r = await engine.search(text, { filter: access?.filter, signal: opts.signal });
    const docs = sortTrecOrderStable(r.docs);
    run.set(qid, docs);
    latencies.set(qid, { ...r.latencyMs });
    results.set(qid, { total: r.total, notes: r.notes });
    if (measureAnn) {
      const ann = r.vectorIds?.slice(0, annK);
      const exact = await engine.exactVectorSearch(text, annK, access?.filter);
      if (ann && exact) annPairs.push({ ann, exact });
    }
    opts.onProgress?.(++done, qids.length);
  }
  slicer.end();
  const evaluation = evaluateRun(run, judgments, opts.specs, opts.metricOptions);
  const annRecall = annPairs.length ? annRecallAtK(annPairs.map((p) => p.ann), annPairs.map((p) => p.exact), annK) : undefined;
  const queries: SavedQueryResult[] = qids.filter((q) => run.has(q)).map((qid) => ({
    qid,
    text: judgments.queries.get(qid)?.text ?? '',
    docs: run.get(qid)!,
    total: results.get(qid)!.total,
    latencyMs: latencies.get(qid)!,
    metrics: evaluation.perQuery.get(qid) ?? {},
    notes: results.get(qid)!.notes.length ? results.get(qid)!.notes : undefined,
  }));
  const saved: SavedRun = {
    format: 'ranklab-run@1',
    provenance: { config: config.name, configHash: config.configHash, corpus: corpus.fingerprint, judgments: judgments.fingerprint, createdAt: new Date().toISOString(), tool: TOOL_VERSION },
    config,
    metricSpecs: opts.specs.map((s) => s.name),
    metrics: evaluation.means,
    latency: latencySummary(latencies),
    annRecall,
    principal: opts.principal,
    queries,
  };
  let path: string | undefined;
  if (opts.save !== false) path = saveRun(session.workspace.runsDir, saved);
  return { config, saved, path, reused: false, evaluation, run, latencies, notes };
}

/**
 * Final lists are put in trec_eval order (score desc, docid desc) only where scores tie, so that an
 * exported TREC run scores exactly like the in-memory one. Lists whose scores are not descending
 * (none of ours) would be re-ordered; that would be a bug upstream, so it is refused loudly.
 */
function sortTrecOrderStable<T extends { id: string; score: number }>(docs: T[]): T[] {
  for (let i = 1; i < docs.length; i++) {
    if (docs[i].score > docs[i - 1].score + 1e-12) throw new InputError(`internal: final list not sorted by score at rank ${i + 1}`);
  }
  return sortTrecOrder([...docs]);
}
