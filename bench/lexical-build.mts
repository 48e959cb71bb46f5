// npm run bench:lexical-build [-- --sizes 50k,200k] [--variants copy,direct] [--queries N] [--node-heap MB]
// Building the compact postings pruned top-k runs on (issue 32), two ways, each in its own Node process (so that its
// peak RSS is its own) at the default heap unless --node-heap:
//   copy   = today's engine: LexicalIndex.build (a full MiniSearch index), then Postings.fromMiniSearch (both kept);
//   direct = postings/build.ts: the postings straight from the analyzer, no MiniSearch.
// Each process generates the same synthetic corpus (bench/lib/corpus.mjs, seeded; issue 32's shape: 4-10 title and
// 60-220 body words; needs the shared collections for the vocabulary), then builds, then runs the queries through
// topKSearch (title boost 3, body 1, default BM25, top 100) and prints one JSON object. Reported: build time, RSS
// before the build (the documents), the peak RSS during the build (sampled every 10 ms by a worker thread) and of
// the whole process, the heap the index retains after a full GC, q/s; and whether both variants' answers (ids and
// scores of every query's top 100, totals) are identical.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DEFAULT_ANALYZER, defaultRankConfig } from '../src/core/config/defaults';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { LexicalIndex } from '../src/core/retrieval/lexical';
import { buildPostings } from '../src/core/retrieval/postings/build';
import type { Postings } from '../src/core/retrieval/postings/postings';
import { topKSearch } from '../src/core/retrieval/postings/top-k';
// @ts-expect-error plain ES modules of the bench without type declarations
import { syntheticCorpus } from './lib/corpus.mjs';
// @ts-expect-error see above
import { loadavg, machine, memory, now, timeQueries } from './lib/measure.mjs';

const SIZES: Record<string, number> = { '10k': 10_000, '50k': 50_000, '200k': 200_000, '1m': 1_000_000 };
const SHAPE = { title: [4, 10], body: [60, 220] }; // issue 32's corpus
const FIELDS = ['title', 'body'];
const DEPTH = 100;
const VARIANTS = ['copy', 'direct'] as const;
type Variant = (typeof VARIANTS)[number];

interface ChildOut {
  variant: Variant;
  docs: number;
  postings: number;
  terms: number;
  buildMs: number;
  /** CPU time of the process during the build (GC threads included): less disturbed by a busy machine. */
  buildCpuMs: number;
  rssBeforeMB: number;
  buildPeakRssMB: number;
  processPeakRssMB: number;
  retainedHeapMB: number;
  postingsMB: number;
  qps: number;
  p50: number;
  /** Per query: total, then the top ids and scores. */
  answers: Array<[number, string[], number[]]>;
}

/** One variant in this process: generate, build (RSS sampled), query; prints the JSON. */
async function child(variant: Variant, n: number, queryCount: number): Promise<void> {
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const corpus = syntheticCorpus(n, queryCount, (w: string) => analyzer.processTerm(w) === null, { vectors: false, lengths: SHAPE });
  const docs = corpus.docs;
  const queries: string[] = corpus.queries;
  const before = memory();
  const peak = new Float64Array(new SharedArrayBuffer(8));
  const sampler = new Worker(
    `const { workerData } = require('node:worker_threads'); const peak = new Float64Array(workerData);
     setInterval(() => { const r = process.memoryUsage.rss(); if (r > peak[0]) peak[0] = r; }, 10);`,
    { eval: true, workerData: peak.buffer },
  );
  await new Promise((r) => setTimeout(r, 50)); // the sampler is running
  const cpu = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) / 1000;
  };
  const cpu0 = cpu();
  const t0 = now();
  let postings: Postings;
  let keep: unknown;
  if (variant === 'copy') {
    const index = LexicalIndex.build(docs, FIELDS, analyzer);
    postings = index.postings();
    keep = index;
  } else {
    postings = buildPostings(docs, FIELDS, analyzer);
  }
  const buildMs = now() - t0;
  const buildCpuMs = cpu() - cpu0;
  await new Promise((r) => setTimeout(r, 30));
  await sampler.terminate();
  const after = memory();
  const bm25 = defaultRankConfig().lexical!.bm25;
  const query = (text: string) =>
    topKSearch(postings, {
      terms: analyzer.analyze(text),
      fields: [
        [0, 3],
        [1, 1],
      ],
      bm25: { k: bm25.k1, b: bm25.b, d: bm25.d },
      prefix: false,
      fuzzy: 0,
      combineWith: 'OR',
      coordination: false,
      depth: DEPTH,
    });
  await timeQueries(queries, query); // warms the JIT and the per-list maxima
  const timed = await timeQueries(queries, query);
  const answers = queries.map((q): [number, string[], number[]] => {
    const r = query(q);
    return [r.total, r.hits.map((h) => h.id), r.hits.map((h) => h.score)];
  });
  const out: ChildOut = {
    variant,
    docs: n,
    postings: postings.postingCount,
    terms: postings.start.length / FIELDS.length,
    buildMs,
    buildCpuMs,
    rssBeforeMB: before.rss,
    buildPeakRssMB: peak[0] / 2 ** 20,
    processPeakRssMB: (process.resourceUsage().maxRSS * 1024) / 2 ** 20,
    retainedHeapMB: after.heap - before.heap,
    postingsMB: postings.byteLength / 2 ** 20,
    qps: timed.qps,
    p50: timed.p50,
    answers,
  };
  void keep;
  process.stdout.write(JSON.stringify(out));
}

function sameAnswers(a: ChildOut, b: ChildOut): { same: number; first?: number } {
  let same = 0;
  let first: number | undefined;
  a.answers.forEach(([total, ids, scores], i) => {
    const [t2, ids2, scores2] = b.answers[i] ?? [NaN, [], []];
    const equal = total === t2 && ids.length === ids2.length && ids.every((id, j) => id === ids2[j] && Object.is(scores[j], scores2[j]));
    if (equal) same++;
    else first ??= i;
  });
  return { same, first };
}

async function main(args: string[]): Promise<void> {
  const opt = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const queryCount = Number(opt('queries') ?? 1000);
  const childVariant = opt('child') as Variant | undefined;
  const sizes = (opt('sizes') ?? '50k,200k').split(',');
  for (const s of sizes) if (!SIZES[s]) throw new Error(`--sizes: unknown size ${s} (one of ${Object.keys(SIZES).join(', ')})`);
  if (childVariant) return child(childVariant, SIZES[sizes[0]], queryCount);
  const variants = (opt('variants') ?? VARIANTS.join(',')).split(',') as Variant[];
  for (const v of variants) if (!VARIANTS.includes(v)) throw new Error(`--variants: unknown ${v} (one of ${VARIANTS.join(', ')})`);
  const heap = opt('node-heap');
  const m = machine();
  console.log(
    `lexical build bench: ${m.cpus} cores (${m.cpuModel}), ${m.totalMemGB.toFixed(0)} GB, node ${m.node}, heap ${heap ? `${heap} MB` : 'default'}; load average ${loadavg()}`,
  );
  const rows: string[] = [];
  for (const size of sizes) {
    const outs: ChildOut[] = [];
    for (const variant of variants) {
      const r = spawnSync(
        process.execPath,
        [
          '--expose-gc',
          ...(heap ? [`--max-old-space-size=${heap}`] : []),
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          '--child',
          variant,
          '--sizes',
          size,
          '--queries',
          String(queryCount),
        ],
        { encoding: 'utf8', maxBuffer: 1024 * 2 ** 20, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      if (r.status !== 0) {
        console.log(`[${size}] ${variant}: failed (exit ${r.status}${r.signal ? `, ${r.signal}` : ''})`);
        continue;
      }
      const o = JSON.parse(r.stdout) as ChildOut;
      outs.push(o);
      const line = `| ${size} | ${variant} | ${(o.buildMs / 1000).toFixed(1)} s (CPU ${(o.buildCpuMs / 1000).toFixed(1)} s) | ${o.rssBeforeMB.toFixed(0)} MB | ${o.buildPeakRssMB.toFixed(0)} MB | ${o.processPeakRssMB.toFixed(0)} MB | ${o.retainedHeapMB.toFixed(0)} MB | ${o.postingsMB.toFixed(0)} MB (${o.postings.toLocaleString('en')} postings, ${o.terms.toLocaleString('en')} terms) | ${o.qps.toFixed(0)} (p50 ${o.p50.toFixed(2)} ms) |`;
      rows.push(line);
      console.log(`${line}  load ${loadavg()}`);
    }
    if (outs.length === 2) {
      const { same, first } = sameAnswers(outs[0], outs[1]);
      const note = `[${size}] identical answers (total, top-${DEPTH} ids, bit-equal scores): ${same}/${outs[0].answers.length} queries${first === undefined ? '' : `; first difference at query ${first}`}`;
      rows.push(`\n${note}\n`);
      console.log(note);
    }
  }
  console.log('');
  console.log(
    '| docs | variant | time (CPU) | RSS before (documents) | peak RSS during build | peak RSS of the process | heap retained | postings arrays | q/s (top-100, title^3) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`load average at the end ${loadavg()}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
