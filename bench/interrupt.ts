// Ctrl-C: how fast each phase stops, and what the pauses that make it stop cost.
//   1. Stop latency: the built CLI (dist/cli.js; run `npm run build` first) on generated workspaces, SIGINT sent
//      when a RANKLAB_PROGRESS line shows the phase; "noticed" = until the CLI printed "interrupted: stopping"
//      (its handler ran), "exited" = until the process ended (exit 130). Several runs per phase.
//   2. Overhead: each long step run straight through (the synchronous driver, no pauses: the baseline) and
//      time-sliced (pausing every 50 ms), alternately in one process on the same input, on the example
//      workspace and on a generated one; median CPU time of N runs each (CPU time of this process, which
//      other processes on the machine disturb far less than wall time), wall time beside it.
// Run: node --expose-gc --import tsx bench/interrupt.ts [--docs 30000] [--runs 3] [--skip-latency] [--skip-overhead]
import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import MiniSearch from 'minisearch';
import { DEFAULT_ANALYZER } from '../src/core/config/defaults';
import { loadCorpus, loadCorpusSliced } from '../src/core/corpus';
import { compareRuns, compareRunsSliced } from '../src/core/experiment/compare';
import { parseMetricList } from '../src/core/metrics';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { buildOrLoadLexical } from '../src/core/retrieval/index-cache';
import { LexicalIndex } from '../src/core/retrieval/lexical';
import { loadsInOneGo, readLexicalCacheFile, writeLexicalCacheFile } from '../src/core/retrieval/lexical-cache-file';
import { embedText } from '../src/core/retrieval/engine';
import { trainLsa, trainLsaSliced } from '../src/core/retrieval/providers/lsa';
import { HnswIndex } from '../src/core/retrieval/vector-index';
import { RanklabSession } from '../src/core/session/session';
import { evaluateConfig } from '../src/core/session/evaluate';
import { Work } from '../src/core/util/cooperative';
import { runCli } from '../test/helpers/interrupt';
import { BM25_CONFIG, writeSyntheticWorkspace } from '../test/helpers/synthetic-workspace';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const DOCS = Number(arg('docs', '30000'));
const RUNS = Number(arg('runs', '3'));
const EXAMPLE = resolve(__dirname, '../examples/food-search');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);
const TITLE = { ...BM25_CONFIG, lexical: { ...BM25_CONFIG.lexical, fields: { title: 3, body: 1 } } };
const LSA = { vector: { embedder: { provider: 'lsa', dimensions: 64 }, depth: 100 }, pageSize: 10 };

function workspace(root: string, name: string, opts: Parameters<typeof writeSyntheticWorkspace>[1]): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeSyntheticWorkspace(dir, opts);
  return dir;
}

async function stopLatency(root: string): Promise<void> {
  console.log(`\n1. Stop latency after SIGINT (${RUNS} runs each; median / max)\n`);
  const big = workspace(root, 'big', { docs: DOCS, queries: 1000, configs: { baseline: BM25_CONFIG, title: TITLE, vector: LSA } });
  const md = workspace(root, 'md', { docs: Math.min(DOCS, 10_000), queries: 50, layout: 'markdown' });
  const stats = workspace(root, 'stats', { docs: 2000, queries: 5000, configs: { baseline: BM25_CONFIG, title: TITLE } });
  const wipe = (dir: string) => rmSync(join(dir, '.ranklab'), { recursive: true, force: true });
  type Scenario = {
    name: string;
    dir: string;
    argv: string[];
    prepare?: () => Promise<void> | void;
    when: (p: { phase: string; label?: string; done: number; total: number }) => boolean;
  };
  const scenarios: Scenario[] = [
    {
      name: `corpus loading (${Math.min(DOCS, 10_000)} Markdown files)`,
      dir: md,
      argv: ['eval'],
      prepare: () => wipe(md),
      when: (p) => p.phase === 'corpus' && p.done >= 500,
    },
    {
      name: `lexical index build (${DOCS} docs)`,
      dir: big,
      argv: ['eval', '-c', 'baseline'],
      prepare: () => wipe(big),
      when: (p) => p.phase === 'lexical-index' && p.done > 0,
    },
    {
      name: `lexical cache load (${DOCS} docs)`,
      dir: big,
      argv: ['eval', '-c', 'title'],
      prepare: async () => void (await runCli(['eval', '-c', 'baseline', '--no-save'], { cwd: big })),
      when: (p) => p.phase === 'lexical-cache',
    },
    {
      name: `LSA training, in the SVD (${DOCS} docs, 64 dims)`,
      dir: big,
      argv: ['eval', '-c', 'vector'],
      prepare: () => rmSync(join(big, '.ranklab/cache/lsa'), { recursive: true, force: true }),
      when: (p) => p.phase === 'lsa' && p.done === p.total,
    },
    {
      name: `HNSW build (${DOCS} docs)`,
      dir: big,
      argv: ['eval', '-c', 'vector'],
      prepare: () => rmSync(join(big, '.ranklab/cache/vector'), { recursive: true, force: true }),
      when: (p) => p.phase === 'hnsw' && p.done > 0,
    },
    {
      name: `query loop, second config (${DOCS} docs)`,
      dir: big,
      argv: ['eval', '-c', 'baseline', '-c', 'title', '--no-save'],
      when: (p) => p.phase === 'queries' && p.label === 'title' && p.done > 0,
    },
    {
      name: `check-acl (${DOCS} docs, 6 principals)`,
      dir: big,
      argv: ['check-acl', '-c', 'baseline'],
      when: (p) => p.phase === 'access-check' && p.done > 0,
    },
    {
      name: 'compare statistics (5000 queries, 5 slices)',
      dir: stats,
      argv: ['compare', '-b', 'baseline', '--candidate', 'title'],
      prepare: async () => void (await runCli(['eval', '-c', 'baseline', '-c', 'title'], { cwd: stats })),
      when: (p) => p.phase === 'statistics',
    },
  ];
  console.log('| phase | noticed | exited | exit codes |\n|---|---|---|---|');
  for (const s of scenarios) {
    const noticed: number[] = [];
    const exited: number[] = [];
    const codes = new Set<string>();
    for (let i = 0; i < RUNS; i++) {
      await s.prepare?.();
      const r = await runCli(s.argv, { cwd: s.dir, interruptWhen: s.when });
      codes.add(String(r.signal ?? r.code));
      if (r.interruptedAt === undefined) continue;
      if (r.noticedAt !== undefined) noticed.push(r.noticedAt - r.interruptedAt);
      exited.push(r.endedAt - r.interruptedAt);
    }
    const cell = (xs: number[]) => (xs.length ? `${fmt(median(xs))} / ${fmt(Math.max(...xs))}` : 'phase not reached');
    console.log(`| ${s.name} | ${cell(noticed)} | ${cell(exited)} | ${[...codes].join(', ')} |`);
  }
}

interface Cost {
  cpu: number;
  wall: number;
}

async function cost(f: () => unknown): Promise<Cost> {
  global.gc?.();
  const c = process.cpuUsage();
  const t = performance.now();
  await f();
  const d = process.cpuUsage(c);
  return { cpu: (d.user + d.system) / 1000, wall: performance.now() - t };
}

/** Median costs of `plain` and `sliced` over RUNS runs each, alternating. */
async function pair(plain: () => unknown, sliced: () => Promise<unknown>): Promise<[Cost, Cost]> {
  const a: Cost[] = [];
  const b: Cost[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(await cost(plain));
    b.push(await cost(sliced));
  }
  const mid = (xs: Cost[]): Cost => ({ cpu: median(xs.map((x) => x.cpu)), wall: median(xs.map((x) => x.wall)) });
  return [mid(a), mid(b)];
}

async function overhead(name: string, dir: string, candidate: string): Promise<void> {
  const session = RanklabSession.open(dir, { writeCache: false });
  const settings = session.workspace.settings.corpus;
  const docs = session.corpus().docs;
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const fields = ['title', 'body'];
  const work = () => new Work(); // no signal: the pauses are made, nothing can abort them
  const rows: Array<[string, [Cost, Cost]]> = [];
  rows.push([
    'corpus loading',
    await pair(
      () => loadCorpus(dir, settings),
      () => loadCorpusSliced(dir, settings, work().phase('corpus', 0)),
    ),
  ]);
  rows.push([
    'lexical index build',
    await pair(
      () => LexicalIndex.build(docs, fields, analyzer),
      () => buildOrLoadLexical(docs, 'x', fields, analyzer, undefined, { work: work() }),
    ),
  ]);
  // the cache file as a warm start reads it: JSON Lines, parsed and hashed line by line while MiniSearch loads it
  const cacheFile = join(mkdtempSync(join(tmpdir(), 'ranklab-interrupt-cache-')), 'lexical.json');
  const sha256 = writeLexicalCacheFile(cacheFile, LexicalIndex.build(docs, fields, analyzer).miniSearch);
  const size = statSync(cacheFile).size;
  const options = LexicalIndex.miniSearchOptions(fields, analyzer);
  rows.push([
    `lexical cache load, ${(size / 2 ** 20).toFixed(1)} MB (loadJS vs loadJSAsync${loadsInOneGo(cacheFile) ? ', not used at this size' : ', the one used'})`,
    await pair(
      () => MiniSearch.loadJS(readLexicalCacheFile(cacheFile, sha256), options),
      () => MiniSearch.loadJSAsync(readLexicalCacheFile(cacheFile, sha256), options),
    ),
  ]);
  rmSync(dirname(cacheFile), { recursive: true, force: true });
  const texts = docs.map(embedText);
  const lsaOptions = { dimensions: 64, tokenize: (t: string) => analyzer.analyze(t) };
  rows.push([
    'LSA training (64 dims)',
    await pair(
      () => trainLsa(texts, lsaOptions),
      () => trainLsaSliced(texts, lsaOptions, work().phase('lsa', texts.length)),
    ),
  ]);
  const vectors = trainLsa(texts, lsaOptions).docVectors();
  const ids = docs.map((d) => d.id);
  const hnsw = { M: 16, efConstruction: 200, efSearch: 100 };
  rows.push([
    'HNSW build',
    await pair(
      () => HnswIndex.build(ids, vectors, vectors[0].length, 'cosine', hnsw),
      () => HnswIndex.buildSliced(ids, vectors, vectors[0].length, 'cosine', hnsw, work().phase('hnsw', ids.length)),
    ),
  ]);
  // The query loop: the same searches without and with the per-query pause check.
  const config = session.resolveConfig('baseline');
  const engine = await session.engine(config);
  const judgments = session.judgments();
  const queries = [...judgments.queries.values()].map((q) => q.text).slice(0, 1000);
  for (const q of queries) await engine.search(q); // warm: the per-query score cache is filled either way
  rows.push([
    `query loop (${queries.length} queries, warm)`,
    await pair(
      async () => {
        for (const q of queries) await engine.search(q);
      },
      async () => {
        const slicer = work().phase('queries', queries.length);
        for (const [i, q] of queries.entries()) {
          if (slicer.due()) await slicer.pause(i);
          await engine.search(q);
        }
      },
    ),
  ]);
  const specs = parseMetricList(['ndcg@10', 'mrr@10']);
  const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };
  const a = await evaluateConfig(session, config, { specs, metricOptions, save: false });
  const b = await evaluateConfig(session, session.resolveConfig(candidate), { specs, metricOptions, save: false });
  const sides = [
    { name: 'a', run: a.run },
    { name: 'b', run: b.run },
  ] as const;
  rows.push([
    `compare statistics (${a.run.size} queries)`,
    await pair(
      () => compareRuns(sides[0], sides[1], judgments, specs, metricOptions),
      () => compareRunsSliced(sides[0], sides[1], judgments, specs, metricOptions, work().phase('statistics', 0)),
    ),
  ]);

  console.log(`\n2. Overhead of the pauses: ${name} (${docs.length} documents; median of ${RUNS})\n`);
  console.log('| step | CPU straight through | CPU time-sliced | ratio | wall straight / sliced |\n|---|---|---|---|---|');
  for (const [step, [plain, sliced]] of rows) {
    console.log(
      `| ${step} | ${fmt(plain.cpu)} | ${fmt(sliced.cpu)} | ${(sliced.cpu / plain.cpu).toFixed(2)}× | ${fmt(plain.wall)} / ${fmt(sliced.wall)} |`,
    );
  }
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'ranklab-bench-interrupt-'));
  try {
    if (!process.argv.includes('--skip-latency')) await stopLatency(root);
    if (!process.argv.includes('--skip-overhead')) {
      const example = join(root, 'example');
      cpSync(EXAMPLE, example, { recursive: true, filter: (src) => !src.includes(`${sep}.ranklab`) });
      await overhead('example workspace', example, 'title-boost-3');
      await overhead(
        'generated workspace',
        workspace(root, 'overhead', { docs: DOCS, queries: 1000, configs: { baseline: BM25_CONFIG, title: TITLE } }),
        'title',
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

void main();
