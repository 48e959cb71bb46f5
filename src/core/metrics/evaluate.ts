import type { JudgmentSet } from '../judgments/types';
import type { RankedDoc, Run } from '../run/types';
import { DEFAULT_METRIC_OPTIONS, type MetricOptions, type QueryContext } from './context';
import { computeMetric, definitionOf, type MetricSpec } from './spec';

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
  /**
   * For metrics that report a residual (RBP): mean and per-query residual, keyed by metric name — the most the
   * value could rise if every unjudged document were relevant. Empty when no such metric was asked for.
   */
  residuals: { means: Record<string, number>; perQuery: Map<string, Record<string, number>> };
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

/**
 * Builds the per-query context once; every metric reads from it. With `judgedOnly` the unjudged documents are
 * dropped here, before any metric, so the list is condensed (trec_eval -J).
 */
export function queryContext(docs: readonly RankedDoc[], qrels: Map<string, number>, options: MetricOptions): QueryContext {
  return contextOfGrades(
    docs.map((d) => qrels.get(d.id)),
    judgedContext(qrels, options),
  );
}

/** What a query's context holds besides its ranked list: computed once per query, however many lists are scored. */
export type JudgedContext = Omit<QueryContext, 'grades'>;

export function judgedContext(qrels: Map<string, number>, options: MetricOptions): JudgedContext {
  let numRelevant = 0;
  let numNonRelevant = 0;
  const idealGrades: number[] = [];
  for (const g of qrels.values()) {
    if (g >= options.relevanceThreshold) numRelevant++;
    else numNonRelevant++;
    if (g > 0) idealGrades.push(g);
  }
  idealGrades.sort((a, b) => b - a);
  return { numRelevant, numNonRelevant, idealGrades, options };
}

/** The context of a ranked list given as its grades (`undefined` = unjudged), in rank order. */
export function contextOfGrades(grades: (number | undefined)[], judged: JudgedContext): QueryContext {
  return { ...judged, grades: judged.options.judgedOnly ? grades.filter((g) => g !== undefined) : grades };
}

/**
 * Scores a run against judgments the way trec_eval does: the loop is over judged queries, run
 * queries without judgments are ignored (and listed), judged queries missing from the run score 0.
 * The run's lists are taken in their given order (see `sortTrecOrder` for TREC files). `contexts`: each judged
 * query's queryContext of this run under these options, when the caller has them already (a comparison grades each
 * list once for all its parts).
 */
export function evaluateRun(
  run: Run,
  judgments: JudgmentSet,
  specs: MetricSpec[],
  options: EvaluateOptions = DEFAULT_METRIC_OPTIONS,
  contexts?: ReadonlyMap<string, QueryContext>,
): Evaluation {
  const perQuery = new Map<string, Record<string, number>>();
  const missingFromRun: string[] = [];
  const noRelevant: string[] = [];
  const qids = [...judgments.qrels.keys()].sort(compareQids);
  const withResidual = specs.filter((s) => typeof definitionOf(s).residual === 'function');
  const residualPerQuery = new Map<string, Record<string, number>>();
  for (const qid of qids) {
    const qrels = judgments.qrels.get(qid)!;
    const ctx = contexts?.get(qid) ?? queryContext(run.get(qid) ?? [], qrels, options);
    if (ctx.numRelevant === 0) {
      noRelevant.push(qid);
      if (options.excludeNoRelevant) continue;
    }
    if (!run.has(qid)) missingFromRun.push(qid);
    const values: Record<string, number> = {};
    for (const spec of specs) values[spec.name] = computeMetric(spec, ctx);
    perQuery.set(qid, values);
    if (withResidual.length)
      residualPerQuery.set(qid, Object.fromEntries(withResidual.map((s) => [s.name, definitionOf(s).residual!(ctx, s.param)])));
  }
  const unjudgedRunQueries = [...run.keys()].filter((q) => !judgments.qrels.has(q)).sort(compareQids);
  return {
    specs,
    options,
    means: meansOf(specs, perQuery),
    perQuery,
    residuals: { means: meansOf(withResidual, residualPerQuery), perQuery: residualPerQuery },
    queries: perQuery.size,
    missingFromRun,
    unjudgedRunQueries,
    noRelevant,
    judgments: judgments.fingerprint,
  };
}

/** Each metric's mean over the queries, summed in their order. */
export function meansOf(
  specs: readonly MetricSpec[],
  perQuery: ReadonlyMap<string, Readonly<Record<string, number>>>,
): Record<string, number> {
  const means: Record<string, number> = {};
  for (const spec of specs) {
    let sum = 0;
    for (const v of perQuery.values()) sum += v[spec.name]!; // each query has a value of every spec
    means[spec.name] = perQuery.size === 0 ? 0 : sum / perQuery.size;
  }
  return means;
}

/** Query ids in natural order: numeric ids numerically ("2" before "10"), others as strings. */
export function compareQids(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (Number.isFinite(na) && Number.isFinite(nb) && a.trim() !== '' && b.trim() !== '') return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}
