#!/usr/bin/env node
// Judging helper (pooling): for every golden query, list the documents that BM25 with title boost 1
// or 3 puts in its top 10 but that have no judgment yet, so an annotator can grade them.
// Usage (from the repo root): node examples/food-search/tools/pool.mjs [qid ...]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, resolve, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const MiniSearch = require('minisearch');
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// ------------------------------------------------------------ corpus (a deliberately small reader)
function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
function parseFrontMatter(src) {
  const m = /^---\n([\s\S]*?)\n---\n?/.exec(src);
  const meta = {};
  if (!m) return { meta, body: src };
  for (const line of m[1].split('\n')) {
    const kv = /^(\w+):\s*(.*)$/.exec(line);
    if (!kv) continue;
    let v = kv[2].trim();
    if (v.startsWith('[')) v = v.slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean);
    else if (v === 'true' || v === 'false') v = v === 'true';
    else if (v.startsWith('"')) v = JSON.parse(v);
    meta[kv[1]] = v;
  }
  return { meta, body: src.slice(m[0].length) };
}
function loadCorpus() {
  const docs = [];
  for (const file of walk(join(ROOT, 'corpus'))) {
    const src = readFileSync(file, 'utf8');
    if (extname(file) === '.md') {
      const { meta, body } = parseFrontMatter(src);
      docs.push({ id: meta.id, title: meta.title, body, tenant: meta.tenant, groups: meta.groups ?? [], public: meta.public === true });
    } else if (extname(file) === '.html') {
      const meta = Object.fromEntries([...src.matchAll(/<meta name="(\w+)" content="([^"]*)">/g)].map((m) => [m[1], m[2]]));
      const title = /<title>([^<]*)<\/title>/.exec(src)[1];
      const body = src.replace(/<head>[\s\S]*<\/head>/, '').replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ')
        .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
      docs.push({ id: meta.id, title, body, tenant: meta.tenant, groups: [], public: meta.public === 'true' });
    }
  }
  for (const line of readFileSync(join(ROOT, 'data/products.jsonl'), 'utf8').split('\n').filter(Boolean)) {
    const r = JSON.parse(line);
    docs.push({ id: r.id, title: r.title, body: r.text, tenant: r.tenant, groups: r.groups ?? [], public: r.public === true });
  }
  return docs;
}

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
