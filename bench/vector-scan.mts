// npm run bench:vectors [-- --sizes 10k,50k,200k] [--queries N] [--no-save]
// Exact vector search at 384 dimensions, every variant in one process on the same vectors and queries:
// the plain JS loop (the scan before the SIMD kernels: test/helpers/plain-exact.ts), the 4-accumulator JS
// kernels (the fallback), the WebAssembly SIMD kernels over float32 / float16 / int8, and filtered search at
// 1% / 10% / 50% permitted (plain loop with its per-row filter call, SIMD with a per-row function, SIMD with a
// permitted set = cached row list). Prints ms per query (median) and GB/s of vectors scanned, the recall@10
// of float16 / int8 against float32, saves bench/results/vector-scan.json and rewrites its section of
// docs/benchmarks.md (unless --no-save).
import { mkdirSync, writeFileSync } from 'node:fs';
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
const SIZES = opt('sizes', '10k,50k,200k').split(',').map((s) => ({ label: s, n: Number(s.replace(/k$/, '000')) }));
const QUERIES = Number(opt('queries', '40'));
const DIM = SYNTHETIC.dimensions as number;
const K = 100;
const SHARES = [0.01, 0.1, 0.5];

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

/** Median ms per query over `queries` (after 3 untimed ones), and the results. */
function time(queries: Float32Array[], search: (q: Float32Array) => ScoredId[]): { ms: number; results: string[][] } {
  for (const q of queries.slice(0, 3)) search(q);
  const ms: number[] = [];
  const results: string[][] = [];
  for (const q of queries) {
    const t = performance.now();
    const r = search(q);
    ms.push(performance.now() - t);
    results.push(r.map((h) => h.id));
  }
  return { ms: median(ms), results };
}

interface Row { size: string; variant: string; ms: number; gbs?: number; vsPlain: number; note?: string }

const BYTES: Record<VectorStorage, number> = { float32: 4, float16: 2, int8: 1 };
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
  ids.forEach((id, i) => plain.set(id, docs[i]));
  const plainQueries = queries.slice(0, Math.max(8, Math.floor(QUERIES / 3))); // the slow one gets fewer
  const base = time(plainQueries, (q) => plain.search(q, K));
  const add = (variant: string, ms: number, bytes: number | undefined, note?: string) => {
    rows.push({ size: label, variant, ms, gbs: bytes === undefined ? undefined : bytes / ms / 1e6, vsPlain: base.ms / ms, note });
  };
  add('plain JS loop (before)', base.ms, n * DIM * 4);
  let f32Results: string[][] = [];
  for (const [variant, kernel, storage] of [
    ['JS, 4 accumulators (fallback)', 'js', 'float32'], ['WASM SIMD float32', 'simd', 'float32'],
    ['WASM SIMD float16', 'simd', 'float16'], ['WASM SIMD int8', 'simd', 'int8'],
  ] as const) {
    const index = new ExactIndex(DIM, 'cosine', { kernel, storage, capacity: n });
    ids.forEach((id, i) => index.set(id, docs[i]));
    const r = time(queries, (q) => index.search(q, K));
    add(variant, r.ms, n * DIM * BYTES[storage], storage === 'float32' ? undefined : `${(n * DIM * 4) / r.ms / 1e6 > 0 ? ((n * DIM * 4) / r.ms / 1e6).toFixed(1) : '?'} GB/s float32-equivalent`);
    if (variant === 'WASM SIMD float32') {
      f32Results = r.results;
      // sanity: the SIMD top 10 is the plain loop's (same queries)
      const agree = annRecallAtK(r.results.slice(0, plainQueries.length), base.results, 10);
      if (agree < 0.999) console.warn(`  ! SIMD float32 top 10 agrees with the plain loop on only ${agree}`);
    }
    if (storage !== 'float32') recalls.push({ size: label, storage, recall: annRecallAtK(r.results, f32Results, 10) });
  }
  // Filtered: the same permitted sets for every variant.
  const simd = new ExactIndex(DIM, 'cosine', { kernel: 'simd', capacity: n });
  ids.forEach((id, i) => simd.set(id, docs[i]));
  for (const share of SHARES) {
    const permitted = new Set(ids.filter(() => rand() < share));
    const fn = (id: string) => permitted.has(id);
    const set: DocFilter = permittedFilter(permitted);
    const pct = `${share * 100}%`;
    const p = time(plainQueries, (q) => plain.search(q, K, fn));
    rows.push({ size: label, variant: `${pct} permitted: plain loop, filter per row`, ms: p.ms, vsPlain: base.ms / p.ms });
    const f = time(queries, (q) => simd.search(q, K, fn));
    rows.push({ size: label, variant: `${pct} permitted: SIMD, filter per row`, ms: f.ms, vsPlain: p.ms / f.ms, note: 'vs the plain loop with the same filter' });
    simd.search(queries[0], K, set); // builds the cached row list once, as the first query of an evaluation does
    const s = time(queries, (q) => simd.search(q, K, set));
    rows.push({ size: label, variant: `${pct} permitted: SIMD, permitted set (row list)`, ms: s.ms, gbs: (permitted.size * DIM * 4) / s.ms / 1e6, vsPlain: p.ms / s.ms, note: 'vs the plain loop with the same filter' });
  }
  const own = rows.filter((r) => r.size === label);
  console.log(`\n${label} (${n.toLocaleString('en')} × ${DIM}), load average ${loadavg()}`);
  for (const r of own) console.log(`  ${r.variant.padEnd(48)} ${r.ms.toFixed(2).padStart(8)} ms/query  ${r.gbs === undefined ? '        ' : `${r.gbs.toFixed(1).padStart(5)} GB/s`}  ${r.vsPlain.toFixed(1)}×${r.note ? `  (${r.note})` : ''}`);
  for (const r of recalls.filter((x) => x.size === label)) console.log(`  recall@10 of ${r.storage} vs float32 exact: ${r.recall.toFixed(4)}`);
}
const seconds = (performance.now() - t0) / 1000;
const loadEnd = loadavg();
console.log(`\ntotal ${seconds.toFixed(0)} s; load average at end ${loadEnd}`);

if (!args.includes('--no-save')) {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'vector-scan.json'), JSON.stringify({ machine: m, loadStart, loadEnd, seconds, queries: QUERIES, rows, recalls }, null, 2) + '\n');
  const table = ['| size | variant | ms / query (median) | GB/s scanned | speed-up |', '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.size} | ${r.variant} | ${r.ms.toFixed(2)} | ${r.gbs === undefined ? '' : r.gbs.toFixed(1)} | ${r.vsPlain.toFixed(1)}×${r.note ? ` (${r.note})` : ''} |`)];
  const recallTable = ['| size | storage | recall@10 vs float32 exact |', '|---|---|---|', ...recalls.map((r) => `| ${r.size} | ${r.storage} | ${r.recall.toFixed(4)} |`)];
  writeDocSection('vectors', [
    '## Exact vector search (`npm run bench:vectors`)',
    '',
    `${m.cpus} cores (${m.cpuModel}), Node ${m.node}; load average (1/5/15 min) ${loadStart} at start, ${loadEnd} at end; ${seconds.toFixed(0)} s.`,
    `${DIM}-d embedding-like vectors (mixtures of 3 of ${SYNTHETIC.topics} centroids + noise, normalised), cosine, top ${K}; ${QUERIES} queries`,
    `(the plain loop: ${Math.max(8, Math.floor(QUERIES / 3))}); median per query. GB/s = bytes of vectors the scan reads per second`,
    '(float32 4, float16 2, int8 1 byte per component; filtered: the permitted rows only). "Plain JS loop" is the scan as it was',
    'before the SIMD kernels (one float64 accumulator, a heap offered every row, the filter called per row), kept as',
    '`test/helpers/plain-exact.ts`; the speed-up of a filtered variant is against the plain loop with the same filter.',
    '',
    ...table,
    '',
    ...recallTable,
  ].join('\n'));
  console.log('wrote bench/results/vector-scan.json and the "vectors" section of docs/benchmarks.md');
}
