/**
 * The saved-run format `ranklab-run@2` (JSON), and the compact layout `ranklab-run@3` builds on (run-format-v3.ts).
 * In memory a run is always the expanded `SavedRun` (run-format.ts reads every version):
 * - `ranklab-run@2`: every document id once in `ids`; per query the ranked list as parallel arrays of id indexes and
 *   scores; per-stage ranks and scores as arrays (or `1`: "the same as the final list", the common case of a one-stage
 *   pipeline); titles only in the run-wide `titles`; scores with no more digits than keep every score of a list
 *   distinct from the others (so order and ties are exactly those of the run), latencies to the microsecond.
 * The ranked order itself is stored, never recomputed from the rounded scores.
 */
import type { RankedDoc, SavedQueryResult, SavedRun, StageName } from './types';
import { setKey } from '../util/records';

export const RUN_FORMAT_V2 = 'ranklab-run@2';

/** One stage's per-document ranks and scores in final order (null: the stage did not see that document), or 1 (= final). */
export type CompactStage = 1 | { ranks: (number | null)[]; scores: (number | null)[] };

export interface CompactQuery extends Omit<SavedQueryResult, 'docs' | 'stageIds'> {
  docs: number[];
  scores: number[];
  stages?: Partial<Record<StageName, CompactStage>>;
  stageIds?: Partial<Record<StageName, number[]>>;
}

export interface CompactRun extends Omit<SavedRun, 'format' | 'queries'> {
  format: typeof RUN_FORMAT_V2;
  ids: string[];
  queries: CompactQuery[];
}

export const MIN_DIGITS = 6;

/**
 * The values rounded to the fewest significant digits (at least 6) that keep distinct values distinct. Rounding is
 * monotone, so equal values stay equal and the order of distinct ones is unchanged: ties are exactly the run's.
 */
export function shortestDistinct(values: readonly number[]): number[] {
  const distinct = new Set(values).size;
  for (let p = MIN_DIGITS; p < 17; p++) {
    const rounded = values.map((v) => round(v, p));
    // Near ±Number.MAX_VALUE rounding up can overflow to ±Infinity (written as null): take more digits then.
    if (new Set(rounded).size === distinct && rounded.every((r, i) => Number.isFinite(r) || !Number.isFinite(values[i]))) return rounded;
  }
  return [...values];
}

function round(v: number, digits: number): number {
  return Number.isFinite(v) ? Number(v.toPrecision(digits)) : v;
}

/** Latencies to the microsecond (the timers do not resolve finer). */
function roundLatency(l: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(l).map(([k, v]) => [k, Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v]));
}

/** The run in the `@2` layout (as written to a `@2` file, and the starting point of `@3`). */
export function encodeRunV2(saved: SavedRun): CompactRun {
  const ids: string[] = [];
  const index = new Map<string, number>();
  const ix = (id: string) => {
    let i = index.get(id);
    if (i === undefined) index.set(id, (i = ids.push(id) - 1));
    return i;
  };
  // Titles stored per ranked document (runs read from @1) move to the run-wide map, once per id.
  const titles: Record<string, string> = { ...saved.titles };
  const queries = saved.queries.map((q): CompactQuery => {
    const { docs, stageIds, latencyMs, ...rest } = q;
    const scores = shortestDistinct(docs.map((d) => d.score));
    const out: CompactQuery = { ...rest, latencyMs: roundLatency(latencyMs), docs: docs.map((d) => ix(d.id)), scores };
    for (const d of docs) if (d.title && !Object.prototype.hasOwnProperty.call(titles, d.id)) setKey(titles, d.id, d.title);
    const stages = encodeStages(docs);
    if (stages) out.stages = stages;
    if (stageIds) out.stageIds = Object.fromEntries(Object.entries(stageIds).map(([s, list]) => [s, list!.map(ix)]));
    return out;
  });
  const { format: _format, queries: _queries, titles: _titles, ...header } = saved;
  return { format: RUN_FORMAT_V2, ...header, ...(Object.keys(titles).length || saved.titles ? { titles } : {}), ids, queries };
}

function encodeStages(docs: readonly RankedDoc[]): CompactQuery['stages'] {
  const names = new Set<StageName>();
  for (const d of docs) for (const s of Object.keys(d.stages ?? {}) as StageName[]) names.add(s);
  if (names.size === 0) return undefined;
  const out: NonNullable<CompactQuery['stages']> = {};
  for (const s of names) {
    const same = docs.every((d, i) => d.stages?.[s]?.rank === i + 1 && d.stages[s]!.score === d.score);
    if (same) {
      out[s] = 1;
      continue;
    }
    const seen = docs.map((d) => d.stages?.[s]);
    const rounded = shortestDistinct(seen.filter((x) => x !== undefined).map((x) => x!.score));
    let k = 0;
    out[s] = { ranks: seen.map((x) => x?.rank ?? null), scores: seen.map((x) => (x === undefined ? null : rounded[k++]!)) }; // one rounded score per ranked document
  }
  return out;
}

/** The expanded run of a parsed `@2` object; other values are returned unchanged for the checks to name. */
export function decodeRunV2(value: unknown): unknown {
  const v = value as Partial<CompactRun> | null;
  if (typeof v !== 'object' || v === null || v.format !== RUN_FORMAT_V2 || !Array.isArray(v.ids) || !Array.isArray(v.queries)) return value;
  const ids = v.ids;
  const idAt = (i: number) => {
    const id = ids[i];
    if (typeof id !== 'string') throw new Error(`document index ${i} is not in "ids"`);
    return id;
  };
  const queries = v.queries.map((q, qi): SavedQueryResult => {
    if (!q || !Array.isArray(q.docs) || !Array.isArray(q.scores) || q.docs.length !== q.scores.length)
      throw new Error(`queries[${qi}] needs "docs" and "scores" of equal length`);
    const { docs, scores, stages, stageIds, ...rest } = q;
    const list: RankedDoc[] = docs.map((i, j) => ({ id: idAt(i), score: scores[j]! })); // as many scores as docs (above)
    for (const [s, st] of Object.entries(stages ?? {}) as [StageName, CompactStage][]) {
      list.forEach((d, j) => {
        const rank = st === 1 ? j + 1 : st.ranks[j];
        const score = st === 1 ? d.score : st.scores[j];
        if (rank === null || rank === undefined || score === null || score === undefined) return;
        (d.stages ??= {})[s] = { rank, score };
      });
    }
    const out: SavedQueryResult = { ...rest, docs: list };
    if (stageIds) out.stageIds = Object.fromEntries(Object.entries(stageIds).map(([s, l]) => [s, l!.map(idAt)]));
    return out;
  });
  const { ids: _ids, queries: _q, ...header } = v;
  return { ...header, queries };
}
