// npm run bench:score [-- --rounds N] [--no-save]
// `ranklab score` against trec_eval on the same files, each as a whole process (start-up, reading qrels and run,
// scoring 7 metrics, printing), rounds alternating between the two; median wall time and their ratio. Cases:
// the largest shared run and a synthetic 2,000 queries x 1,000 documents (2,000,000 lines). trec_eval is built
// from ../shared/tools/trec_eval with make into bench/.trec_eval/ (ignored by git) when it is not there yet;
// it is a yardstick, not a dependency. Also prints, in process, where Ranklab's time goes. Saves
// bench/results/score.json and rewrites the "score" section of docs/benchmarks.md (unless --no-save).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadJudgments } from '../src/core/judgments';
import { evaluateRun, parseMetricList } from '../src/core/metrics';
import { readTrecRun } from '../src/core/run/trec-run';
import { createRng } from '../src/core/experiment/stats';
import { COLLECTIONS, COLLECTIONS_DIR, SHARED_DIR } from './lib/shared';

const ROOT = resolve(__dirname, '..');
const args = process.argv.slice(2);
const roundsArg = args.indexOf('--rounds');
const ROUNDS = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 5;
const METRICS = 'ndcg@5,ndcg@10,p@5,p@10,recall@10,recall@100,mrr';
const TREC_ARGS = ['-c', '-m', 'ndcg_cut.5,10', '-m', 'P.5,10', '-m', 'recall.10,100', '-m', 'recip_rank']; // -c: mean over every judged query, as Ranklab
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** trec_eval built from the shared sources into bench/.trec_eval (once). */
function trecEval(): string {
  const dir = join(ROOT, 'bench', '.trec_eval');
  const bin = join(dir, 'trec_eval');
  if (existsSync(bin)) return bin;
  const source = join(SHARED_DIR, 'tools', 'trec_eval');
  if (!existsSync(source)) throw new Error(`trec_eval sources not found at ${source}`);
  console.log(`building trec_eval from ${source} into ${dir} ...`);
  mkdirSync(dir, { recursive: true });
  cpSync(source, dir, { recursive: true });
  const make = spawnSync('make', ['-C', dir], { encoding: 'utf8' });
  if (make.status !== 0 || !existsSync(bin)) throw new Error(`make trec_eval failed:\n${make.stderr}`);
  return bin;
}

/** The bundled CLI (built first when missing). */
function cli(): string {
  const file = join(ROOT, 'dist', 'cli.js');
  if (!existsSync(file)) spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit', cwd: ROOT });
  return file;
}

const TIME = '/usr/bin/time'; // GNU time, for the CPU time of the child (wall time alone suffers most from other load)

/** Wall time of a whole process, and its CPU time (user + system) when GNU time is there. */
function measure(command: string, argv: string[]): { wall: number; cpu?: number } {
  const withTime = existsSync(TIME);
  const t0 = performance.now();
  const r = withTime
    ? spawnSync(TIME, ['-f', 'cpu %U %S', command, ...argv], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
    : spawnSync(command, argv, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wall = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${command} ${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  const m = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined };
}

function syntheticFiles(queries: number, depth: number) {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-bench-score-'));
  const rng = createRng(7);
  const qrels: string[] = [];
  const run: string[] = [];
  for (let q = 1; q <= queries; q++) {
    const judged = new Set<number>();
    while (judged.size < 20) judged.add(Math.floor(rng() * 5000));
    for (const d of judged) qrels.push(`${q} 0 d${d} ${Math.floor(rng() * 4)}`);
    for (let r = 1; r <= depth; r++) run.push(`${q} Q0 d${(q * 7919 + r * 104729) % 50000} ${r} ${(depth - r + rng()).toFixed(6)} syn`);
  }
  writeFileSync(join(dir, 'qrels.txt'), qrels.join('\n') + '\n');
  writeFileSync(join(dir, 'run.txt'), run.join('\n') + '\n');
  return { qrels: join(dir, 'qrels.txt'), run: join(dir, 'run.txt'), lines: run.length };
}

/** In process: where Ranklab's time goes (median of 3). */
function stages(qrels: string, runPath: string) {
  const t = { qrels: [] as number[], run: [] as number[], evaluate: [] as number[] };
  for (let i = 0; i < 3; i++) {
    let t0 = performance.now();
    const judgments = loadJudgments({ qrels });
    t.qrels.push(performance.now() - t0);
    t0 = performance.now();
    const { run } = readTrecRun(runPath);
    t.run.push(performance.now() - t0);
    t0 = performance.now();
    evaluateRun(run, judgments, parseMetricList(METRICS), { gain: 'linear', relevanceThreshold: 1 });
    t.evaluate.push(performance.now() - t0);
  }
  return { qrels: median(t.qrels), run: median(t.run), evaluate: median(t.evaluate) };
}

const loadStart = load();
console.log(`bench:score — load average ${loadStart}`);
const bin = trecEval();
const ranklab = cli();
const largest = COLLECTIONS.map((c) => ({ c, size: statSync(join(COLLECTIONS_DIR, c, 'run.bm25.txt')).size })).sort(
  (a, b) => b.size - a.size,
)[0].c;
const synthetic = syntheticFiles(2000, 1000);
const cases = [
  {
    name: `${largest} (largest shared run)`,
    qrels: join(COLLECTIONS_DIR, largest, 'qrels.tsv'),
    run: join(COLLECTIONS_DIR, largest, 'run.bm25.txt'),
  },
  {
    name: `synthetic 2,000 queries × 1,000 docs (${synthetic.lines.toLocaleString('en')} lines, ${(statSync(synthetic.run).size / 1e6).toFixed(0)} MB)`,
    qrels: synthetic.qrels,
    run: synthetic.run,
  },
];
const results = [];
for (const c of cases) {
  const ours: Array<{ wall: number; cpu?: number }> = [];
  const theirs: Array<{ wall: number; cpu?: number }> = [];
  for (let i = 0; i < ROUNDS; i++) {
    theirs.push(measure(bin, [...TREC_ARGS, c.qrels, c.run]));
    ours.push(measure(process.execPath, [ranklab, 'score', '--qrels', c.qrels, '--run', c.run, '--metrics', METRICS, '--gain', 'linear']));
  }
  const cpu = (xs: Array<{ cpu?: number }>) => (xs.every((x) => x.cpu !== undefined) ? median(xs.map((x) => x.cpu!)) : undefined);
  const r = {
    name: c.name,
    ranklabMs: median(ours.map((x) => x.wall)),
    trecEvalMs: median(theirs.map((x) => x.wall)),
    ranklabCpuMs: cpu(ours),
    trecEvalCpuMs: cpu(theirs),
    stages: stages(c.qrels, c.run),
    load: load(),
    ratio: 0,
    cpuRatio: undefined as number | undefined,
  };
  r.ratio = r.ranklabMs / r.trecEvalMs;
  r.cpuRatio = r.ranklabCpuMs !== undefined && r.trecEvalCpuMs !== undefined ? r.ranklabCpuMs / r.trecEvalCpuMs : undefined;
  results.push(r);
  console.log(
    `${r.name}: ranklab score ${r.ranklabMs.toFixed(0)} ms, trec_eval ${r.trecEvalMs.toFixed(0)} ms — ratio ${r.ratio.toFixed(2)}` +
      (r.cpuRatio === undefined
        ? ''
        : `; CPU ${r.ranklabCpuMs!.toFixed(0)} vs ${r.trecEvalCpuMs!.toFixed(0)} ms — ratio ${r.cpuRatio.toFixed(2)}`) +
      ` (median of ${ROUNDS}, whole processes; in process: qrels ${r.stages.qrels.toFixed(0)} ms, run ${r.stages.run.toFixed(0)} ms, ` +
      `metrics ${r.stages.evaluate.toFixed(0)} ms; load ${r.load})`,
  );
}
const loadEnd = load();
console.log(`load average at end ${loadEnd}`);

if (!args.includes('--no-save')) {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', 'score.json'),
    JSON.stringify({ loadStart, loadEnd, rounds: ROUNDS, metrics: METRICS, results }, null, 2) + '\n',
  );
  void writeSection(
    [
      '## `ranklab score` vs trec_eval (`npm run bench:score`)',
      '',
      `Load average (1/5/15 min) ${loadStart} at start, ${loadEnd} at end. Whole processes on the same files, alternating, median of ${ROUNDS}:`,
      `\`node dist/cli.js score --metrics ${METRICS} --gain linear\` and trec_eval 10.0 (built from ../shared/tools/trec_eval)`,
      `\`${TREC_ARGS.join(' ')}\`; wall time, and CPU time (user + system, GNU time), which other work on the machine disturbs less.`,
      '"In process" splits Ranklab\'s wall time (median of 3, without process start-up).',
      '',
      '| run | ranklab score: wall (CPU) | trec_eval: wall (CPU) | ratio: wall (CPU) | in process: qrels / run / metrics |',
      '|---|---|---|---|---|',
      ...results.map(
        (r) =>
          `| ${r.name} | ${r.ranklabMs.toFixed(0)} ms (${r.ranklabCpuMs?.toFixed(0) ?? '?'}) | ${r.trecEvalMs.toFixed(0)} ms (${r.trecEvalCpuMs?.toFixed(0) ?? '?'}) | ` +
          `${r.ratio.toFixed(2)} (${r.cpuRatio?.toFixed(2) ?? '?'}) | ${r.stages.qrels.toFixed(0)} / ${r.stages.run.toFixed(0)} / ${r.stages.evaluate.toFixed(0)} ms |`,
      ),
    ].join('\n'),
  );
}

async function writeSection(markdown: string): Promise<void> {
  // @ts-expect-error a plain ES module of the bench, without type declarations
  const { writeDocSection } = await import('./lib/doc-section.mjs');
  writeDocSection('score', markdown);
  console.log('wrote bench/results/score.json and the "score" section of docs/benchmarks.md');
}
