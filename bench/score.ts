// Scores the largest shared run (and a synthetic 2,000 x 1,000 one) and prints the time, beside
// trec_eval's on the same files when trec_eval is on the PATH. Run: npm run bench:score
import { spawnSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadJudgments } from '../src/core/judgments';
import { evaluateRun, parseMetricList } from '../src/core/metrics';
import { readTrecRun } from '../src/core/run/trec-run';
import { COLLECTIONS, COLLECTIONS_DIR } from '../test/helpers/shared';
import { createRng } from '../src/core/experiment/stats';

const METRICS = 'ndcg@5,ndcg@10,p@5,p@10,recall@10,recall@100,mrr';
const TREC_ARGS = ['-m', 'ndcg_cut.5,10', '-m', 'P.5,10', '-m', 'recall.10,100', '-m', 'recip_rank', '-q', '-c'];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeRanklab(qrels: string, runPath: string, rounds = 5) {
  const times: number[] = [];
  let queries = 0;
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    const judgments = loadJudgments({ qrels });
    const { run } = readTrecRun(runPath);
    queries = evaluateRun(run, judgments, parseMetricList(METRICS), { gain: 'linear', relevanceThreshold: 1 }).queries;
    times.push(performance.now() - t0);
  }
  return { ms: median(times), queries };
}

function timeTrecEval(qrels: string, runPath: string, rounds = 5): number | undefined {
  const which = spawnSync('sh', ['-c', 'command -v trec_eval'], { encoding: 'utf8' });
  if (which.status !== 0) return undefined;
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    spawnSync('trec_eval', [...TREC_ARGS, qrels, runPath]);
    times.push(performance.now() - t0);
  }
  return median(times);
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

const rows: string[] = [];
const largest = COLLECTIONS.map((c) => ({ c, size: statSync(join(COLLECTIONS_DIR, c, 'run.bm25.txt')).size })).sort((a, b) => b.size - a.size)[0].c;
const cases = [
  { name: `${largest} (largest shared run)`, qrels: join(COLLECTIONS_DIR, largest, 'qrels.tsv'), run: join(COLLECTIONS_DIR, largest, 'run.bm25.txt') },
  (() => { const s = syntheticFiles(2000, 1000); return { name: `synthetic 2,000 queries x 1,000 docs (${s.lines.toLocaleString()} lines)`, qrels: s.qrels, run: s.run }; })(),
];
for (const c of cases) {
  const ours = timeRanklab(c.qrels, c.run, c.name.startsWith('synthetic') ? 3 : 5);
  const theirs = timeTrecEval(c.qrels, c.run, c.name.startsWith('synthetic') ? 3 : 5);
  rows.push(`${c.name}: ${ours.queries} queries, 7 metrics — Ranklab ${ours.ms.toFixed(0)} ms (read qrels + run + score, median)` +
    (theirs === undefined ? '; trec_eval not on PATH' : `; trec_eval ${theirs.toFixed(0)} ms (ratio ${(ours.ms / theirs).toFixed(2)})`));
}
console.log(rows.join('\n'));
