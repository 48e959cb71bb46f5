// `ranklab sweep` speed: 100 boost combinations (lexical.fields.title × lexical.fields.body, 10 × 10) × 1,000 labeled
// queries over a generated workspace (test/helpers/synthetic-workspace: the generator bench/interrupt.ts uses; short
// documents from a Zipf-like vocabulary, judged queries with a quarter in the holdout split), through the product:
// the core's runSweep on a RanklabSession, as the CLI and the editor call it.
// Printed beside it, measured in the same run: one evaluation of BASE (1,000 queries) — the unit a sweep is made of.
// "first pass" = the first sweep of the session (it builds the index); "after the first pass" = the same sweep again.
// Also in the same run (skip it with --no-general): the same sweep through the general path (recombine: false: each
// combination evaluated as a config of its own through scoreConfig, as before the fast path), after the first pass;
// its results must equal the fast path's.
// Run: node --import tsx bench/sweep.ts [--docs 10000] [--queries 1000] [--grid 10] [--no-general] (npm run bench:sweep)
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, uptime } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_METRIC_OPTIONS, parseMetric } from '../src/core/metrics';
import { RanklabSession } from '../src/core/session/session';
import { evaluateConfig } from '../src/core/session/evaluate';
import { parseVary } from '../src/core/tuning/parameters';
import { runSweep } from '../src/core/tuning/sweep';
import { BM25_CONFIG, writeSyntheticWorkspace } from '../test/helpers/synthetic-workspace';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const DOCS = Number(arg('docs', '10000'));
const QUERIES = Number(arg('queries', '1000'));
const GRID = Number(arg('grid', '10'));
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
/** Wall time and this process's CPU time of `f` (CPU time is what a loaded machine does not inflate). */
async function timed<T>(f: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const t = performance.now();
  const cpu = process.cpuUsage();
  const value = await f();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000 };
}

const root = mkdtempSync(join(tmpdir(), 'ranklab-bench-sweep-'));
const dir = join(root, 'ws');
mkdirSync(dir);
writeSyntheticWorkspace(dir, { docs: DOCS, queries: QUERIES, layout: 'jsonl', configs: { baseline: BM25_CONFIG } });

async function main(): Promise<void> {
  const session = RanklabSession.open(dir);
  const base = session.usable(session.configEntry('baseline'));
  const objective = parseMetric('ndcg@10');
  const metricOptions = { ...DEFAULT_METRIC_OPTIONS };
  const top = (GRID * 0.5).toFixed(1);
  const variations = [parseVary(`lexical.fields.title=0.5..${top}:0.5`), parseVary(`lexical.fields.body=0.5..${top}:0.5`)];
  const combos = variations.reduce((n, v) => n * v.values.length, 1);
  console.log(
    `sweep benchmark: ${DOCS.toLocaleString('en')} documents, ${QUERIES.toLocaleString('en')} queries, ${combos} combinations (${variations.map((v) => `${v.path} ×${v.values.length}`).join(', ')})`,
  );
  console.log(
    `machine: ${process.platform} ${process.arch}, node ${process.version}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')} (uptime ${Math.round(uptime() / 60)} min)`,
  );

  const t0 = performance.now();
  await session.loadCorpus();
  const corpusMs = performance.now() - t0;
  const sweep = (pass: string, recombine = true) =>
    runSweep(session, {
      base,
      raw: structuredClone(BM25_CONFIG),
      variations,
      search: { kind: 'grid' },
      objective,
      metricOptions,
      recombine,
      onProgress: (done, total) => {
        if (done % 10 === 0 || done === total) console.error(`  ${pass}: ${done}/${total} configs`);
      },
    });
  const firstRun = await timed(() => sweep('first pass'));
  const first = firstRun.value;
  const secondRun = await timed(() => sweep('second pass'));
  const second = secondRun.value;
  let generalRun: { ms: number; cpuMs: number } | undefined;
  if (!process.argv.includes('--no-general')) {
    const run = await timed(() => sweep('general path', false));
    generalRun = run;
    const same = (r: typeof first) =>
      JSON.stringify({ rows: r.rows, base: r.base, perQuery: [...r.perQuery.combinations].map(([i, m]) => [i, [...m]]) });
    if (same(run.value) !== same(first)) throw new Error('the fast path and the general path disagree');
  }
  const oneEval = await timed(() => evaluateConfig(session, base, { specs: [objective], metricOptions, split: 'all', save: false }));
  if (JSON.stringify(first.rows.map((r) => r.tune)) !== JSON.stringify(second.rows.map((r) => r.tune)))
    throw new Error('the two passes disagree');

  console.log('');
  console.log(`corpus load                        ${secs(corpusMs)}`);
  const cpu = (r: { cpuMs: number }) => `CPU ${secs(r.cpuMs)}`;
  console.log(
    `sweep, first pass                  ${secs(firstRun.ms)}  (${cpu(firstRun)}; ${(firstRun.ms / (combos + 1)).toFixed(0)} ms per config: BASE + ${combos} combinations)`,
  );
  console.log(
    `sweep, after the first pass        ${secs(secondRun.ms)}  (${cpu(secondRun)}; ${(secondRun.ms / (combos + 1)).toFixed(0)} ms per config)   target ≤ 5 s`,
  );
  if (generalRun)
    console.log(
      `general path, after the first pass ${secs(generalRun.ms)}  (${cpu(generalRun)}; every combination through scoreConfig, as before; same results)`,
    );
  console.log(
    `baseline: one evaluation of BASE   ${secs(oneEval.ms)}  (${cpu(oneEval)}; warm engine; the sweep costs ${(secondRun.ms / oneEval.ms).toFixed(1)} of these)`,
  );
  console.log(
    `best: ${Object.entries(first.rows[0].values)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}; tune ${first.rows[0].tune.toFixed(4)}, holdout gain ${first.estimate.gain.toFixed(4)}`,
  );
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
  );
}

main()
  .finally(() => rmSync(root, { recursive: true, force: true }))
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
