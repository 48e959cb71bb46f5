// npm run bench:lucene [-- --sizes 50k,200k] [--queries N] [--java-heap 2g] [--node-heap MB] [--no-save]
// Lucene 9.12 (bench/lucene: a small Java harness, built here with Maven) beside Ranklab's in-process lexical engine
// on the same synthetic corpora and queries (issue 32): title + body, the same analysis as far as Lucene allows,
// BM25 k1 1.2 b 0.75, title boost 3, top 100, one thread. For each size: the corpus is generated
// (bench/lib/corpus.mjs, lexical only, 4-10 title and 60-220 body words) and written as JSON Lines, the Lucene
// harness runs in its own JVM, then Ranklab in its own Node process (bench/lib/lucene-ranklab.mts), one after the
// other so they do not share the 2 cores. Prints build time, size on disk, heap and peak RSS, q/s, p50 and p99 for
// both, the ratio, and overlap@10 of the two engines' top 10 (a sanity figure: the BM25 length norms differ).
// Unless --no-save: bench/results/lucene.json and the `bench:lucene` section of docs/benchmarks.md (default sizes;
// other sizes: bench/results/lucene-SIZES.json only). 1m needs --node-heap 20000 or so on today's engine.
// Needs java 17+, mvn (offline when ~/.m2 holds the plugins, else online once) and the shared collections
// (RANKLAB_SHARED, default ../shared) for the generator's vocabulary.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_ANALYZER, defaultRankConfig } from '../src/core/config/defaults';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { writeJsonLines } from './lib/json-lines';
import { ENGLISH_STOPWORDS } from '../src/core/retrieval/stopwords/english';

// This file runs as CommonJS (a .ts file under tsx): the bench's plain ES modules are imported dynamically.
type Lib = { syntheticCorpus: any; writeDocSection: (name: string, md: string) => void; loadavg: () => string; machine: () => any };
async function lib(): Promise<Lib> {
  // @ts-expect-error plain ES modules of the bench without type declarations
  const corpus = await import('./lib/corpus.mjs');
  // @ts-expect-error see above
  const doc = await import('./lib/doc-section.mjs');
  // @ts-expect-error see above
  const measure = await import('./lib/measure.mjs');
  return {
    syntheticCorpus: corpus.syntheticCorpus,
    writeDocSection: doc.writeDocSection,
    loadavg: measure.loadavg,
    machine: measure.machine,
  };
}
let bench!: Lib;

const ROOT = resolve(__dirname, '..');
const HARNESS = join(ROOT, 'bench', 'lucene');
const WORK = join(ROOT, 'bench', 'results', 'tmp', 'lucene'); // ignored by git (bench/results/tmp/)
const SIZES: Record<string, number> = { '1k': 1_000, '10k': 10_000, '50k': 50_000, '200k': 200_000, '1m': 1_000_000 };
const DEFAULT_SIZES = ['50k', '200k'];
const SHAPE = { title: [4, 10], body: [60, 220] }; // issue 32's corpus
const KEEP = 10; // top ids compared between the engines

interface Timing {
  p50: number;
  p99: number;
  qps: number;
  wallMs: number;
  n: number;
}
interface LuceneOut {
  docs: number;
  queries: number;
  luceneVersion: string;
  java: string;
  parseMs: number;
  indexMs: number;
  mergeMs: number;
  indexBytes: number;
  openMs: number;
  maxHeapBytes: number;
  peakHeapBytes: number;
  heapAfterGcBytes: number;
  peakRssBytes: number;
  cpuMs: number;
  buildCpuMs: number;
  queryCpuMs: number;
  warm: Timing;
  timed: Timing;
  top: string[][];
}
interface RanklabOut {
  docs: number;
  queries: number;
  node: string;
  buildMs: number;
  postingsMs: number;
  notes: string[];
  cacheWritten: boolean;
  cacheBytes: number;
  heapMB: number;
  peakRssBytes: number;
  cpuMs: number;
  buildCpuMs: number;
  queryCpuMs: number;
  maxHeapBytes: number;
  warmStartMs: number | null;
  warmStartNotes: string[];
  warm: Timing;
  timed: Timing;
  top: string[][];
}
interface SizeResult {
  label: string;
  docs: number;
  corpusBytes: number;
  loadStart: string;
  loadEnd: string;
  lucene: Omit<LuceneOut, 'top'>;
  ranklab: Omit<RanklabOut, 'top'>;
  overlapAt10: number;
  comparedQueries: number;
}

function opt(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** `mvn -q -o package`; online when the offline build fails (a plugin missing from ~/.m2). Returns the classpath. */
function buildHarness(log: (s: string) => void): string {
  let r = spawnSync('mvn', ['-q', '-o', 'package'], { cwd: HARNESS, encoding: 'utf8' });
  if (r.status !== 0) {
    log('bench/lucene: offline Maven build failed (a plugin or Lucene jar missing from ~/.m2?); building online');
    r = spawnSync('mvn', ['-q', 'package'], { cwd: HARNESS, encoding: 'utf8' });
  }
  if (r.error) throw new Error(`bench/lucene: could not run mvn (${r.error.message}); install Maven and a JDK 17+`);
  if (r.status !== 0) throw new Error(`bench/lucene: mvn package failed:\n${r.stdout}${r.stderr}`);
  return [join(HARNESS, 'target', 'ranklab-lucene-bench.jar'), join(HARNESS, 'target', 'lib', '*')].join(':');
}

/** The generated corpus as JSON Lines {id, title, body} and its queries one per line; returns the corpus's bytes. */
function writeCorpus(n: number, queryCount: number, dir: string): number {
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const corpus = bench.syntheticCorpus(n, queryCount, (w: string) => analyzer.processTerm(w) === null, { vectors: false, lengths: SHAPE });
  const docs = corpus.docs as Array<{ id: string; title: string; body: string }>;
  const bytes = writeJsonLines(
    join(dir, 'corpus.jsonl'),
    (function* () {
      for (const d of docs) yield { id: d.id, title: d.title, body: d.body };
    })(),
  );
  writeFileSync(join(dir, 'queries.txt'), `${(corpus.queries as string[]).join('\n')}\n`);
  return bytes;
}

function run(command: string, args: string[], what: string): string {
  const r = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.error) throw new Error(`${what}: could not start ${command} (${r.error.message})`);
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}${r.signal ? `, ${r.signal}` : ''})`);
  return r.stdout;
}

/** Mean over queries (where either engine found something) of |top10 ∩ top10| / the longer list's length. */
function overlap(a: string[][], b: string[][]): { mean: number; n: number } {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const len = Math.max(a[i].length, b[i].length);
    if (len === 0) continue;
    const inA = new Set(a[i]);
    sum += b[i].filter((id) => inA.has(id)).length / len;
    n++;
  }
  return { mean: n ? sum / n : NaN, n };
}

export async function runLuceneBench(options: {
  sizes: string[];
  queryCount: number;
  javaHeap: string;
  nodeHeapMB: number;
  save: boolean;
  log?: (s: string) => void;
}): Promise<SizeResult[]> {
  const unknown = options.sizes.filter((s) => !SIZES[s]);
  if (unknown.length) throw new Error(`--sizes: unknown size ${unknown.join(', ')} (one of ${Object.keys(SIZES).join(', ')})`);
  bench = await lib();
  const log = options.log ?? console.log;
  const bm25 = defaultRankConfig().lexical!.bm25;
  mkdirSync(WORK, { recursive: true });
  const classpath = buildHarness(log);
  const stopFile = join(WORK, 'stopwords.txt');
  writeFileSync(stopFile, `${ENGLISH_STOPWORDS.join('\n')}\n`); // Ranklab's list, so both drop the same words
  log(
    `Lucene beside Ranklab: BM25 k1 ${bm25.k1} b ${bm25.b}, title^3 body, top 100, one thread; java -Xmx${options.javaHeap}, node --max-old-space-size=${options.nodeHeapMB}; load average ${bench.loadavg()}`,
  );
  const results: SizeResult[] = [];
  for (const label of options.sizes) {
    const n = SIZES[label];
    const dir = join(WORK, label);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const loadStart = bench.loadavg();
    const corpusBytes = writeCorpus(n, options.queryCount, dir);
    (globalThis as { gc?: () => void }).gc?.(); // the generated documents are garbage now: free them before the engines run
    log(`[${label}] ${(corpusBytes / 2 ** 20).toFixed(0)} MB of JSON Lines written; load ${bench.loadavg()}; Lucene...`);
    const corpus = join(dir, 'corpus.jsonl');
    const queries = join(dir, 'queries.txt');
    const lucene = JSON.parse(
      run(
        'java',
        [
          `-Xmx${options.javaHeap}`,
          '-XX:+UseSerialGC',
          '-cp',
          classpath,
          'dev.ranklab.bench.LuceneBench',
          '--corpus',
          corpus,
          '--queries',
          queries,
          '--stopwords',
          stopFile,
          '--index',
          join(dir, 'lucene-index'),
          '--k1',
          String(bm25.k1),
          '--b',
          String(bm25.b),
          '--title-boost',
          '3',
          '--depth',
          '100',
          '--keep',
          String(KEEP),
        ],
        `[${label}] Lucene harness`,
      ),
    ) as LuceneOut;
    rmSync(join(dir, 'lucene-index'), { recursive: true, force: true });
    log(`[${label}] Lucene done (${((lucene.indexMs + lucene.mergeMs) / 1000).toFixed(1)} s build); load ${bench.loadavg()}; Ranklab...`);
    const ranklab = JSON.parse(
      run(
        process.execPath,
        [
          '--expose-gc',
          `--max-old-space-size=${options.nodeHeapMB}`,
          '--import',
          'tsx',
          join(ROOT, 'bench', 'lib', 'lucene-ranklab.mts'),
          corpus,
          queries,
          join(dir, 'ranklab-cache'),
          String(KEEP),
        ],
        `[${label}] Ranklab side`,
      ),
    ) as RanklabOut;
    if (ranklab.notes.length || ranklab.warmStartNotes.length)
      log(`[${label}] Ranklab notes: ${[...ranklab.notes, ...ranklab.warmStartNotes].join('; ')}`);
    const o = overlap(lucene.top, ranklab.top);
    const { top: _l, ...luceneFigures } = lucene;
    const { top: _r, ...ranklabFigures } = ranklab;
    const r: SizeResult = {
      label,
      docs: n,
      corpusBytes,
      loadStart,
      loadEnd: bench.loadavg(),
      lucene: luceneFigures,
      ranklab: ranklabFigures,
      overlapAt10: o.mean,
      comparedQueries: o.n,
    };
    results.push(r);
    rmSync(dir, { recursive: true, force: true });
    log(table([r]));
  }
  log('');
  log(table(results));
  if (options.save) {
    // The default sizes own bench/results/lucene.json and the docs section; other sizes get their own file only.
    const standard = options.sizes.join(',') === DEFAULT_SIZES.join(',');
    const file = join('bench', 'results', standard ? 'lucene.json' : `lucene-${options.sizes.join('-')}.json`);
    writeFileSync(
      join(ROOT, file),
      `${JSON.stringify({ date: new Date().toISOString(), machine: bench.machine(), javaHeap: options.javaHeap, nodeHeapMB: options.nodeHeapMB, results }, null, 2)}\n`,
    );
    if (standard) bench.writeDocSection('lucene', docSection(results, options));
    log(`wrote ${file}${standard ? ' and the bench:lucene section of docs/benchmarks.md' : ''}`);
  }
  return results;
}

const MB = 2 ** 20;
const sec = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
const msf = (x: number) => (x < 1 ? x.toFixed(2) : x < 10 ? x.toFixed(1) : x.toFixed(0));
const mb = (bytes: number) => `${(bytes / MB).toFixed(bytes < 10 * MB ? 1 : 0)} MB`;
const times = (a: number, b: number) => `${(a / b).toFixed(a / b < 10 ? 2 : 1)}×`;

function table(results: SizeResult[]): string {
  const head =
    '| docs | engine | build: wall (CPU) | on disk | heap | peak RSS | q/s: wall (per CPU s) | p50 ms | p99 ms | warm start | overlap@10 |';
  const rows: string[] = [];
  for (const r of results) {
    const L = r.lucene;
    const R = r.ranklab;
    const lBuild = L.indexMs + L.mergeMs;
    const rBuild = R.buildMs + R.postingsMs;
    const docs = r.docs.toLocaleString('en');
    const lCpuQps = L.timed.n / (L.queryCpuMs / 1000);
    const rCpuQps = R.timed.n / (R.queryCpuMs / 1000);
    rows.push(
      `| ${docs} | Lucene ${L.luceneVersion} | ${sec(lBuild)} (${sec(L.buildCpuMs)}): index ${sec(L.indexMs)} + merge ${sec(L.mergeMs)} | ${mb(L.indexBytes)} index | ${mb(L.heapAfterGcBytes)} retained, ${mb(L.peakHeapBytes)} peak (-Xmx ${mb(L.maxHeapBytes)}) | ${mb(L.peakRssBytes)} | ${L.timed.qps.toFixed(0)} (${lCpuQps.toFixed(0)}) | ${msf(L.timed.p50)} | ${msf(L.timed.p99)} | ${sec(L.openMs)} (open) | |`,
    );
    rows.push(
      `| ${docs} | Ranklab | ${sec(rBuild)} (${sec(R.buildCpuMs)}): index (+ its cache) ${sec(R.buildMs)} + postings ${sec(R.postingsMs)} | ${R.cacheWritten ? `${mb(R.cacheBytes)} cache` : 'no cache (not written)'} | ${R.heapMB.toFixed(0)} MB retained | ${mb(R.peakRssBytes)} | ${R.timed.qps.toFixed(0)} (${rCpuQps.toFixed(0)}) | ${msf(R.timed.p50)} | ${msf(R.timed.p99)} | ${R.warmStartMs === null ? 'no cache' : sec(R.warmStartMs)} | ${(r.overlapAt10 * 100).toFixed(1)}% |`,
    );
    rows.push(
      `| ${docs} | Ranklab ÷ Lucene | ${times(rBuild, lBuild)} (${times(R.buildCpuMs, L.buildCpuMs)}) | ${R.cacheWritten ? times(R.cacheBytes, L.indexBytes) : ''} | | ${times(R.peakRssBytes, L.peakRssBytes)} | ${times(R.timed.qps, L.timed.qps)} (${times(rCpuQps, lCpuQps)}) | ${times(R.timed.p50, L.timed.p50)} | ${times(R.timed.p99, L.timed.p99)} | | |`,
    );
  }
  return [head, '|---|---|---|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}

function docSection(results: SizeResult[], options: { queryCount: number; javaHeap: string; nodeHeapMB: number }): string {
  const m = bench.machine();
  const l = results[0]?.lucene;
  const r = results[0]?.ranklab;
  return [
    '## Lucene beside Ranklab (`npm run bench:lucene`)',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on ${m.cpus} cores (${m.cpuModel}), ${m.totalMemGB.toFixed(0)} GB, Lucene ${l?.luceneVersion} on Java ${l?.java} (-Xmx${options.javaHeap}, serial GC), Node ${r?.node} (--max-old-space-size=${options.nodeHeapMB}). ` +
      `Load average (1/5/15 min) per size: ${results.map((x) => `${x.label} ${x.loadStart} at the start, ${x.loadEnd} at the end`).join('; ')} (the machine was shared: compare the two engines within one size, measured one after the other in the same run).`,
    `Synthetic corpora (bench/lib/corpus.mjs, lexical only, ${SHAPE.title.join('-')} title and ${SHAPE.body.join('-')} body words), ${options.queryCount.toLocaleString('en')} distinct queries of 2-4 words; the same JSON Lines file and query file for both engines. ` +
      'BM25 k1 1.2 b 0.75, title boost 3 + body, top 100 ids per query, one thread. q/s, p50, p99: the second of two passes over the queries (the first warms the JIT), each query analysed, searched and its 100 ids read; in brackets, queries per second of process CPU time (JIT and GC threads included), which a busy machine disturbs less than wall time. ' +
      'Lucene build = reading and parsing the file, indexing (256 MB RAM buffer, serial merges), commit, forceMerge(1); Ranklab build = `buildOrLoadLexical` (MiniSearch, then the lexical cache written) + the compact postings pruned top-k runs on, from documents already in memory. ' +
      "Heap: Lucene after a full GC with the index open (and the peak used during the run); Ranklab, what the index retains after a full GC. Peak RSS: of the whole process (Ranklab's includes the documents it holds). Overlap@10: the share of Lucene's top 10 that Ranklab's top 10 also has, averaged over queries (Lucene stores document lengths in one byte and counts them differently: see docs/scaling.md).",
    '',
    table(results),
  ].join('\n');
}

if (require.main === module) {
  const args = process.argv.slice(2);
  runLuceneBench({
    sizes: opt(args, 'sizes')?.split(',') ?? DEFAULT_SIZES,
    queryCount: Number(opt(args, 'queries') ?? 1000),
    javaHeap: opt(args, 'java-heap') ?? '2g',
    nodeHeapMB: Number(opt(args, 'node-heap') ?? 8192),
    save: !args.includes('--no-save'),
  }).catch((e: Error) => {
    console.error(e.message);
    process.exitCode = 1;
  });
}
