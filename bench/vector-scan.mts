// npm run bench:vectors [-- --sizes 10k,50k,200k] [--queries N] [--no-save | --render] [--storage-only]
// --storage-only (for 1M-row sizes): only the SIMD float32 / float16 / int8 scans, with each matrix's memory (bytes and
// RSS growth); saved to bench/results/vector-scan-storage.json, leaving the full run's results and doc section alone.
// Exact vector search at 384 dimensions, every variant in one process on the same vectors and queries:
// the plain JS loop (the scan before the SIMD kernels: test/helpers/plain-exact.ts), the 4-accumulator JS
// kernels (the fallback), the WebAssembly SIMD kernels over float32 / float16 / int8, and filtered search at
// 1% / 10% / 50% permitted (plain loop with its per-row filter call, SIMD with a per-row function, SIMD with a
// permitted set = cached row list). Prints ms per query (median and fastest) and GB/s of vectors scanned, the recall@10
// of float16 / int8 against float32, saves bench/results/vector-scan.json and rewrites its section of
// docs/benchmarks.md (unless --no-save).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { permittedFilter, type DocFilter } from '../src/core/retrieval/doc-filter';
import { ExactIndex, annRecallAtK, type VectorStorage } from '../src/core/retrieval/exact';
import type { ScoredId } from '../src/core/retrieval/ranking';
import { loadScanModule } from '../src/core/retrieval/simd/kernels';
import { createRng } from '../src/core/util/random';
import { PlainExactIndex } from '../test/helpers/plain-exact';
// @ts-expect-error plain ES modules of the bench without type declarations
import { SYNTHETIC, gaussian, normalise } from './lib/corpus.mjs';
// @ts-expect-error see above
import { writeDocSection } from './lib/doc-section.mjs';
// @ts-expect-error see above
import { loadavg, machine } from './lib/measure.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const SIZES = opt('sizes', '10k,50k,200k')
  .split(',')
  .map((s) => ({ label: s, n: Number(s.replace(/k$/, '000')) }));
const QUERIES = Number(opt('queries', '40'));
const DIM = SYNTHETIC.dimensions as number;
const K = 100;
const SHARES = [0.01, 0.1, 0.5];
const RESULTS = join(ROOT, 'bench', 'results', 'vector-scan.json');
const STORAGE_ONLY = args.includes('--storage-only');
const matrices: Array<{ size: string; storage: string; matrixMB: number; rssGrowthMB: number }> = [];
if (args.includes('--render')) {
  // Only rewrites the docs/benchmarks.md section from the saved results, measuring nothing.
  writeSection(JSON.parse(readFileSync(RESULTS, 'utf8')) as Saved);
  process.exit(0);
}

/** Embedding-like vectors as in bench/lib/corpus.mjs: a mix of 3 of 50 centroids + noise; queries near a centroid. */
function vectors(n: number, queries: number) {
  const rand = createRng(7);
  const centroids = Array.from({ length: SYNTHETIC.topics }, () => normalise(Array.from({ length: DIM }, () => gaussian(rand))));
  const noise = (s: number) => s / Math.sqrt(DIM);
  const docs: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    const v = new Array(DIM).fill(0);
    const weights = [1, rand() * 0.6, rand() * 0.3];
    for (let c = 0; c < 3; c++) {
      const centroid = centroids[Math.floor(rand() * centroids.length)];
      for (let j = 0; j < DIM; j++) v[j] += weights[c] * centroid[j];
    }
    for (let j = 0; j < DIM; j++) v[j] += gaussian(rand) * noise(SYNTHETIC.noise);
    docs.push(Float32Array.from(normalise(v)));
  }
  const qs = Array.from({ length: queries }, () => {
    const c = centroids[Math.floor(rand() * centroids.length)];
    return Float32Array.from(normalise(c.map((x: number) => x + gaussian(rand) * noise(SYNTHETIC.queryNoise))));
  });
  return { docs, queries: qs, rand };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

interface Variant {
  name: string;
  search: (q: Float32Array) => ScoredId[];
  /** Bytes of vectors one query reads (for GB/s). */
  bytes?: number;
  /** Name of the variant this one's speed-up is measured against (default: the plain loop). */
  against?: string;
  note?: string;
  ms: number[];
  results: string[][];
}

/**
 * Every variant on every query, interleaved (query 1 through all variants, then query 2, ...), so that load
 * from other processes falls on all variants alike; 3 untimed warm-up queries first. Median ms per query.
 */
function run(variants: Variant[], queries: Float32Array[]): void {
  for (const q of queries.slice(0, 3)) for (const v of variants) v.search(q);
  for (const q of queries) {
    for (const v of variants) {
      const t = performance.now();
      const r = v.search(q);
      v.ms.push(performance.now() - t);
      v.results.push(r.map((h) => h.id));
    }
  }
}

/** "baseline" for a baseline row, else the speed-up against it. */
const speedup = (r: Row) =>
  r.against === r.variant
    ? 'baseline'
    : `${r.speedup.toFixed(1)}×${r.against === PLAIN ? '' : r.against.includes('permitted') ? ' vs the plain loop with the same filter' : ` vs ${r.against}`}`;

interface Row {
  size: string;
  variant: string;
  ms: number;
  fastest: number;
  gbs?: number;
  bestGbs?: number;
  speedup: number;
  against: string;
}

const BYTES: Record<VectorStorage, number> = { float32: 4, float16: 2, int8: 1 };
const PLAIN = 'plain JS loop (before)';
const rows: Row[] = [];
const recalls: Array<{ size: string; storage: string; recall: number }> = [];
const m = machine();
const loadStart = loadavg();
console.log(`bench:vectors — ${m.cpus} cores (${m.cpuModel}), Node ${m.node}; load average ${loadStart}`);
if (!(await loadScanModule())) throw new Error('the WebAssembly SIMD kernels could not be loaded');
const t0 = performance.now();

for (const { label, n } of SIZES) {
  const { docs, queries, rand } = vectors(n, QUERIES);
  const ids = docs.map((_, i) => `d${i}`);
  const plain = new PlainExactIndex(DIM, 'cosine');
  if (!STORAGE_ONLY) ids.forEach((id, i) => plain.set(id, docs[i]));
  const variants: Variant[] = [];
  const add = (v: Omit<Variant, 'ms' | 'results'>) => variants.push({ ...v, ms: [], results: [] });
  if (!STORAGE_ONLY) add({ name: PLAIN, search: (q) => plain.search(q, K), bytes: n * DIM * 4 });
  const indexes = new Map<string, ExactIndex>();
  for (const [name, kernel, storage] of [
    ['JS, 4 accumulators (fallback)', 'js', 'float32'],
    ['WASM SIMD float32', 'simd', 'float32'],
    ['WASM SIMD float16', 'simd', 'float16'],
    ['WASM SIMD int8', 'simd', 'int8'],
  ] as const) {
    if (STORAGE_ONLY && kernel === 'js') continue;
    const rss0 = process.memoryUsage().rss;
    const index = new ExactIndex(DIM, 'cosine', { kernel, storage, capacity: n });
    ids.forEach((id, i) => index.set(id, docs[i]));
    matrices.push({
      size: label,
      storage,
      matrixMB: (n * Math.ceil((DIM * BYTES[storage]) / 16) * 16) / 2 ** 20,
      rssGrowthMB: (process.memoryUsage().rss - rss0) / 2 ** 20,
    });
    indexes.set(name, index);
    add({
      name,
      search: (q) => index.search(q, K),
      bytes: n * DIM * BYTES[storage],
      against: STORAGE_ONLY ? 'WASM SIMD float32' : undefined,
    });
  }
  const simd = indexes.get('WASM SIMD float32')!;
  for (const share of STORAGE_ONLY ? [] : SHARES) {
    const permitted = new Set(ids.filter(() => rand() < share));
    const fn = (id: string) => permitted.has(id);
    const set: DocFilter = permittedFilter(permitted);
    const pct = `${share * 100}%`;
    const base = `${pct} permitted: plain loop, filter per row`;
    add({ name: base, search: (q) => plain.search(q, K, fn) });
    add({ name: `${pct} permitted: SIMD, filter per row`, search: (q) => simd.search(q, K, fn), against: base });
    // the first search builds the set's row list (cached per set and index layout), as an evaluation's first query does
    add({
      name: `${pct} permitted: SIMD, permitted set (row list)`,
      search: (q) => simd.search(q, K, set),
      bytes: permitted.size * DIM * 4,
      against: base,
    });
  }
  run(variants, queries);
  const byName = new Map(variants.map((v) => [v.name, median(v.ms)]));
  for (const v of variants) {
    const ms = byName.get(v.name)!;
    const against = v.against ?? (v.name.endsWith('plain loop, filter per row') ? v.name : PLAIN);
    const fastest = Math.min(...v.ms);
    rows.push({
      size: label,
      variant: v.name,
      ms,
      fastest,
      speedup: byName.get(against)! / ms,
      against,
      gbs: v.bytes === undefined ? undefined : v.bytes / ms / 1e6,
      bestGbs: v.bytes === undefined ? undefined : v.bytes / fastest / 1e6,
    });
  }
  // sanity: the SIMD top 10 is the plain loop's; the cost of smaller storage: recall@10 against float32
  const top10 = (name: string) => variants.find((v) => v.name === name)!.results.map((r) => r.slice(0, 10));
  const agree = STORAGE_ONLY ? 1 : annRecallAtK(top10('WASM SIMD float32'), top10(PLAIN), 10);
  if (agree < 0.999) console.warn(`  ! SIMD float32 top 10 agrees with the plain loop on only ${agree}`);
  for (const storage of ['float16', 'int8'])
    recalls.push({ size: label, storage, recall: annRecallAtK(top10(`WASM SIMD ${storage}`), top10('WASM SIMD float32'), 10) });
  console.log(`\n${label} (${n.toLocaleString('en')} × ${DIM}), load average ${loadavg()}`);
  for (const r of rows.filter((x) => x.size === label)) {
    const gbs = r.gbs === undefined ? ''.padEnd(20) : `${r.gbs.toFixed(1).padStart(5)} GB/s (${r.bestGbs!.toFixed(1).padStart(4)} best)`;
    console.log(
      `  ${r.variant.padEnd(48)} ${r.ms.toFixed(2).padStart(8)} ms/query (${r.fastest.toFixed(2).padStart(7)} fastest)  ${gbs}  ${speedup(r)}`,
    );
  }
  for (const x of matrices.filter((y) => y.size === label))
    console.log(`  ${x.storage} matrix: ${x.matrixMB.toFixed(0)} MB of rows, RSS grew ${x.rssGrowthMB.toFixed(0)} MB while filling it`);
  for (const r of recalls.filter((x) => x.size === label))
    console.log(`  recall@10 of ${r.storage} vs float32 exact: ${r.recall.toFixed(4)}`);
}
const seconds = (performance.now() - t0) / 1000;
const loadEnd = loadavg();
console.log(`\ntotal ${seconds.toFixed(0)} s; load average at end ${loadEnd}`);

if (STORAGE_ONLY && !args.includes('--no-save')) {
  const out = join(ROOT, 'bench', 'results', 'vector-scan-storage.json');
  writeFileSync(
    out,
    JSON.stringify({ machine: m, loadStart, loadEnd, seconds, queries: QUERIES, rows, recalls, matrices }, null, 2) + '\n',
  );
  console.log('wrote bench/results/vector-scan-storage.json');
} else if (!args.includes('--no-save')) {
  const saved: Saved = { machine: m, loadStart, loadEnd, seconds, queries: QUERIES, rows, recalls };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(RESULTS, JSON.stringify(saved, null, 2) + '\n');
  writeSection(saved);
  console.log('wrote bench/results/vector-scan.json and the "vectors" section of docs/benchmarks.md');
}

interface Saved {
  machine: { cpus: number; cpuModel: string; node: string };
  loadStart: string;
  loadEnd: string;
  seconds: number;
  queries: number;
  rows: Row[];
  recalls: Array<{ size: string; storage: string; recall: number }>;
}

function writeSection({ machine: mc, loadStart: l0, loadEnd: l1, seconds: secs, queries, rows: rs, recalls: rc }: Saved): void {
  const table = [
    '| size | variant | ms / query: median (fastest) | GB/s scanned: median (fastest) | speed-up (medians) |',
    '|---|---|---|---|---|',
    ...rs.map(
      (r) =>
        `| ${r.size} | ${r.variant} | ${r.ms.toFixed(2)} (${r.fastest.toFixed(2)}) | ${r.gbs == null ? '' : `${r.gbs.toFixed(1)} (${r.bestGbs!.toFixed(1)})`} | ${r.against === r.variant ? 'baseline' : `${r.speedup.toFixed(1)}×`} |`,
    ),
  ];
  const recallTable = [
    '| size | storage | recall@10 vs float32 exact |',
    '|---|---|---|',
    ...rc.map((r) => `| ${r.size} | ${r.storage} | ${r.recall.toFixed(4)} |`),
  ];
  writeDocSection(
    'vectors',
    [
      '## Exact vector search (`npm run bench:vectors`)',
      '',
      `${mc.cpus} cores (${mc.cpuModel}), Node ${mc.node}; load average (1/5/15 min) ${l0} at start, ${l1} at end; ${secs.toFixed(0)} s.`,
      `${DIM}-d embedding-like vectors (mixtures of 3 of ${SYNTHETIC.topics} centroids + noise, normalised), cosine, top ${K}; ${queries} queries,`,
      'each run through every variant in turn (so load from other work falls on all alike); median per query, and the fastest query',
      '(the least disturbed by other work on this shared machine). GB/s = bytes of vectors the scan reads per second',
      '(float32 4, float16 2, int8 1 byte per component; filtered: the permitted rows only). "Plain JS loop" is the scan as it was',
      'before the SIMD kernels (one float64 accumulator, a heap offered every row, the filter called per row), kept as',
      "`test/helpers/plain-exact.ts`; a filtered variant's speed-up is against the plain loop with the same filter.",
      '',
      ...table,
      '',
      ...recallTable,
    ].join('\n'),
  );
}
