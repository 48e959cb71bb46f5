/**
 * The saved-run format `ranklab-run@3`: the `@2` layout (run-format-v2.ts) with two changes; the file is this JSON
 * gzipped (run-format.ts):
 * - no `ids` table: a document id is written in full (a string) the first time the file mentions it and as the
 *   number of that first mention (0-based) afterwards. The file mentions ids in this order: queries in order, and
 *   per query its `docs`, then its `stageIds` lists in key order.
 * - a stage's `ranks` are left out when each is the document's position in that stage's output (`stageIds[stage]`,
 *   or the final list when the stage has none), which is what a real pipeline records.
 * Scores, stages, titles and everything else are exactly as in `@2`, so a run reads back exactly as from `@2`.
 */
import type { SavedRun } from './types';
import { type CompactQuery, type CompactRun, type CompactStage, RUN_FORMAT_V2, decodeRunV2, encodeRunV2 } from './run-format-v2';

export const RUN_FORMAT_V3 = 'ranklab-run@3';

/** A document as `@3` mentions it: its id the first time, then the number of that first mention. */
type IdRef = string | number;
type StageV3 = 1 | { ranks?: (number | null)[]; scores: (number | null)[] };
type QueryV3 = Omit<CompactQuery, 'docs' | 'stages' | 'stageIds'> & {
  docs: IdRef[];
  stages?: Record<string, StageV3>;
  stageIds?: Record<string, IdRef[]>;
};

export interface CompactRunV3 extends Omit<CompactRun, 'format' | 'ids' | 'queries'> {
  format: typeof RUN_FORMAT_V3;
  queries: QueryV3[];
}

/** The run in the `@3` layout (before gzip). */
export function encodeRunV3(saved: SavedRun): CompactRunV3 {
  const v2 = encodeRunV2(saved);
  const mentioned = new Map<number, number>(); // @2 index -> number of its first mention
  const ref = (i: number): IdRef => {
    const n = mentioned.get(i);
    if (n !== undefined) return n;
    mentioned.set(i, mentioned.size);
    return v2.ids[i]!; // an index of v2's own ids
  };
  const queries = v2.queries.map((q): QueryV3 => {
    const { docs, stages, stageIds, ...rest } = q;
    const out: QueryV3 = { ...rest, docs: docs.map(ref) };
    if (stages)
      out.stages = Object.fromEntries(
        Object.entries(stages).map(([s, st]) => [
          s,
          st === 1 || !ranksDerivable(st, docs, stageIds?.[s as keyof typeof stageIds]) ? st! : { scores: st.scores },
        ]),
      );
    if (stageIds) out.stageIds = Object.fromEntries(Object.entries(stageIds).map(([s, list]) => [s, list!.map(ref)]));
    return out;
  });
  const { ids: _ids, queries: _queries, ...header } = v2;
  return { ...header, format: RUN_FORMAT_V3, queries };
}

/** The expanded run of a parsed `@3` object (others are returned unchanged); throws naming the query when inconsistent. */
export function decodeRunV3(value: unknown): unknown {
  const v = value as Partial<CompactRunV3> | null;
  if (typeof v !== 'object' || v === null || v.format !== RUN_FORMAT_V3 || !Array.isArray(v.queries)) return v;
  const ids: string[] = [];
  const idOf = (r: IdRef, qi: number): number => {
    if (typeof r === 'string') return ids.push(r) - 1;
    if (!Number.isInteger(r) || r < 0 || r >= ids.length)
      throw new Error(`queries[${qi}] mentions document ${JSON.stringify(r)} before its id`);
    return r;
  };
  const queries = v.queries.map((q, qi): CompactQuery => {
    if (!q || !Array.isArray(q.docs)) throw new Error(`queries[${qi}] needs "docs"`);
    const { docs: refs, stages, stageIds: refLists, ...rest } = q;
    const docs = refs.map((r) => idOf(r, qi));
    const out: CompactQuery = { ...rest, docs };
    const stageIds = refLists && Object.fromEntries(Object.entries(refLists).map(([s, list]) => [s, list.map((r) => idOf(r, qi))]));
    if (stageIds) out.stageIds = stageIds;
    if (stages)
      out.stages = Object.fromEntries(
        Object.entries(stages).map(([s, st]) => [
          s,
          st === 1 || st.ranks ? (st as CompactStage) : { ranks: derivedRanks(st.scores, docs, stageIds?.[s], qi), scores: st.scores },
        ]),
      );
    return out;
  });
  const expanded = decodeRunV2({ ...v, format: RUN_FORMAT_V2, ids, queries }) as SavedRun;
  return { ...expanded, format: RUN_FORMAT_V3 };
}

/** First position of every id of a list. */
function positions(list: readonly number[]): Map<number, number> {
  const at = new Map<number, number>();
  list.forEach((id, p) => at.has(id) || at.set(id, p));
  return at;
}

function ranksDerivable(st: Exclude<CompactStage, 1>, docs: readonly number[], output: readonly number[] | undefined): boolean {
  const at = positions(output ?? docs);
  return st.ranks.every((r, j) => {
    const doc = docs[j];
    return r === null ? st.scores[j] === null : st.scores[j] !== null && doc !== undefined && at.get(doc) === r - 1;
  });
}

function derivedRanks(
  scores: readonly (number | null)[],
  docs: readonly number[],
  output: readonly number[] | undefined,
  qi: number,
): (number | null)[] {
  const at = positions(output ?? docs);
  return scores.map((s, j) => {
    if (s === null) return null;
    const doc = docs[j];
    const p = doc === undefined ? undefined : at.get(doc); // a score past the end of "docs": no document either
    if (p === undefined) throw new Error(`queries[${qi}]: a stage without "ranks" scores a document its output does not have`);
    return p + 1;
  });
}
