// Ranklab's side of `npm run bench:lucene`, one process per corpus so that its peak RSS is its own (bench/lucene.ts
// spawns it after the Lucene harness): reads the same JSON Lines corpus and query file, builds the lexical index
// the way `eval` does (buildOrLoadLexical with a cache folder: MiniSearch, then the cache written) plus the compact
// postings pruned top-k runs on, runs every query twice through LexicalIndex.topK (BM25, title boost 3, top 100,
// as bench/lexical-topk.mts does), then loads the cache once more (a warm start). Prints one JSON object.
// Usage: node --expose-gc --import tsx bench/lib/lucene-ranklab.mts CORPUS QUERIES CACHE_DIR [KEEP]
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_ANALYZER, defaultRankConfig } from '../../src/core/config/defaults';
import { createAnalyzer } from '../../src/core/retrieval/analyzer';
import { buildOrLoadLexical } from '../../src/core/retrieval/index-cache';
import type { Document } from '../../src/core/corpus/document';
// @ts-expect-error plain ES modules of the bench without type declarations
import { corpusFingerprint, makeDoc } from './corpus.mjs';
// @ts-expect-error see above
import { memory, now, timeQueries } from './measure.mjs';

export const FIELDS = ['title', 'body'];
export const BOOSTS = { title: 3, body: 1 };
export const DEPTH = 100;

const [corpusPath, queriesPath, cacheDir, keepArg] = process.argv.slice(2);
if (!cacheDir) throw new Error('usage: lucene-ranklab.mts CORPUS QUERIES CACHE_DIR [KEEP]');
const keep = Number(keepArg ?? 10);

// Line by line: a 1M-document file is over V8's ~512 MB string limit.
const docs: Document[] = [];
let lineNo = 0;
for await (const line of createInterface({ input: createReadStream(corpusPath, 'utf8'), crlfDelay: Infinity })) {
  lineNo++;
  if (!line.trim()) continue;
  let r: { id?: unknown; title?: unknown; body?: unknown };
  try {
    r = JSON.parse(line);
  } catch (e) {
    throw new Error(`${corpusPath} line ${lineNo}: ${(e as Error).message}`, { cause: e });
  }
  if (typeof r.id !== 'string') throw new Error(`${corpusPath} line ${lineNo}: "id" is not a string`);
  docs.push(makeDoc(r.id, String(r.title ?? ''), String(r.body ?? ''), corpusPath));
}
const queries = readFileSync(queriesPath, 'utf8')
  .split('\n')
  .filter((q) => q.trim());
const fingerprint = corpusFingerprint(docs);
const analyzer = createAnalyzer(DEFAULT_ANALYZER);
const bm25 = defaultRankConfig().lexical!.bm25;
const settings = { bm25, prefix: false, fuzzy: 0, boosts: BOOSTS, combineWith: 'OR' as const, depth: DEPTH };

const cpuMs = () => {
  const c = process.cpuUsage(); // the whole process (GC threads too), like the JVM's process CPU time
  return (c.user + c.system) / 1000;
};
const before = memory();
const rssBeforeMB = before.rss;
let cpu0 = cpuMs();
let t0 = now();
const built = await buildOrLoadLexical(docs, fingerprint, FIELDS, analyzer, cacheDir);
const buildMs = now() - t0;
t0 = now();
built.index.postings();
const postingsMs = now() - t0;
const buildCpuMs = cpuMs() - cpu0;
const heapMB = memory().heap - before.heap;
const cacheBytes = treeSize(cacheDir);

const warm = await timeQueries(queries, (q: string) => built.index.topK(q, settings));
const top: string[][] = [];
cpu0 = cpuMs();
const timed = await timeQueries(queries, (q: string) => {
  top.push(
    built.index
      .topK(q, settings)
      .hits.slice(0, keep)
      .map((h) => h.id),
  );
});
const queryCpuMs = cpuMs() - cpu0;
const peakRssBytes = process.resourceUsage().maxRSS * 1024; // build and queries, before the warm start below

// A warm start: the index read back from the cache just written (what the next `eval` does). Only when a cache
// was written (its meta file is the last one written): without one it would be a second full build. null when
// there is none or it was not reused (the notes say why).
const written =
  existsSync(join(cacheDir, 'lexical')) &&
  readdirSync(join(cacheDir, 'lexical')).some((f) => f.endsWith('.meta.json') || f.endsWith('.postings.bin'));
t0 = now();
const loaded = written ? await buildOrLoadLexical(docs, fingerprint, FIELDS, analyzer, cacheDir) : undefined;
const warmStartMs = loaded?.source === 'cache' ? now() - t0 : null;

console.log(
  JSON.stringify({
    engine: 'ranklab',
    node: process.version,
    docs: docs.length,
    queries: queries.length,
    bm25,
    boosts: BOOSTS,
    depth: DEPTH,
    buildMs,
    buildSource: built.source,
    postingsMs,
    notes: built.notes,
    cacheWritten: written,
    cacheBytes,
    heapMB,
    rssBeforeMB,
    peakRssBytes,
    cpuMs: cpuMs(),
    buildCpuMs,
    queryCpuMs,
    maxHeapBytes: (await import('node:v8')).getHeapStatistics().heap_size_limit,
    warmStartMs,
    warmStartNotes: loaded?.notes ?? [],
    warm,
    timed,
    top,
  }),
);

function treeSize(dir: string): number {
  if (!existsSync(dir)) return 0; // nothing cached (a postings-only index, or a cache that could not be written)
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? treeSize(p) : statSync(p).size;
  }
  return n;
}
