// npm run bench:eval-1m -- [--docs N] [--files F] [--queries Q] [--open-vocabulary W] [--worker] [--keep]
// Issue 32 end to end: the BUILT CLI (`node dist/cli.js eval`, default heap) on a generated corpus of issue 32's shape
// (bench/lib/corpus.mjs, lexical only: 4-10 title words, 60-220 body words over the shared collections' vocabulary;
// RANKLAB_SHARED, default ../shared), run twice: cold (builds the lexical index and caches it) then warm (the same state
// folder: loads the caches). Prints wall time, CPU, peak RSS (/usr/bin/time -v) and the query time the CLI reports,
// beside the issue's budget. The workspace (JSON Lines in one file or --files F, ranklab.json, one BM25 config with
// title boost 3, judgments) goes to the OS temp folder, deleted at the end unless --keep.
// Judgments: query i is 3 content words drawn from the document at position i·n/Q, judged relevant (grade 1) to that
// document alone: planted by the generator here, independent of any engine's answers.
// The corpus is generated in a child process (--write DIR), so its memory is gone before the CLI runs.
// --open-vocabulary W: the generated corpus's vocabulary is closed (~34k terms), a real one of this size holds
// millions (names, codes, typos); each document then also gets OPEN_WORDS words drawn uniformly from W made-up ones
// (W = 3,000,000 at 1M documents: ~1.9 million more terms), so the vocabulary's memory is measured too.
// --worker: the same two runs as the editor's Run Evaluation makes them, in the Ranklab worker thread
// (bench/lib/eval-in-worker.mts; the run is saved in the state folder, and its query time is not reported).
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_ANALYZER } from '../src/core/config/defaults';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { Mulberry32 } from '../src/core/util/random';
import { writeJsonLines } from './lib/json-lines';

const ROOT = resolve(import.meta.dirname, '..');
const SHAPE = { title: [4, 10], body: [60, 220] }; // issue 32's corpus (as bench/lucene.ts)
const BUDGET = { rssMB: 3 * 1024, coldS: 240, warmS: 20, queriesS: 10 };
const MB = 1024 * 1024;
const OPEN_WORDS = 3;

const argv = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};

type Doc = { id: string; title: string; body: string };

/** Child step: writes the workspace into `dir`. */
async function writeWorkspace(dir: string, n: number, files: number, queryCount: number, openVocabulary: number): Promise<void> {
  // @ts-expect-error plain ES module of the bench without type declarations
  const { syntheticCorpus } = await import('./lib/corpus.mjs');
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const isStop = (w: string) => analyzer.processTerm(w) === null;
  const { docs } = syntheticCorpus(n, 0, isStop, { vectors: false, lengths: SHAPE }) as { docs: Doc[] };
  if (openVocabulary > 0) {
    const rng = new Mulberry32(32);
    for (const d of docs) for (let k = 0; k < OPEN_WORDS; k++) d.body += ` q${(rng.nextUint32() % openVocabulary).toString(36)}z`;
  }
  mkdirSync(join(dir, 'data'), { recursive: true });
  const per = Math.ceil(n / files);
  for (let f = 0; f < files; f++) {
    writeJsonLines(
      join(dir, 'data', `corpus-${f}.jsonl`),
      (function* () {
        for (const d of docs.slice(f * per, Math.min(n, (f + 1) * per))) yield { id: d.id, title: d.title, text: d.body };
      })(),
    );
  }
  const judgments = [];
  for (let q = 0; q < queryCount; q++) {
    const d = docs[Math.floor((q * n) / queryCount)];
    const words = `${d.title} ${d.body}`
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '' && !isStop(w));
    const at = (q * 7919) % Math.max(1, words.length - 3);
    judgments.push({ id: `q${q}`, query: words.slice(at, at + 3).join(' '), judgments: { [d.id]: 1 } });
  }
  mkdirSync(join(dir, 'judgments'));
  writeFileSync(join(dir, 'judgments', 'planted.json'), JSON.stringify(judgments));
  mkdirSync(join(dir, 'configs'));
  writeFileSync(
    join(dir, 'configs', 'bm25.rank.json'),
    JSON.stringify({
      description: 'BM25, title boost 3',
      lexical: { fields: { title: 3, body: 1 }, bm25: { k1: 1.2, b: 0.75 }, depth: 100 },
    }),
  );
  writeFileSync(
    join(dir, 'ranklab.json'),
    JSON.stringify({
      // one 1M-document file is ~1.03 GiB, over the default 1 GiB limit (as in issue 32)
      corpus: { include: ['data/*.jsonl'], maxRecordFileBytes: 4 * 1024 ** 3, fields: { id: 'id', title: 'title', body: 'text' } },
      judgments: ['judgments/planted.json'],
      configs: 'configs/*.rank.json',
      baseline: 'bm25',
      metrics: ['ndcg@10', 'mrr@10', 'recall@100'],
    }),
  );
}

interface Measured {
  status: number | null;
  wallS: number;
  cpuS: number;
  rssMB: number;
  stdout: string;
  stderr: string;
}

/** The built CLI, or with --worker the worker thread's runner, under /usr/bin/time -v (default heap: no NODE_OPTIONS passed on). */
function timed(args: string[], extraEnv: Record<string, string> = {}): Measured {
  const env = { ...process.env, ...extraEnv };
  delete env.NODE_OPTIONS;
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, ...args], {
    encoding: 'utf8',
    env,
    cwd: ROOT,
    maxBuffer: 256 * MB,
  });
  const field = (name: string) => r.stderr.match(new RegExp(`${name}: ([0-9.:]+)`))?.[1] ?? '';
  const wall = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)')
    .split(':')
    .reduce((s, x) => s * 60 + Number(x), 0);
  return {
    status: r.status,
    wallS: wall,
    cpuS: Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)')),
    rssMB: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024,
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

/** The lexical stage's latency the CLI reports (p50 and p99 per query; no total): p50 × queries as the query time. */
function queryTime(stdout: string): string {
  try {
    const run = JSON.parse(stdout).runs[0];
    const { p50, p99 } = run.latency.lexical as { p50: number; p99: number };
    return `~${((p50 * run.queries) / 1000).toFixed(1)} s (p50 ${p50.toFixed(2)} ms × ${run.queries}, p99 ${p99.toFixed(1)} ms); ndcg@10 ${run.metrics['ndcg@10'].toFixed(3)}`;
  } catch {
    return 'not in the output';
  }
}

async function main(): Promise<void> {
  const write = opt('write');
  const n = Number(opt('docs') ?? 50_000);
  const files = Number(opt('files') ?? 1);
  const queries = Number(opt('queries') ?? 1000);
  const openVocabulary = Number(opt('open-vocabulary') ?? 0);
  if (write) return writeWorkspace(write, n, files, queries, openVocabulary);

  const dir = mkdtempSync(join(tmpdir(), 'ranklab-eval-1m-'));
  const state = join(dir, '.state');
  try {
    console.log(
      `bench:eval-1m  ${n.toLocaleString('en')} documents in ${files} file(s), ${queries} queries` +
        (openVocabulary ? `, ${OPEN_WORDS} words a document from an open vocabulary of ${openVocabulary.toLocaleString('en')}` : '') +
        `; ${cpus().length} cores; load ${loadavg()}`,
    );
    const t0 = performance.now();
    const g = spawnSync(
      process.execPath,
      [
        '--max-old-space-size=8192',
        '--import',
        'tsx',
        import.meta.filename,
        '--write',
        dir,
        '--docs',
        String(n),
        '--files',
        String(files),
        '--queries',
        String(queries),
        '--open-vocabulary',
        String(openVocabulary),
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
    if (g.status !== 0) throw new Error(`generating the workspace failed (exit ${g.status})`);
    let bytes = 0;
    for (let f = 0; f < files; f++) bytes += statSync(join(dir, 'data', `corpus-${f}.jsonl`)).size;
    console.log(`generated in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${(bytes / MB).toFixed(0)} MiB of JSON Lines (${dir})`);

    const worker = argv.includes('--worker');
    const args = ['eval', '--workspace', dir, '--state-dir', state, '--no-save', '--format', 'json', '--verbose'];
    for (const run of ['cold', 'warm']) {
      const m = worker
        ? timed(['--import', 'tsx', join(ROOT, 'bench/lib/eval-in-worker.mts'), dir], { RANKLAB_STATE_DIR: state })
        : timed([join(ROOT, 'dist', 'cli.js'), ...args]);
      if (m.status !== 0) {
        console.log(`${run}: exit ${m.status}\n${m.stderr.slice(-3000)}`);
        break;
      }
      const warnings = m.stderr
        .split('\n')
        .filter((l) => /lexical|corpus|snapshot|cache|warning/i.test(l) && !/^\s+(Command|Elapsed|Maximum)/.test(l));
      console.log(
        `${run}: wall ${m.wallS.toFixed(1)} s (budget ${run === 'cold' ? BUDGET.coldS : BUDGET.warmS} s), CPU ${m.cpuS.toFixed(1)} s, ` +
          `peak RSS ${m.rssMB.toFixed(0)} MiB (budget ${BUDGET.rssMB}), ` +
          (worker ? `in the worker thread: ${workerOutcome(m.stdout)}` : `queries ${queryTime(m.stdout)} (budget ${BUDGET.queriesS} s)`) +
          (warnings.length ? `\n  ${warnings.slice(0, 12).join('\n  ')}` : ''),
      );
    }
    console.log(`${cachedVocabulary(state)}\nload after: ${loadavg()}`);
  } finally {
    if (!argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
  }
}

/** The worker's Run Evaluation: which configs were saved, and how long each took as the worker reports it. */
function workerOutcome(stdout: string): string {
  try {
    const { outcomes } = JSON.parse(stdout) as { outcomes: Array<{ type: string; config: string; ms?: number; message?: string }> };
    return outcomes
      .map(
        (o) => `${o.config} ${o.type}${o.ms !== undefined ? ` in ${(o.ms / 1000).toFixed(1)} s` : ''}${o.message ? `: ${o.message}` : ''}`,
      )
      .join('; ');
  } catch {
    return 'no result in the output';
  }
}

/** Terms and postings of the postings-only index, from its cache file's header (MAGIC, u32 length, JSON). */
function cachedVocabulary(state: string): string {
  const dir = join(state, 'cache', 'lexical'); // the session's cacheDir (session.ts)
  const file = existsSync(dir) ? readdirSync(dir).find((f) => f.endsWith('.postings.bin')) : undefined;
  if (!file) return "no postings cache (an index under 500,000 documents is MiniSearch's)";
  const fd = openSync(join(dir, file), 'r');
  try {
    const head = Buffer.alloc(12);
    readSync(fd, head, 0, 12, 0);
    const json = Buffer.alloc(head.readUInt32LE(8));
    readSync(fd, json, 0, json.length, 12);
    const h = JSON.parse(json.toString('utf8')) as { terms: number; postings: number };
    return `index: ${h.terms.toLocaleString('en')} terms, ${h.postings.toLocaleString('en')} postings; cache file ${(statSync(join(dir, file)).size / MB).toFixed(0)} MiB`;
  } finally {
    closeSync(fd);
  }
}

function loadavg(): string {
  return spawnSync('uptime', { encoding: 'utf8' })
    .stdout.trim()
    .replace(/.*load average: /, '');
}

await main();
