import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import type { Document } from '../corpus/document';
import { writeFileAtomic } from '../util/atomic-write';
import { Work, abortable } from '../util/cooperative';
import { fingerprint } from '../util/fingerprint';
import type { Analyzer } from './analyzer';
import { LexicalIndex } from './lexical';
import { type DocHashes, MAX_INCREMENTAL_SHARE, corpusDelta, describeDelta, docHashes } from './corpus-delta';

const FORMAT = 'ranklab-lexical@2';

/**
 * Cache files up to this size are loaded in one go (about half a second here); larger ones with MiniSearch's
 * loadJSONAsync, which pauses between batches so a Ctrl-C or Cancel is noticed, at some cost in load time.
 */
const SYNC_LOAD_MAX_BYTES = 8 * 1024 * 1024;

export interface LexicalLoad {
  index: LexicalIndex;
  source: 'built' | 'cache';
  ms: number;
  notes: string[];
}

/** Cache file stem for the settings that shape a lexical index (analyzer, fields); the corpus it holds is in the meta file. */
export function lexicalCacheKey(fields: readonly string[], analyzer: Analyzer): string {
  return fingerprint([FORMAT, [...fields].sort().join(','), analyzer.key]).replace(/^sha256:/, '');
}

interface LexicalCacheMeta {
  buildMs: number;
  strategy: 'load' | 'rebuild';
  corpus: string;
  docs: DocHashes;
}

/**
 * Builds the lexical index, or loads it from `cacheDir/lexical/<key>.json` (MiniSearch toJSON/loadJSON).
 * Chosen by measurement (npm run bench, docs/benchmarks.md): on the shared collections loadJSON is several times faster than a
 * build. Because that is not guaranteed everywhere, the build time is stored with the cache, and when a load turns
 * out slower than the build it replaces, the cache is marked `rebuild` and later starts simply rebuild.
 * When the corpus changed since the cache was written (a few documents edited while the workspace was closed),
 * the cached index is updated with just those documents instead of being rebuilt.
 */
export async function buildOrLoadLexical(docs: readonly Document[], corpusFingerprint: string, fields: string[], analyzer: Analyzer, cacheDir?: string, work = Work.none): Promise<LexicalLoad> {
  const t0 = performance.now();
  if (!cacheDir) {
    const index = await buildLexical(docs, fields, analyzer, work);
    return { index, source: 'built', ms: performance.now() - t0, notes: [] };
  }
  const base = join(cacheDir, 'lexical', lexicalCacheKey(fields, analyzer));
  const metaPath = `${base}.meta.json`;
  const dataPath = `${base}.json`;
  let meta: LexicalCacheMeta | undefined;
  try {
    if (existsSync(metaPath)) meta = JSON.parse(readFileSync(metaPath, 'utf8'));
  } catch {
    meta = undefined;
  }
  if (meta?.strategy === 'load' && existsSync(dataPath)) {
    const delta = meta.corpus === corpusFingerprint ? undefined : corpusDelta(meta.docs ?? {}, docs);
    if (!delta || delta.share <= MAX_INCREMENTAL_SHARE) {
      try {
        const json = readFileSync(dataPath, 'utf8');
        const options = LexicalIndex.miniSearchOptions(fields, analyzer);
        work.phase('lexical-cache', 1);
        const ms = json.length > SYNC_LOAD_MAX_BYTES
          ? await abortable(MiniSearch.loadJSONAsync<Document>(json, options), work.signal)
          : MiniSearch.loadJSON<Document>(json, options);
        const index = new LexicalIndex(fields, analyzer, ms);
        const notes: string[] = [];
        if (delta) {
          await index.update(delta.upserts, delta.deletes);
          notes.push(describeDelta('lexical', delta));
          writeCache(index, { ...meta, corpus: corpusFingerprint, docs: docHashes(docs) }, dataPath, metaPath, notes);
        }
        if (index.documentCount === docs.length) {
          const loadMs = performance.now() - t0;
          if (!delta && loadMs > meta.buildMs) writeFileAtomic(metaPath, JSON.stringify({ ...meta, strategy: 'rebuild', loadMs }));
          return { index, source: 'cache', ms: loadMs, notes };
        }
      } catch (e) {
        if (work.signal?.aborted) throw e;
        // unreadable cache: rebuild below and overwrite it
      }
    }
  }
  const index = await buildLexical(docs, fields, analyzer, work);
  const buildMs = performance.now() - t0;
  const notes: string[] = [];
  if (meta?.strategy !== 'rebuild') writeCache(index, { buildMs, strategy: 'load', corpus: corpusFingerprint, docs: docHashes(docs) }, dataPath, metaPath, notes);
  return { index, source: 'built', ms: buildMs, notes };
}

/** LexicalIndex.build, pausing between documents (see util/cooperative); stops with the work's abort reason. */
async function buildLexical(docs: readonly Document[], fields: string[], analyzer: Analyzer, work: Work): Promise<LexicalIndex> {
  const index = new LexicalIndex(fields, analyzer);
  const slicer = work.phase('lexical-index', docs.length);
  for (let i = 0; i < docs.length; i++) {
    index.miniSearch.add(docs[i]);
    if (slicer.due()) await slicer.pause(i + 1);
  }
  slicer.end();
  return index;
}

function writeCache(index: LexicalIndex, meta: LexicalCacheMeta, dataPath: string, metaPath: string, notes: string[]): void {
  try {
    writeFileAtomic(dataPath, JSON.stringify(index.miniSearch));
    writeFileAtomic(metaPath, JSON.stringify(meta));
  } catch (e) {
    notes.push(`lexical: index cache not written (${(e as Error).message})`);
  }
}
