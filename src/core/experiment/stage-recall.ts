import type { JudgmentSet } from '../judgments/types';
import type { MetricOptions } from '../metrics';
import { type Run, type SavedQueryResult, type SavedRun, type StageCandidates, type StageName, STAGE_NAMES } from '../run/types';
import { setKey } from '../util/records';
import { QUERY_CLASSES, type QueryClass } from './query-classes';

/**
 * Where a pipeline loses the relevant document. For every query: recall of each stage's own output (lexical,
 * vector, fused candidates, reranked — each at the depth that stage ran to) and of the final list, and a class
 * (declared, with what each means, in ./query-classes.ts): `hit`, `ranking-miss`, `retrieval-miss`, `no-relevant`.
 * "Relevant" = grade ≥ the relevance threshold; recall = relevant retrieved / relevant judged for the query.
 */
export { QUERY_CLASSES, type QueryClass } from './query-classes';

export interface QueryStageRecall {
  class: QueryClass;
  /** Recall of each stage present, and of the final list ("final", its whole length). */
  recall: Partial<Record<StageName | 'final', number>>;
}

export interface StageRecallReport {
  /** The cut-off that makes a hit. */
  k: number;
  /** Stages seen in the run, in pipeline order. */
  stages: StageName[];
  /** False when some query's stage outputs were not stored (a TREC run, an older saved run): its recall then covers the final list only. */
  complete: boolean;
  perQuery: Record<string, QueryStageRecall>;
  counts: Record<QueryClass, number>;
  /** Mean recall over the queries with a relevant document. */
  meanRecall: Partial<Record<StageName | 'final', number>>;
  /** Class counts per query tag. */
  slices: Record<string, Record<QueryClass, number>>;
}

/** Each stage's ids for a saved query: stored lists, plus the stages left out because they equal the final list. */
export function stageIdsOfSaved(q: Pick<SavedQueryResult, 'docs' | 'stageIds'>): Partial<Record<StageName, string[]>> | undefined {
  if (!q.stageIds) return undefined;
  const out = { ...q.stageIds };
  for (const d of q.docs) for (const s of Object.keys(d.stages ?? {}) as StageName[]) out[s] ??= q.docs.map((x) => x.id);
  return out;
}

/** Every query's stage outputs from a saved run; undefined when the run predates them (some query lacks them). */
export function stageCandidatesOfSaved(saved: Pick<SavedRun, 'queries'>): StageCandidates | undefined {
  const stored = saved.queries.map((q) => [q.qid, stageIdsOfSaved(q)] as const);
  return stored.every(([, s]) => s) ? new Map(stored.map(([q, s]) => [q, s!])) : undefined;
}

export function stageRecall(
  run: Run,
  stageIds: StageCandidates | undefined,
  judgments: JudgmentSet,
  options: Pick<MetricOptions, 'relevanceThreshold'>,
  k: number,
): StageRecallReport {
  const perQuery: Record<string, QueryStageRecall> = {};
  const counts = Object.fromEntries(QUERY_CLASSES.map((c) => [c, 0])) as Record<QueryClass, number>;
  const sums: Partial<Record<StageName | 'final', number>> = {};
  const seen = new Set<StageName>();
  const slices: Record<string, Record<QueryClass, number>> = {};
  let complete = true;
  let withRelevant = 0;
  for (const [qid, qrels] of judgments.qrels) {
    const relevant = new Set<string>();
    for (const [d, g] of qrels) if (g >= options.relevanceThreshold) relevant.add(d);
    const final = (run.get(qid) ?? []).map((d) => d.id);
    const stages = stageIds?.get(qid);
    if (run.has(qid) && !stages) complete = false;
    const lists: [StageName | 'final', string[]][] = [...(Object.entries(stages ?? {}) as [StageName, string[]][]), ['final', final]];
    const recall: QueryStageRecall['recall'] = {};
    let retrieved = false;
    for (const [stage, ids] of lists) {
      if (stage !== 'final') seen.add(stage);
      const found = relevant.size ? countIn(ids, relevant) : 0;
      recall[stage] = relevant.size ? found / relevant.size : 0;
      if (found) retrieved = true;
    }
    const cls: QueryClass =
      relevant.size === 0 ? 'no-relevant' : countIn(final, relevant, k) > 0 ? 'hit' : retrieved ? 'ranking-miss' : 'retrieval-miss';
    setKey(perQuery, qid, { class: cls, recall });
    counts[cls]++;
    if (relevant.size) {
      withRelevant++;
      for (const [stage, r] of Object.entries(recall)) sums[stage as StageName] = (sums[stage as StageName] ?? 0) + r;
    }
    for (const tag of judgments.queries.get(qid)?.tags ?? []) {
      slices[tag] ??= Object.fromEntries(QUERY_CLASSES.map((c) => [c, 0])) as Record<QueryClass, number>;
      slices[tag][cls]++;
    }
  }
  // A stage absent from some query (e.g. no vector hits) counts as recall 0 there: divide by every classed query.
  const meanRecall = Object.fromEntries(Object.entries(sums).map(([s, v]) => [s, withRelevant ? v / withRelevant : 0]));
  return { k, stages: STAGE_NAMES.filter((s) => seen.has(s)), complete, perQuery, counts, meanRecall, slices };
}

/** How many of the first `depth` ids are in `relevant` (a loop, not a filtered copy: a comparison counts 1,000s of lists). */
function countIn(ids: readonly string[], relevant: ReadonlySet<string>, depth = ids.length): number {
  let n = 0;
  for (let i = 0; i < Math.min(depth, ids.length); i++) if (relevant.has(ids[i]!)) n++; // i < ids.length
  return n;
}

/** Queries whose class differs between two runs (compare: what a change fixed or broke). */
export function classChanges(
  baseline: StageRecallReport,
  candidate: StageRecallReport,
): { qid: string; baseline: QueryClass; candidate: QueryClass }[] {
  return Object.entries(baseline.perQuery).flatMap(([qid, b]) => {
    const c = candidate.perQuery[qid];
    return c && c.class !== b.class ? [{ qid, baseline: b.class, candidate: c.class }] : [];
  });
}

/** Per-class metric means over one run (`eval --class-slices`): the classes as slices `class:<class>`. */
export interface ClassSlice {
  queries: number;
  metrics: Record<string, number>;
}

/**
 * The mean of each metric over the queries of each class (`class:hit`, …), like compare's class slices. Only queries
 * scored (in `perQuery`) count; classes with no scored query are left out.
 */
export function classSliceMeans(
  report: StageRecallReport,
  perQuery: ReadonlyMap<string, Record<string, number>>,
  metrics: readonly string[],
): Record<string, ClassSlice> {
  const out: Record<string, ClassSlice> = {};
  for (const cls of QUERY_CLASSES) {
    const ids = Object.entries(report.perQuery)
      .filter(([q, r]) => r.class === cls && perQuery.has(q))
      .map(([q]) => q);
    if (!ids.length) continue;
    out[`class:${cls}`] = {
      queries: ids.length,
      // A scored query has a value of every metric.
      metrics: Object.fromEntries(metrics.map((m) => [m, ids.reduce((s, q) => s + perQuery.get(q)![m]!, 0) / ids.length])),
    };
  }
  return out;
}
