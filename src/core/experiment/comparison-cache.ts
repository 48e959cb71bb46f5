/**
 * Comparisons computed before, kept beside the runs (`<runs>/.comparisons/`, hidden: never taken for a run) so that
 * opening the dashboard on a pair it has shown before does not compute the statistics again.
 *
 * Trust is the point: an entry is found only by a hash of EVERY input of the computation (ComparisonCacheKey), plus
 * this cache's schema and Ranklab's version, so new judgments, metric options, gates, query set or an upgrade never
 * see old figures. Run files are keyed by name, size and modification time rather than content: runs are immutable
 * (written once, atomically, by saveRun), any rewrite changes the stamp, and hashing two 10 MB files on every open
 * would cost about what the cache saves. An entry is gzipped JSON with the sha256 of its compressed bytes in the
 * gzip header (sealGzip), written atomically; a garbled, partial or foreign entry reads as a miss (recomputed, never
 * an error). Entries whose runs are gone go when the store is listed or retention runs; at most
 * MAX_CACHED_COMPARISONS are kept (the oldest written go first). The same folder keeps each run's per-query metric
 * values (./evaluation-cache.ts), under the same rules: one run's entries are named by it alone.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { writeFileAtomic } from '../util/atomic-write';
import { ContentHashMismatch, sealGzip, unsealGzip } from '../util/content-hash';
import { stableStringify } from '../config/defaults';
import { TOOL_VERSION } from '../util/version';

/** The hidden subfolder of the runs folder holding the entries. */
export const COMPARISON_CACHE_DIR = '.comparisons';
/** Bump when what an entry holds (or how a comparison is computed) changes without a version change. */
// 3: one split rule (queryInfo.split), bounds.onlyRelevantJudged; 4: stage `fused` spelled `fuse`; 5: the compressed bytes sealed
export const COMPARISON_CACHE_SCHEMA = 'ranklab-comparison-cache@5';
/** Entries kept (pairs' comparisons and runs' evaluations together). */
export const MAX_CACHED_COMPARISONS = 128;

/** A run file as the key sees it. */
export interface RunFileStamp {
  id: string;
  name: string;
  size: number;
  mtimeMs: number;
}

/** Every input of a comparison: a change in any of them is another entry. */
export interface ComparisonCacheKey {
  baseline: RunFileStamp;
  candidate: RunFileStamp;
  /** Fingerprint of the judgments actually used (grades, texts, tags, splits: the slices and the query set). */
  judgments: string;
  /** Metric specs compared on, in order (the first is the primary metric). */
  specs: unknown[];
  /** Metric options (gain, relevance threshold, judged-only, ...). */
  options: unknown;
  gates: unknown;
  allowMixedPrincipals: boolean;
  /** Anything else the caller's result depends on (significance level, ...). */
  extra?: unknown;
}

/** The stamp of a run file (its path), read now. */
export function runFileStamp(id: string, path: string): RunFileStamp {
  const st = statSync(path);
  return { id, name: basename(path), size: st.size, mtimeMs: st.mtimeMs };
}

/** Short hash of a run id: entry names start with those of their runs, so entries of removed runs are found by name. */
function idHash(id: string): string {
  return createHash('sha256').update(id).digest('hex').slice(0, 12);
}

/** `<run>-<run>-<key>` (a pair's comparison) or `<run>-<key>` (one run's evaluation). */
const ENTRY = /^([0-9a-f]{12})(?:-([0-9a-f]{12}))?-[0-9a-f]{32}\.json\.gz$/;

/** Where the entry of `key` (of the runs `runIds`) is, and the hash it must hold. */
export function cacheEntry(runsDir: string, runIds: string[], key: unknown): { path: string; hash: string } {
  const hash = createHash('sha256')
    .update(stableStringify({ schema: COMPARISON_CACHE_SCHEMA, tool: TOOL_VERSION, key }))
    .digest('hex')
    .slice(0, 32);
  return { path: join(runsDir, COMPARISON_CACHE_DIR, `${[...runIds.map(idHash), hash].join('-')}.json.gz`), hash };
}

function entryPath(runsDir: string, key: ComparisonCacheKey): { path: string; hash: string } {
  return cacheEntry(runsDir, [key.baseline.id, key.candidate.id], key);
}

/** The value stored for `key`, or undefined (none, or unreadable: the caller computes it again). */
export function readCachedComparison<T>(runsDir: string, key: ComparisonCacheKey, log?: (message: string) => void): T | undefined {
  return readCacheEntry<T>(entryPath(runsDir, key), log);
}

/** Stores `value` for `key` (atomically), then keeps the newest MAX_CACHED_COMPARISONS. False: not stored (`log` says why). */
export function writeCachedComparison(runsDir: string, key: ComparisonCacheKey, value: unknown, log?: (message: string) => void): boolean {
  return writeCacheEntry(runsDir, entryPath(runsDir, key), value, (m) => log?.(`comparison not cached: ${m}`));
}

/**
 * The value of an entry, or undefined when there is none or it is not this entry's (garbled, another key or schema,
 * no content hash (written before hashes were), or a hash that does not match its content: then `log` says so).
 */
export function readCacheEntry<T>(entry: { path: string; hash: string }, log?: (message: string) => void): T | undefined {
  try {
    const gzipped = unsealGzip(readFileSync(entry.path));
    if (!gzipped) return undefined;
    const v = JSON.parse(gunzipSync(gzipped).toString('utf8')) as { format?: unknown; key?: unknown; value?: unknown };
    if (v.format !== COMPARISON_CACHE_SCHEMA || v.key !== entry.hash || !('value' in v)) return undefined;
    return fromPlain(v.value) as T;
  } catch (e) {
    if (e instanceof ContentHashMismatch) log?.(`cache entry ${entry.path} not reused: ${e.message}; computed again`);
    return undefined;
  }
}

/** Writes an entry atomically and prunes the cache; false (and `log`) when it could not be written. */
export function writeCacheEntry(
  runsDir: string,
  entry: { path: string; hash: string },
  value: unknown,
  log?: (message: string) => void,
): boolean {
  try {
    writeFileAtomic(
      entry.path,
      sealGzip(gzipSync(JSON.stringify({ format: COMPARISON_CACHE_SCHEMA, key: entry.hash, value: toPlain(value) }))),
    );
    pruneComparisonCache(runsDir);
    return true;
  } catch (e) {
    log?.((e as Error).message); // a read-only folder still compares
    return false;
  }
}

/**
 * Removes the entries of runs not in `liveRunIds` (when given) and all but the newest `max`; returns the names
 * removed. Never throws: the cache is an extra.
 */
export function pruneComparisonCache(runsDir: string, liveRunIds?: Iterable<string>, max = MAX_CACHED_COMPARISONS): string[] {
  const dir = join(runsDir, COMPARISON_CACHE_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const live = liveRunIds && new Set([...liveRunIds].map(idHash));
  const removed: string[] = [];
  const kept: { name: string; mtimeMs: number }[] = [];
  const remove = (name: string) => {
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      // gone already
    }
  };
  for (const name of names) {
    const m = ENTRY.exec(name);
    if (!m) continue; // temporary files of a write in progress
    if (live && !(live.has(m[1]!) && (m[2] === undefined || live.has(m[2]))))
      remove(name); // group 1 is not optional
    else {
      try {
        kept.push({ name, mtimeMs: statSync(join(dir, name)).mtimeMs });
      } catch {
        // gone already
      }
    }
  }
  kept.sort((a, b) => b.mtimeMs - a.mtimeMs || a.name.localeCompare(b.name));
  for (const { name } of kept.slice(max)) remove(name);
  return removed;
}

/**
 * Plain JSON for values JSON alone would change: Maps, Sets, undefined, NaN, ±Infinity and -0 become tagged
 * objects (`{"\u0000": tag}`), so that `fromPlain(JSON.parse(JSON.stringify(toPlain(v))))` deep-equals `v`. Anything
 * else that is not plain data (a class instance, a function) throws: it would not come back as it went.
 */
export function toPlain(v: unknown): unknown {
  if (v === undefined) return { [TAG]: 'undefined' };
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return { [TAG]: 'NaN' };
    if (v === Infinity) return { [TAG]: 'Infinity' };
    if (v === -Infinity) return { [TAG]: '-Infinity' };
    if (Object.is(v, -0)) return { [TAG]: '-0' };
    return v;
  }
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof Map) return { [TAG]: 'Map', entries: [...v].map(([k, x]) => [toPlain(k), toPlain(x)]) };
  if (v instanceof Set) return { [TAG]: 'Set', values: [...v].map(toPlain) };
  const proto = typeof v === 'object' ? (Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null) : undefined;
  if (proto !== Object.prototype && proto !== null)
    throw new Error(`not plain data: ${typeof v === 'object' ? (proto?.constructor?.name ?? 'object') : typeof v}`);
  // fromEntries: a key such as "__proto__" stays a key (an assignment would set the prototype instead).
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toPlain(x)]));
  // An object of the data's own with the tag's key is wrapped, so that it is never taken for a tag.
  return TAG in out ? { [TAG]: 'object', entries: Object.entries(out) } : out;
}

const TAG = '\u0000';

/**
 * toPlain undone, in place: `v` must be JSON.parse's fresh output (nothing else holds it). Only tagged objects are
 * replaced, so a warm dashboard open (a 2–3 MB comparison) allocates no second copy of the entry: building one
 * doubled the garbage the open collects, for no change in what is read.
 */
export function fromPlain(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object') v[i] = fromPlain(x);
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  if (TAG in o) return fromTagged(o);
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (x === null || typeof x !== 'object') continue;
    const y = fromPlain(x);
    // A key "__proto__" (an id) is JSON.parse's own property here: assigning it sets that key, not the prototype.
    if (y !== x) o[k] = y;
  }
  return o;
}

function fromTagged(o: Record<string, unknown>): unknown {
  switch (o[TAG]) {
    case 'undefined':
      return undefined;
    case 'NaN':
      return NaN;
    case 'Infinity':
      return Infinity;
    case '-Infinity':
      return -Infinity;
    case '-0':
      return -0;
    case 'Map':
      return new Map((o.entries as [unknown, unknown][]).map(([k, x]) => [fromPlain(k), fromPlain(x)]));
    case 'Set':
      return new Set((o.values as unknown[]).map(fromPlain));
    case 'object':
      return Object.fromEntries((o.entries as [string, unknown][]).map(([k, x]) => [k, fromPlain(x)]));
    default:
      throw new Error(`unknown tag ${String(o[TAG])}`);
  }
}
