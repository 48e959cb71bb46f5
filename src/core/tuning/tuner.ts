/**
 * The Tune engine (issue 31, core): a config's numeric settings moved like sliders (tune-sliders.ts), each position
 * answered from per-query caches in milliseconds with what `ranklab eval` + `compare` would say of that config
 * against the baseline. Prepared once per (config, judgments): every judged query's candidates with the term
 * frequencies and field lengths BM25 needs (bm25-candidates.ts), so boosts, k1, b, d and depth all move without a
 * search; a hybrid or vector-only config's vector list and a reranked config's reranker scores, from one pipeline search per query.
 * Each evaluation ranks them as the pipeline does (CandidateRanker: the engine's scores and tie order; the fuse and
 * rerank steps' own fuseHybrid and rerankedOrder), scores every workspace metric, and compares with the baseline
 * through experiment/compare's compareStatistics and verdictOf: the same statistics `compare` reports
 * (test/unit/tuning/tuner.property.test.ts checks every figure against a full evaluation). */
import type { RankConfig } from '../config';
import { hashRankConfig } from '../config/defaults';
import { type CompareSettings, type ComparisonStatistics, compareStatistics } from '../experiment/compare';
import { type GateResult, checkGates, withGateMetrics } from '../experiment/gates';
import { mean, winsLossesTies } from '../experiment/stats';
import { type Verdict, verdictOf } from '../experiment/verdict';
import { tuneHoldoutSplit } from '../judgments';
import {
  type EvaluateOptions,
  type JudgedContext,
  type MetricSpecs,
  compareQids,
  computeMetric,
  contextOfGrades,
  evaluateRun,
  judgedContext,
  parseMetricList,
} from '../metrics';
import { lexicalIndexOf } from '../retrieval/engine';
import { fuseHybrid } from '../retrieval/fusion';
import { CandidateRanker, type LexicalQueryOptions, idOrderOf } from '../retrieval/lexical';
import type { ScoredId } from '../retrieval/ranking';
import { rerankedOrder } from '../retrieval/rerank';
import { lexicalQuery } from '../retrieval/steps/lexical';
import type { Run } from '../run/types';
import { assertFindsSomething, scoreConfig } from '../session/evaluate';
import type { RanklabSession } from '../session/session';
import { type WorkProgress, Work } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { metricOptionsOf } from '../workspace/settings';
import { Bm25Candidates } from './bm25-candidates';

import {
  type TuneSettings,
  type TuneSliders,
  rerankPoolSize,
  settingIn,
  tuneSettingsOf,
  tunedConfig,
  tuneSliders,
  vectorCacheDepth,
} from './tune-sliders';

export { type FixedSetting, type Slider, type TuneSettings, type TuneSliders, tuneSliders } from './tune-sliders';

export interface TuneInput {
  baseConfig: RankConfig;
  /** The run the settings are compared with (default: the workspace's baseline config, evaluated or its saved run reused). */
  baseline?: { name: string; run: Run };
  /** Default: the workspace's (metricOptionsOf its settings). */
  metricOptions?: EvaluateOptions;
  /** Default: the workspace's metrics and every gate's (as the editor's background evaluation); the first is the headline. */
  specs?: MetricSpecs;
}

export interface TuneHooks {
  signal?: AbortSignal;
  progress?: (progress: WorkProgress) => void;
}

/** Means of every metric over one set of queries, for the baseline and the settings. */
export interface SplitMetrics {
  queries: number;
  baseline: Record<string, number>;
  candidate: Record<string, number>;
}

/**
 * What a move shows at once (Tuner.quick): means, per-query Δ, wins/losses/ties and the overfitting warning, from the
 * per-query values alone. The same figures as the TuneResult of the same settings, before its statistics.
 */
export interface TuneQuick {
  /** The full config these settings mean (base config with them, its own hash). */
  config: RankConfig;
  headline: string;
  metrics: { all: SplitMetrics; tune: SplitMetrics; holdout: SplitMetrics };
  /** Per query, the headline metric (metric order of queries). */
  perQuery: Array<{ qid: string; baseline: number; candidate: number; delta: number }>;
  wins: number;
  losses: number;
  ties: number;
  /** The headline improves on the tuning queries while it does not on the holdout queries. */
  overfitting: boolean;
}

export interface TuneResult extends TuneQuick {
  /** compare's statistics of these settings against the baseline (tests, CIs, Holm-adjusted p-values, warnings). */
  comparison: ComparisonStatistics;
  gates: GateResult[];
  verdict: Verdict;
}

/**
 * A move is answered in two stages when the panel wants the first figures sooner: `quick` (ranking and metrics only)
 * then `evaluate` of the same settings, which reuses that ranking and adds compare's statistics, gates and verdict.
 * `evaluate` alone gives everything in one step.
 */
export interface Tuner {
  /** The config it was prepared for: the sliders' positions {} mean this config. */
  readonly base: RankConfig;
  sliders(): TuneSliders;
  /** The slider positions that make the base config into `config`, or undefined when it differs elsewhere (a re-search). */
  settingsOf(config: RankConfig): TuneSettings | undefined;
  /** How many candidates its caches hold over all queries (lexical candidates, vector lists, rerank pools): its size. */
  readonly candidates: number;
  quick(settings: TuneSettings, signal?: AbortSignal): Promise<TuneQuick>;
  /**
   * The first stage with the gates: what the CodeLens shows. The gates read means, deltas, per-query values and which
   * slices exist, none of which compare's resampling changes, so they are checked on statistics with one resample
   * (intervals and p-values left out): the gates of `evaluate`, without its cost.
   */
  quickWithGates(settings: TuneSettings, signal?: AbortSignal): Promise<TuneQuick & { gates: GateResult[] }>;
  evaluate(settings: TuneSettings, signal?: AbortSignal): Promise<TuneResult>;
}

const BM25 = ['k1', 'b', 'd'] as const;

/** One judged query as the tuner scores it. */
interface TuneQuery {
  qid: string;
  judged: JudgedContext;
  qrels: ReadonlyMap<string, number>;
  candidates?: Bm25Candidates;
  ranker?: CandidateRanker;
  /** Per candidate: its grade, NaN when unjudged. */
  grades?: Float64Array;
  /** A hybrid or vector-only config: the vector list at its cached depth (vectorCacheDepth). */
  vector?: { id: string }[];
  /** A reranked config: the list the reranker gets (best first) and the reranker score of each of its first pool documents. */
  rerank?: { before: string[]; scores: Map<string, number> };
}

/**
 * Prepares the Tuner of a config: the baseline's per-query values, and every judged query's caches: the lexical
 * candidates (one pass over the postings per query); for a hybrid or vector-only config its vector list, for a
 * reranked config the list before the reranker and the reranker's scores of its first rerankPoolSize documents, both
 * from one search per query of the pipeline itself (a probe config: the vector list or the rerank pool at its largest). Stops with the
 * abort reason when `signal` aborts.
 */
export async function prepareTune(session: RanklabSession, input: TuneInput, hooks: TuneHooks = {}): Promise<Tuner> {
  const base = input.baseConfig;
  const tunable = tuneSliders(base);
  const { sliders, fixed } = tunable;
  if (sliders.length === 0) {
    throw new InputError(
      `config "${base.name}" has no setting the Tune engine can move yet: ${fixed.map((f) => `${f.path} (${f.reason})`).join('; ')}`,
      [],
      { key: base.name },
    );
  }
  const work = session.work(hooks.signal, hooks.progress).labelled(base.name);
  const settings = session.workspace.settings;
  const specs = input.specs ?? withGateMetrics(parseMetricList(settings.metrics), settings.gates);
  const metricOptions: EvaluateOptions = input.metricOptions ?? metricOptionsOf(settings);
  await session.loadCorpus(work);
  assertFindsSomething(session, base);
  const { judgments } = session.judgmentsAs({ split: 'all', relevanceThreshold: metricOptions.relevanceThreshold });

  let baseline = input.baseline;
  if (!baseline) {
    const config = session.baselineConfig();
    const scored = await scoreConfig(session, config, { specs, metricOptions, split: 'all', signal: hooks.signal });
    baseline = { name: config.name, run: scored.run };
  }
  const baselineValues = evaluateRun(baseline.run, judgments, specs, metricOptions).perQuery;

  // A reranked config keeps the candidates before the reranker; a lexical or hybrid one recombines the lexical list;
  // a hybrid or vector-only one cuts its cached vector list.
  const lexicalMoves = !!base.lexical && !base.rerank;
  const vectorList = !!base.vector && !base.rerank;
  const index = lexicalMoves ? lexicalIndexOf(await session.engine(base, work)) : undefined;
  if (lexicalMoves && !index) throw new Error('internal: a lexical config without a lexical index');
  const postings = index?.postings();
  const probe = vectorList || base.rerank ? await session.engine(probeConfig(base), work) : undefined;
  const queries: TuneQuery[] = [];
  const qids = [...judgments.qrels.keys()].sort(compareQids);
  const slicer = work.phase('queries', qids.length);
  for (const [done, qid] of qids.entries()) {
    if (slicer.due()) await slicer.pause(done);
    work.throwIfAborted();
    const qrels = judgments.qrels.get(qid)!;
    const judged = judgedContext(qrels, metricOptions);
    // evaluateRun's rule: with excludeNoRelevant, a query without relevant documents is not scored at all.
    if (metricOptions.excludeNoRelevant && judged.numRelevant === 0) continue;
    const text = judgments.queries.get(qid)?.text ?? '';
    const q: TuneQuery = { qid, judged, qrels };
    queries.push(q);
    if (!text.trim()) continue; // not run by an evaluation either: it scores as an empty list
    if (index && postings) {
      q.candidates = new Bm25Candidates(postings, index, text, base.lexical!);
      q.grades = Float64Array.from(q.candidates.scores.docIds, (id) => qrels.get(id) ?? NaN);
    }
    if (probe) {
      const r = await probe.search(text, { signal: hooks.signal });
      if (base.rerank) {
        const before = (base.hybrid ? r.stageIds.fuse : base.lexical ? r.stageIds.lexical : r.stageIds.vector) ?? [];
        q.rerank = { before, scores: new Map(r.docs.map((d) => [d.id, d.score])) };
      } else q.vector = (r.vectorIds ?? []).map((id) => ({ id }));
    }
  }
  slicer.end();
  const idOrder = idOrderOf(queries.flatMap((q) => q.candidates?.scores.docIds ?? []));
  for (const q of queries) if (q.candidates) q.ranker = new CandidateRanker(q.candidates.scores, idOrder);
  const largest = Math.max(0, ...queries.map((q) => q.candidates?.scores.docIds.length ?? 0));
  const top = new Int32Array(largest);
  let scoredWith: string | undefined;

  const split = tuneHoldoutSplit(judgments);
  const fieldNames = index?.fields ?? [];
  // The last settings' per-query values (by config hash): evaluate after quick of the same move ranks nothing again.
  let last: { hash: string; values: Map<string, Record<string, number>> } | undefined;
  const valuesOf = (config: RankConfig): Map<string, Record<string, number>> => {
    if (last?.hash === config.configHash) return last.values;
    const lx = config.lexical;
    if (lexicalMoves && lx) {
      const bm25Key = BM25.map((k) => lx.bm25[k]).join(',');
      if (bm25Key !== scoredWith) {
        for (const q of queries) q.candidates?.rescore(lx.bm25, fieldNames);
        scoredWith = bm25Key;
      }
    }
    const options = lx ? lexicalQuery(lx, lx.depth) : undefined;
    const values = new Map<string, Record<string, number>>();
    for (const q of queries) {
      const ctx = contextOfGrades(gradesOf(q, config, options, top), q.judged);
      values.set(q.qid, Object.fromEntries(specs.map((s) => [s.name, computeMetric(s, ctx)])));
    }
    // The baseline's query order (evaluateRun's), as compare pairs them.
    const candidate = new Map([...baselineValues.keys()].map((q) => [q, values.get(q)!]));
    last = { hash: config.configHash, values: candidate };
    return candidate;
  };
  const statistics = (config: RankConfig, candidate: Values, signal: AbortSignal | undefined, compare?: CompareSettings) =>
    compareStatistics(
      { name: baseline.name, principal: null, values: baselineValues },
      { name: config.name, principal: null, values: candidate },
      judgments,
      specs,
      metricOptions,
      new Work({ signal }).phase('statistics', 0),
      compare,
    );
  let candidates = 0;
  for (const q of queries)
    candidates += (q.candidates?.scores.docIds.length ?? 0) + (q.vector?.length ?? 0) + (q.rerank?.before.length ?? 0);
  return {
    base,
    sliders: () => ({ sliders: sliders.map((s) => ({ ...s })), fixed: fixed.map((f) => ({ ...f })) }),
    settingsOf: (config) => tuneSettingsOf(base, tunable, config),
    candidates,
    async quick(moves, signal) {
      signal?.throwIfAborted();
      const config = tunedConfig(base, tunable, moves);
      return quickOf(config, baselineValues, valuesOf(config), split, specs);
    },
    async quickWithGates(moves, signal) {
      signal?.throwIfAborted();
      const config = tunedConfig(base, tunable, moves);
      const candidate = valuesOf(config);
      const comparison = await statistics(config, candidate, signal, { bootstrapSamples: 1, permutationSamples: 1 });
      return { ...quickOf(config, baselineValues, candidate, split, specs), gates: checkGates(settings.gates, comparison) };
    },
    async evaluate(moves, signal) {
      signal?.throwIfAborted();
      const config = tunedConfig(base, tunable, moves);
      const candidate = valuesOf(config);
      const comparison = await statistics(config, candidate, signal);
      const gates = checkGates(settings.gates, comparison);
      return { ...quickOf(config, baselineValues, candidate, split, specs), comparison, gates, verdict: verdictOf(comparison, gates) };
    },
  };
}

/**
 * `tuner` seen from `config`, a config its sliders reach (another position of the same settings: a saved edit the
 * CodeLens's Tuner answered): the same caches, no preparation. Its sliders stand at `config`'s values (their ranges
 * the Tuner's own, which its caches support), and a move's settings are taken from `config`, so every figure is the
 * one a Tuner prepared for `config` gives (test/unit/tuning/tuner-rebase.test.ts). Undefined when its sliders do not
 * reach `config` (it differs elsewhere, even in its name, or a value is out of a slider's range).
 */
export function rebaseTuner(tuner: Tuner, config: RankConfig): Tuner | undefined {
  const { base } = tuner;
  // The hash leaves out the name and description, which the figures quote (the verdict's text, the result's config).
  if (base.name !== config.name || base.description !== config.description) return undefined;
  if (base.configHash === config.configHash) return tuner;
  const offset = tuner.settingsOf(config);
  if (!offset) return undefined;
  const from = (moves: TuneSettings): TuneSettings => ({ ...offset, ...moves });
  const paths = tuner.sliders().sliders.map((s) => s.path);
  return {
    base: config,
    candidates: tuner.candidates,
    sliders: () => {
      const { sliders, fixed } = tuner.sliders();
      return { sliders: sliders.map((s) => ({ ...s, value: settingIn(config, s.path) as number })), fixed };
    },
    settingsOf: (target) => {
      if (!tuner.settingsOf(target)) return undefined;
      const settings: TuneSettings = {};
      for (const p of paths) if (settingIn(target, p) !== settingIn(config, p)) settings[p] = settingIn(target, p) as number;
      return settings;
    },
    quick: (moves, signal) => tuner.quick(from(moves), signal),
    quickWithGates: (moves, signal) => tuner.quickWithGates(from(moves), signal),
    evaluate: (moves, signal) => tuner.evaluate(from(moves), signal),
  };
}

/**
 * The config the caches are filled from, one pipeline search per query: a reranked config with top-N and top-M at
 * the pool size (every pool document keeps its reranker score), a hybrid or vector-only one with the vector depth at
 * its cached depth (exact search: a shallower list is a prefix of it). It shares the config's indexes and reranker.
 */
function probeConfig(base: RankConfig): RankConfig {
  const { configHash: _, ...probe } = structuredClone(base);
  probe.name = `${base.name} (tune cache)`;
  if (probe.rerank) probe.rerank.topN = probe.rerank.topM = rerankPoolSize(base);
  else if (probe.vector) probe.vector.depth = vectorCacheDepth(base);
  return { ...probe, configHash: hashRankConfig(probe) };
}

/**
 * One query's ranked grades under `config`, from its caches, as the pipeline ranks: the lexical list (CandidateRanker),
 * fused with the cached vector list cut at the vector depth (fuseHybrid, the fuse step's own function), that vector
 * list alone (vector-only), or the
 * reranker's pool of the first top-N ordered by its cached scores (rerankedOrder, the rerank step's own).
 */
function gradesOf(q: TuneQuery, config: RankConfig, options: LexicalQueryOptions | undefined, top: Int32Array): Array<number | undefined> {
  if (q.rerank) {
    const { topN, topM } = config.rerank!;
    const pool: ScoredId[] = [];
    for (const id of q.rerank.before.slice(0, topN)) {
      const score = q.rerank.scores.get(id);
      if (score !== undefined) pool.push({ id, score });
    }
    return rerankedOrder(pool, topM).map((h) => q.qrels.get(h.id));
  }
  // Vector-only: the cached list cut at the depth (what the vector step's exact search of that depth returns).
  if (q.vector && !q.ranker) return q.vector.slice(0, config.vector!.depth).map((h) => q.qrels.get(h.id));
  if (!q.ranker || !options) return [];
  const n = q.ranker.rank(options, top);
  if (q.vector) {
    const ids = q.candidates!.scores.docIds;
    const lexical = new Array<{ id: string }>(n);
    for (let i = 0; i < n; i++) lexical[i] = { id: ids[top[i]!]! };
    return fuseHybrid(config.hybrid!, lexical, q.vector.slice(0, config.vector!.depth)).map((h) => q.qrels.get(h.id));
  }
  const grades = new Array<number | undefined>(n);
  for (let i = 0; i < n; i++) {
    const g = q.grades![top[i]!]!;
    grades[i] = Number.isNaN(g) ? undefined : g;
  }
  return grades;
}

type Values = ReadonlyMap<string, Readonly<Record<string, number>>>;

/**
 * The figures of a move that need no statistics, from both sides' per-query values (the same queries, the baseline's
 * order): computed as compare computes them (mean, b − a, winsLossesTies over the same arrays), so equal to its own.
 */
function quickOf(config: RankConfig, a: Values, b: Values, split: { tune: string[]; holdout: string[] }, specs: MetricSpecs): TuneQuick {
  const headline = specs[0].name;
  const qids = [...a.keys()];
  // Both sides have a value of every spec for every query (evaluated with these specs); a side's means have every spec.
  const on = (ids: readonly string[]): SplitMetrics => {
    // In the baseline's order, as compare sums a split: another order can change a mean's last bit.
    const wanted = new Set(ids);
    const scored = qids.filter((q) => wanted.has(q));
    const side = (values: Values) => Object.fromEntries(specs.map((s) => [s.name, mean(scored.map((q) => values.get(q)![s.name]!))]));
    return { queries: scored.length, baseline: side(a), candidate: side(b) };
  };
  const metrics = { all: on(qids), tune: on(split.tune), holdout: on(split.holdout) };
  const gain = (m: SplitMetrics) => m.candidate[headline]! - m.baseline[headline]!;
  const perQuery = qids.map((qid) => {
    const baseline = a.get(qid)![headline]!;
    const candidate = b.get(qid)![headline]!;
    return { qid, baseline, candidate, delta: candidate - baseline };
  });
  return {
    config,
    headline,
    metrics,
    perQuery,
    ...winsLossesTies(
      perQuery.map((p) => p.baseline),
      perQuery.map((p) => p.candidate),
    ),
    overfitting: metrics.tune.queries > 0 && metrics.holdout.queries > 0 && gain(metrics.tune) > 0 && !(gain(metrics.holdout) > 0),
  };
}
