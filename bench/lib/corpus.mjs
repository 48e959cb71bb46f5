// Benchmark corpora: the real shared collections (10k) and a synthetic corpus built from their vocabulary (100k).
// Benchmarks only; product code never reads ../shared.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fingerprint } from '../../src/core/util/fingerprint.ts';
import { createRng } from '../../src/core/util/random.ts';

export const SHARED = process.env.RANKLAB_SHARED ?? resolve(import.meta.dirname, '../../..', 'shared');
/** Concatenation order; the 10k corpus is the first 10,000 documents of it (lisa is cut). */
export const COLLECTION_ORDER = ['cranfield', 'cisi', 'med', 'cacm', 'lisa', 'adi'];

const jsonl = (p) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));

export function makeDoc(id, title, body, source, vector) {
  const d = { id, title, body, fields: {}, meta: {}, source: { path: source }, hash: '' };
  if (vector) d.vector = vector;
  d.hash = fingerprint([d.id, d.title, d.body, vector ? String(vector.length) : '']);
  return d;
}

export const corpusFingerprint = (docs) => fingerprint(docs.map((d) => d.hash).sort());

/** Every shared document (ids prefixed with the collection), and every collection's queries.jsonl texts. */
export function loadShared() {
  if (!existsSync(join(SHARED, 'collections')))
    throw new Error(
      `the benchmarks' corpora are built from the shared collections: no ${join(SHARED, 'collections')} (set RANKLAB_SHARED to the folder holding collections/)`,
    );
  const docs = [];
  const queries = [];
  for (const n of COLLECTION_ORDER) {
    const dir = join(SHARED, 'collections', n);
    for (const r of jsonl(join(dir, 'corpus.jsonl'))) docs.push(makeDoc(`${n}:${r.id}`, r.title ?? '', r.text ?? '', n));
    for (const q of jsonl(join(dir, 'queries.jsonl'))) queries.push(q.text);
  }
  return { docs, queries };
}

/** Real documents (first `size` of the concatenation) and real queries cycled to `queryCount`. */
export function realCorpus(size, queryCount) {
  const { docs, queries } = loadShared();
  if (docs.length < size) throw new Error(`only ${docs.length} shared documents, ${size} wanted`);
  const picked = docs.slice(0, size);
  return {
    docs: picked,
    distinctQueries: queries.length,
    queries: Array.from({ length: queryCount }, (_, i) => queries[i % queries.length]),
    description:
      `${size.toLocaleString('en')} real documents: ${COLLECTION_ORDER.join(', ')} concatenated (ids prefixed), first ${size.toLocaleString('en')}; ` +
      `${queryCount.toLocaleString('en')} queries = the ${queries.length} queries of their queries.jsonl files, cycled`,
  };
}

export function gaussian(rand) {
  let u = 0;
  while (u === 0) u = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

export function normalise(v) {
  let s = 0;
  for (const x of v) s += x * x;
  const k = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let i = 0; i < v.length; i++) v[i] *= k;
  return v;
}

/** Sampler over ranks 0..n-1 with p(r) ∝ 1/(r+1)^s (binary search over the cumulative weights). */
function zipfSampler(n, s, rand) {
  const cdf = new Float64Array(n);
  let acc = 0;
  for (let r = 0; r < n; r++) cdf[r] = acc += 1 / Math.pow(r + 1, s);
  return () => {
    const x = rand() * acc;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export const SYNTHETIC = {
  seed: 42,
  zipfExponent: 1.0,
  topics: 50,
  wordsPerTopic: 400,
  topicShare: 0.25,
  dimensions: 384,
  centroidsPerDoc: 3,
  noise: 0.5,
  queryNoise: 0.7,
};

/**
 * `size` synthetic documents over the real collections' vocabulary, with the embedding-like vectors the
 * `precomputed` provider reads from `Document.vector`, and `queryCount` distinct queries with their vectors.
 *  - words: the real vocabulary ranked by frequency, drawn with p(rank r) ∝ 1/(r+1) (Zipf, s = 1); each document
 *    has a topic (one of 50), and 25% of its words come from that topic's own 400 words (ranks 100-20,000);
 *  - lengths: title and body word counts copied from a random real document;
 *  - vectors: 384-d, a weighted mix of 3 of 50 random unit centroids (the topic's centroid weighs most) plus
 *    Gaussian noise of norm ~0.5, normalised;
 *  - queries: 2-4 non-stop words taken from a random document; the query vector is that document's topic
 *    centroid plus noise of norm ~0.7, normalised (related to, not identical with, the document).
 * Options (defaults keep the corpus above, draw for draw): `vectors: false` draws no vectors (a lexical-only corpus,
 * much lighter at 1M documents); `lengths: { title: [min, max], body: [min, max] }` draws word counts uniformly in
 * those ranges instead of copying a real document's (issue 32's shape: 4-10 title words, 60-220 body words).
 * Either option gives different documents than the default corpus of the same size.
 */
export function syntheticCorpus(size, queryCount, isStopword, { vectors = true, lengths } = {}) {
  const p = SYNTHETIC;
  const rand = createRng(p.seed); // deterministic: every run builds the same synthetic corpus
  const { docs: real } = loadShared();
  const counts = new Map();
  const realLengths = [];
  const words = (t) =>
    t
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w !== '');
  for (const d of real) {
    const tw = words(d.title);
    const bw = words(d.body);
    realLengths.push([tw.length, bw.length]);
    for (const w of tw) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const w of bw) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const vocab = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  const drawRank = zipfSampler(vocab.length, p.zipfExponent, rand);
  const topicPool = vocab.slice(100, Math.min(vocab.length, 20000));
  const topicWords = Array.from({ length: p.topics }, () =>
    Array.from({ length: p.wordsPerTopic }, () => topicPool[Math.floor(rand() * topicPool.length)]),
  );
  const centroids = Array.from({ length: p.topics }, () => normalise(Array.from({ length: p.dimensions }, () => gaussian(rand))));
  const noiseScale = (s) => s / Math.sqrt(p.dimensions);

  const between = ([min, max]) => min + Math.floor(rand() * (max - min + 1));
  const drawWord = (topic) => (rand() < p.topicShare ? topicWords[topic][Math.floor(rand() * p.wordsPerTopic)] : vocab[drawRank()]);
  const text = (n, topic) => Array.from({ length: n }, () => drawWord(topic)).join(' ');
  const docs = [];
  const topics = new Int32Array(size);
  for (let i = 0; i < size; i++) {
    const topic = Math.floor(rand() * p.topics);
    topics[i] = topic;
    const [tl, bl] = lengths ? [between(lengths.title), between(lengths.body)] : realLengths[Math.floor(rand() * realLengths.length)];
    if (!vectors) {
      docs.push(makeDoc(`syn:${i}`, text(tl, topic), text(Math.max(1, bl), topic), 'synthetic'));
      continue;
    }
    const v = new Array(p.dimensions).fill(0);
    const weights = [1, rand() * 0.6, rand() * 0.3];
    const mix = [topic, Math.floor(rand() * p.topics), Math.floor(rand() * p.topics)];
    for (let c = 0; c < p.centroidsPerDoc; c++) for (let j = 0; j < p.dimensions; j++) v[j] += weights[c] * centroids[mix[c]][j];
    for (let j = 0; j < p.dimensions; j++) v[j] += gaussian(rand) * noiseScale(p.noise);
    docs.push(makeDoc(`syn:${i}`, text(tl, topic), text(Math.max(1, bl), topic), 'synthetic', normalise(v)));
  }
  const queries = [];
  const queryVectors = [];
  const seen = new Set();
  while (queries.length < queryCount) {
    const i = Math.floor(rand() * size);
    const content = words(`${docs[i].title} ${docs[i].body}`).filter((w) => !isStopword(w));
    if (content.length < 4) continue;
    const n = 2 + Math.floor(rand() * 3);
    const start = Math.floor(rand() * (content.length - n + 1));
    const q = content.slice(start, start + n).join(' ');
    if (seen.has(q)) continue;
    seen.add(q);
    queries.push(q);
    if (!vectors) continue;
    const v = centroids[topics[i]].map((x) => x + gaussian(rand) * noiseScale(p.queryNoise));
    queryVectors.push(normalise(v));
  }
  return {
    docs,
    queries,
    queryVectors,
    distinctQueries: queries.length,
    vocabulary: vocab.length,
    description:
      `${size.toLocaleString('en')} synthetic documents over the shared collections' ${vocab.length.toLocaleString('en')}-word vocabulary ` +
      `(Zipf s=${p.zipfExponent} by real frequency rank, ${p.topics} topics taking ${p.topicShare * 100}% of the words, ` +
      `${lengths ? `${lengths.title.join('-')} title and ${lengths.body.join('-')} body words` : 'real title/body lengths'}); ` +
      `${queryCount.toLocaleString('en')} distinct queries of 2-4 non-stop words taken from documents; ` +
      (vectors
        ? `${p.dimensions}-d precomputed vectors = mix of ${p.centroidsPerDoc} of ${p.topics} random centroids + noise (norm ~${p.noise}), normalised`
        : 'no vectors'),
  };
}
