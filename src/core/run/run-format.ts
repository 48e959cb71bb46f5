/**
 * The saved-run file formats. In memory a run is always the expanded `SavedRun`; on disk it is written as
 * `ranklab-run@2` (compact) and read from either version:
 * - `ranklab-run@1`: the expanded object as JSON (one object per ranked document, every key repeated).
 * - `ranklab-run@2`: every document id once in `ids`; per query the ranked list as parallel arrays of id indexes and
 *   scores; per-stage ranks and scores as arrays (or `1`: "the same as the final list", the common case of a one-stage
 *   pipeline); titles only in the run-wide `titles`; scores with no more digits than keep every score of a list
 *   distinct from the others (so order and ties are exactly those of the run), latencies to the microsecond.
 * The ranked order itself is stored, never recomputed from the rounded scores.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../util/diagnostics';
import type { RankedDoc, SavedQueryResult, SavedRun, StageName } from './types';

export const RUN_FORMAT = 'ranklab-run@2';
export const RUN_FORMATS = ['ranklab-run@1', RUN_FORMAT] as const;
export type RunFormat = (typeof RUN_FORMATS)[number];

/** One stage's per-document ranks and scores in final order (null: the stage did not see that document), or 1 (= final). */
type CompactStage = 1 | { ranks: (number | null)[]; scores: (number | null)[] };

interface CompactQuery extends Omit<SavedQueryResult, 'docs' | 'stageIds'> {
  docs: number[];
  scores: number[];
  stages?: Partial<Record<StageName, CompactStage>>;
  stageIds?: Partial<Record<StageName, number[]>>;
}

export interface CompactRun extends Omit<SavedRun, 'format' | 'queries'> {
  format: typeof RUN_FORMAT;
  ids: string[];
  queries: CompactQuery[];
}

const MIN_DIGITS = 6;

/**
 * The values rounded to the fewest significant digits (at least 6) that keep distinct values distinct. Rounding is
 * monotone, so equal values stay equal and the order of distinct ones is unchanged: ties are exactly the run's.
 */
export function shortestDistinct(values: readonly number[]): number[] {
  const distinct = new Set(values).size;
  for (let p = MIN_DIGITS; p < 17; p++) {
    const rounded = values.map((v) => round(v, p));
    if (new Set(rounded).size === distinct) return rounded;
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

export function encodeRun(saved: SavedRun): CompactRun {
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
    for (const d of docs) if (d.title && !Object.prototype.hasOwnProperty.call(titles, d.id)) titles[d.id] = d.title;
    const stages = encodeStages(docs);
    if (stages) out.stages = stages;
    if (stageIds) out.stageIds = Object.fromEntries(Object.entries(stageIds).map(([s, list]) => [s, list!.map(ix)]));
    return out;
  });
  const { format: _format, queries: _queries, titles: _titles, ...header } = saved;
  return { format: RUN_FORMAT, ...header, ...(Object.keys(titles).length || saved.titles ? { titles } : {}), ids, queries };
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
    out[s] = { ranks: seen.map((x) => x?.rank ?? null), scores: seen.map((x) => (x === undefined ? null : rounded[k++])) };
  }
  return out;
}

/** The expanded run of a file's parsed JSON (either version); other values are returned unchanged for the checks to name. */
export function decodeRun(value: unknown): unknown {
  const v = value as Partial<CompactRun> | null;
  if (typeof v !== 'object' || v === null || v.format !== RUN_FORMAT || !Array.isArray(v.ids) || !Array.isArray(v.queries)) return value;
  const ids = v.ids;
  const idAt = (i: number) => {
    const id = ids[i];
    if (typeof id !== 'string') throw new Error(`document index ${i} is not in "ids"`);
    return id;
  };
  const queries = v.queries.map((q, qi): SavedQueryResult => {
    if (!q || !Array.isArray(q.docs) || !Array.isArray(q.scores) || q.docs.length !== q.scores.length) throw new Error(`queries[${qi}] needs "docs" and "scores" of equal length`);
    const { docs, scores, stages, stageIds, ...rest } = q;
    const list: RankedDoc[] = docs.map((i, j) => ({ id: idAt(i), score: scores[j] }));
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

/** A saved run file of either format, expanded; an InputError naming the file when it is not a usable run. */
export function loadSavedRun(path: string): SavedRun {
  let data: SavedRun;
  try {
    data = decodeRun(JSON.parse(readFileSync(path, 'utf8'))) as SavedRun;
  } catch (e) {
    throw new InputError(`${path}: not a readable saved run (${(e as Error).message})`);
  }
  const problem = checkSavedRun(data);
  if (problem) throw new InputError(`${path}: not a usable Ranklab saved run: ${problem}`);
  return data;
}

/** Minimal structural check of a saved run; returns what is wrong, or undefined. */
export function checkSavedRun(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return 'not a JSON object';
  const r = v as Record<string, unknown>;
  if (!RUN_FORMATS.includes(r.format as never)) return `format is ${JSON.stringify(r.format)}, expected ${RUN_FORMATS.map((f) => `"${f}"`).join(' or ')}`;
  const prov = r.provenance as Record<string, unknown> | undefined;
  if (!prov || typeof prov.config !== 'string' || typeof prov.createdAt !== 'string') return 'provenance.config and provenance.createdAt are required';
  if (!Array.isArray(r.metricSpecs)) return 'metricSpecs must be a list';
  if (typeof r.metrics !== 'object' || r.metrics === null) return 'metrics must be an object';
  if (!Array.isArray(r.queries)) return 'queries must be a list';
  for (const [i, q] of (r.queries as unknown[]).entries()) {
    const qr = q as Record<string, unknown>;
    if (!qr || typeof qr.qid !== 'string' || !Array.isArray(qr.docs) || typeof qr.metrics !== 'object') {
      return `queries[${i}] needs qid, docs and metrics`;
    }
  }
  return undefined;
}
