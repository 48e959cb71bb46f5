/**
 * The saved-run format `ranklab-run@4`: the values of `@3` (run-format-v3.ts; the same shortest-distinct scores, so a
 * run reads back exactly as from `@2`/`@3`) in a columnar layout that gzip compresses better; the file is this JSON
 * gzipped and named `<id>.json.gz` (run-format.ts, run-files.ts). Per query:
 * - `docs`: ids as in `@3`: in full at the first mention in the file (without the run's `idPrefix`, the prefix common
 *   to every id, when there is one), then the number n of that first mention (0-based),
 *   or, when that is shorter, n - m (negative) where m is the number of first mentions so far. Mention order: queries
 *   in order, per query its `fuse` lists or its `docs`, then each stage's `rest` (stage key order), then `stageIds`.
 * - `fuse`: `{lexical, vector}`, the two stage outputs, in place of `docs`, `scores`, `stageIds` and the lexical and
 *   vector `ranks`, when the query is exactly their reciprocal rank fusion under the run's `rrf` (`{k, depth, weights}`,
 *   the config's `hybrid`): checked on write by reading the query back.
 * - `scores`: the final scores as a number column (below); left out when they are the run's `rrf` fusion of the
 *   lexical and vector stage ranks (recomputed on read, checked bit for bit on write).
 * - `stages[stage]`: `1` (the final list: ranks 1..n, the final scores), or `{ranks?, scores, rest?}`: `ranks` per
 *   final document (null: the stage did not see it; left out when they are 1..n), `scores` the stage scores of the
 *   ranked documents in stage-rank order (a number column), `rest` the stage output's ids that are not in the final
 *   list, filling in order the positions its final documents do not take (its `stageIds` entry is then left out).
 * - `stageIds`: present when the run has it, with the stage outputs that `rest` cannot express, as `@3` writes them.
 * - `titles`: by position in the final list, the titles of its documents that no earlier query gave (null: none);
 *   the run-wide `titles` holds only the others.
 * A number column is a plain list, or `{"exp": e, "steps": [...]}`: value i is (steps[0] − steps[1] − … − steps[i]) ×
 * 10^e (each step after the first a decrease), integers small enough to add exactly, used only when every value
 * reads back identical.
 */
import { compareIdBytes } from '../util/id-order';
import type { RankedDoc, SavedQueryResult, SavedRun, StageName } from './types';
import {
  type CompactQuery,
  type CompactStage,
  MIN_DIGITS,
  RUN_FORMAT_V2,
  decodeRunV2,
  encodeRunV2,
  shortestDistinct,
} from './run-format-v2';

export const RUN_FORMAT_V4 = 'ranklab-run@4';

type IdRef = string | number;
export type NumberColumn = (number | null)[] | { exp: number; steps: number[] };
interface StageV4 {
  ranks?: (number | null)[];
  scores: NumberColumn;
  rest?: IdRef[];
}
interface QueryV4 extends Omit<CompactQuery, 'docs' | 'scores' | 'stages' | 'stageIds'> {
  docs?: IdRef[];
  titles?: (string | null)[];
  fuse?: { lexical: IdRef[]; vector: IdRef[] };
  scores?: NumberColumn;
  stages?: Record<string, 1 | StageV4>;
  stageIds?: Record<string, IdRef[]>;
}
/** Reciprocal rank fusion as retrieval computes it (fusion.ts): Σ weight / (k + rank), lexical first. */
interface Rrf {
  k: number;
  depth: number;
  weights: { lexical: number; vector: number };
}

export interface CompactRunV4 extends Omit<SavedRun, 'format' | 'queries'> {
  format: typeof RUN_FORMAT_V4;
  rrf?: Rrf;
  /** The prefix of every id, left out of each id written in full. */
  idPrefix?: string;
  queries: QueryV4[];
}

/** The run in the `@4` layout (before gzip). */
export function encodeRunV4(saved: SavedRun): CompactRunV4 {
  const v2 = encodeRunV2(saved);
  const mentioned = new Map<number, number>(); // @2 index -> number of its first mention
  const idPrefix = commonPrefix(v2.ids);
  const ref = (i: number): IdRef => {
    const n = mentioned.get(i);
    if (n === undefined) {
      mentioned.set(i, mentioned.size);
      return v2.ids[i]!.slice(idPrefix.length); // an index of v2's own ids
    }
    const back = n - mentioned.size; // negative: counted back from the latest first mention (-1)
    return String(back).length < String(n).length ? back : n;
  };
  const rrf = rrfOf(saved.config);
  const scratch = new Scratch(); // reading each query back
  let rrfUsed = false;
  // Titles go with the first query whose list has the document, by position (no id repeated); the rest stay run-wide.
  const left = v2.titles && { ...v2.titles };
  const withTitles = (q: CompactQuery, out: QueryV4): QueryV4 => {
    if (!left) return out;
    const titles = q.docs.map((i) => {
      const id = v2.ids[i]!; // an index of v2's own ids
      const t = Object.prototype.hasOwnProperty.call(left, id) ? left[id] : undefined;
      if (t === undefined) return null;
      delete left[id];
      return t;
    });
    while (titles.length && titles[titles.length - 1] === null) titles.pop();
    return titles.length ? { ...out, titles } : out;
  };
  const queries = v2.queries.map((q, qi): QueryV4 => {
    const fused = rrf && fusedForm(q, rrf, v2.ids, qi, scratch);
    if (fused) {
      rrfUsed = true;
      return withTitles(q, {
        ...fused,
        fuse: { lexical: fused.fuse!.lexical.map((i) => ref(i as number)), vector: fused.fuse!.vector.map((i) => ref(i as number)) },
      });
    }
    const { docs, scores, stages, stageIds, ...rest } = q;
    const out: QueryV4 = { ...rest, docs: docs.map(ref) };
    const ranks: Partial<Record<string, (number | null)[]>> = {};
    const explicit: Record<string, IdRef[]> = {};
    if (stages) {
      out.stages = {};
      for (const [s, st] of Object.entries(stages) as [string, CompactStage][]) {
        if (st === 1) {
          out.stages[s] = 1;
          ranks[s] = docs.map((_, j) => j + 1);
          continue;
        }
        ranks[s] = st.ranks;
        const v4: StageV4 = { scores: stageColumn(st) };
        if (!st.ranks.every((r, j) => r === j + 1)) v4.ranks = st.ranks;
        const output = stageIds?.[s as StageName];
        const gaps = output && restOf(output, docs, st.ranks);
        if (gaps) v4.rest = gaps.map(ref);
        out.stages[s] = v4;
      }
    }
    // After every `rest`, in key order: the order the reader meets the mentions in.
    for (const [s, list] of Object.entries(stageIds ?? {})) {
      if (!(out.stages?.[s] as StageV4 | undefined)?.rest) explicit[s] = list!.map(ref);
    }
    if (stageIds) out.stageIds = explicit; // kept when empty: the run had the field
    if (rrf && docs.length > 0 && sameNumbers(shortestDistinct(fusedScores(rrf, docs.length, ranks)), scores)) rrfUsed = true;
    else out.scores = column(scores);
    return withTitles(q, out);
  });
  const { ids: _ids, queries: _queries, format: _format, titles: _titles, ...header } = v2;
  return {
    format: RUN_FORMAT_V4,
    ...header,
    ...(left && { titles: left }),
    ...(rrfUsed && rrf ? { rrf } : {}),
    ...(idPrefix && { idPrefix }),
    queries,
  };
}

/**
 * The longest prefix of every id (not ending inside a surrogate pair), written once as `idPrefix`: gzip codes the
 * digits of ids such as "doc-123" more cheaply without a repeated `"doc-` match before each.
 */
function commonPrefix(ids: readonly string[]): string {
  const [first] = ids;
  if (first === undefined) return '';
  let n = first.length;
  for (const id of ids) {
    n = Math.min(n, id.length);
    for (let i = 0; i < n; i++) {
      if (id.charCodeAt(i) !== first.charCodeAt(i)) {
        n = i;
        break;
      }
    }
  }
  const last = first.charCodeAt(n - 1);
  return first.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
}

/** A stage's scores of the documents it ranked, in stage-rank order. */
function stageColumn(st: Exclude<CompactStage, 1>): NumberColumn {
  return column(rankOrder(st.ranks).map((j) => st.scores[j]!)); // a score per rank
}

/**
 * The query in the fused form (ids as @2 indexes), when fusing its lexical and vector outputs gives back exactly its
 * list, scores, stages and outputs; undefined otherwise.
 */
function fusedForm(q: CompactQuery, rrf: Rrf, ids: readonly string[], qi: number, scratch: Scratch): QueryV4 | undefined {
  const { docs, scores: _scores, stages, stageIds, ...rest } = q;
  const names = Object.keys(stageIds ?? {});
  if (!stageIds?.lexical || !stageIds.vector || names.length !== 2) return undefined;
  const out: QueryV4 = { ...rest, fuse: { lexical: stageIds.lexical, vector: stageIds.vector } };
  if (stages) out.stages = {};
  for (const [s, st] of Object.entries(stages ?? {}) as [string, CompactStage][]) {
    if (st === 1 ? s === 'lexical' || s === 'vector' : s !== 'lexical' && s !== 'vector') return undefined;
    out.stages![s] = st === 1 ? 1 : { scores: stageColumn(st) };
  }
  try {
    const back = decodeQuery(out, (i) => i as number, ids, rrf, qi, scratch);
    const [original] = (decodeRunV2({ format: RUN_FORMAT_V2, ids, queries: [q] }) as SavedRun).queries;
    if (!original) return undefined;
    return canonical([back.docs, back.stageIds]) === canonical([original.docs, original.stageIds]) ? out : undefined;
  } catch {
    return undefined;
  }
}

/** JSON with object keys sorted: equal for values that read back the same. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : x,
  );
}

/** The expanded run of a parsed `@4` object; throws naming the query when it is inconsistent. */
export function decodeRunV4(value: unknown): SavedRun {
  const v = value as CompactRunV4;
  if (!Array.isArray(v.queries)) throw new Error('"queries" must be a list');
  const prefix = v.idPrefix ?? '';
  if (typeof prefix !== 'string') throw new Error('"idPrefix" must be a string');
  const names: string[] = []; // first mention n -> its id (each id is written in full once)
  const titled: [string, string][] = [];
  const scratch = new Scratch();
  const queries = v.queries.map((query, qi): SavedQueryResult => {
    const titles = query?.titles;
    const back = decodeQuery(
      query,
      (r) => {
        if (typeof r === 'string') {
          return names.push(prefix + r) - 1;
        }
        const u = Number.isInteger(r) ? (r < 0 ? names.length + r : r) : -1;
        if (!(u >= 0 && u < names.length)) throw new Error(`queries[${qi}] mentions document ${JSON.stringify(r)} before its id`);
        return u;
      },
      names,
      v.rrf,
      qi,
      scratch,
    );
    titles?.forEach((t, j) => {
      if (t === null) return;
      const doc = back.docs[j];
      if (!doc || typeof t !== 'string') throw new Error(`queries[${qi}].titles[${j}] is not the title of a ranked document`);
      titled.push([doc.id, t]);
    });
    return back;
  });
  const { rrf: _rrf, idPrefix: _p, queries: _q, titles, ...header } = v;
  // fromEntries: an id such as "__proto__" is a plain key.
  return {
    ...header,
    ...(titles || titled.length ? { titles: Object.fromEntries([...titled, ...Object.entries(titles ?? {})]) } : {}),
    queries,
  };
}

/**
 * Buffers reused by every query of a run (no maps, sorts of objects or score arrays per query: the read's cost was
 * their garbage), and each fused score's rounding: fused scores are sums over a few hundred rank pairs, so most were
 * rounded for an earlier query already.
 */
class Scratch {
  readonly rounding = new Map<number, number>();
  /** The rounding per pair of ranks (lexical × (depth + 1) + vector) when the run's depth is small enough. */
  byPair: Float64Array | undefined;
  /** Per id (index in names): the query that last met it, and its entry there. */
  seen = new Int32Array(0);
  entry = new Int32Array(0);
  query = 0;
  /** Per entry of the query being fused: its id, score, lexical and vector rank (0: none). */
  who = new Int32Array(0);
  scores = new Float64Array(0);
  lexical = new Int32Array(0);
  vector = new Int32Array(0);
  readonly order: number[] = [];
  names: readonly string[] = [];
  /** Best first, ties by id descending (retrieval's order). */
  readonly byScore = (a: number, b: number): number => {
    // a and b are entries of the query being fused; each entry's `who` is an index in names.
    const d = this.scores[b]! - this.scores[a]!;
    if (d !== 0) return d;
    const x = this.names[this.who[a]!]!;
    const y = this.names[this.who[b]!]!;
    return compareIdBytes(y, x);
  };

  fit(ids: number, entries: number): void {
    if (this.seen.length < ids) {
      const n = Math.max(ids, 2 * this.seen.length, 1024);
      const [seen, entry] = [new Int32Array(n), new Int32Array(n)];
      seen.set(this.seen);
      entry.set(this.entry);
      [this.seen, this.entry] = [seen, entry];
    }
    if (this.who.length < entries) {
      const n = Math.max(entries, 2 * this.who.length, 256);
      [this.who, this.scores, this.lexical, this.vector] = [new Int32Array(n), new Float64Array(n), new Int32Array(n), new Int32Array(n)];
    }
  }
}

/** The same ranks and scores for every document: the final list's. */
const SAME = 1;

/** One query of a `@4` file, its ids read through `ref` (an index in `names`) in the order of their mentions. */
function decodeQuery(
  q: QueryV4,
  ref: (r: IdRef) => number,
  names: readonly string[],
  rrf: Rrf | undefined,
  qi: number,
  scratch: Scratch,
): SavedQueryResult {
  if (!q || (!Array.isArray(q.docs) && !q.fuse)) throw new Error(`queries[${qi}] needs "docs"`);
  const { docs: refs, fuse, scores: scoreColumn, stages, stageIds: explicit, titles: _titles, ...rest } = q;
  const ranks: Record<string, (number | null)[]> = {};
  const outputs: Partial<Record<StageName, string[]>> = {};
  const idsOf = (list: readonly IdRef[]): string[] => {
    const out = new Array<string>(list.length);
    for (let i = 0; i < list.length; i++) out[i] = names[ref(list[i]!)]!; // ref checks the index is in names
    return out;
  };
  let ids: string[];
  let finals: (number | null)[] | undefined;
  if (fuse) {
    if (!rrf) throw new Error(`queries[${qi}] is fused and the run has no "rrf"`);
    const lexical = fuse.lexical.map(ref);
    const vector = fuse.vector.map(ref);
    outputs.lexical = lexical.map((u) => names[u]!); // ref checked each
    outputs.vector = vector.map((u) => names[u]!);
    const fused = fuseOutputs(rrf, lexical, vector, names, scratch);
    ids = fused.ids;
    ranks.lexical = fused.lexical;
    ranks.vector = fused.vector;
    finals = fused.scores;
  } else ids = idsOf(refs!);
  const n = ids.length;
  // Per stage in key order: SAME, or each final document's stage score (undefined: the stage did not rank it).
  const stageEntries = Object.entries(stages ?? {}) as [StageName, StageV4 | typeof SAME][];
  const stageNames = stageEntries.map(([s]) => s);
  const perDoc: (typeof SAME | (number | undefined)[])[] = [];
  for (const [s, st] of stageEntries) {
    if (st === 1) {
      perDoc.push(SAME);
      ranks[s] = identity(n);
      continue;
    }
    const r = (ranks[s] ??= st.ranks ?? identity(n));
    if (r.length !== n) throw new Error(`queries[${qi}].stages.${s}: "ranks" and "docs" differ in length`);
    const order = rankOrder(r);
    const values = columnValues(st.scores);
    if (values.length !== order.length)
      throw new Error(`queries[${qi}].stages.${s}: ${values.length} scores for ${order.length} ranked documents`);
    const mine = new Array<number | undefined>(n).fill(undefined);
    for (let k = 0; k < order.length; k++) {
      const value = values[k]; // as many values as ranked documents (checked above)
      if (value !== null && value !== undefined) mine[order[k]!] = value;
    }
    perDoc.push(mine);
    if (st.rest) outputs[s] = withRest(ids, r, idsOf(st.rest), `queries[${qi}].stages.${s}`);
  }
  for (const [s, l] of Object.entries(explicit ?? {})) outputs[s as StageName] = idsOf(l);
  finals ??= scoreColumn !== undefined ? columnValues(scoreColumn) : rrfScores(rrf, n, ranks, qi);
  if (finals.length !== n) throw new Error(`queries[${qi}] needs as many scores as "docs"`);
  const list = new Array<RankedDoc>(n);
  // Per stage: its name, its ranks (one per final document) and its scores (perDoc's, in stage order).
  const columns = stageNames.map((s, i) => ({ s, ranks: ranks[s]!, p: perDoc[i]! })); // both set for every stage above
  for (let j = 0; j < n; j++) {
    const score = finals[j] as number;
    const id = ids[j]!; // j < n = ids.length
    let docStages: RankedDoc['stages'];
    for (const { s, ranks: r, p } of columns) {
      if (p === SAME) (docStages ??= {})[s] = { rank: j + 1, score };
      else {
        const stageScore = p[j];
        if (stageScore !== undefined) (docStages ??= {})[s] = { rank: r[j]!, score: stageScore }; // ranked: it has a rank
      }
    }
    list[j] = docStages ? { id, score, stages: docStages } : { id, score };
  }
  const out: SavedQueryResult = { ...rest, docs: list };
  if (explicit || fuse) out.stageIds = outputs;
  return out;
}

function identity(n: number): number[] {
  const out = new Array<number>(n);
  for (let j = 0; j < n; j++) out[j] = j + 1;
  return out;
}

/**
 * Reciprocal rank fusion of the two outputs (ids as indexes in `names`) as retrieval computes it
 * (src/core/retrieval/fusion.ts and steps/fuse.ts, which this floor cannot import; the writer checks every query it
 * leaves to this): the first `depth` of each list, Σ weight / (k + rank) added lexical first, a duplicate counted
 * once, best first with ties by id descending, cut at `depth`; the scores rounded as shortestDistinct
 * (run-format-v2.ts) rounds them.
 */
function fuseOutputs(
  rrf: Rrf,
  lexical: readonly number[],
  vector: readonly number[],
  names: readonly string[],
  sc: Scratch,
): { ids: string[]; scores: number[]; lexical: (number | null)[]; vector: (number | null)[] } {
  sc.fit(names.length, lexical.length + vector.length);
  sc.names = names;
  const stamp = ++sc.query;
  let m = 0;
  for (let w = 0; w < 2; w++) {
    const list = w === 0 ? lexical : vector;
    const mine = w === 0 ? sc.lexical : sc.vector;
    const weight = w === 0 ? rrf.weights.lexical : rrf.weights.vector;
    const depth = Math.min(rrf.depth, list.length);
    // Bounds: i < depth ≤ list.length; u is an index in names, which sc.fit sized seen and entry for; e < m, within
    // the entries sc.fit sized who, scores, lexical and vector for.
    for (let i = 0; i < depth; i++) {
      const u = list[i]!;
      let e: number;
      if (sc.seen[u] === stamp) e = sc.entry[u]!;
      else {
        sc.seen[u] = stamp;
        e = sc.entry[u] = m++;
        sc.who[e] = u;
        sc.scores[e] = 0;
        sc.lexical[e] = 0;
        sc.vector[e] = 0;
      }
      if (mine[e] !== 0) continue; // a duplicate further down a list counts once
      mine[e] = i + 1;
      sc.scores[e] = sc.scores[e]! + weight / (rrf.k + i + 1);
    }
  }
  const order = sc.order;
  order.length = m;
  for (let e = 0; e < m; e++) order[e] = e;
  order.sort(sc.byScore);
  const n = Math.min(m, Math.max(0, rrf.depth));
  const ids = new Array<string>(n);
  const raw = new Array<number>(n);
  const lexicalRanks = new Array<number | null>(n);
  const vectorRanks = new Array<number | null>(n);
  for (let k = 0; k < n; k++) {
    const e = order[k]!; // n ≤ m = order.length; e is an entry, as above
    ids[k] = names[sc.who[e]!]!;
    raw[k] = sc.scores[e]!;
    lexicalRanks[k] = sc.lexical[e] || null;
    vectorRanks[k] = sc.vector[e] || null;
  }
  return { ids, scores: shortestFused(raw, lexicalRanks, vectorRanks, rrf.depth, sc), lexical: lexicalRanks, vector: vectorRanks };
}

/**
 * shortestDistinct(scores) of fused scores in descending order (ties adjacent), its first try (the fewest digits)
 * remembered per pair of ranks: a fused score is a function of its lexical and vector rank, so most were rounded for
 * an earlier query already. Rounding is monotone, so no two distinct values become one exactly when no two neighbours do.
 */
function shortestFused(
  scores: readonly number[],
  lexical: readonly (number | null)[],
  vector: readonly (number | null)[],
  depth: number,
  sc: Scratch,
): number[] {
  const side = depth + 1;
  const byPair = side * side <= 1 << 16 ? (sc.byPair ??= new Float64Array(side * side).fill(NaN)) : undefined;
  const out = new Array<number>(scores.length);
  for (let i = 0; i < scores.length; i++) {
    const v = scores[i];
    if (v === undefined || !Number.isFinite(v)) return shortestDistinct(scores);
    const pair = (lexical[i] ?? 0) * side + (vector[i] ?? 0);
    let r = byPair ? byPair[pair] : sc.rounding.get(v);
    if (r === undefined || Number.isNaN(r)) {
      r = Number(v.toPrecision(MIN_DIGITS));
      if (byPair) byPair[pair] = r;
      else sc.rounding.set(v, r);
    }
    if (!Number.isFinite(r) || (i > 0 && v !== scores[i - 1] && r === out[i - 1])) return shortestDistinct(scores);
    out[i] = r;
  }
  return out;
}

function rrfOf(config: unknown): Rrf | undefined {
  const h = (config as { hybrid?: { k?: unknown; depth?: unknown; weights?: { lexical?: unknown; vector?: unknown } } } | null)?.hybrid;
  const [k, depth, lexical, vector] = [h?.k, h?.depth, h?.weights?.lexical, h?.weights?.vector];
  return typeof k === 'number' && typeof depth === 'number' && typeof lexical === 'number' && typeof vector === 'number'
    ? { k, depth, weights: { lexical, vector } }
    : undefined;
}

/**
 * The fused score of each of `n` final documents from its lexical and vector ranks (a stage with no ranks saw none of
 * them), in fusion.ts's order of addition, so that it is the same double.
 */
function fusedScores(rrf: Rrf, n: number, ranks: Partial<Record<string, readonly (number | null)[]>>): number[] {
  return Array.from({ length: n }, (_, j) => {
    let score = 0;
    for (const s of ['lexical', 'vector'] as const) {
      const r = ranks[s]?.[j];
      if (r !== null && r !== undefined) score += rrf.weights[s] / (rrf.k + r);
    }
    return score;
  });
}

function rrfScores(rrf: Rrf | undefined, n: number, ranks: Record<string, (number | null)[]>, qi: number): number[] {
  if (!rrf) throw new Error(`queries[${qi}] has no "scores" and the run no "rrf" to compute them`);
  return shortestDistinct(fusedScores(rrf, n, ranks));
}

/** The positions (in the final list) of the documents a stage ranked, in order of their stage rank (stable). */
function rankOrder(ranks: readonly (number | null)[]): number[] {
  // Distinct small integer ranks (every real list): placed by rank, no sort.
  const byRank: number[] = [];
  let placed = true;
  for (let j = 0; j < ranks.length && placed; j++) {
    const r = ranks[j] ?? null; // j < ranks.length: never undefined
    if (r === null) continue;
    if (Number.isInteger(r) && r > 0 && r <= 4 * ranks.length + 1000 && byRank[r] === undefined) byRank[r] = j;
    else placed = false;
  }
  if (placed) return byRank.filter(() => true); // the holes left out
  const order: number[] = [];
  ranks.forEach((r, j) => r !== null && order.push(j));
  return order.sort((a, b) => ranks[a]! - ranks[b]! || a - b);
}

/**
 * The ids of a stage output that are not in the final list, in order, when the output is exactly the final documents
 * at their stage ranks with those ids filling the other positions; undefined otherwise.
 */
function restOf(output: readonly number[], docs: readonly number[], ranks: readonly (number | null)[]): number[] | undefined {
  const at = new Map<number, number>();
  ranks.forEach((r, j) => {
    const doc = docs[j];
    // A rank without a document leaves `at` short of the ranked count: not derivable (below).
    if (r !== null && doc !== undefined) at.set(r - 1, doc);
  });
  const inFinal = new Set(docs);
  const gaps: number[] = [];
  for (const [p, id] of output.entries()) {
    if (at.has(p)) {
      if (at.get(p) !== id) return undefined;
    } else if (inFinal.has(id)) return undefined;
    else gaps.push(id);
  }
  return at.size === ranks.filter((r) => r !== null).length && [...at.keys()].every((p) => p < output.length) ? gaps : undefined;
}

function withRest(ids: readonly string[], ranks: readonly (number | null)[], rest: readonly string[], where: string): string[] {
  const ranked = ranks.filter((r) => r !== null).length;
  const output = new Array<string | undefined>(ranked + rest.length);
  ranks.forEach((r, j) => {
    if (r === null) return;
    if (!Number.isInteger(r) || r < 1 || r > output.length || output[r - 1] !== undefined)
      throw new Error(`${where}: rank ${r} does not fit the stage output`);
    output[r - 1] = ids[j];
  });
  let k = 0;
  for (let p = 0; p < output.length; p++) output[p] ??= rest[k++];
  return output as string[];
}

/** Same values, bit for bit (-0 and NaN included). */
function sameNumbers(a: readonly (number | null)[], b: readonly (number | null)[]): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/** `v` as digits × 10^exp from its shortest round-trip decimal; undefined when it is not finite. */
function decimal(v: number): { digits: number; exp: number } | undefined {
  if (!Number.isFinite(v)) return undefined;
  const [mantissa = '', e = '0'] = String(v).split('e');
  const [int, frac = ''] = mantissa.split('.');
  return { digits: Number(int + frac), exp: Number(e) - frac.length };
}

/** A list of numbers as a number column: integer steps of a common scale when that reads back exactly, else as is. */
export function column(values: readonly (number | null)[]): NumberColumn {
  const parts = values.map((v) => (v === null ? undefined : decimal(v)));
  if (values.length < 2 || parts.some((p) => p === undefined)) return [...values];
  const exp = Math.min(...parts.map((p) => p!.exp));
  const steps: number[] = [];
  let previous = 0;
  for (const p of parts) {
    const n = p!.digits * 10 ** (p!.exp - exp);
    const step = steps.length === 0 ? n : previous - n; // a decrease: ranked lists go down, so no minus signs
    if (!Number.isSafeInteger(n) || !Number.isSafeInteger(step)) return [...values];
    steps.push(step);
    previous = n;
  }
  const out = { exp, steps };
  return sameNumbers(columnValues(out), values) ? out : [...values];
}

export function columnValues(c: NumberColumn): (number | null)[] {
  if (Array.isArray(c)) return c;
  if (!c || !Array.isArray(c.steps) || !Number.isInteger(c.exp)) throw new Error('a number column needs "exp" and "steps"');
  // n × 10^e of two exact doubles is rounded once, as the decimal itself is: the same double as parsing "ne<e>".
  const exact = Math.abs(c.exp) <= 22;
  const scale = 10 ** Math.abs(c.exp);
  const out = new Array<number>(c.steps.length);
  let n = 0;
  for (let i = 0; i < c.steps.length; i++) {
    const step = c.steps[i]!; // i < steps.length
    n = i === 0 ? step : n - step;
    out[i] = !exact ? Number(`${n}e${c.exp}`) : c.exp < 0 ? n / scale : n * scale;
  }
  return out;
}
