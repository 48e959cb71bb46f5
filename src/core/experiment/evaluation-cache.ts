/**
 * Each saved run's per-query metric values on a set of judgments, kept in the comparison cache's folder
 * (./comparison-cache.ts: same trust rules, pruning and atomic writes), so that the statistics of a pair never compared
 * before (compareStatistics: the dashboard's verdict) need neither run file read: written when a run is saved
 * (session/evaluate.ts), and by the dashboard when it compares a run that has none for the judgments in use. Keyed by the run file's stamp, the judgments'
 * fingerprint and the metric options; an entry holds the metrics evaluated so far (a later evaluation adds its own).
 */
import type { EvaluateOptions } from '../metrics/evaluate';
import type { SavedRun } from '../run/types';
import { type RunFileStamp, cacheEntry, readCacheEntry, writeCacheEntry } from './comparison-cache';

/** Every input of a run's per-query values, but the metrics (an entry has some). */
export interface RunEvaluationKey {
  run: RunFileStamp;
  judgments: string;
  options: EvaluateOptions;
}

/** What a comparison needs of one run without reading it. */
export interface RunEvaluation {
  /** Per query evaluated (evaluateRun's order), per metric spec name, its value. */
  values: Map<string, Record<string, number>>;
  /** Evaluated queries that the run does not have (scored as empty lists). */
  missing: string[];
  /** Queries of the run that were not evaluated (not judged, or excluded), with their text: shown without figures. */
  notEvaluated: { qid: string; text: string }[];
}

/** As stored: one column of values per metric, in the order of `qids`. */
interface Stored {
  qids: string[];
  columns: Record<string, number[]>;
  missing: string[];
  notEvaluated: { qid: string; text: string }[];
}

const entryOf = (runsDir: string, key: RunEvaluationKey) => cacheEntry(runsDir, [key.run.id], { kind: 'run-evaluation', ...key });

/** The run's values of every metric in `specs`, or undefined when they are not all cached. */
export function readRunEvaluation(runsDir: string, key: RunEvaluationKey, specs: readonly string[]): RunEvaluation | undefined {
  const v = readCacheEntry<Stored>(entryOf(runsDir, key));
  if (!v) return undefined;
  const columns: [string, number[]][] = [];
  for (const s of specs) {
    const c = v.columns[s];
    if (!Array.isArray(c) || c.length !== v.qids.length) return undefined;
    columns.push([s, c]);
  }
  const values = new Map(v.qids.map((q, i) => [q, Object.fromEntries(columns.map(([s, c]) => [s, c[i]!]))])); // i < qids.length = c.length
  return { values, missing: v.missing, notEvaluated: v.notEvaluated };
}

/** Stores the run's values (adding to the metrics already stored for the same key); false when not stored. */
export function writeRunEvaluation(
  runsDir: string,
  key: RunEvaluationKey,
  evaluation: RunEvaluation,
  log?: (message: string) => void,
): boolean {
  const entry = entryOf(runsDir, key);
  const qids = [...evaluation.values.keys()];
  const specs = Object.keys(evaluation.values.values().next().value ?? {});
  const old = readCacheEntry<Stored>(entry);
  const columns: Record<string, number[]> = old && sameList(old.qids, qids) ? { ...old.columns } : {};
  for (const s of specs) columns[s] = qids.map((q) => evaluation.values.get(q)![s]!); // each query has a value of every metric
  return writeCacheEntry(
    runsDir,
    entry,
    { qids, columns, missing: evaluation.missing, notEvaluated: evaluation.notEvaluated } satisfies Stored,
    (m) => log?.(`run evaluation not cached: ${m}`),
  );
}

/** A run's evaluation from its per-query values (evaluateRun's `perQuery`, or one side of a comparison) and the run. */
export function runEvaluationOf(values: Map<string, Record<string, number>>, saved: Pick<SavedRun, 'queries'>): RunEvaluation {
  const inRun = new Set(saved.queries.map((q) => q.qid));
  return {
    values,
    missing: [...values.keys()].filter((q) => !inRun.has(q)),
    notEvaluated: saved.queries.filter((q) => !values.has(q.qid)).map((q) => ({ qid: q.qid, text: q.text })),
  };
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
