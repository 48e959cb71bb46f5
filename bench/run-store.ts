// npm run bench:run-store [-- --runs N --queries N --depth N]   (also the first part of `npm run bench`)
// The run store at dashboard scale: 20 saved runs x 1,000 queries at depth 100 (synthetic, fixed generator: half
// lexical-only, half hybrid with per-stage ranks and stage outputs; titles of the top 10). Prints, before (format
// ranklab-run@1 read the way the editor read it until now: every file parsed in full) and after (ranklab-run@2 with
// the run index) in the same run: the size of a run file, the time to open the store (what the dashboard's pickers
// and the status bar need) and the time to load one comparison's details (two runs). Medians of 3 rounds.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { RunIndex } from '../src/core/experiment/run-index';
import { checkSavedRun, saveRun } from '../src/core/experiment/run-store';
import type { RankedDoc, SavedRun } from '../src/core/run/types';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = opt('runs', 20);
const QUERIES = opt('queries', 1000);
const DEPTH = opt('depth', 100);
const ROUNDS = 3;
const CORPUS = 100_000;

let seed = 42; // LCG: the same runs every time
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

function makeRun(r: number): SavedRun {
  const hybrid = r % 2 === 1;
  const config = ['baseline', 'hybrid-rrf', 'title-boost', 'hybrid-rerank'][r % 4];
  const titles: Record<string, string> = {};
  const queries = Array.from({ length: QUERIES }, (_, q) => {
    let score = 20 + rnd() * 10;
    const docs: RankedDoc[] = Array.from({ length: DEPTH }, (_, i) => {
      score -= rnd() * 0.3;
      const id = `doc-${Math.floor(rnd() * CORPUS)}`;
      if (i < 10) titles[id] = `A document title of about forty characters ${id}`;
      const stages: RankedDoc['stages'] = hybrid
        ? { lexical: { rank: 1 + Math.floor(rnd() * 200), score: rnd() * 25 }, vector: { rank: 1 + Math.floor(rnd() * 200), score: rnd() }, fused: { rank: i + 1, score: 1 / (61 + i) } }
        : { lexical: { rank: i + 1, score } };
      return { id, score: hybrid ? 1 / (61 + i) : score, stages }; // a hybrid's final list is its fused list
    });
    const stageIds = hybrid ? { lexical: Array.from({ length: DEPTH }, () => `doc-${Math.floor(rnd() * CORPUS)}`), vector: Array.from({ length: DEPTH }, () => `doc-${Math.floor(rnd() * CORPUS)}`) } : {};
    return {
      qid: `q${q}`, text: `synthetic query number ${q}`, docs, total: 1000 + q,
      latencyMs: (hybrid ? { lexical: rnd(), vector: rnd(), fused: rnd() * 0.01, total: rnd() * 2 } : { lexical: rnd(), total: rnd() }) as Record<string, number>,
      metrics: { 'ndcg@10': rnd(), 'mrr@10': rnd(), 'p@5': rnd(), 'recall@100': rnd() },
      stageIds,
    };
  });
  return {
    format: 'ranklab-run@2',
    provenance: { config, configHash: `sha256:${'a'.repeat(64)}`, corpus: `sha256:${'b'.repeat(64)}`, judgments: `sha256:${'c'.repeat(64)}`, createdAt: new Date(Date.UTC(2026, 0, 1, 0, r)).toISOString(), tool: 'ranklab bench', access: { principal: null, rule: { doc: 'public', is: true }, missingAcl: 'public' }, models: {} },
    config: { name: config }, metricSpecs: ['ndcg@10', 'mrr@10', 'p@5', 'recall@100'], metrics: { 'ndcg@10': rnd(), 'mrr@10': rnd(), 'p@5': rnd(), 'recall@100': rnd() },
    latency: { total: { p50: 1, p99: 2 } }, queries, titles,
  };
}

/** What the editor did until now on every open and every watcher event: read and parse every run file. */
function openBefore(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const v = JSON.parse(readFileSync(join(dir, name), 'utf8'));
    if (!checkSavedRun(v)) n++;
  }
  return n;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const MB = 2 ** 20;
const before = mkdtempSync(join(tmpdir(), 'rl-bench-runs-v1-'));
const after = mkdtempSync(join(tmpdir(), 'rl-bench-runs-v2-'));
try {
  console.log(`run store: ${RUNS} runs x ${QUERIES} queries at depth ${DEPTH} (synthetic); ${cpus().length} cores, Node ${process.version}, load average ${loadavg().map((x) => x.toFixed(2)).join(' / ')}`);
  const ids: string[] = [];
  for (let r = 0; r < RUNS; r++) {
    const run = makeRun(r);
    writeFileSync(join(before, `${run.provenance.config}-${r}.json`), JSON.stringify({ ...run, format: 'ranklab-run@1' }, null, 1) + '\n'); // as saved until now
    const path = saveRun(after, run, 0);
    ids.push(path.slice(after.length + 1, -'.json'.length));
  }
  const size = (dir: string, hybrid?: boolean) => readdirSync(dir).filter((f) => f.endsWith('.json') && (hybrid === undefined || f.startsWith('hybrid') === hybrid)).map((f) => statSync(join(dir, f)).size);
  const perThousand = (bytes: number[]) => bytes.reduce((a, b) => a + b, 0) / bytes.length / MB / (QUERIES / 1000);
  const [v1, v2] = [perThousand(size(before)), perThousand(size(after))];
  // For reference only (not what is written): the same compact files gzipped.
  const gz = readdirSync(after).filter((f) => f.endsWith('.json')).map((f) => gzipSync(readFileSync(join(after, f))).length);
  const kind = (dir: string, hybrid: boolean) => perThousand(size(dir, hybrid)); // the hybrid configs' names start with "hybrid"

  const beforeOpen: number[] = [];
  const afterFirst: number[] = [];
  const afterOpen: number[] = [];
  const afterDetails: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    beforeOpen.push(time(() => openBefore(before)));
    rmSync(join(after, '.index'), { force: true });
    afterFirst.push(time(() => new RunIndex(after).open())); // no index yet: built from every file once
    const idx = new RunIndex(after);
    afterOpen.push(time(() => idx.open()));
    afterDetails.push(time(() => [idx.load(ids[0]), idx.load(ids[1])]));
  }
  const indexKb = statSync(join(after, '.index')).size / 1024;
  const row = (label: string, b: string, a: string) => console.log(`  ${label.padEnd(44)} ${b.padStart(14)} ${a.padStart(14)}`);
  row('', 'before (@1)', 'after (@2)');
  row('run file, MB per 1,000 queries at depth 100', v1.toFixed(2), v2.toFixed(2));
  row('  lexical-only runs', kind(before, false).toFixed(2), kind(after, false).toFixed(2));
  row('  hybrid runs (3 stages, stage outputs)', kind(before, true).toFixed(2), kind(after, true).toFixed(2));
  row('  (for reference: the @2 files gzipped)', '', perThousand(gz).toFixed(2));
  row('open the store (pickers, status bar), ms', median(beforeOpen).toFixed(0), median(afterOpen).toFixed(1));
  row('  first open, no index yet (built), ms', '-', median(afterFirst).toFixed(0));
  row('load one comparison\'s details (2 runs), ms', '(in the open)', median(afterDetails).toFixed(0));
  row('dashboard open: store + one comparison, ms', median(beforeOpen).toFixed(0), (median(afterOpen) + median(afterDetails)).toFixed(0));
  console.log(`  index file ${indexKb.toFixed(1)} KB; medians of ${ROUNDS} rounds; load average after: ${loadavg().map((x) => x.toFixed(2)).join(' / ')}`);
} finally {
  rmSync(before, { recursive: true, force: true });
  rmSync(after, { recursive: true, force: true });
}
