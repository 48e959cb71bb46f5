// What a reason on every moved document costs `ranklab compare` (issue 11): `compare --format json` of baseline vs
// title-boost-3 through the built CLI (dist/cli.js; both runs evaluated beforehand and reused, so only the comparison
// and the reasons are timed), now (every changed query explained) against the former default measured in the same
// run (`--max-queries 20`: the first 20 changed queries explained), and the table (the 10 queries it prints explained). On the example and on a generated workspace
// (test/helpers/synthetic-workspace) of 1,000 queries. Median of 3 runs each; prints `uptime` (the machine is shared).
// Run: npm run build && npm run bench:reasons -- [--docs 10000] [--queries 1000]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BM25_CONFIG, writeSyntheticWorkspace } from '../test/helpers/synthetic-workspace';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const REPO = resolve(__dirname, '..');
const CLI = join(REPO, 'dist/cli.js');

function cli(args: string[]): { ms: number; stdout: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`ranklab ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { ms, stdout: r.stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function measure(label: string, dir: string): void {
  cli(['eval', '--workspace', dir, '--config', 'baseline', '--config', 'title-boost-3']);
  const compare = (extra: string[]) => [
    'compare',
    '--workspace',
    dir,
    '--baseline',
    'baseline',
    '--candidate',
    'title-boost-3',
    '--format',
    'json',
    ...extra,
  ];
  const all: number[] = [];
  const first20: number[] = [];
  const table: number[] = [];
  let out = '';
  for (let i = 0; i < 3; i++) {
    first20.push(cli(compare(['--max-queries', '20'])).ms);
    table.push(cli(compare([]).filter((a) => a !== '--format' && a !== 'json')).ms);
    const r = cli(compare([]));
    all.push(r.ms);
    out = r.stdout;
  }
  const cmp = JSON.parse(out) as { queries: number; queryDeltas: Array<{ moved: Array<{ reason?: string }> }> };
  const moved = cmp.queryDeltas.flatMap((q) => q.moved);
  console.log(
    `| ${label} | ${cmp.queries} | ${cmp.queryDeltas.length} | ${moved.length} (${moved.filter((m) => m.reason).length} with a reason) | ${(median(first20) / 1000).toFixed(2)} s | ${(median(all) / 1000).toFixed(2)} s | ${(median(table) / 1000).toFixed(2)} s |`,
  );
}

console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} (2 cores, shared)`,
);
console.log(
  '| workspace | queries | changed queries | moved documents | JSON, first 20 explained (before) | JSON, all explained (now) | table, the 10 printed explained (now) |',
);
console.log('|---|---|---|---|---|---|---|');
const example = join(mkdtempSync(join(tmpdir(), 'ranklab-bench-reasons-')), 'food-search');
cpSync(join(REPO, 'examples/food-search'), example, { recursive: true, filter: (src) => !src.includes('/.ranklab') });
const synthetic = mkdtempSync(join(tmpdir(), 'ranklab-bench-reasons-'));
const docs = Number(arg('docs', '10000'));
const queries = Number(arg('queries', '1000'));
writeSyntheticWorkspace(synthetic, {
  docs,
  queries,
  configs: {
    baseline: BM25_CONFIG,
    'title-boost-3': { ...BM25_CONFIG, lexical: { ...BM25_CONFIG.lexical, fields: { title: 3, body: 1 } } },
  },
});
try {
  measure('examples/food-search', example);
  measure(`synthetic, ${docs.toLocaleString('en')} documents`, synthetic);
} finally {
  rmSync(join(example, '..'), { recursive: true, force: true });
  rmSync(synthetic, { recursive: true, force: true });
}
