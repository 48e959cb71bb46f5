// Issue 32: where the lexical heap check draws its line, beside where V8 really stops. For generated collections of
// several sizes (test/helpers/synthetic-collection.ts: nothing from ../shared), the built CLI's cold `eval` (fresh
// state folder: corpus snapshot, index build, cache write, evaluation) is run at old-space limits found by bisection:
//   needs:  the smallest --max-old-space-size at which the full (MiniSearch) index completes, the check off
//           (RANKLAB_HEAP_CHECK=off);
//   admits: the smallest at which the check builds the full index (and it must then complete, cold and warm from
//           its cache); one step below, the check's postings-only index must run (or be refused), never crash.
// The check is safe when admits >= needs at every size; admits / needs is what it over-asks.
// First, the fit the estimate is made of: the heap a MiniSearch index retains (after a full collection) beside its
// exact postings and terms and the estimate from a sample, on generated collections and, when ../shared is there
// (RANKLAB_SHARED), three real ones.
// Run: npm run bench:heap-line -- [--sizes 10k,30k,60k] [--step 8] [--skip-cli]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_ANALYZER } from '../src/core/config/defaults';
import { loadCorpus } from '../src/core/corpus/load';
import { corpusSettings } from '../src/core/corpus/settings';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { LexicalIndex } from '../src/core/retrieval/lexical';
import { estimateLexicalMemory } from '../src/core/retrieval/memory-estimate';
import { writeSyntheticCollection } from '../test/helpers/synthetic-collection';
// @ts-expect-error plain ES module of the bench without type declarations
import { SHARED, syntheticCorpus } from './lib/corpus.mjs';
import { writeJsonLines } from './lib/json-lines';
// @ts-expect-error plain ES module of the bench without type declarations
import { loadavg, machine } from './lib/measure.mjs';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const sizes = opt('sizes', '10k,20k,30k,40k,60k,100k')
  .split(',')
  .map((s) => Number(s.replace(/k$/, '000')));
const step = Number(opt('step', '8'));
const CLI = resolve(import.meta.dirname, '../dist/cli.js');

type Outcome = 'full ran' | 'postings only ran' | 'refused' | 'crashed' | 'failed';

function evalAt(oldSpaceMiB: number, workspace: string, checkOff: boolean, state?: string): Outcome {
  const dir = state ?? mkdtempSync(join(tmpdir(), 'ranklab-heap-state-'));
  const r = spawnSync(
    process.execPath,
    [`--max-old-space-size=${oldSpaceMiB}`, CLI, 'eval', '--workspace', workspace, '--state-dir', dir, '--no-save'],
    { encoding: 'utf8', env: { ...process.env, RANKLAB_HEAP_CHECK: checkOff ? 'off' : '' } },
  );
  if (!state) rmSync(dir, { recursive: true, force: true });
  if (r.status === 0) return /the index holds the postings only/.test(r.stderr) ? 'postings only ran' : 'full ran';
  if (/needs about/.test(r.stderr)) return 'refused';
  if (/FATAL ERROR|out of memory/.test(r.stderr)) return 'crashed';
  console.error(r.stderr.slice(0, 400));
  return 'failed';
}

/** The smallest limit (a multiple of `step`) in [lo, hi] where `ok` holds, assuming it holds from there up. */
function smallest(lo: number, hi: number, ok: (mib: number) => boolean): number {
  while (hi - lo > step) {
    const mid = Math.round((lo + hi) / 2 / step) * step;
    if (ok(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

const MiB = 1024 * 1024;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run bench:heap-line)');
const settle = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

function retained(name: string, dir: string): void {
  const docs = loadCorpus(dir, corpusSettings({ include: ['corpus.jsonl'] })).corpus.docs;
  const fields = ['title', 'body'];
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const estimate = estimateLexicalMemory(docs, fields, analyzer);
  const h0 = settle();
  const index = LexicalIndex.build(docs, fields, analyzer);
  const bytes = settle() - h0;
  let postings = 0;
  let terms = 0;
  for (const [, byField] of (index.miniSearch as unknown as { _index: Iterable<[string, Map<number, Map<number, number>>]> })._index) {
    terms++;
    for (const [, byDoc] of byField) postings += byDoc.size;
  }
  console.log(
    `| ${name} | ${docs.length.toLocaleString('en')} | ${(postings / 1e6).toFixed(2)} M (${(estimate.postings / 1e6).toFixed(2)} M) | ` +
      `${terms.toLocaleString('en')} (${estimate.terms.toLocaleString('en')}) | ${(bytes / MiB).toFixed(1)} MiB | ${(bytes / postings).toFixed(0)} | ` +
      `${(estimate.bytes / MiB).toFixed(1)} MiB | ${(estimate.bytes / bytes).toFixed(2)} |`,
  );
}

const m = machine();
console.log(`# heap line: ${m.cpus} × ${m.cpuModel}, Node ${m.node}, load ${loadavg()}`);
console.log(
  '| corpus | documents | postings (estimated) | terms (estimated) | retained heap | bytes a posting, all in | estimate | estimate / retained |',
);
console.log('|---|---|---|---|---|---|---|---|');
const shared: string = SHARED;
for (const name of ['cacm', 'lisa', 'med']) {
  const dir = join(shared, 'collections', name);
  if (existsSync(join(dir, 'corpus.jsonl'))) retained(name, dir);
  else console.log(`| ${name} | skipped: no ${dir} (set RANKLAB_SHARED) |`);
}
for (const n of [10_000, 30_000, 60_000]) {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-heap-collection-'));
  writeSyntheticCollection(dir, { docs: n, queries: 1 });
  retained('generated, open vocabulary', dir);
  rmSync(dir, { recursive: true, force: true });
}
// The benchmarks' corpus: words drawn from the shared collections' 34,030 terms (a closed vocabulary).
for (const n of existsSync(join(shared, 'collections')) ? [20_000, 60_000] : []) {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-heap-collection-'));
  const { docs } = syntheticCorpus(n, 0, () => false, { vectors: false }) as { docs: Array<{ id: string; title: string; body: string }> };
  writeJsonLines(
    join(dir, 'corpus.jsonl'),
    docs.map((d) => ({ _id: d.id, title: d.title, text: d.body })),
  );
  retained('generated, closed vocabulary', dir);
  rmSync(dir, { recursive: true, force: true });
}
if (args.includes('--skip-cli')) process.exit(0);

console.log('| documents | needs (check off) | admits (check on) | admits / needs | at admits: cold, warm | a step below |');
console.log('|---|---|---|---|---|---|');
for (const n of sizes) {
  const workspace = mkdtempSync(join(tmpdir(), 'ranklab-heap-collection-'));
  try {
    mkdirSync(workspace, { recursive: true });
    writeSyntheticCollection(workspace, { docs: n, queries: 10 });
    const hi = 128 + Math.ceil(n / 1000) * 12;
    const needs = smallest(16, hi, (m) => evalAt(m, workspace, true) === 'full ran');
    const admits = smallest(16, hi * 2, (m) => evalAt(m, workspace, false) === 'full ran');
    const below = evalAt(admits - step, workspace, false);
    const cold = evalAt(admits, workspace, false);
    const state = mkdtempSync(join(tmpdir(), 'ranklab-heap-state-'));
    evalAt(hi * 2, workspace, false, state); // writes the caches
    const warm = evalAt(admits, workspace, false, state);
    rmSync(state, { recursive: true, force: true });
    console.log(
      `| ${n.toLocaleString('en')} | ${needs} MiB | ${admits} MiB | ${(admits / needs).toFixed(2)} | ${cold}, ${warm} | ${below} |`,
    );
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
console.log(`(old space in MiB, steps of ${step}; load at the end ${loadavg()})`);
