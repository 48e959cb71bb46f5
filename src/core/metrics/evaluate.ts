import type { JudgmentSet } from '../judgments/types';
import type { RankedDoc, Run } from '../run/types';
import { DEFAULT_METRIC_OPTIONS, type MetricOptions, type QueryContext } from './context';
import { computeMetric, type MetricSpec } from './spec';

export interface EvaluateOptions extends MetricOptions {
  /** Leave out queries that have no relevant document (trec_eval counts them, scoring 0). Default false. */
  excludeNoRelevant?: boolean;
}

export interface Evaluation {
  specs: MetricSpec[];
  options: EvaluateOptions;
  /** Mean over the evaluated queries, per metric name. */
  means: Record<string, number>;
  perQuery: Map<string, Record<string, number>>;
  /** Number of queries averaged over. */
  queries: number;
  /** Judged queries the run has no results for: they score 0 and count (as `trec_eval -c`). */
  missingFromRun: string[];
  /** Run queries without any judgment: ignored, as trec_eval does. */
  unjudgedRunQueries: string[];
  /** Judged queries with no document at or above the threshold. */
  noRelevant: string[];
  judgments: string;
}

/** Builds the per-query context once; every metric reads from it. */
export function queryContext(docs: readonly RankedDoc[], qrels: Map<string, number>, options: MetricOptions): QueryContext {
  const grades = docs.map((d) => qrels.get(d.id));
  let numRelevant = 0;
  const idealGrades: number[] = [];
  for (const g of qrels.values()) {
    if (g >= options.relevanceThreshold) numRelevant++;
    if (g > 0) idealGrades.push(g);
  }
  idealGrades.sort((a, b) => b - a);
  return { grades, numRelevant, idealGrades, options };
}

/**
 * Scores a run against judgments the way trec_eval does: the loop is over judged queries, run
 * queries without judgments are ignored (and listed), judged queries missing from the run score 0.
 * The run's lists are taken in their given order (see `sortTrecOrder` for TREC files).
 */
export function evaluateRun(
  run: Run,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions = DEFAULT_METRIC_OPTIONS,
): Evaluation {
  const perQuery = new Map<string, Record<string, number>>();
  const missingFromRun: string[] = [];
  const noRelevant: string[] = [];
  const qids = [...judgments.qrels.keys()].sort(compareQids);
  for (const qid of qids) {
    const qrels = judgments.qrels.get(qid)!;
    const ctx = queryContext(run.get(qid) ?? [], qrels, options);
    if (ctx.numRelevant === 0) {
      noRelevant.push(qid);
      if (options.excludeNoRelevant) continue;
    }
    if (!run.has(qid)) missingFromRun.push(qid);
    const values: Record<string, number> = {};
    for (const spec of specs) values[spec.name] = computeMetric(spec, ctx);
    perQuery.set(qid, values);
  }
  const means: Record<string, number> = {};
  for (const spec of specs) {
    let sum = 0;
    for (const v of perQuery.values()) sum += v[spec.name];
    means[spec.name] = perQuery.size === 0 ? 0 : sum / perQuery.size;
  }
  const unjudgedRunQueries = [...run.keys()].filter((q) => !judgments.qrels.has(q)).sort(compareQids);
  return { specs, options, means, perQuery, queries: perQuery.size, missingFromRun, unjudgedRunQueries, noRelevant, judgments: judgments.fingerprint };
}

/** Query ids in natural order: numeric ids numerically ("2" before "10"), others as strings. */
export function compareQids(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isFinite(na) && Number.isFinite(nb) && a.trim() !== '' && b.trim() !== '') return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}
