// The lexical index cache is checked against the sha256 stored beside it before it is loaded: altered postings
// (or a cache from before hashes) are rebuilt, never searched. Synthetic documents: no ../shared needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';
import { makeDocument } from '../../../src/core/corpus/make-document';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { buildOrLoadLexical } from '../../../src/core/retrieval/index-cache';
import { fingerprint } from '../../../src/core/util/fingerprint';
import { tempDir } from '../../helpers/workspace';

const analyzer = createAnalyzer(DEFAULT_ANALYZER);
const fields = ['title', 'body'];
const words = ['coffee', 'rice', 'chili', 'coconut', 'lime', 'garlic', 'palm', 'sugar', 'ginger', 'soy'];
const docs = Array.from({ length: 30 }, (_, i) => makeDocument({
  id: `d${i}`, title: `${words[i % 10]} ${words[(i * 3) % 10]}`, body: words.filter((_, k) => (i + k) % 3 === 0).join(' '), fields: {}, meta: {}, source: { path: `d${i}.md` },
}));
const corpus = fingerprint(docs.map((d) => d.hash).sort());
const start = (dir: string) => buildOrLoadLexical(docs, corpus, fields, analyzer, dir);
const files = (dir: string, suffix: string) => readdirSync(join(dir, 'lexical')).filter((f) => f.endsWith(suffix) && !f.endsWith(`.meta${suffix}`) && !f.endsWith(`.timing${suffix}`)).map((f) => join(dir, 'lexical', f));

test('a cache whose postings were altered is not loaded: rebuilt, with a note, and the rebuilt index is the true one', async () => {
  const dir = tempDir();
  const built = await start(dir);
  assert.equal(built.source, 'built');
  assert.equal((await start(dir)).source, 'cache', 'untouched: loaded');
  const [data] = files(dir, '.json');
  const json = JSON.parse(readFileSync(data, 'utf8'));
  // Every term frequency of the first term doubled: still a valid MiniSearch index, with other scores.
  const [, byField] = json.index[0];
  for (const postings of Object.values(byField as Record<string, Record<string, number>>)) for (const d of Object.keys(postings)) postings[d] *= 2;
  writeFileSync(data, JSON.stringify(json));
  const again = await start(dir);
  assert.equal(again.source, 'built');
  assert.ok(again.notes.some((n) => /lexical: index cache not reused: its content hash does not match.*rebuilt/.test(n)), again.notes.join('\n'));
  assert.equal(JSON.stringify(again.index.miniSearch), JSON.stringify(built.index.miniSearch));
  assert.equal((await start(dir)).source, 'cache', 'the rewritten cache loads again');
});

test('a cache without a content hash (an older Ranklab) is treated as stale and rebuilt', async () => {
  const dir = tempDir();
  await start(dir);
  const [meta] = readdirSync(join(dir, 'lexical')).filter((f) => f.endsWith('.meta.json')).map((f) => join(dir, 'lexical', f));
  const m = JSON.parse(readFileSync(meta, 'utf8'));
  delete m.dataSha256;
  writeFileSync(meta, JSON.stringify(m));
  const again = await start(dir);
  assert.equal(again.source, 'built');
  assert.ok(again.notes.some((n) => /no content hash/.test(n)), again.notes.join('\n'));
});
