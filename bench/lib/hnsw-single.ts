// `npm run bench:hnsw -- --single --size 1000k --dim 384`: one HNSW build (no worker side), for sizes where building
// twice is not affordable. Measures build time, peak RSS (process.resourceUsage().maxRSS: hnswlib's native memory
// included), query p50 and recall@10 against an exact scan, on held-out probe vectors (generated with the corpus from
// the same seed, never inserted). Progress (points inserted, rate, RSS, load) is printed and saved as it goes, so a
// build stopped before the end still leaves an honest partial figure in bench/results/hnsw-single-<size>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HnswIndex } from '../../src/core/retrieval/vector-index';
import { Work } from '../../src/core/util/cooperative';
import type { BuildParams } from './hnsw-build-worker';
import { benchVectors } from './hnsw-vectors';
// @ts-expect-error plain ES module of the bench without type declarations
import { loadavg, machine } from './measure.mjs';

const peakRssMB = () => process.resourceUsage().maxRSS / 1024;
const rssMB = () => process.memoryUsage().rss / 2 ** 20;

function exactTop(vectors: readonly Float32Array[], n: number, q: Float32Array, k: number): number[] {
  const best: Array<{ i: number; s: number }> = [];
  for (let i = 0; i < n; i++) {
    const v = vectors[i];
    let s = 0;
    for (let d = 0; d < q.length; d++) s += v[d] * q[d];
    if (best.length < k || s > best[best.length - 1].s) {
      best.push({ i, s });
      best.sort((a, b) => b.s - a.s);
      if (best.length > k) best.pop();
    }
  }
  return best.map((b) => b.i);
}

export async function runSingle(p: BuildParams, size: string, root: string, save: boolean): Promise<void> {
  const out = join(root, `bench/results/hnsw-single-${size}.json`);
  const record: Record<string, unknown> = { params: p, machine: machine(), load: { start: loadavg() }, status: 'generating vectors' };
  const write = () => {
    if (!save) return;
    mkdirSync(join(root, 'bench/results'), { recursive: true });
    writeFileSync(out, JSON.stringify(record, null, 2) + '\n');
  };
  console.log(
    `HNSW single build at ${p.n.toLocaleString('en')} × ${p.dim} (M ${p.M}, efConstruction ${p.efConstruction}); load ${loadavg()}`,
  );
  const all = benchVectors(p.n + p.probes, p.dim);
  const vectors = all.slice(0, p.n);
  const probes = all.slice(p.n);
  const ids = vectors.map((_, i) => `d${i}`);
  record.vectorsRssMB = rssMB();
  console.log(`vectors generated; RSS ${rssMB().toFixed(0)} MB`);
  const t0 = performance.now();
  let nextReport = 0;
  const progress: Array<{ done: number; s: number; rssMB: number; load: string }> = [];
  record.progress = progress;
  record.status = 'building';
  write();
  const work = new Work({
    onProgress: ({ done }) => {
      if (done < nextReport) return;
      nextReport = done + Math.max(1, Math.floor(p.n / 200));
      const s = (performance.now() - t0) / 1000;
      progress.push({ done, s: Math.round(s), rssMB: Math.round(rssMB()), load: loadavg() });
      console.log(
        `${done.toLocaleString('en')} / ${p.n.toLocaleString('en')} points in ${s.toFixed(0)} s (${(done / s).toFixed(0)}/s), RSS ${rssMB().toFixed(0)} MB, load ${loadavg()}`,
      );
      write();
    },
  });
  const index = await HnswIndex.buildSliced(
    ids,
    vectors,
    p.dim,
    'cosine',
    { M: p.M, efConstruction: p.efConstruction, efSearch: 100 },
    work.phase('hnsw', p.n),
  );
  record.buildS = (performance.now() - t0) / 1000;
  record.peakRssMB = peakRssMB();
  record.status = 'probing';
  write();
  const times: number[] = [];
  let hits = 0;
  for (const q of probes) {
    const q0 = performance.now();
    const got = index.search(q, 10).map((h) => Number(h.id.slice(1)));
    times.push(performance.now() - q0);
    const want = new Set(exactTop(vectors, p.n, q, 10));
    hits += got.filter((i) => want.has(i)).length;
  }
  times.sort((a, b) => a - b);
  record.queryP50Ms = times[Math.floor(times.length / 2)];
  record.recallAt10 = hits / (10 * probes.length);
  record.load = { ...(record.load as object), end: loadavg() };
  record.status = 'done';
  write();
  console.log(
    `build ${(record.buildS as number).toFixed(0)} s, peak RSS ${(record.peakRssMB as number).toFixed(0)} MB, query p50 ${(record.queryP50Ms as number).toFixed(2)} ms (efSearch 100), recall@10 ${(record.recallAt10 as number).toFixed(3)} on ${probes.length} held-out probes; load ${loadavg()}`,
  );
}
