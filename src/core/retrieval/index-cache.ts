import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import type { Document } from '../corpus/document';
import { writeFileAtomic } from '../util/atomic-write';
import { ContentHashMismatch, sha256OfFile } from '../util/content-hash';
import { Work, abortable } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { fingerprint } from '../util/fingerprint';
import type { Analyzer } from './analyzer';
import { LexicalIndex } from './lexical';
import { cachedPostingsMemory, checkPostingsFit, estimatePostingsMemory, miniSearchVerdict } from './memory-estimate';
import { OlderLexicalCacheFormat, loadsInOneGo, readLexicalCacheFile, writeLexicalCacheFile } from './lexical-cache-file';
import { type PostingsCacheShape, readPostingsCacheFile, writePostingsCacheFile } from './postings/postings-cache-file';
import { type DocHashes, MAX_INCREMENTAL_SHARE, corpusDelta, describeDelta, docHashes } from './corpus-delta';

const FORMAT = 'ranklab-lexical@2';

export interface LexicalLoad {
  index: LexicalIndex;
  source: 'built' | 'cache';
  ms: number;
  notes: string[];
  /** Of the notes, those to show even when nothing else is (a cache that could not be written). */
  warnings: string[];
}

/**
 * From this many documents the lexical index is postings only (LexicalIndex.buildPostingsOnly: no MiniSearch), built
 * in a fraction of MiniSearch's time and memory (npm run bench:lexical-build, docs/scaling.md): MiniSearch's index of
 * a corpus this large takes several GB of heap. Such an index is cached in its own binary file
 * (postings/postings-cache-file.ts), and what needs MiniSearch (explain,
 * suggestions, incremental updates, boost sweeps) refuses with NeedsMiniSearch.
 */
export const POSTINGS_ONLY_FROM = 500_000;

/** Cache file stem for the settings that shape a lexical index (analyzer, fields); the corpus it holds is in the meta file. */
export function lexicalCacheKey(fields: readonly string[], analyzer: Analyzer): string {
  return fingerprint([FORMAT, [...fields].sort().join(','), analyzer.key]).replace(/^sha256:/, '');
}

/**
 * What the cache remembers to choose between loading it and rebuilding: recent costs of both, in milliseconds
 * per document so that a corpus that grew or shrank through incremental updates is still compared fairly.
 */
export interface LexicalCacheTiming {
  /** Recent full builds, newest last (at most TIMING_SAMPLES). */
  buildMsPerDoc: number[];
  /** Recent loads (read + MiniSearch.loadJS, before any incremental update), newest last. */
  loadMsPerDoc: number[];
  /** Starts that still rebuild without trying the cache (set when loads proved slower than builds). */
  rebuildStarts: number;
}

export const TIMING_SAMPLES = 5;
/** Consecutive loads, each slower than the median build, that it takes to stop loading for a while. */
export const SLOW_LOADS_TO_SWITCH = 3;
/** Starts that rebuild after such evidence before the cache is written and tried again. */
export const REBUILD_STARTS = 10;

export const NO_TIMING: LexicalCacheTiming = { buildMsPerDoc: [], loadMsPerDoc: [], rebuildStarts: 0 };

/** Load the cache on this start (rather than rebuild)? */
export function shouldLoadLexicalCache(t: LexicalCacheTiming): boolean {
  return t.rebuildStarts <= 0;
}

/**
 * Records a load. One slow sample (a busy machine, a cold disk) proves nothing: only SLOW_LOADS_TO_SWITCH loads
 * in a row, each slower than the median of the recent builds, switch to rebuilding, and only for REBUILD_STARTS
 * starts; then the cache is written and measured again.
 */
export function timingAfterLoad(t: LexicalCacheTiming, msPerDoc: number): LexicalCacheTiming {
  const loads = [...t.loadMsPerDoc, msPerDoc].slice(-TIMING_SAMPLES);
  const recent = loads.slice(-SLOW_LOADS_TO_SWITCH);
  const build = median(t.buildMsPerDoc);
  const slower = recent.length === SLOW_LOADS_TO_SWITCH && recent.every((x) => x > build);
  return slower ? { ...t, loadMsPerDoc: [], rebuildStarts: REBUILD_STARTS } : { ...t, loadMsPerDoc: loads };
}

export function timingAfterBuild(t: LexicalCacheTiming, msPerDoc: number): LexicalCacheTiming {
  return { ...t, buildMsPerDoc: [...t.buildMsPerDoc, msPerDoc].slice(-TIMING_SAMPLES), rebuildStarts: Math.max(0, t.rebuildStarts - 1) };
}

/** Median; NaN for no samples (then no load counts as slower). */
function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2; // 1 ≤ m < s.length when there are two or more
}

/** Beside the data file: which corpus it holds, and the data file's sha256 (checked as it is loaded). */
interface LexicalCacheMeta {
  corpus: string;
  docs: DocHashes;
  /** Absent in caches written before it was: such a cache is stale (rebuilt). */
  dataSha256?: string;
}

/**
 * Builds the lexical index, or loads it from `cacheDir/lexical/<key>.json` (MiniSearch's tables as JSON Lines,
 * lexical-cache-file.ts). Chosen by measurement (npm run bench, docs/benchmarks.md): on the shared collections a
 * load is several times faster than a build. Because that is not guaranteed everywhere, build and load costs are recorded beside the
 * cache (`<key>.timing.json`) and the choice follows them (see timingAfterLoad). When the corpus changed since the
 * cache was written (a few documents edited while the workspace was closed), the cached index is updated with just
 * those documents instead of being rebuilt. An index that would not fit in the heap gives way to the postings-only
 * one, and when that would not fit either is refused first (an InputError naming `corpusName`: memory-estimate.ts).
 * `now` is the clock the costs are measured with (tests script it); `work` cancels the build or a large load and
 * receives its progress (see util/cooperative).
 */
export async function buildOrLoadLexical(
  docs: readonly Document[],
  corpusFingerprint: string,
  fields: string[],
  analyzer: Analyzer,
  cacheDir?: string,
  {
    now = () => performance.now(),
    work = Work.none,
    corpusName = 'the corpus',
    postingsOnlyFrom = POSTINGS_ONLY_FROM,
  }: { now?: () => number; work?: Work; corpusName?: string; postingsOnlyFrom?: number } = {},
): Promise<LexicalLoad> {
  const postingsOnly = (why: string) =>
    buildOrLoadPostingsOnly(docs, corpusFingerprint, fields, analyzer, cacheDir, { now, work, why, corpusName });
  if (docs.length >= postingsOnlyFrom)
    return postingsOnly(`${docs.length.toLocaleString('en')} documents (${postingsOnlyFrom.toLocaleString('en')} or more)`);
  // Checked up front, rather than an out-of-memory crash minutes later (a cached index takes as much heap as a built
  // one). A full index that would not fit gives way to the postings-only one: the same results in a fraction of the
  // heap, without explanations and the rest; refused (exit 2) only when that does not fit either.
  const verdict = miniSearchVerdict(docs, fields, analyzer);
  if (!verdict.fits) return postingsOnly(verdict.why);
  const overHeap = verdict.warning;
  const t0 = now();
  if (!cacheDir) {
    const index = await buildLexical(docs, fields, analyzer, work);
    return { index, source: 'built', ms: now() - t0, notes: [], warnings: overHeap ? [overHeap] : [] };
  }
  const base = join(cacheDir, 'lexical', lexicalCacheKey(fields, analyzer));
  const paths = { data: `${base}.json`, meta: `${base}.meta.json`, timing: `${base}.timing.json` };
  let timing =
    readJson<LexicalCacheTiming>(
      paths.timing,
      (t) => Array.isArray(t.buildMsPerDoc) && Array.isArray(t.loadMsPerDoc) && typeof t.rebuildStarts === 'number',
    ) ?? NO_TIMING;
  const meta = readJson<LexicalCacheMeta>(paths.meta, (m) => typeof m.corpus === 'string' && typeof m.docs === 'object' && m.docs !== null);
  const notes: string[] = [];
  const warnings: string[] = overHeap ? [overHeap] : [];
  const told = { notes, warnings };
  if (meta && shouldLoadLexicalCache(timing) && existsSync(paths.data)) {
    const delta = meta.corpus === corpusFingerprint ? undefined : corpusDelta(meta.docs, docs);
    if (!delta || delta.share <= MAX_INCREMENTAL_SHARE) {
      try {
        // Postings altered after they were written (by hand, a partial restore, a crash between the two files)
        // would give wrong figures silently: the data must be exactly what the meta file says was written. The
        // hash is checked as the file is streamed in: the load throws at its end when it does not match.
        if (!meta.dataSha256) throw new StaleCache('it has no content hash (written by an older Ranklab)');
        const js = readLexicalCacheFile(paths.data, meta.dataSha256);
        const options = LexicalIndex.miniSearchOptions(fields, analyzer);
        work.phase('lexical-cache', 1);
        const ms = loadsInOneGo(paths.data)
          ? MiniSearch.loadJS<Document>(js, options)
          : await abortable(MiniSearch.loadJSAsync<Document>(js, options), work.signal);
        const loadMs = now() - t0;
        const index = new LexicalIndex(fields, analyzer, ms);
        timing = timingAfterLoad(timing, loadMs / Math.max(1, index.documentCount));
        writeJson(paths.timing, timing, told);
        if (delta) {
          await index.update(delta.upserts, delta.deletes);
          notes.push(describeDelta('lexical', delta));
          writeCache(index, { corpus: corpusFingerprint, docs: docHashes(docs) }, paths, told);
        }
        if (index.documentCount === docs.length) return { index, source: 'cache', ms: now() - t0, notes, warnings };
      } catch (e) {
        if (work.signal?.aborted) throw e;
        // unreadable or unverified cache: rebuild below and overwrite it
        const why = notReusedBecause(e, paths.data, meta.dataSha256);
        if (why) notes.push(`lexical: index cache not reused: ${why}; rebuilt`);
      }
    }
  }
  const t1 = now();
  const index = await buildLexical(docs, fields, analyzer, work);
  const buildMs = now() - t1;
  const after = timingAfterBuild(timing, buildMs / Math.max(1, docs.length));
  writeJson(paths.timing, after, told);
  // While rebuilding is the policy the data file is not rewritten, except on the last such start, so that the
  // next one loads a current cache and measures it again.
  if (shouldLoadLexicalCache(after)) writeCache(index, { corpus: corpusFingerprint, docs: docHashes(docs) }, paths, told);
  return { index, source: 'built', ms: now() - t0, notes, warnings };
}

/**
 * The postings-only index (from `postingsOnlyFrom` documents, or when the full one would not fit: `why`): loaded from
 * `cacheDir/lexical/<key>.postings.bin` when that file holds this corpus and passes its checks, else built (after
 * checkPostingsFit: an InputError naming `corpusName` when it would not fit) and written there (a failed write is a
 * warning).
 */
async function buildOrLoadPostingsOnly(
  docs: readonly Document[],
  corpusFingerprint: string,
  fields: string[],
  analyzer: Analyzer,
  cacheDir: string | undefined,
  { now, work, why, corpusName }: { now: () => number; work: Work; why: string; corpusName: string },
): Promise<LexicalLoad> {
  const t0 = now();
  const limits =
    `lexical: ${why}: the index holds the postings only, ` +
    'without MiniSearch; explanations, suggestions, incremental updates and boost sweeps are not available';
  const notes = [limits];
  const warnings = [limits];
  const path = cacheDir ? join(cacheDir, 'lexical', `${lexicalCacheKey(fields, analyzer)}.postings.bin`) : undefined;
  if (path) {
    try {
      work.phase('lexical-cache', 1);
      // a cached index takes the memory a built one does: refused the same way before it is read
      const fits = (shape: PostingsCacheShape) => checkPostingsFit(cachedPostingsMemory(shape), corpusName);
      const postings = readPostingsCacheFile(path, corpusFingerprint, fits);
      if (postings && postings.documentCount === docs.length)
        return { index: new LexicalIndex(fields, analyzer, postings), source: 'cache', ms: now() - t0, notes, warnings };
    } catch (e) {
      if (e instanceof InputError) throw e;
      notes.push(`lexical: postings cache not reused: ${(e as Error).message}; rebuilt`);
    }
  }
  // refused before the build rather than by an out-of-memory crash in it (the heap part and the typed arrays)
  const overHeap = checkPostingsFit(estimatePostingsMemory(docs, fields, analyzer), corpusName);
  if (overHeap) warnings.push(overHeap);
  const slicer = work.phase('lexical-index', docs.length);
  const index = await LexicalIndex.buildPostingsOnlySliced(docs, fields, analyzer, slicer);
  slicer.end();
  if (path) {
    try {
      writePostingsCacheFile(path, index.postings(), corpusFingerprint);
    } catch (e) {
      cacheNotWritten(e, { notes, warnings });
    }
  }
  return { index, source: 'built', ms: now() - t0, notes, warnings };
}

/** LexicalIndex.build, pausing between documents; stops with the work's abort reason. */
async function buildLexical(docs: readonly Document[], fields: string[], analyzer: Analyzer, work: Work): Promise<LexicalIndex> {
  const slicer = work.phase('lexical-index', docs.length);
  const index = await LexicalIndex.buildSliced(docs, fields, analyzer, slicer);
  slicer.end();
  return index;
}

function readJson<T>(path: string, valid: (v: T) => boolean): T | undefined {
  try {
    if (!existsSync(path)) return undefined;
    const v = JSON.parse(readFileSync(path, 'utf8')) as T;
    return v && typeof v === 'object' && valid(v) ? v : undefined;
  } catch {
    return undefined; // unreadable: as if absent
  }
}

/** Where a cache write's failure goes: the notes (verbose log, dashboard), and the warnings (always shown). */
interface Told {
  notes: string[];
  warnings: string[];
}

function cacheNotWritten(e: unknown, told: Told): void {
  const message = `lexical: index cache not written (${(e as Error).message}); the next start builds the index again`;
  if (told.warnings.includes(message)) return; // the timing file and the data file fail alike
  told.notes.push(message);
  told.warnings.push(message);
}

function writeJson(path: string, value: unknown, told: Told): void {
  try {
    writeFileAtomic(path, JSON.stringify(value));
  } catch (e) {
    cacheNotWritten(e, told);
  }
}

class StaleCache extends Error {}

/**
 * Why a cache that failed to load is not reused, for the log: a cache that no longer has the bytes its meta file
 * names is told as such even when the edit broke the file before its hash could be compared (it is then hashed
 * whole); undefined for a file that is as written but unreadable all the same (rebuilt silently, as before hashes).
 */
function notReusedBecause(e: unknown, data: string, sha256: string | undefined): string | undefined {
  if (e instanceof StaleCache || e instanceof ContentHashMismatch) return e.message;
  let actual: string;
  try {
    actual = sha256OfFile(data);
  } catch {
    return undefined;
  }
  if (sha256 && actual !== sha256) return new ContentHashMismatch(sha256, actual).message;
  return e instanceof OlderLexicalCacheFormat ? e.message : undefined;
}

function writeCache(index: LexicalIndex, meta: LexicalCacheMeta, paths: { data: string; meta: string }, told: Told): void {
  try {
    const dataSha256 = writeLexicalCacheFile(paths.data, index.miniSearch);
    writeFileAtomic(paths.meta, JSON.stringify({ ...meta, dataSha256 }));
  } catch (e) {
    cacheNotWritten(e, told);
  }
}
