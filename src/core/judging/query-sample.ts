/**
 * From logged queries to a sample to judge (`ranklab queries sample`):
 * 1. clean: personal data (./personal-data.ts) and bot-like traffic (./bots.ts) removed and counted, the text
 *    normalised (./query-text.ts), the queries already judged left out, duplicates merged with their counts summed;
 * 2. strata by traffic: distinct queries by frequency, most frequent first (ties by text); `head` are the queries
 *    that together make the first third of all searches (the first query always), `torso` the second third,
 *    `tail` the rest;
 * 3. sample N with a seeded generator (util/random.ts), by one scheme:
 *    - `uniform`: every distinct query equally likely (a partial Fisher–Yates shuffle of the queries in text order);
 *    - `stratified`: N split evenly over head, torso and tail (the remainder to head, then torso; a stratum too small
 *      gives its share to the others), uniform within each;
 *    - `pps`: probability proportional to frequency, without replacement (Efraimidis & Spirakis 2006: the N largest
 *      ln(u)/count);
 * 4. a golden set: `[{"id": "log-<hash>", "query", "tags": [stratum]}]`, by stratum, then frequency, then text; the id
 *    is the first 10 hex digits of the SHA-256 of the normal form, so a query keeps its id across samples.
 * The same log, options and seed give the same bytes.
 */
import { createHash } from 'node:crypto';
import { createRng } from '../util/random';
import { type BotRule, type BotRules, findBots } from './bots';
import { type PiiPattern, findPersonalData } from './personal-data';
import type { LogField, LogRecord } from './query-log';
import { normalizeQuery } from './query-text';

export const STRATA = ['head', 'torso', 'tail'] as const;
export type Stratum = (typeof STRATA)[number];
export const SCHEMES = ['uniform', 'stratified', 'pps'] as const;
export type Scheme = (typeof SCHEMES)[number];

export interface DistinctQuery {
  text: string;
  count: number;
  stratum: Stratum;
}

export interface CleanOptions {
  pii: readonly PiiPattern[];
  bots: BotRules;
  loose?: boolean;
  /** Normal forms (same `loose`) of the queries already judged. */
  exclude?: ReadonlySet<string>;
}

export interface CleanReport {
  records: number;
  searches: number;
  personal: Record<string, number>;
  bots: Partial<Record<BotRule, number>>;
  botSessions: number;
  empty: number;
  excluded: number;
  /** Records merged into a query seen before (after normalisation). */
  duplicates: number;
  distinct: number;
}

/** Cleans and counts; the queries come back in strata, most frequent first. */
export function cleanQueries(records: readonly LogRecord[], opts: CleanOptions): { queries: DistinctQuery[]; report: CleanReport } {
  const report: CleanReport = {
    records: records.length,
    searches: 0,
    personal: {},
    bots: {},
    botSessions: 0,
    empty: 0,
    excluded: 0,
    duplicates: 0,
    distinct: 0,
  };
  const bots = findBots(records, opts.bots);
  report.botSessions = bots.sessions;
  const counts = new Map<string, number>();
  for (const r of records) {
    report.searches += r.count;
    // Personal data first: such a line is counted as personal data whatever else it is.
    const kind = findPersonalData(r.text, opts.pii);
    if (kind) {
      report.personal[kind] = (report.personal[kind] ?? 0) + 1;
      continue;
    }
    const bot = bots.byRecord.get(r);
    if (bot) {
      report.bots[bot] = (report.bots[bot] ?? 0) + 1;
      continue;
    }
    const text = normalizeQuery(r.text, opts.loose);
    if (text === '') {
      report.empty++;
      continue;
    }
    if (opts.exclude?.has(text)) {
      report.excluded++;
      continue;
    }
    const before = counts.get(text);
    if (before !== undefined) report.duplicates++;
    counts.set(text, (before ?? 0) + r.count);
  }
  report.distinct = counts.size;
  return { queries: stratify(counts), report };
}

/** Distinct queries by frequency (ties by text), each in its traffic third. */
export function stratify(counts: ReadonlyMap<string, number>): DistinctQuery[] {
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const total = sorted.reduce((s, [, c]) => s + c, 0);
  let before = 0;
  return sorted.map(([text, count]) => {
    const stratum: Stratum = before < total / 3 ? 'head' : before < (2 * total) / 3 ? 'torso' : 'tail';
    before += count;
    return { text, count, stratum };
  });
}

/** N of the queries (all of them when there are fewer) by the scheme, from the seed. */
export function sampleQueries(queries: readonly DistinctQuery[], n: number, scheme: Scheme, seed: number): DistinctQuery[] {
  const rng = createRng(seed);
  let chosen: DistinctQuery[];
  if (scheme === 'uniform') chosen = uniform(queries, n, rng);
  else if (scheme === 'pps') {
    const keyed = queries.map((q) => {
      let u = rng();
      while (u === 0) u = rng();
      return { q, key: Math.log(u) / q.count };
    });
    chosen = keyed
      .sort((a, b) => b.key - a.key)
      .slice(0, n)
      .map((k) => k.q);
  } else {
    const groups = STRATA.map((s) => queries.filter((q) => q.stratum === s));
    chosen = stratumShares(
      groups.map((g) => g.length),
      n,
    ).flatMap((k, i) => uniform(groups[i]!, k, rng));
  }
  return inOutputOrder(chosen);
}

/** How many to take from each stratum: N evenly, remainder to the first, a short stratum's share to the others. */
export function stratumShares(sizes: readonly number[], n: number): number[] {
  const take = sizes.map(() => 0);
  let left = Math.min(
    n,
    sizes.reduce((s, x) => s + x, 0),
  );
  while (left > 0) {
    const open = sizes.map((_, i) => i).filter((i) => take[i]! < sizes[i]!);
    const each = Math.floor(left / open.length);
    for (const [j, i] of open.entries()) {
      const want = each + (j < left % open.length ? 1 : 0);
      const got = Math.min(want, sizes[i]! - take[i]!);
      take[i]! += got;
    }
    left =
      Math.min(
        n,
        sizes.reduce((s, x) => s + x, 0),
      ) - take.reduce((s, x) => s + x, 0);
  }
  return take;
}

function uniform(queries: readonly DistinctQuery[], n: number, rng: () => number): DistinctQuery[] {
  const pool = [...queries].sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  const k = Math.min(n, pool.length);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rng() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  return pool.slice(0, k);
}

function inOutputOrder(list: DistinctQuery[]): DistinctQuery[] {
  const rank = (s: Stratum) => STRATA.indexOf(s);
  return list.sort((a, b) => rank(a.stratum) - rank(b.stratum) || b.count - a.count || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}

/** Per stratum: distinct queries, share of the searches, how many were sampled. */
export function strataReport(queries: readonly DistinctQuery[], sample: readonly DistinctQuery[]) {
  const total = queries.reduce((s, q) => s + q.count, 0);
  return STRATA.map((stratum) => {
    const inIt = queries.filter((q) => q.stratum === stratum);
    return {
      stratum,
      queries: inIt.length,
      trafficShare: total ? inIt.reduce((s, q) => s + q.count, 0) / total : 0,
      sampled: sample.filter((q) => q.stratum === stratum).length,
    };
  });
}

export const sampleQueryId = (text: string): string => `log-${createHash('sha256').update(text).digest('hex').slice(0, 10)}`;

/** The golden-set file's text (what ranklab.json "golden" reads): no judgments yet, each query tagged with its stratum. */
export function goldenSetText(sample: readonly DistinctQuery[]): string {
  return (
    JSON.stringify(
      sample.map((q) => ({ id: sampleQueryId(q.text), query: q.text, tags: [q.stratum] })),
      null,
      2,
    ) + '\n'
  );
}

/** The report of one sample (`ranklab queries sample --format json`, less its `out`). */
export interface QuerySample extends CleanReport {
  log: { file: string; format: string; columns: Partial<Record<LogField, string>>; lines: number; skipped: number };
  strata: ReturnType<typeof strataReport>;
  scheme: Scheme;
  seed: number;
  n: number;
  sampled: number;
}
