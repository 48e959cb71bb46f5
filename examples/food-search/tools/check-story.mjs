#!/usr/bin/env node
// Independent check of the story the example workspace tells, using MiniSearch directly (not Ranklab):
// BM25 over title + body with boosts 1/1 ("baseline") vs 3/1 ("title-boost-3"), nDCG@10 with gain
// 2^rel - 1 and the ideal ranking over all judged documents, per query, overall and per tag.
// Also prints each principal's visible share of the corpus and baseline nDCG@10 evaluated "as" them.
// Usage (from the repo root, which provides minisearch): node examples/food-search/tools/check-story.mjs [--stem]
//   --json  print one JSON object (overall, per tag, per query, principals) instead of the tables
//   --stem  also lowercases + English stopwords + English stemmer (a second analyzer, to see the story is robust)
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, loadCorpus } from './corpus-reader.mjs';

const require = createRequire(import.meta.url);
const MiniSearch = require('minisearch');
const STEM = process.argv.includes('--stem');
const JSON_OUT = process.argv.includes('--json');

// ------------------------------------------------------------ analyzer
const STOP = new Set('a an and are as at be but by for from has have how i if in into is it its my of on or so such that the their then there these they this to was what when where which will with without do does can you your'.split(' '));
let processTerm;
if (STEM) {
  const { stemmer } = require('@orama/stemmers/english');
  processTerm = (t) => { const w = t.toLowerCase(); return STOP.has(w) ? null : stemmer(w); };
}

// ------------------------------------------------------------ metric
function ndcgAt(k, ranked, judged) {
  const gain = (rel) => 2 ** rel - 1;
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => { dcg += gain(judged[id] ?? 0) / Math.log2(i + 2); });
  const ideal = Object.values(judged).sort((a, b) => b - a).slice(0, k);
  const idcg = ideal.reduce((s, rel, i) => s + gain(rel) / Math.log2(i + 2), 0);
  return idcg === 0 ? 0 : dcg / idcg;
}

const hitAt = (k, ranked, judged) => (ranked.slice(0, k).some((id) => (judged[id] ?? 0) >= 1) ? 1 : 0);

// ------------------------------------------------------------ run
const docs = loadCorpus();
const queries = JSON.parse(readFileSync(join(ROOT, 'judgments/golden.json'), 'utf8'));
const principals = JSON.parse(readFileSync(join(ROOT, 'principals.json'), 'utf8'));
const byId = new Map(docs.map((d) => [d.id, d]));

const index = new MiniSearch({ fields: ['title', 'body'], storeFields: [], ...(processTerm ? { processTerm } : {}) });
index.addAll(docs);
const search = (q, titleBoost, bodyBoost = 1, combineWith = 'OR') => index.search(q, { boost: { title: titleBoost, body: bodyBoost }, combineWith }).map((r) => r.id);

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const f = (x) => x.toFixed(4);

const rows = queries.map((q) => {
  const base = ndcgAt(10, search(q.query, 1), q.judgments);
  const boosted = ndcgAt(10, search(q.query, 3), q.judgments);
  const badRun = search(q.query, 1, 0.1, 'AND'); // configs/regressing.rank.json
  const bad = ndcgAt(10, badRun, q.judgments);
  const hits = { baseline: hitAt(5, search(q.query, 1), q.judgments), 'title-boost-3': hitAt(5, search(q.query, 3), q.judgments), regressing: hitAt(5, badRun, q.judgments) };
  return { q, base, boosted, bad, hits, delta: boosted - base };
});

const tagsAll = [...new Set(queries.flatMap((q) => q.tags))].sort();
const summarize = (rs) => ({ n: rs.length, baseline: mean(rs.map((r) => r.base)), titleBoost3: mean(rs.map((r) => r.boosted)), delta: mean(rs.map((r) => r.delta)), regressing: mean(rs.map((r) => r.bad)) });
const visible = (d, p) => d.public === true || (d.tenant === p.tenant && (d.groups.length === 0 || d.groups.some((g) => p.groups.includes(g))));
const principalRows = principals.map((p) => {
  const n = docs.filter((d) => visible(d, p)).length;
  const asP = queries.map((q) => search(q.query, 1).filter((id) => visible(byId.get(id), p)));
  const postFilter = queries.map((q) => search(q.query, 1).slice(0, 50).filter((id) => visible(byId.get(id), p)).slice(0, 10));
  return { name: p.name, visible: n, share: n / docs.length, ndcg10: mean(asP.map((run, i) => ndcgAt(10, run, queries[i].judgments))),
    postFilterEmptyPages: postFilter.filter((run) => run.length === 0).length, postFilterMeanPage: mean(postFilter.map((run) => run.length)) };
});
if (JSON_OUT) {
  console.log(JSON.stringify({
    documents: docs.length, queries: queries.length, analyzer: STEM ? 'stem' : 'default',
    overall: summarize(rows), bySplit: { tune: summarize(rows.filter((r) => r.q.split !== 'holdout')), holdout: summarize(rows.filter((r) => r.q.split === 'holdout')) },
    byTag: Object.fromEntries(tagsAll.map((t) => [t, summarize(rows.filter((r) => r.q.tags.includes(t)))])),
    hit5: Object.fromEntries(['baseline', 'title-boost-3', 'regressing'].map((c) => [c, mean(rows.map((r) => r.hits[c]))])),
    perQuery: rows.map((r) => ({ id: r.q.id, baseline: r.base, titleBoost3: r.boosted, regressing: r.bad })),
    principals: principalRows
  }, null, 2));
  process.exit(0);
}
console.log(`corpus: ${docs.length} documents, ${queries.length} queries (${queries.filter((q) => q.split === 'holdout').length} holdout); analyzer: ${STEM ? 'lowercase + stopwords + english stemmer' : 'MiniSearch default (lowercase)'}`);
console.log(`\nnDCG@10           baseline  title-boost-3  delta     regressing`);
const line = (label, rs) => console.log(`${label.padEnd(18)}${f(mean(rs.map((r) => r.base))).padStart(8)}  ${f(mean(rs.map((r) => r.boosted))).padStart(13)}  ${(mean(rs.map((r) => r.delta)) >= 0 ? '+' : '') + f(mean(rs.map((r) => r.delta)))}  ${f(mean(rs.map((r) => r.bad))).padStart(9)}  (n=${rs.length})`);
line('all', rows);
line('split:tune', rows.filter((r) => r.q.split !== 'holdout'));
line('split:holdout', rows.filter((r) => r.q.split === 'holdout'));
const tags = [...new Set(queries.flatMap((q) => q.tags))].sort();
for (const t of tags) line(t, rows.filter((r) => r.q.tags.includes(t)));

console.log(`hit@5             ${f(mean(rows.map((r) => r.hits.baseline))).padStart(8)}  ${f(mean(rows.map((r) => r.hits['title-boost-3']))).padStart(13)}           ${f(mean(rows.map((r) => r.hits.regressing))).padStart(9)}`);
const eps = 1e-9;
console.log(`\nper query: ${rows.filter((r) => r.delta > eps).length} win, ${rows.filter((r) => r.delta < -eps).length} lose, ${rows.filter((r) => Math.abs(r.delta) <= eps).length} tie`);
for (const r of [...rows].sort((a, b) => a.delta - b.delta).filter((r) => Math.abs(r.delta) > eps)) {
  console.log(`  ${r.q.id} ${(r.delta >= 0 ? '+' : '') + f(r.delta)}  ${f(r.base)} -> ${f(r.boosted)}  ${r.q.query}  [${r.q.tags.join(', ')}]`);
}

// ------------------------------------------------------------ access control
// Rule assumed here: public documents are visible to everyone; otherwise the tenant must match and,
// when the document lists groups, the principal must share at least one of them.
console.log(`\nprincipal          sees          baseline nDCG@10 as principal   post-filter (top 50): empty pages, mean page size`);
for (const p of principalRows) {
  console.log(`${p.name.padEnd(18)} ${String(p.visible).padStart(3)} (${(100 * p.share).toFixed(1).padStart(4)}%)   ${f(p.ndcg10).padStart(8)}                        ${String(p.postFilterEmptyPages).padStart(3)}, ${p.postFilterMeanPage.toFixed(1)}`);
}
const restricted = new Set(queries.flatMap((q) => Object.entries(q.judgments).filter(([, g]) => g > 0).map(([id]) => id)).values());
console.log(`judged-relevant documents: ${restricted.size}, of which not public: ${[...restricted].filter((id) => !byId.get(id).public).length}`);
