// The example's own small corpus reader for its tools (check-story, pool): deliberately independent of
// Ranklab's loaders, so that the story is checked by a second implementation.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname, resolve, extname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

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
export function loadCorpus() {
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
