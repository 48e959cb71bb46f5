/**
 * Pooling, as TREC builds its judgment pools: the (query, document) pairs that the chosen configs show in their
 * top `depth` and that nobody has graded yet, each pair once, ordered so that the ones that could change the
 * comparison come first:
 *   1. deciding: pairs whose grade could flip a metric's verdict between the first config (the baseline) and
 *      another (the comparison bounds' deciding pairs, src/core/experiment/bounds.ts) — those some config does not
 *      show before those every config shows;
 *   2. differing: pairs in some configs' top `depth` but not all (a grade moves their difference);
 *   3. shared: pairs every config shows (graded for completeness: they move no difference of P@k-like metrics).
 * Then best rank first (every query's top documents before anyone's tenth), then query order, then id.
 * With it, judged@depth of each config now and if the pool (after `max`) were graded: the same metric and mean
 * as `eval`/`compare` report (the projection is evaluateRun on the judgments with the pool added), over the
 * queries pooled (`qids` when given: the chosen queries' figure, not the whole set's).
 */
import { comparisonBounds } from '../experiment/bounds';
import { judgmentKey } from '../judgments/keys';
import type { JudgmentSet } from '../judgments/types';
import { type EvaluateOptions, type MetricSpec, evaluateRun, parseMetric } from '../metrics';
import type { Run } from '../run/types';
import { compareIdBytes } from '../util/id-order';

export type PoolReason = 'deciding' | 'differing' | 'shared';

export interface PoolSide {
  name: string;
  run: Run;
}

export interface PoolPair {
  qid: string;
  docId: string;
  /** Rank (1-based) within each config's top `depth` that shows the document. */
  ranks: Record<string, number>;
  bestRank: number;
  reason: PoolReason;
  /** Every config shows it in its top `depth`. */
  shownByAll: boolean;
}

export interface PoolOptions {
  /** Top documents of each config that are pooled (default 10). */
  depth?: number;
  /** Only these queries (default: every judged query the runs have). */
  qids?: ReadonlySet<string>;
  /** At most this many pairs (the first ones). */
  max?: number;
  /** The metrics whose verdicts the deciding pairs could flip (with two or more configs). */
  specs: MetricSpec[];
  metricOptions: EvaluateOptions;
  /** Pairs to leave out although unjudged (e.g. already graded by the LLM rater being run). */
  skip?: (qid: string, docId: string) => boolean;
  /** Keep pairs that are judged already (an LLM judge graded against people's grades, for `ranklab agreement`). */
  includeJudged?: boolean;
}

export interface Pool {
  depth: number;
  configs: string[];
  /** In judging order, `max` applied. */
  pairs: PoolPair[];
  /** Pairs before `max`. */
  total: number;
  byReason: Record<PoolReason, number>;
  /** judged@depth per config over the queries pooled: now, and if every pair of `pairs` were graded. */
  judged: Record<string, { k: number; now: number; projected: number }>;
  /** With `includeJudged`: how many of `pairs` someone graded already (the others are unjudged). */
  alreadyJudged?: number;
  /** The queries pooled when they were chosen (PoolOptions.qids); absent: every judged query. */
  scope?: ReadonlySet<string>;
}

const ORDER: Record<PoolReason, number> = { deciding: 0, differing: 1, shared: 2 };

export function buildPool(sides: PoolSide[], judgments: JudgmentSet, opts: PoolOptions): Pool {
  const depth = opts.depth ?? 10;
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`pool depth must be a positive integer, not ${depth}`);
  // Judged queries first, then queries with text and no judgment yet (a fresh sample from the logs), in file order.
  const queryOrder = new Map([...judgments.qrels.keys(), ...unjudgedQueries(judgments)].map((q, i) => [q, i]));
  const inScope = (q: string) => queryOrder.has(q) && (!opts.qids || opts.qids.has(q));
  const pairs = new Map<string, PoolPair>();
  for (const side of sides) {
    for (const [qid, docs] of side.run) {
      if (!inScope(qid)) continue;
      const qrels = judgments.qrels.get(qid) ?? NO_JUDGMENTS;
      docs.slice(0, depth).forEach((d, i) => {
        if ((qrels.has(d.id) && !opts.includeJudged) || opts.skip?.(qid, d.id)) return;
        const key = judgmentKey(qid, d.id);
        let p = pairs.get(key);
        if (!p) pairs.set(key, (p = { qid, docId: d.id, ranks: {}, bestRank: Infinity, reason: 'shared', shownByAll: false }));
        p.ranks[side.name] = i + 1;
        p.bestRank = Math.min(p.bestRank, i + 1);
      });
    }
  }
  for (const p of pairs.values()) {
    p.shownByAll = Object.keys(p.ranks).length === sides.length;
    if (!p.shownByAll) p.reason = 'differing';
  }
  for (const key of decidingPairs(sides, judgments, opts, inScope)) {
    const p = pairs.get(key);
    if (p) p.reason = 'deciding';
  }
  const ordered = [...pairs.values()].sort(
    (a, b) =>
      ORDER[a.reason] - ORDER[b.reason] ||
      Number(a.shownByAll) - Number(b.shownByAll) ||
      a.bestRank - b.bestRank ||
      queryOrder.get(a.qid)! - queryOrder.get(b.qid)! ||
      compareIdBytes(a.docId, b.docId),
  );
  const chosen = opts.max !== undefined ? ordered.slice(0, opts.max) : ordered;
  const byReason: Record<PoolReason, number> = { deciding: 0, differing: 0, shared: 0 };
  for (const p of chosen) byReason[p.reason]++;
  const pool: Pool = {
    depth,
    configs: sides.map((s) => s.name),
    pairs: chosen,
    total: ordered.length,
    byReason,
    judged: projectJudged(sides, judgments, chosen, depth, opts.metricOptions, opts.qids),
  };
  if (opts.qids) pool.scope = opts.qids;
  if (opts.includeJudged) pool.alreadyJudged = chosen.filter((p) => judgments.qrels.get(p.qid)?.has(p.docId)).length;
  return pool;
}

const NO_JUDGMENTS: ReadonlyMap<string, number> = new Map();

/** Queries with text and no judgment at all (e.g. sampled by `ranklab queries sample`): pooled after the judged ones. */
export function unjudgedQueries(judgments: JudgmentSet): string[] {
  return [...judgments.queries.values()].filter((q) => !judgments.qrels.has(q.id) && q.text.trim() !== '').map((q) => q.id);
}

/**
 * judged@depth (the mean `eval` reports) of each side now and with every pool pair judged, over the queries of
 * `scope` (default: every judged query, as in eval).
 */
export function projectJudged(
  sides: PoolSide[],
  judgments: JudgmentSet,
  pairs: PoolPair[],
  depth: number,
  metricOptions: EvaluateOptions,
  scope?: ReadonlySet<string>,
): Pool['judged'] {
  const spec = parseMetric(`judged@${depth}`);
  // Coverage counts judgments whatever their grade.
  const options: EvaluateOptions = { gain: metricOptions.gain, relevanceThreshold: metricOptions.relevanceThreshold };
  const inScope = ([q]: [string, unknown]) => !scope || scope.has(q);
  const before: JudgmentSet = scope ? { ...judgments, qrels: new Map([...judgments.qrels].filter(inScope)) } : judgments;
  const qrels = new Map([...before.qrels].map(([q, docs]) => [q, new Map(docs)]));
  for (const p of pairs) qrels.get(p.qid)?.set(p.docId, 0);
  const after: JudgmentSet = { ...judgments, qrels };
  const out: Pool['judged'] = {};
  for (const side of sides) {
    out[side.name] = {
      k: depth,
      now: evaluateRun(side.run, before, [spec], options).means[spec.name]!,
      projected: evaluateRun(side.run, after, [spec], options).means[spec.name]!,
    };
  }
  return out;
}

/** Pairs whose grade could flip some metric's verdict of a side against the first side. */
function decidingPairs(sides: PoolSide[], judgments: JudgmentSet, opts: PoolOptions, inScope: (q: string) => boolean): Set<string> {
  const out = new Set<string>();
  if (sides.length < 2 || opts.metricOptions.judgedOnly) return out;
  const qids = [...judgments.qrels.keys()].filter(inScope);
  for (const side of sides.slice(1)) {
    const bounds = comparisonBounds(sides[0]!.run, side.run, judgments, opts.specs, opts.metricOptions, qids);
    for (const [qid, docs] of Object.entries(bounds?.deciding ?? {})) for (const d of docs) out.add(judgmentKey(qid, d));
  }
  return out;
}
