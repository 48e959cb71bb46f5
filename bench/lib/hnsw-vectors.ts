// The HNSW build benchmark's vectors (bench/hnsw-build.mts), made the same way in the host thread and in the worker
// from one seed: clustered unit vectors (topic centroids plus noise), so both sides build over identical input.
import { createRng, gaussianSource } from '../../src/core/util/random';

export const TOPICS = 64;

export function benchVectors(n: number, dim: number, seed = 7): Float32Array[] {
  const normal = gaussianSource(createRng(seed));
  const unit = (v: Float32Array) => {
    let s = 0;
    for (const x of v) s += x * x;
    const k = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] *= k;
    return v;
  };
  const centroids = Array.from({ length: TOPICS }, () => unit(Float32Array.from({ length: dim }, normal)));
  return Array.from({ length: n }, (_, i) => {
    const c = centroids[i % TOPICS];
    return unit(Float32Array.from({ length: dim }, (_, d) => c[d] + 0.6 * normal()));
  });
}
