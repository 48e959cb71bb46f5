// npm run bench:hnsw [-- --size 100k] [--dim 256] [--probes 200] [--no-save] [--single]
// --single: one build on this thread only, with peak RSS, query p50 and recall@10 (bench/lib/hnsw-single.mts).
// HNSW graph build (hnswlib-node, M 16, efConstruction 200) over the same clustered vectors, in one run:
//   before: on the calling thread, the core's sliced build (a pause every 50 ms), as the extension host ran it;
//   after:  in a worker thread through the extension's RPC (src/extension/worker/rpc.ts), as the Ranklab worker does.
// Prints the build time, how long the calling thread's event loop was held (monitorEventLoopDelay: max and p99),
// the progress reports that arrived, and whether both graphs answer the probe queries identically (hnswlib's build
// is sequential and seeded: the same points in the same order give the same graph). Saves
// bench/results/hnsw-build.json unless --no-save.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Work } from '../src/core/util/cooperative';
import { RpcClient } from '../src/extension/worker/rpc';
import { type BenchMethods, type BuildParams, buildAndProbe } from './lib/hnsw-build-worker';
import { runSingle } from './lib/hnsw-single';
// @ts-expect-error plain ES module of the bench without type declarations
import { loadavg, machine } from './lib/measure.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const size = opt('size', '100k');
const params: BuildParams = {
  n: Number(size.replace(/k$/, '000')),
  dim: Number(opt('dim', '256')),
  probes: Number(opt('probes', '200')),
  M: 16,
  efConstruction: 200,
};

interface Side {
  where: string;
  buildMs: number;
  wallMs: number;
  loopMaxMs: number;
  loopP99Ms: number;
  progressReports: number;
  top: string[][];
}

async function measure(where: string, run: (onProgress: () => void) => Promise<{ ms: number; top: string[][] }>): Promise<Side> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  let progressReports = 0;
  delay.enable();
  const t0 = performance.now();
  const r = await run(() => progressReports++);
  const wallMs = performance.now() - t0;
  delay.disable();
  const side = {
    where,
    buildMs: r.ms,
    wallMs,
    loopMaxMs: delay.max / 1e6,
    loopP99Ms: delay.percentile(99) / 1e6,
    progressReports,
    top: r.top,
  };
  console.log(
    `${where}: build ${(side.buildMs / 1000).toFixed(2)} s (wall ${(wallMs / 1000).toFixed(2)} s), calling thread's event loop held max ${side.loopMaxMs.toFixed(0)} ms / p99 ${side.loopP99Ms.toFixed(0)} ms, ${progressReports} progress reports`,
  );
  return side;
}

if (args.includes('--single')) {
  await runSingle(params, size, ROOT, !args.includes('--no-save'));
  process.exit(0);
}

const loadStart = loadavg();
console.log(
  `HNSW build at ${params.n.toLocaleString('en')} × ${params.dim} (M ${params.M}, efConstruction ${params.efConstruction}); load ${loadStart}`,
);
const before = await measure('before: host thread, sliced', (onProgress) => buildAndProbe(params, new Work({ onProgress })));
const client = new RpcClient<BenchMethods>({ entry: join(ROOT, 'bench/lib/hnsw-build-worker.cjs') });
const after = await measure('after: worker thread', (onProgress) => client.request('build', params, { onProgress }));
await client.terminate();
const identical = JSON.stringify(before.top) === JSON.stringify(after.top);
const loadEnd = loadavg();
console.log(`probe top-10 lists identical: ${identical ? 'yes' : 'NO'} (${params.probes} probes); load at end ${loadEnd}`);
console.log('');
console.log('| HNSW build | build time | calling thread held (max / p99) | progress reports |');
console.log('|---|---|---|---|');
for (const s of [before, after])
  console.log(
    `| ${s.where} | ${(s.buildMs / 1000).toFixed(1)} s | ${s.loopMaxMs.toFixed(0)} ms / ${s.loopP99Ms.toFixed(0)} ms | ${s.progressReports} |`,
  );
if (!identical) process.exitCode = 1;
if (!args.includes('--no-save')) {
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const strip = ({ top: _top, ...rest }: Side) => rest;
  writeFileSync(
    join(ROOT, 'bench/results/hnsw-build.json'),
    JSON.stringify(
      { params, machine: machine(), load: { start: loadStart, end: loadEnd }, identical, before: strip(before), after: strip(after) },
      null,
      2,
    ) + '\n',
  );
}
