/**
 * The Tune engine (issue 31, core): a lexical-only config's numeric settings moved like sliders, each position
 * answered from per-query caches in milliseconds with what `ranklab eval` + `compare` would say of that config
 * against the baseline. Prepared once per (config, judgments): every judged query's candidates with the term
 * frequencies and field lengths BM25 needs (bm25-candidates.ts), so boosts, k1, b, d and depth all move without a
 * search. Each evaluation ranks them (CandidateRanker: the engine's scores and tie order), scores every workspace
 * metric, and compares with the baseline through experiment/compare's compareStatistics and verdictOf: the same
 * statistics `compare` reports (test/unit/tuning/tuner.property.test.ts checks every figure against a full evaluation).
 */
import type { RankConfig } from '../config';
import { hashRankConfig } from '../config/defaults';
import { type ComparisonStatistics, compareStatistics } from '../experiment/compare';
import { type GateResult, checkGates, withGateMetrics } from '../experiment/gates';
import { mean, winsLossesTies } from '../experiment/stats';
import { type Verdict, verdictOf } from '../experiment/verdict';
import { tuneHoldoutSplit } from '../judgments';
import {
  type EvaluateOptions,
  type JudgedContext,
  type MetricSpec,
  compareQids,
  computeMetric,
  contextOfGrades,
  evaluateRun,
  judgedContext,
  parseMetricList,
} from '../metrics';
import { lexicalIndexOf } from '../retrieval/engine';
import { CandidateRanker, idOrderOf } from '../retrieval/lexical';
import { lexicalQuery } from '../retrieval/steps/lexical';
import type { Run } from '../run/types';
import { assertFindsSomething, scoreConfig } from '../session/evaluate';
import type { RanklabSession } from '../session/session';
import { closest } from '../util/closest';
import { type WorkProgress, Work } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { metricOptionsOf } from '../workspace/settings';
import { Bm25Candidates } from './bm25-candidates';

/** A setting that moves without a search: where it is in the config, its value there, and a sensible range. */
export interface Slider {
  path: string;
  value: number;
  min: number;
  max: number;
  step: number;
}

/** A setting shown but not offered as a slider, and why. */
export interface FixedSetting {
  path: string;
  reason: string;
}

export interface TuneSliders {
  sliders: Slider[];
  fixed: FixedSetting[];
}

/** Slider positions by path (those not given keep the base config's value). */
export type TuneSettings = Record<string, number>;

export interface TuneInput {
  baseConfig: RankConfig;
  /** The run the settings are compared with (default: the workspace's baseline config, evaluated or its saved run reused). */
  baseline?: { name: string; run: Run };
  /** Default: the workspace's (metricOptionsOf its settings). */
  metricOptions?: EvaluateOptions;
  /** Default: the workspace's metrics and every gate's (as the editor's background evaluation). */
  specs?: MetricSpec[];
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
  sliders(): TuneSliders;
  quick(settings: TuneSettings, signal?: AbortSignal): Promise<TuneQuick>;
  evaluate(settings: TuneSettings, signal?: AbortSignal): Promise<TuneResult>;
}

const BM25 = ['k1', 'b', 'd'] as const;

/** What can be tuned in `config` by recombination, and what cannot (with the reason). */
export function tuneSliders(config: RankConfig): TuneSliders {
  const fixed: FixedSetting[] = [];
  const sliders: Slider[] = [];
  const lx = config.lexical;
  if (config.engine) {
    fixed.push({ path: 'engine', reason: 'an external engine ranks: every setting needs a new search on it' });
    return { sliders, fixed };
  }
  if (config.vector) {
    fixed.push({
      path: 'hybrid.weights',
      reason:
        'not yet: fusion weights need both candidate lists cached per query (the Tune engine recombines lexical-only configs for now)',
    });
    fixed.push({ path: 'hybrid.k', reason: 'not yet: the RRF constant needs both candidate lists cached per query' });
    fixed.push({ path: 'vector.depth', reason: 'not yet: vector depths need the vector list cached per query' });
  }
  if (config.rerank)
    fixed.push({ path: 'rerank.topN', reason: 'not yet: rerank top-N needs the reranker scores of the top-N pool cached per query' });
  if (!lx) return { sliders, fixed };
  const recombinable = !config.vector && !config.rerank;
  const why = 'not yet: only lexical-only configs are tuned by recombination';
  const add = (s: Slider) => (recombinable ? sliders.push(s) : fixed.push({ path: s.path, reason: why }));
  for (const [field, boost] of Object.entries(lx.fields))
    add({ path: `lexical.fields.${field}`, value: boost, min: 0, max: Math.max(5, 2 * boost), step: 0.1 });
  add({ path: 'lexical.bm25.k1', value: lx.bm25.k1, min: 0, max: Math.max(3, lx.bm25.k1), step: 0.05 });
  add({ path: 'lexical.bm25.b', value: lx.bm25.b, min: 0, max: 1, step: 0.05 });
  add({ path: 'lexical.bm25.d', value: lx.bm25.d, min: 0, max: Math.max(2, lx.bm25.d), step: 0.05 });
  add({ path: 'lexical.depth', value: lx.depth, min: 1, max: Math.max(1000, lx.depth), step: 1 });
  fixed.push(
    { path: 'lexical.prefix', reason: 'a new search: prefix expansion changes which documents are candidates' },
    { path: 'lexical.fuzzy', reason: 'a new search: fuzzy expansion changes which documents are candidates' },
    { path: 'lexical.analyzer', reason: 'a rebuild: the analyzer changes the index' },
  );
  return { sliders, fixed };
}

/** One judged query as the tuner scores it. */
interface TuneQuery {
  qid: string;
  judged: JudgedContext;
  candidates?: Bm25Candidates;
  ranker?: CandidateRanker;
  /** Per candidate: its grade, NaN when unjudged. */
  grades?: Float64Array;
}

/**
 * Prepares the Tuner of a lexical-only config: the baseline's per-query values, and every judged query's candidates
 * (one pass over the postings per query). Stops with the abort reason when `signal` aborts.
 */
export async function prepareTune(session: RanklabSession, input: TuneInput, hooks: TuneHooks = {}): Promise<Tuner> {
  const base = input.baseConfig;
  const { sliders, fixed } = tuneSliders(base);
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

  const index = lexicalIndexOf(await session.engine(base, work));
  if (!index) throw new Error('internal: a lexical config without a lexical index');
  const postings = index.postings();
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
    if (!text.trim()) {
      queries.push({ qid, judged }); // not run by an evaluation either: it scores as an empty list
      continue;
    }
    const candidates = new Bm25Candidates(postings, index, text, base.lexical!);
    const grades = Float64Array.from(candidates.scores.docIds, (id) => qrels.get(id) ?? NaN);
    queries.push({ qid, judged, candidates, grades });
  }
  slicer.end();
  const idOrder = idOrderOf(queries.flatMap((q) => q.candidates?.scores.docIds ?? []));
  for (const q of queries) if (q.candidates) q.ranker = new CandidateRanker(q.candidates.scores, idOrder);
  const largest = Math.max(0, ...queries.map((q) => q.candidates?.scores.docIds.length ?? 0));
  const top = new Int32Array(largest);
  let scoredWith: string | undefined;

  const sliderOf = new Map(sliders.map((s) => [s.path, s]));
  const configOf = (moves: TuneSettings): RankConfig => {
    const lx = structuredClone(base.lexical!);
    for (const [path, value] of Object.entries(moves)) {
      const slider = sliderOf.get(path);
      if (!slider) {
        const known = fixed.find((f) => f.path === path || path.startsWith(`${f.path}.`));
        const hint = known
          ? known.reason
          : closest(path, [...sliderOf.keys()])
            ? `did you mean ${closest(path, [...sliderOf.keys()])}?`
            : `the sliders are ${[...sliderOf.keys()].join(', ')}`;
        throw new InputError(`"${path}" is not a setting the Tune engine can move`, [], { key: path, hint });
      }
      if (typeof value !== 'number' || !Number.isFinite(value) || value < slider.min || value > slider.max) {
        throw new InputError(`${JSON.stringify(value)} is not a number from ${slider.min} to ${slider.max}`, [], { key: path });
      }
      if (path === 'lexical.depth' && !Number.isInteger(value))
        throw new InputError(`${value} is not a whole number, and the depth takes whole numbers`, [], { key: path });
      const [, group, name] = path.split('.');
      if (group === 'fields') lx.fields[name] = value;
      else if (group === 'bm25') lx.bm25[name as (typeof BM25)[number]] = value;
      else lx.depth = value;
    }
    if (!Object.values(lx.fields).some((b) => b > 0))
      throw new InputError('every field boost is 0: the config would search no field', [], { key: 'lexical.fields' });
    const { configHash: _, ...rest } = { ...base, lexical: lx };
    return { ...rest, configHash: hashRankConfig(rest) };
  };

  const split = tuneHoldoutSplit(judgments);
  const fieldNames = index.fields;
  // The last settings' per-query values (by config hash): evaluate after quick of the same move ranks nothing again.
  let last: { hash: string; values: Map<string, Record<string, number>> } | undefined;
  const valuesOf = (config: RankConfig): Map<string, Record<string, number>> => {
    if (last?.hash === config.configHash) return last.values;
    const lx = config.lexical!;
    const bm25Key = BM25.map((k) => lx.bm25[k]).join(',');
    if (bm25Key !== scoredWith) {
      for (const q of queries) q.candidates?.rescore(lx.bm25, fieldNames);
      scoredWith = bm25Key;
    }
    const options = lexicalQuery(lx, lx.depth);
    const values = new Map<string, Record<string, number>>();
    for (const q of queries) {
      let grades: Array<number | undefined> = [];
      if (q.ranker) {
        const n = q.ranker.rank(options, top);
        grades = new Array<number | undefined>(n);
        for (let i = 0; i < n; i++) {
          const g = q.grades![top[i]];
          grades[i] = Number.isNaN(g) ? undefined : g;
        }
      }
      const ctx = contextOfGrades(grades, q.judged);
      values.set(q.qid, Object.fromEntries(specs.map((s) => [s.name, computeMetric(s, ctx)])));
    }
    // The baseline's query order (evaluateRun's), as compare pairs them.
    const candidate = new Map([...baselineValues.keys()].map((q) => [q, values.get(q)!]));
    last = { hash: config.configHash, values: candidate };
    return candidate;
  };
  return {
    sliders: () => ({ sliders: sliders.map((s) => ({ ...s })), fixed: fixed.map((f) => ({ ...f })) }),
    async quick(moves, signal) {
      signal?.throwIfAborted();
      const config = configOf(moves);
      return quickOf(config, baselineValues, valuesOf(config), split, specs);
    },
    async evaluate(moves, signal) {
      signal?.throwIfAborted();
      const config = configOf(moves);
      const candidate = valuesOf(config);
      const work = new Work({ signal });
      const comparison = await compareStatistics(
        { name: baseline.name, principal: null, values: baselineValues },
        { name: config.name, principal: null, values: candidate },
        judgments,
        specs,
        metricOptions,
        work.phase('statistics', 0),
      );
      const gates = checkGates(settings.gates, comparison);
      return { ...quickOf(config, baselineValues, candidate, split, specs), comparison, gates, verdict: verdictOf(comparison, gates) };
    },
  };
}

type Values = ReadonlyMap<string, Readonly<Record<string, number>>>;

/**
 * The figures of a move that need no statistics, from both sides' per-query values (the same queries, the baseline's
 * order): computed as compare computes them (mean, b − a, winsLossesTies over the same arrays), so equal to its own.
 */
function quickOf(config: RankConfig, a: Values, b: Values, split: { tune: string[]; holdout: string[] }, specs: MetricSpec[]): TuneQuick {
  const headline = specs[0].name;
  const qids = [...a.keys()];
  const on = (ids: readonly string[]): SplitMetrics => {
    // In the baseline's order, as compare sums a split: another order can change a mean's last bit.
    const wanted = new Set(ids);
    const scored = qids.filter((q) => wanted.has(q));
    const side = (values: Values) => Object.fromEntries(specs.map((s) => [s.name, mean(scored.map((q) => values.get(q)![s.name]))]));
    return { queries: scored.length, baseline: side(a), candidate: side(b) };
  };
  const metrics = { all: on(qids), tune: on(split.tune), holdout: on(split.holdout) };
  const gain = (m: SplitMetrics) => m.candidate[headline] - m.baseline[headline];
  const before = qids.map((q) => a.get(q)![headline]);
  const after = qids.map((q) => b.get(q)![headline]);
  return {
    config,
    headline,
    metrics,
    perQuery: qids.map((qid, i) => ({ qid, baseline: before[i], candidate: after[i], delta: after[i] - before[i] })),
    ...winsLossesTies(before, after),
    overfitting: metrics.tune.queries > 0 && metrics.holdout.queries > 0 && gain(metrics.tune) > 0 && !(gain(metrics.holdout) > 0),
  };
}
