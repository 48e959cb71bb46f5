// The baselines Ranklab is compared with: plain MiniSearch and a plain JS brute-force vector scan.
import MiniSearch from 'minisearch';
import { fieldText } from '../../src/core/retrieval/ranking.ts';

/** Plain MiniSearch over the same fields, analyzer (tokenize/processTerm) and BM25 parameters as Ranklab. */
export function buildPlainMiniSearch(docs, fields, analyzer) {
  const ms = new MiniSearch({
    fields,
    extractField: (d, f) => (f === 'id' ? d.id : fieldText(d, f)),
    tokenize: analyzer.tokenize,
    processTerm: (t) => analyzer.processTerm(t),
  });
  ms.addAll(docs);
  return ms;
}

/** MiniSearch `search` with default options except the boosts and BM25 parameters; top `depth` kept. */
export function plainSearch(ms, query, boosts, bm25, depth) {
  return ms.search(query, { boost: boosts, bm25: { k: bm25.k1, b: bm25.b, d: bm25.d } }).slice(0, depth);
}

/** Vectors normalised into one Float32Array (cosine = dot product). */
export function buildBruteForce(vectors, dim) {
  const m = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    let s = 0;
    for (let j = 0; j < dim; j++) s += v[j] * v[j];
    const k = s > 0 ? 1 / Math.sqrt(s) : 0;
    for (let j = 0; j < dim; j++) m[i * dim + j] = v[j] * k;
  });
  return { m, n: vectors.length, dim };
}

/** Dot product with every row, then the top k rows (a sorted insertion buffer: k is small). Returns row indexes. */
export function bruteForceSearch({ m, n, dim }, query, k) {
  const q = new Float32Array(dim);
  let s = 0;
  for (let j = 0; j < dim; j++) s += query[j] * query[j];
  const inv = s > 0 ? 1 / Math.sqrt(s) : 0;
  for (let j = 0; j < dim; j++) q[j] = query[j] * inv;
  const topS = new Float64Array(k).fill(-Infinity);
  const topI = new Int32Array(k).fill(-1);
  for (let r = 0; r < n; r++) {
    let d = 0;
    const off = r * dim;
    for (let j = 0; j < dim; j++) d += m[off + j] * q[j];
    if (d <= topS[k - 1]) continue;
    let i = k - 1;
    while (i > 0 && topS[i - 1] < d) {
      topS[i] = topS[i - 1];
      topI[i] = topI[i - 1];
      i--;
    }
    topS[i] = d;
    topI[i] = r;
  }
  return topI;
}
