// Issue 32, measured: (1) a JSON Lines corpus over V8's ~512 MB string limit loaded by the streamed reader (time,
// peak RSS); (2) the lexical index's memory estimate (src/core/retrieval/memory-estimate.ts) beside the heap the
// index really takes, on synthetic corpora over the shared collections' vocabulary; (3) the smallest heap the built
// CLI evaluates a 50k corpus in, against the heap the check asks for. Files go to the OS temp folder and are deleted.
// Run: npm run bench:streaming -- [--skip-big] [--skip-cli]
// Needs the shared collections (RANKLAB_SHARED, default ../shared) for the vocabulary.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCorpus } from '../src/core/corpus/load';
import { corpusSettings } from '../src/core/corpus/settings';
import { DEFAULT_ANALYZER } from '../src/core/config/defaults';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { LexicalIndex } from '../src/core/retrieval/lexical';
import { HEADROOM, estimateLexicalMemory } from '../src/core/retrieval/memory-estimate';
// @ts-expect-error plain ES module of the bench without type declarations
import { syntheticCorpus } from './lib/corpus.mjs';
import { writeJsonLines } from './lib/json-lines';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const MB = 1024 * 1024;
const args = new Set(process.argv.slice(2));
const analyzer = createAnalyzer(DEFAULT_ANALYZER);
const noStopwords = () => false;
type Doc = { id: string; title: string; body: string; vector?: number[] };

function settle(): number {
  gc!();
  gc!();
  return process.memoryUsage().heapUsed;
}

function docsOf(size: number): Doc[] {
  const { docs } = syntheticCorpus(size, 10, noStopwords) as { docs: Doc[] };
  for (const d of docs) delete d.vector;
  return docs;
}

/** A BEIR folder: corpus.jsonl (the `docs`, repeated `copies` times under new ids), queries, qrels. */
function writeBeir(dir: string, docs: Doc[], copies = 1): void {
  writeJsonLines(
    join(dir, 'corpus.jsonl'),
    (function* () {
      for (let c = 0; c < copies; c++) for (const d of docs) yield { _id: c ? `${d.id}-${c}` : d.id, title: d.title, text: d.body };
    })(),
  );
  const picked = docs.slice(0, 20);
  writeFileSync(
    join(dir, 'queries.jsonl'),
    picked.map((d, i) => JSON.stringify({ _id: `q${i}`, text: d.title.split(' ').slice(0, 3).join(' ') })).join('\n') + '\n',
  );
  writeFileSync(join(dir, 'qrels.tsv'), picked.map((d, i) => `q${i}\t${d.id}\t1`).join('\n') + '\n');
}

// (1) a corpus over 512 MB, loaded line by line
if (!args.has('--skip-big')) {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-bench-big-'));
  try {
    const docs = docsOf(50_000);
    writeBeir(dir, docs, 18);
    const bytes = statSync(join(dir, 'corpus.jsonl')).size;
    const before = settle();
    const t0 = performance.now();
    const r = loadCorpus(dir, corpusSettings({ include: ['corpus.jsonl'] }));
    const ms = performance.now() - t0;
    const after = settle();
    const rss = process.resourceUsage().maxRSS * 1024;
    console.log(
      `big corpus: ${(bytes / MB).toFixed(0)} MiB corpus.jsonl, ${r.corpus.docs.length.toLocaleString('en')} documents, ${r.corpus.diagnostics.length} problems; ` +
        `loaded in ${(ms / 1000).toFixed(1)} s; heap of the corpus ${((after - before) / MB).toFixed(0)} MiB; peak RSS of the process ${(rss / MB).toFixed(0)} MiB`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// (2) estimate vs measured heap of the index (MiniSearch; the compact postings are typed arrays, off the V8 heap)
for (const size of [10_000, 50_000, 200_000]) {
  // The generated docs are dropped at once (only the Document copies stay reachable), so the heap measured is the index's.
  const full = docsOf(size).map((d) => ({ ...d, fields: {}, meta: {}, source: { path: 'x' }, hash: '' }));
  const estimate = estimateLexicalMemory(full, ['title', 'body'], analyzer);
  const h0 = settle();
  const index = LexicalIndex.build(full, ['title', 'body'], analyzer);
  const h1 = settle();
  console.log(
    `index ${size.toLocaleString('en')} docs (${(estimate.chars / 1e6).toFixed(1)} M chars, ~${(estimate.postings / 1e6).toFixed(2)} M postings, ~${estimate.terms} terms): estimate ${(estimate.bytes / MB).toFixed(0)} MiB, measured ${((h1 - h0) / MB).toFixed(0)} MiB ` +
      `(estimate/measured ${(estimate.bytes / (h1 - h0)).toFixed(2)}), ${index.documentCount} indexed`,
  );
}

// (3) the built CLI at a few heap limits: where does it stop, and does the check speak before the crash?
if (!args.has('--skip-cli')) {
  const cli = resolve(import.meta.dirname, '../dist/cli.js');
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-bench-cli-'));
  try {
    writeBeir(dir, docsOf(50_000));
    for (const heap of [128, 192, 256, 320, 384, 512]) {
      const state = mkdtempSync(join(tmpdir(), 'ranklab-bench-state-'));
      const t0 = performance.now();
      const r = spawnSync(
        process.execPath,
        [`--max-old-space-size=${heap}`, cli, 'eval', '--workspace', dir, '--state-dir', state, '--no-save'],
        { encoding: 'utf8' },
      );
      rmSync(state, { recursive: true, force: true });
      const outcome =
        r.status === 0
          ? 'ran'
          : /FATAL ERROR/.test(r.stderr)
            ? 'V8 out-of-memory crash'
            : /needs about/.test(r.stderr)
              ? `refused: ${r.stderr.match(/needs about [^;]+; [^,]+/)?.[0]}`
              : `exit ${r.status}: ${r.stderr.slice(0, 200)}`;
      console.log(
        `cli 50k, --max-old-space-size=${heap}: exit ${r.status} in ${((performance.now() - t0) / 1000).toFixed(1)} s, ${outcome}`,
      );
    }
    console.log(`(the check refuses when heap in use + estimate > ${HEADROOM} x the old space)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
