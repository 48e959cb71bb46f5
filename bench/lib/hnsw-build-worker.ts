// The worker side of bench/hnsw-build.mts: builds the HNSW graph in a worker thread with the core's sliced build
// (as the Ranklab worker does inside an engine build), reporting progress through the extension's RPC.
import { HnswIndex } from '../../src/core/retrieval/vector-index';
import { Work } from '../../src/core/util/cooperative';
import { serveRpc } from '../../src/extension/worker/rpc';
import { benchVectors } from './hnsw-vectors';

export interface BuildParams {
  n: number;
  dim: number;
  probes: number;
  M: number;
  efConstruction: number;
}

export interface BenchMethods {
  build: { params: BuildParams; progress: number; result: { ms: number; top: string[][] } };
}

/** Builds over the benchmark's vectors and answers the first `probes` vectors' top 10 (to compare both sides). */
export async function buildAndProbe(p: BuildParams, work: Work): Promise<{ ms: number; top: string[][] }> {
  const vectors = benchVectors(p.n, p.dim);
  const ids = vectors.map((_, i) => `d${i}`);
  const t0 = performance.now();
  const index = await HnswIndex.buildSliced(
    ids,
    vectors,
    p.dim,
    'cosine',
    { M: p.M, efConstruction: p.efConstruction, efSearch: 100 },
    work.phase('hnsw', p.n),
  );
  const ms = performance.now() - t0;
  const top = vectors.slice(0, p.probes).map((v) => index.search(v, 10).map((h) => h.id));
  return { ms, top };
}

if (process.env.RANKLAB_BENCH_WORKER === '1') {
  serveRpc<BenchMethods>({
    build: (p, ctx) => buildAndProbe(p, new Work({ signal: ctx.signal, onProgress: (w) => ctx.progress(w.done) })),
  });
}
