// What reproducible numbers cost: after a few documents change, the LSA model is retrained and the HNSW graph
// rebuilt (identical to a fresh clone's) instead of reusing the old model and patching the graph, which made
// results depend on cache history. Measured in the same run: the old shortcut and the new rebuild, per step,
// and the engine start that follows an edit against a start whose caches match the corpus.
// Run: node --import tsx bench/reproducible-cache.ts [collection ...]   (default: adi cisi lisa)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { normaliseRankConfig } from '../src/core/config';
import { DEFAULT_ANALYZER } from '../src/core/config/defaults';
import type { Document } from '../src/core/corpus/document';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { createEngine, embedText } from '../src/core/retrieval/engine';
import { trainLsa } from '../src/core/retrieval/providers/lsa';
import { HnswIndex } from '../src/core/retrieval/vector-index';
import { corpusFingerprint, loadDocs } from '../test/unit/retrieval/collections';
import { COLLECTIONS_DIR } from './lib/shared';

const DIMENSIONS = 256;
const HNSW = { M: 16, efConstruction: 200, efSearch: 100 };
const EDITED_SHARE = 0.01;

const ms = (t0: number) => performance.now() - t0;
const s = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(0)} ms`);

async function measure(name: string): Promise<string> {
  const docs = loadDocs(join(COLLECTIONS_DIR, name));
  const step = Math.round(1 / EDITED_SHARE);
  const edited: Document[] = docs.map((d, i) => (i % step === 0 ? { ...d, body: `${d.body} revised`, hash: `${d.hash}+` } : d));
  const changed = edited.filter((d, i) => d !== docs[i]);
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const tokenize = (t: string) => analyzer.analyze(t);

  // LSA: project the changed documents with the old model (before) vs retrain on the edited corpus (now).
  const model = trainLsa(docs.map(embedText), { dimensions: DIMENSIONS, tokenize });
  let t0 = performance.now();
  for (const d of changed) model.embedText(embedText(d));
  const project = ms(t0);
  t0 = performance.now();
  const retrained = trainLsa(edited.map(embedText), { dimensions: DIMENSIONS, tokenize });
  const retrain = ms(t0);

  // HNSW: patch the changed vectors into the graph (markDelete + addPoint) vs build a new graph.
  const vectors = retrained.docVectors();
  const graph = HnswIndex.build(
    docs.map((d) => d.id),
    model.docVectors(),
    model.dimension,
    'cosine',
    HNSW,
  );
  t0 = performance.now();
  edited.forEach((d, i) => d !== docs[i] && graph.upsert(d.id, vectors[i]));
  const patch = ms(t0);
  t0 = performance.now();
  HnswIndex.build(
    edited.map((d) => d.id),
    vectors,
    retrained.dimension,
    'cosine',
    HNSW,
  );
  const rebuild = ms(t0);

  // Engine start (LSA + HNSW) after the edit, over caches of the previous corpus version, vs caches that match.
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-bench-repro-'));
  const config = normaliseRankConfig({ vector: { embedder: { provider: 'lsa', dimensions: DIMENSIONS }, hnsw: HNSW } }, 'lsa-hnsw');
  await createEngine({ docs, corpusFingerprint: corpusFingerprint(docs), config, cacheDir: dir });
  t0 = performance.now();
  await createEngine({ docs: edited, corpusFingerprint: corpusFingerprint(edited), config, cacheDir: dir });
  const afterEdit = ms(t0);
  t0 = performance.now();
  await createEngine({ docs: edited, corpusFingerprint: corpusFingerprint(edited), config, cacheDir: dir });
  const unchanged = ms(t0);
  rmSync(dir, { recursive: true, force: true });

  process.stderr.write(`${name} done (load average ${loadavg()[0].toFixed(1)})\n`);
  return `| ${name} | ${docs.length} | ${changed.length} | ${s(project)} | ${s(retrain)} | ${s(patch)} | ${s(rebuild)} | ${s(afterEdit)} | ${s(unchanged)} |`;
}

async function main() {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : ['adi', 'cisi', 'lisa'];
  const rows = [
    `LSA ${DIMENSIONS} dims, HNSW M ${HNSW.M} efConstruction ${HNSW.efConstruction}; ${EDITED_SHARE * 100}% of the documents edited.`,
    '',
    '| collection | docs | edited | LSA: project edited (before) | LSA: retrain (now) | HNSW: patch (before) | HNSW: rebuild (now) | engine start after the edit (now) | engine start, caches current |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const name of names) rows.push(await measure(name));
  console.log(rows.join('\n'));
}
void main();
