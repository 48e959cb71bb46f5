#!/usr/bin/env node
// Judging helper (pooling): for every golden query, list the documents that BM25 with title boost 1
// or 3 puts in its top 10 but that have no judgment yet, so an annotator can grade them.
// Usage (from the repo root): node examples/food-search/tools/pool.mjs [qid ...]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, loadCorpus } from './corpus-reader.mjs';

const require = createRequire(import.meta.url);
const MiniSearch = require('minisearch');

// ------------------------------------------------------------ pool
const docs = loadCorpus();
const only = new Set(process.argv.slice(2));
const queries = JSON.parse(readFileSync(join(ROOT, 'judgments/golden.json'), 'utf8')).filter((q) => only.size === 0 || only.has(q.id));
const index = new MiniSearch({ fields: ['title', 'body'], storeFields: ['title'] });
index.addAll(docs);
for (const q of queries) {
  const unjudged = new Map();
  for (const boost of [1, 3]) {
    for (const r of index.search(q.query, { boost: { title: boost, body: 1 } }).slice(0, 10)) if (!(r.id in q.judgments)) unjudged.set(r.id, r.title);
  }
  console.log(`${q.id} ${q.query}`);
  for (const [id, title] of unjudged) console.log(`    ${id}  "${title}"`);
}
