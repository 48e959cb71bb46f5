import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import type { Document } from '../corpus/document';
import { writeFileAtomic } from '../util/atomic-write';
import { fingerprint } from '../util/fingerprint';
import type { Analyzer } from './analyzer';
import { LexicalIndex } from './lexical';

const FORMAT = 'ranklab-lexical@1';

export interface LexicalLoad {
  index: LexicalIndex;
  source: 'built' | 'cache';
  ms: number;
  notes: string[];
}

/** Cache file stem for a corpus and the settings that shape a lexical index (analyzer, fields). */
export function lexicalCacheKey(corpusFingerprint: string, fields: readonly string[], analyzer: Analyzer): string {
  return fingerprint([FORMAT, corpusFingerprint, [...fields].sort().join(','), analyzer.key]).replace(/^sha256:/, '');
}

/**
 * Builds the lexical index, or loads it from `cacheDir/lexical/<key>.json` (MiniSearch toJSON/loadJSON).
 * Chosen by measurement (bench/retrieval.mjs): on the shared collections loadJSON is several times faster than a
 * build. Because that is not guaranteed everywhere, the build time is stored with the cache, and when a load turns
 * out slower than the build it replaces, the cache is marked `rebuild` and later starts simply rebuild.
 */
export function buildOrLoadLexical(docs: readonly Document[], corpusFingerprint: string, fields: string[], analyzer: Analyzer, cacheDir?: string): LexicalLoad {
  const t0 = performance.now();
  if (!cacheDir) {
    const index = LexicalIndex.build(docs, fields, analyzer);
    return { index, source: 'built', ms: performance.now() - t0, notes: [] };
  }
  const base = join(cacheDir, 'lexical', lexicalCacheKey(corpusFingerprint, fields, analyzer));
  const metaPath = `${base}.meta.json`;
  const dataPath = `${base}.json`;
  let meta: { buildMs: number; strategy: 'load' | 'rebuild' } | undefined;
  try {
    if (existsSync(metaPath)) meta = JSON.parse(readFileSync(metaPath, 'utf8'));
  } catch {
    meta = undefined;
  }
  if (meta?.strategy === 'load' && existsSync(dataPath)) {
    try {
      const ms = MiniSearch.loadJSON<Document>(readFileSync(dataPath, 'utf8'), LexicalIndex.miniSearchOptions(fields, analyzer));
      const index = new LexicalIndex(fields, analyzer, ms);
      if (index.documentCount === docs.length) {
        const loadMs = performance.now() - t0;
        if (loadMs > meta.buildMs) writeFileAtomic(metaPath, JSON.stringify({ ...meta, strategy: 'rebuild', loadMs }));
        return { index, source: 'cache', ms: loadMs, notes: [] };
      }
    } catch {
      // unreadable cache: rebuild below and overwrite it
    }
  }
  const index = LexicalIndex.build(docs, fields, analyzer);
  const buildMs = performance.now() - t0;
  const notes: string[] = [];
  if (meta?.strategy !== 'rebuild') {
    try {
      writeFileAtomic(dataPath, JSON.stringify(index.miniSearch));
      writeFileAtomic(metaPath, JSON.stringify({ buildMs, strategy: 'load' }));
    } catch (e) {
      notes.push(`lexical: index cache not written (${(e as Error).message})`);
    }
  }
  return { index, source: 'built', ms: buildMs, notes };
}
