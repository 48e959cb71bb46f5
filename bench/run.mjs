// npm run bench [-- --size 10k|100k|all] [--queries N] [--slow-queries N] [--docs N]
// With --size all (the default) it ends with the exact top-k lexical bench (bench/lexical-topk.mts: 10k, 50k, 200k).
// Index build time and memory, warm starts, per-mode latency p50/p99, eval throughput, HNSW recall@10 vs exact and
// the boost-change recombination, for Ranklab and for plain MiniSearch / plain brute force in the same run.
// Prints to stdout; a full run (no --docs) also saves bench/results/<size>.json and rewrites docs/benchmarks.md
// (when results for both sizes exist). `--render` only re-renders docs/benchmarks.md from the saved results.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_ANALYZER } from '../src/core/config/defaults.ts';
import { createAnalyzer } from '../src/core/retrieval/analyzer.ts';
import { realCorpus, syntheticCorpus, SYNTHETIC } from './lib/corpus.mjs';
import { loadavg, machine, now } from './lib/measure.mjs';
import { BENCHMARKS_DOC, ownedSections } from './lib/doc-section.mjs';
import { benchmarksDoc, sizeSection, summaryTable } from './lib/report.mjs';
import { precomputedQueryFolder, runSuite } from './lib/suite.mjs';
import { runLexicalBench } from './lexical-topk.mts';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const size = opt('size', 'all');
if (!['10k', '100k', 'all'].includes(size)) {
  console.error(`--size must be 10k, 100k or all (got ${size})`);
  process.exit(2);
}
const positive = (name, v) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive integer (got ${v})`);
    process.exit(2);
  }
  return n;
};
const queryCount = positive('queries', opt('queries', '1000'));
const docsOverride = opt('docs', undefined) === undefined ? undefined : positive('docs', opt('docs'));
const slowOverride = opt('slow-queries', undefined) === undefined ? undefined : positive('slow-queries', opt('slow-queries'));
const log = (line) => console.log(line);

const analyzer = createAnalyzer(DEFAULT_ANALYZER);
const SIZES = {
  '10k': () => {
    const c = realCorpus(docsOverride ?? 10000, queryCount);
    return {
      ...c,
      label: '10k',
      slowQueries: Math.min(queryCount, slowOverride ?? queryCount),
      vectors: {
        embedder: { provider: 'lsa' },
        note: 'LSA (the built-in `lsa` provider, default 256 dimensions) trained on these documents by the engine; its training time is the "vectors" time of the first vector engine, later engines load the model from the cache',
      },
    };
  },
  '100k': () => {
    const c = syntheticCorpus(docsOverride ?? 100000, queryCount, (w) => analyzer.processTerm(w) === null);
    const dir = precomputedQueryFolder(c.queries, c.queryVectors);
    return {
      ...c,
      label: '100k',
      slowQueries: Math.min(queryCount, slowOverride ?? 250),
      queryDir: dir,
      vectors: {
        embedder: { provider: 'precomputed', field: 'vector', queryVectors: 'queries.vectors.jsonl' },
        providers: { baseDir: dir, allowNetwork: false, allowModelLoading: false },
        note:
          `${SYNTHETIC.dimensions}-d synthetic embedding-like vectors in \`Document.vector\` read by the \`precomputed\` provider (query vectors from a \`queryVectors\` JSONL file): ` +
          `each a weighted mix of ${SYNTHETIC.centroidsPerDoc} of ${SYNTHETIC.topics} random unit centroids (the document's topic weighs most) plus Gaussian noise of norm ~${SYNTHETIC.noise}, normalised; ` +
          `a query's vector is its source document's topic centroid plus noise of norm ~${SYNTHETIC.queryNoise}`,
      },
    };
  },
};

const NOTES = [
  'Each size runs in one process started with `--expose-gc`; memory is the retained RSS and JS heap (+ array buffers) growth across a build, each side of a full `gc()`. RSS includes native memory (hnswlib), but a process rarely returns freed pages, so a later build can reuse them and show less.',
  "Latency is per `search` call, sequential, one query at a time; eval throughput is queries / wall time of that same pass. Ranklab modes go through `createEngine(...).search` (depth 100: lexical, vector and RRF stages each return 100). Plain MiniSearch: `search(query, { boost, bm25 })` with the same fields, analyzer and BM25 parameters, top 100 kept. Plain brute force: a JS loop over one normalised Float32Array, top 100 by an insertion buffer, query vectors computed beforehand (Ranklab's vector latency includes the query embedding: an LSA projection or a precomputed-vector lookup).",
  "Real queries are cycled to the query count; the engine's per-query field-score cache is emptied whenever the list starts over, so every measured lexical query is scored from the index, as in an evaluation of distinct queries.",
  "Boost change: the lexical pass (title 2, body 1) leaves every query's per-field scores cached; re-evaluating the same queries with title 3 is then a recombination of those scores (`LexicalIndex.search`), compared with a MiniSearch `search` per query with the new boosts (the plain pass above is that re-search).",
  "Warm starts: a second `createEngine` over the same cache folder. Lexical cache = MiniSearch's tables as JSON Lines, one line per term (before issue 32: `toJSON` as one JSON value, loaded with `loadJSON`), loaded with `loadJS` from the lines as they are read (split into read / JSON.parse / loadJS in the table); the cache records build and load costs per document and switches to rebuilding (for 10 starts) only after three loads in a row were slower than the median build. HNSW cache = hnswlib `writeIndex` + a labels JSON. Vector warm starts also redo the document vectors (precomputed: read from the documents; LSA: model loaded from its cache).",
  'Exact vector search, plain brute force, hybrid and recall run over the first `--slow-queries` queries (all 1,000 at 10k, 250 at 100k, where one exact scan costs tens to hundreds of ms), so their p50/p99 are over a smaller query set than the lexical and HNSW figures, and were taken later in the run (under a different load).',
  "HNSW recall@10: the HNSW engine's top 10 against the exact engine's top 10 for the same queries (the exact set is also checked against plain brute force).",
  'Ranklab\'s lexical pass is exact top-k BM25 (MaxScore over compact postings, see "Exact top-k BM25" below); a query searched repeatedly gets its per-field scores cached, so that a boost change is a recombination. Before that change (runs up to the lexical top-k work) the first pass searched each field with MiniSearch and kept every candidate\'s per-field scores, which cost more than one plain MiniSearch search.',
  'Rerank is not measured: there is no real reranking model on this machine (a stand-in would measure nothing useful).',
];
const RESULTS_DIR = join(ROOT, 'bench', 'results');
/** Rewrites docs/benchmarks.md, keeping the sections that bench:vectors and bench:score write. */
function writeBenchmarksDoc(text) {
  const kept = existsSync(BENCHMARKS_DOC) ? ownedSections(readFileSync(BENCHMARKS_DOC, 'utf8')) : '';
  writeFileSync(BENCHMARKS_DOC, `${text.trimEnd()}\n${kept ? `\n${kept}` : ''}`);
}
const info = machine();
if (args.includes('--render')) {
  // Re-renders docs/benchmarks.md from the saved results (e.g. after a change to the tables), measuring nothing.
  const saved = ['10k', '100k'].map((l) => JSON.parse(readFileSync(join(RESULTS_DIR, `${l}.json`), 'utf8')));
  writeBenchmarksDoc(
    benchmarksDoc(
      saved.map((x) => x.result),
      saved[0].machine,
      NOTES,
    ),
  );
  console.log(summaryTable(saved.map((x) => x.result)));
  process.exit(0);
}
log(
  `Ranklab bench: node ${info.node}, ${info.cpus} cores, ${info.totalMemGB.toFixed(0)} GB, gc ${info.gcExposed ? 'exposed' : 'NOT exposed (memory figures are rough)'}; load average ${loadavg()}`,
);
const t0 = now();
const results = [];
for (const label of size === 'all' ? ['10k', '100k'] : [size]) {
  const t = now();
  const spec = SIZES[label]();
  log(`[${label}] corpus ready in ${((now() - t) / 1000).toFixed(1)} s: ${spec.description}`);
  try {
    results.push(await runSuite({ ...spec, log }));
  } finally {
    if (spec.queryDir) rmSync(spec.queryDir, { recursive: true, force: true });
  }
  log('');
  log(sizeSection(results.at(-1)));
}
log(`total ${((now() - t0) / 1000).toFixed(0)} s; load average at end ${loadavg()}`);
log('');
log(summaryTable(results));

if (docsOverride === undefined) {
  const dir = RESULTS_DIR;
  mkdirSync(dir, { recursive: true });
  const runInfo = { ...info, runSeconds: (now() - t0) / 1000 };
  for (const r of results) writeFileSync(join(dir, `${r.label}.json`), JSON.stringify({ machine: runInfo, result: r }, null, 2) + '\n');
  const both = ['10k', '100k'].map((l) => join(dir, `${l}.json`));
  if (both.every(existsSync)) {
    const saved = both.map((p) => JSON.parse(readFileSync(p, 'utf8')));
    writeBenchmarksDoc(
      benchmarksDoc(
        saved.map((x) => x.result),
        runInfo,
        NOTES,
      ),
    );
    log('\nwrote docs/benchmarks.md');
  }
}

if (size === 'all') {
  log('');
  await runLexicalBench({ log, writeDoc: docsOverride === undefined });
}

// The full run also runs the benchmarks that have a script of their own, each printing its target beside the
// baseline it measures in the same run (issue targets: docs/benchmarks.md).
if (size === 'all' && docsOverride === undefined) {
  for (const [what, script] of [
    ['shared index and score cache', 'shared-cache.ts'],
    ['ranklab sweep', 'sweep.ts'],
    ['exact vector scan', 'vector-scan.mts'],
    ["HNSW build off the editor's thread", 'hnsw-build.mts'],
    ['ranklab score against trec_eval', 'score.ts'],
  ]) {
    log(`\n${what} (bench/${script}):`);
    const r = spawnSync(process.execPath, ['--max-old-space-size=8192', '--import', 'tsx', join(ROOT, 'bench', script)], {
      stdio: 'inherit',
    });
    if (r.status !== 0) process.exitCode = r.status ?? 1;
  }
}
