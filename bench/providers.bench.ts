/**
 * Transformers provider figures on the tiny test models: library load, model load, embeddings/s and
 * rerank pairs/s, for the WASM and native backends. One process holds one backend, so each backend
 * runs in its own child process.
 *   node --import tsx bench/providers.bench.ts            (both backends)
 *   node --import tsx bench/providers.bench.ts wasm|native (one, prints a JSON line)
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  loadTransformers,
  TransformersEmbedder,
  TransformersReranker,
  type TransformersBackend,
} from '../src/core/retrieval/providers/transformers';

const shared = process.env.RANKLAB_SHARED ?? path.resolve(__dirname, '../../shared');
const baseDir = path.join(shared, 'models');

async function measure(backend: TransformersBackend) {
  const texts = Array.from({ length: 512 }, (_, i) => `document ${i} about cats dogs and word${i % 50} in the garden`);
  let t = performance.now();
  loadTransformers(backend, 'bench');
  const libMs = performance.now() - t;
  const e = new TransformersEmbedder(
    { provider: 'transformers', model: 'tiny-embedder', backend, batchSize: 32 },
    { baseDir, allowRemote: false, settingPath: 'bench' },
  );
  t = performance.now();
  await e.embed(['warm up'], 'document');
  const modelLoadMs = performance.now() - t;
  t = performance.now();
  await e.embed(texts, 'document');
  const embPerSec = texts.length / ((performance.now() - t) / 1000);
  const single = texts.slice(0, 128);
  t = performance.now();
  for (const s of single) await e.embed([s], 'query');
  const queryPerSec = single.length / ((performance.now() - t) / 1000);
  const r = new TransformersReranker(
    { provider: 'transformers', model: 'tiny-reranker', backend },
    { baseDir, allowRemote: false, settingPath: 'bench' },
  );
  await r.score('warm', ['up']);
  t = performance.now();
  await r.score('cats in the garden', texts.slice(0, 256));
  const pairsPerSec = 256 / ((performance.now() - t) / 1000);
  return {
    backend,
    libMs: Math.round(libMs),
    modelLoadMs: Math.round(modelLoadMs),
    embPerSecBatch32: Math.round(embPerSec),
    queryEmbPerSecBatch1: Math.round(queryPerSec),
    rerankPairsPerSec: Math.round(pairsPerSec),
  };
}

const arg = process.argv[2];
if (arg === 'wasm' || arg === 'native') {
  void measure(arg).then((r) => console.log(JSON.stringify(r)));
} else {
  for (const b of ['wasm', 'native']) {
    const out = execFileSync(process.execPath, ['--import', 'tsx', __filename, b], { encoding: 'utf8' });
    console.log(out.trim());
  }
}
