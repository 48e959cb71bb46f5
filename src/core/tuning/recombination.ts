/**
 * The sweep's fast path for combinations that only re-weight BASE's lexical scores (field boosts, combineWith,
 * depth) in a lexical-only config: per query, the cached per-field BM25 scores are read once, and every
 * combination ranks them again (CandidateRanker: the engine's scores and tie order, as candidate positions) and
 * scores only the objective. No engine, pipeline result or run per (combination, query); the values are exactly
 * those scoreConfig gives for each combination as a config of its own (test/unit/tuning/recombination.test.ts).
 */
import type { RankConfig } from '../config';
import {
  type EvaluateOptions,
  type JudgedContext,
  type MetricSpec,
  compareQids,
  computeMetric,
  contextOfGrades,
  judgedContext,
} from '../metrics';
import { CandidateRanker, type FieldScores, idOrderOf } from '../retrieval/lexical';
import { lexicalIndexOf } from '../retrieval/engine';
import { lexicalQuery } from '../retrieval/steps/lexical';
import { DEFAULT_SLICE_MS, type Work, yieldToEventLoop } from '../util/cooperative';
import type { RanklabSession } from '../session/session';
import type { Variation } from './parameters';

/** Settings whose every value is a recombination of the same cached field scores (no other index, no other search). */
const RECOMBINED = /^lexical\.(fields\.[^.]+|combineWith|depth)$/;

/**
 * Can every combination of these variations be scored by recombination? BASE must be lexical only (no vector,
 * reranker or external engine) and each varied setting a boost of one of its fields (a new field would change the
 * index), combineWith or the depth.
 */
export function recombinable(base: RankConfig, variations: readonly Variation[]): boolean {
  const lx = base.lexical;
  if (!lx || base.vector || base.rerank || base.engine) return false;
  return variations.every(
    (v) =>
      RECOMBINED.test(v.path) &&
      (!v.path.startsWith('lexical.fields.') || Object.hasOwn(lx.fields, v.path.slice('lexical.fields.'.length))),
  );
}

/** One judged query as the fast path scores it: its candidates (absent when it has no text), grades per candidate. */
interface PreparedQuery {
  qid: string;
  judged: JudgedContext;
  scores?: FieldScores;
  ranker?: CandidateRanker;
  /** Per candidate position: its grade, NaN when unjudged. */
  grades?: Float64Array;
  /** The objective of an empty list (a query without text is not run, and scores as nothing found). */
  empty: number;
}

export interface RecombinationScorer {
  /**
   * The objective per judged query (metric order of queries) of BASE with each config's settings: query by query,
   * every config in turn, so a query's scores are read from memory once for all of them. A `queries` phase of `work`
   * (progress, a pause every slice, and its abort reason when it aborts), as scoreConfig's query loop.
   */
  score(configs: readonly RankConfig[], work: Work): Promise<Map<string, number>[]>;
}

/**
 * Reads BASE's cached field scores of every judged query (searching once, exhaustively, those not cached yet) and
 * returns a scorer for configs that differ from BASE only in recombined settings. Pauses every slice; stops with the
 * abort reason when `signal` aborts.
 */
export async function prepareRecombination(
  session: RanklabSession,
  base: RankConfig,
  objective: MetricSpec,
  metricOptions: EvaluateOptions,
  signal?: AbortSignal,
): Promise<RecombinationScorer> {
  const index = lexicalIndexOf(await session.engine(base));
  if (!index) throw new Error('internal: a lexical config without a lexical index');
  const { judgments } = session.judgmentsAs({ split: 'all', relevanceThreshold: metricOptions.relevanceThreshold });
  const queries: PreparedQuery[] = [];
  let turn = performance.now();
  let largest = 0;
  for (const qid of [...judgments.qrels.keys()].sort(compareQids)) {
    if (performance.now() - turn >= DEFAULT_SLICE_MS) {
      await yieldToEventLoop();
      turn = performance.now();
    }
    signal?.throwIfAborted();
    const qrels = judgments.qrels.get(qid)!;
    const judged = judgedContext(qrels, metricOptions);
    // evaluateRun's rule: with excludeNoRelevant, a query without relevant documents is not scored at all.
    if (metricOptions.excludeNoRelevant && judged.numRelevant === 0) continue;
    const empty = computeMetric(objective, contextOfGrades([], judged));
    const text = judgments.queries.get(qid)?.text ?? '';
    if (!text.trim()) {
      queries.push({ qid, judged, empty });
      continue;
    }
    const scores = index.fieldScores(text, base.lexical!);
    const grades = new Float64Array(scores.docIds.length);
    scores.docIds.forEach((id, i) => (grades[i] = qrels.get(id) ?? NaN));
    largest = Math.max(largest, scores.docIds.length);
    queries.push({ qid, judged, scores, grades, empty });
  }
  // Every candidate's id order, sorted once for all queries (CandidateRanker then sorts numbers).
  const idOrder = idOrderOf(queries.flatMap((q) => q.scores?.docIds ?? []));
  for (const q of queries) if (q.scores) q.ranker = new CandidateRanker(q.scores, idOrder);
  const top = new Int32Array(largest);
  return {
    async score(configs, work) {
      // Per config: its query options and its values.
      const runs = configs.map((c) => ({ options: lexicalQuery(c.lexical!, c.lexical!.depth), values: new Map<string, number>() }));
      const slicer = work.phase('queries', queries.length);
      for (const [done, q] of queries.entries()) {
        if (slicer.due()) await slicer.pause(done);
        work.throwIfAborted();
        for (const { options, values } of runs) {
          if (!q.ranker) {
            values.set(q.qid, q.empty);
            continue;
          }
          const n = q.ranker.rank(options, top);
          const grades = new Array<number | undefined>(n);
          // rank wrote n candidate positions into top; grades has one per candidate.
          for (let i = 0; i < n; i++) {
            const g = q.grades![top[i]!]!;
            grades[i] = Number.isNaN(g) ? undefined : g;
          }
          values.set(q.qid, computeMetric(objective, contextOfGrades(grades, q.judged)));
        }
      }
      slicer.end();
      return runs.map((r) => r.values);
    },
  };
}
