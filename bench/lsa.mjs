// LSA training cost and (for a figure only) LSA-only retrieval quality on the shared collections.
// Run: cd /work/main && node --import tsx bench/lsa.mjs [--dims 256] [--no-ndcg]
// Reads ../shared/collections (or RANKLAB_SHARED); never needed by product code.
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trainLsa } from '../src/core/retrieval/providers/lsa.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const shared = process.env.RANKLAB_SHARED ?? path.resolve(here, '../..', 'shared');
const args = process.argv.slice(2);
const dims = Number(args[args.indexOf('--dims') + 1] || 256) || 256;
const withNdcg = !args.includes('--no-ndcg');

const tokenize = (text) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t !== '');

function readJsonl(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}
function loadCollection(name) {
  const dir = path.join(shared, 'collections', name);
  const docs = readJsonl(path.join(dir, 'corpus.jsonl'));
  return { name, dir, ids: docs.map((d) => String(d.id)), texts: docs.map((d) => `${d.title ?? ''} ${d.text ?? ''}`) };
}

function measure(label, texts) {
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const model = trainLsa(texts, { dimensions: dims, tokenize });
  const ms = performance.now() - t0;
  clearInterval(timer);
  const after = process.memoryUsage();
  peakRss = Math.max(peakRss, after.rss);
  const json = JSON.stringify(model.toJSON());
  console.log(
    `${label.padEnd(28)} docs=${String(texts.length).padStart(6)} vocab=${String(model.vocabulary.length).padStart(6)} ` +
      `k=${model.dimension} train=${(ms / 1000).toFixed(2)}s rssΔ=${((after.rss - before.rss) / 2 ** 20).toFixed(0)}MB ` +
      `peakRss=${(peakRss / 2 ** 20).toFixed(0)}MB heapUsed=${(after.heapUsed / 2 ** 20).toFixed(0)}MB ` +
      `json=${(json.length / 2 ** 20).toFixed(1)}MB σ1=${model.singularValues[0].toFixed(3)} σk=${model.singularValues[model.dimension - 1].toFixed(3)}`,
  );
  for (const note of model.notes) console.log(`    note: ${note}`);
  return model;
}

/** nDCG@10, linear gain (rel / log2(rank + 1)), ideal from all judged rel > 0 — trec_eval's ndcg_cut.10. */
function ndcgAt10(ranked, judged) {
  let dcg = 0;
  ranked.slice(0, 10).forEach((id, i) => {
    const rel = judged.get(id) ?? 0;
    if (rel > 0) dcg += rel / Math.log2(i + 2);
  });
  const ideal = [...judged.values()]
    .filter((r) => r > 0)
    .sort((a, b) => b - a)
    .slice(0, 10);
  const idcg = ideal.reduce((s, r, i) => s + r / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

function evaluate(collection, model) {
  const qrels = new Map();
  for (const line of readFileSync(path.join(collection.dir, 'qrels.tsv'), 'utf8').split('\n')) {
    const [qid, , docid, rel] = line.trim().split(/\s+/);
    if (!docid) continue;
    if (!qrels.has(qid)) qrels.set(qid, new Map());
    qrels.get(qid).set(docid, Number(rel));
  }
  const queries = readJsonl(path.join(collection.dir, 'queries.jsonl'));
  // Self-check of ndcgAt10: score the reference BM25 run with it (README gives trec_eval's value).
  const bm25 = new Map();
  for (const line of readFileSync(path.join(collection.dir, 'run.bm25.txt'), 'utf8').split('\n')) {
    const [qid, , docid, , score] = line.trim().split(/\s+/);
    if (!docid) continue;
    if (!bm25.has(qid)) bm25.set(qid, []);
    bm25.get(qid).push({ id: docid, s: Number(score) });
  }
  let bm25Sum = 0;
  for (const q of queries) {
    const list = (bm25.get(String(q.id)) ?? []).sort((a, b) => b.s - a.s || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    bm25Sum += ndcgAt10(
      list.map((x) => x.id),
      qrels.get(String(q.id)) ?? new Map(),
    );
  }
  console.log(
    `    nDCG@10 of run.bm25.txt by this script = ${(bm25Sum / queries.length).toFixed(4)} (README/trec_eval value for comparison)`,
  );
  const docVectors = model.docVectors();
  const t0 = performance.now();
  let sum = 0;
  for (const q of queries) {
    const qv = model.embedText(q.text);
    const scored = docVectors.map((dv, i) => {
      let s = 0;
      for (let c = 0; c < qv.length; c++) s += qv[c] * dv[c];
      return { id: collection.ids[i], s };
    });
    // Same tie order as trec_eval: score desc, then docid desc as a string.
    scored.sort((a, b) => b.s - a.s || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    sum += ndcgAt10(
      scored.map((x) => x.id),
      qrels.get(String(q.id)) ?? new Map(),
    );
  }
  const value = sum / queries.length;
  console.log(
    `    nDCG@10 (LSA-only, exact cosine, ${queries.length} queries) = ${value.toFixed(4)}   [${((performance.now() - t0) / queries.length).toFixed(2)} ms/query]`,
  );
  return value;
}

if (!existsSync(path.join(shared, 'collections'))) {
  console.error(`no collections at ${shared}/collections (set RANKLAB_SHARED)`);
  process.exit(2);
}
console.log(`node ${process.version}, dims=${dims}, defaults: minDf=2 maxDfRatio=0.5 powerIterations=2 oversample=10`);
const names = ['cranfield', 'med', 'cisi', 'cacm', 'lisa'];
const collections = names.map(loadCollection);
for (const c of collections) {
  const model = measure(c.name, c.texts);
  if (withNdcg) evaluate(c, model);
}
const concat = collections.flatMap((c) => c.texts);
measure(`all five concatenated`, concat);
const tenK = collections.filter((c) => c.name !== 'lisa').flatMap((c) => c.texts);
const lisa = collections.find((c) => c.name === 'lisa').texts;
measure('10k (4 colls + lisa head)', tenK.concat(lisa.slice(0, 10000 - tenK.length)));
