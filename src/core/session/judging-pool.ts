/**
 * The pool of a workspace: each chosen config's run (a saved run reused when config, corpus and judgments are
 * unchanged, else run now and saved, as `compare` does), then `buildPool`. A config that cannot run is reported
 * and the others still pooled. The CLI (`ranklab pool`, `ranklab judge`) and the judging view share this.
 */
import type { RankConfig } from '../config';
import type { Run } from '../run/types';
import { type EvaluateOptions, type MetricSpec, parseMetricList } from '../metrics';
import { evaluateConfig } from './evaluate';
import type { ConfigEntry, RanklabSession } from './session';
import { InputError } from '../util/diagnostics';
import { type Pool, type PoolSide, buildPool, unjudgedQueries } from '../judging/pool';
import { passageAround } from '../judging/passage';
import { configAnalyzer } from '../retrieval/analyzer';

export interface WorkspacePoolOptions {
  /** The configs to pool, the first one the baseline the deciding pairs are figured against (see poolEntries). */
  configs: RankConfig[];
  depth?: number;
  /** Only these query ids. */
  queries?: string[];
  /** Only queries with this tag. */
  slice?: string;
  max?: number;
  /** Metrics for the deciding pairs (default: the workspace's). */
  specs?: MetricSpec[];
  skip?: (qid: string, docId: string) => boolean;
  /** Keep judged pairs too (see PoolOptions). */
  includeJudged?: boolean;
  signal?: AbortSignal;
  onProgress?: (config: string, done: number, total: number) => void;
  /** A saved run was reused or a config was run (for --verbose style logs). */
  log?: (message: string) => void;
}

export interface WorkspacePool {
  pool: Pool;
  /** The ranked lists the pool was drawn from, by config (the judging view recomputes judged@k from them). */
  sides: PoolSide[];
  failed: { config: string; error: string }[];
  metricOptions: EvaluateOptions;
}

export async function workspacePool(session: RanklabSession, opts: WorkspacePoolOptions): Promise<WorkspacePool> {
  const settings = session.workspace.settings;
  const specs = opts.specs ?? parseMetricList(settings.metrics);
  const metricOptions: EvaluateOptions = {
    gain: settings.gain,
    relevanceThreshold: settings.relevanceThreshold,
    ...(settings.judgedOnly && { judgedOnly: true }),
  };
  const judgments = session.judgments();
  const fresh = unjudgedQueries(judgments);
  const qids = queryScope([...judgments.qrels.keys(), ...fresh], judgments.queries, opts);
  const sides: PoolSide[] = [];
  const failed: WorkspacePool['failed'] = [];
  for (const config of opts.configs) {
    try {
      const r = await evaluateConfig(session, config, {
        specs,
        metricOptions,
        reuse: true,
        signal: opts.signal,
        onProgress: opts.onProgress && ((done, total) => opts.onProgress!(config.name, done, total)),
      });
      opts.log?.(`${config.name}: ${r.reused ? `reusing ${r.path}` : 'ran'}`);
      sides.push({
        name: config.name,
        run: await withFreshQueries(
          session,
          config,
          r.run,
          fresh.filter((q) => !qids || qids.has(q)),
          opts,
        ),
      });
    } catch (e) {
      if (!(e instanceof InputError) || opts.signal?.aborted) throw e;
      failed.push({ config: config.name, error: e.message });
    }
  }
  if (sides.length === 0) throw new InputError(`no config could run: ${failed.map((f) => `${f.config}: ${f.error}`).join('; ')}`);
  const pool = buildPool(sides, session.judgments(), {
    depth: opts.depth ?? settings.judging.depth,
    qids,
    max: opts.max,
    specs,
    metricOptions,
    skip: opts.skip,
    includeJudged: opts.includeJudged,
  });
  return { pool, sides, failed, metricOptions };
}

/**
 * A run plus the lists of queries nobody judged yet (runs and their saved copies hold judged queries only): each is
 * searched now under the config, so that a fresh sample's queries are pooled, graded and then scored.
 */
async function withFreshQueries(
  session: RanklabSession,
  config: RankConfig,
  run: Run,
  fresh: readonly string[],
  opts: WorkspacePoolOptions,
): Promise<Run> {
  if (fresh.length === 0) return run;
  const out: Run = new Map(run);
  const queries = session.judgments().queries;
  const depth = Math.max(opts.depth ?? session.workspace.settings.judging.depth, config.pageSize ?? 0);
  for (const qid of fresh) {
    const r = await session.search(config, queries.get(qid)!.text, { pageSize: depth, signal: opts.signal });
    out.set(qid, r.docs);
  }
  return out;
}

/**
 * The configs a pool is drawn from: those named (by name or path), else the baseline first (the deciding pairs are
 * figured against it), then every other config of the workspace. Entries, usable or not (the caller reports).
 */
export function poolEntries(session: RanklabSession, names: readonly string[]): ConfigEntry[] {
  if (names.length) return names.map((n) => session.configEntry(n));
  const entries = session.configEntries();
  const base = session.workspace.baselineName;
  return [...entries.filter((e) => e.name === base), ...entries.filter((e) => e.name !== base)];
}

function queryScope(
  judged: Iterable<string>,
  queries: Map<string, { tags: string[] }>,
  opts: WorkspacePoolOptions,
): Set<string> | undefined {
  if (opts.queries?.length && opts.slice) throw new InputError('--queries and --slice cannot be combined');
  const all = [...judged];
  if (opts.queries?.length) {
    const known = new Set(all);
    const unknown = opts.queries.filter((q) => !known.has(q));
    if (unknown.length) throw new InputError(`unknown or unjudged query id(s): ${unknown.slice(0, 10).join(', ')}`);
    return new Set(opts.queries);
  }
  if (opts.slice) {
    const ids = all.filter((q) => queries.get(q)?.tags.includes(opts.slice!));
    if (ids.length === 0) throw new InputError(`no judged query has the tag "${opts.slice}"`);
    return new Set(ids);
  }
  return undefined;
}

/** What a rater outside the editor reads for a pair (`ranklab pool --format tsv|json`). */
export interface PoolPairText {
  query: string;
  title: string;
  /** The passage the judging view shows: about 700 characters of the body with the most query terms, "…" where cut. */
  passage: string;
}

/** The texts of the pool's pairs, in its order; passages found with `config`'s analyzer (the first config's). */
export function poolPairTexts(session: RanklabSession, pool: Pool, config: RankConfig): PoolPairText[] {
  const analyzer = configAnalyzer(config);
  const queries = session.judgments().queries;
  return pool.pairs.map((p) => {
    const query = queries.get(p.qid)?.text ?? '';
    const doc = session.document(p.docId);
    if (!doc) return { query, title: '', passage: '' };
    const { title, passage } = passageAround(doc, query, analyzer);
    return { query, title: title.text, passage: `${passage.cutStart ? '… ' : ''}${passage.text}${passage.cutEnd ? ' …' : ''}` };
  });
}
