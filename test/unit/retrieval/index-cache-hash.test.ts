// The lexical index cache is checked against the sha256 stored beside it as it is streamed in: altered postings
// (or a cache from before hashes) are rebuilt, never searched. Synthetic documents, made by the test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
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
const docs = Array.from({ length: 30 }, (_, i) =>
  makeDocument({
    id: `d${i}`,
    title: `${words[i % 10]} ${words[(i * 3) % 10]}`,
    body: words.filter((_, k) => (i + k) % 3 === 0).join(' '),
    fields: {},
    meta: {},
    source: { path: `d${i}.md` },
  }),
);
const corpus = fingerprint(docs.map((d) => d.hash).sort());
const start = (dir: string) => buildOrLoadLexical(docs, corpus, fields, analyzer, dir);
const files = (dir: string, suffix: string) =>
  readdirSync(join(dir, 'lexical'))
    .filter((f) => f.endsWith(suffix) && !f.endsWith(`.meta${suffix}`) && !f.endsWith(`.timing${suffix}`))
    .map((f) => join(dir, 'lexical', f));

test('a cache whose postings were altered is not loaded: rebuilt, with a note, and the rebuilt index is the true one', async () => {
  const dir = tempDir();
  const built = await start(dir);
  assert.equal(built.source, 'built');
  assert.equal((await start(dir)).source, 'cache', 'untouched: loaded');
  const [data] = files(dir, '.json');
  const written = readFileSync(data, 'utf8');
  const lines = written.split('\n');
  // JSON Lines: header, tables, then one line per term. Every frequency of the first term doubled: still a
  // valid MiniSearch index, with other scores.
  const [term, byField] = JSON.parse(lines[2]) as [string, Record<string, Record<string, number>>];
  for (const postings of Object.values(byField)) for (const d of Object.keys(postings)) postings[d] *= 2;
  lines[2] = JSON.stringify([term, byField]);
  writeFileSync(data, lines.join('\n'));
  const again = await start(dir);
  assert.equal(again.source, 'built');
  assert.ok(
    again.notes.some((n) => /lexical: index cache not reused: its content hash does not match.*rebuilt/.test(n)),
    again.notes.join('\n'),
  );
  assert.equal(JSON.stringify(again.index.miniSearch), JSON.stringify(built.index.miniSearch));
  assert.equal(readFileSync(data, 'utf8'), written, 'rewritten as it was');
  assert.equal((await start(dir)).source, 'cache', 'the rewritten cache loads again');
});

test('an edit that breaks a line of the cache (so the load fails before the hash is compared) is still told as a hash mismatch', async () => {
  const dir = tempDir();
  await start(dir);
  const [data] = files(dir, '.json');
  const lines = readFileSync(data, 'utf8').split('\n');
  for (const at of [1, 3]) {
    const edited = [...lines];
    edited[at] = edited[at].slice(0, -5); // the tables line, then a term line, cut
    writeFileSync(data, edited.join('\n'));
    const again = await start(dir);
    assert.equal(again.source, 'built', `line ${at + 1}`);
    assert.ok(
      again.notes.some((n) => /lexical: index cache not reused: its content hash does not match.*rebuilt/.test(n)),
      again.notes.join('\n'),
    );
  }
});

test('a cache in the one-JSON format of before (its hash matching) is an older format: rebuilt with a note, rewritten as JSON Lines', async () => {
  const dir = tempDir();
  const built = await start(dir);
  const [data] = files(dir, '.json');
  const [meta] = readdirSync(join(dir, 'lexical'))
    .filter((f) => f.endsWith('.meta.json'))
    .map((f) => join(dir, 'lexical', f));
  const old = JSON.stringify(built.index.miniSearch);
  writeFileSync(data, old);
  writeFileSync(
    meta,
    JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), dataSha256: createHash('sha256').update(old).digest('hex') }),
  );
  const again = await start(dir);
  assert.equal(again.source, 'built');
  assert.ok(
    again.notes.some((n) => /lexical: index cache not reused: it is in an older format; rebuilt/.test(n)),
    again.notes.join('\n'),
  );
  assert.ok(readFileSync(data, 'utf8').startsWith('{"format":"ranklab-lexical-lines@1"}\n'));
});

test('a cache without a content hash (an older Ranklab) is treated as stale and rebuilt', async () => {
  const dir = tempDir();
  await start(dir);
  const [meta] = readdirSync(join(dir, 'lexical'))
    .filter((f) => f.endsWith('.meta.json'))
    .map((f) => join(dir, 'lexical', f));
  const m = JSON.parse(readFileSync(meta, 'utf8'));
  delete m.dataSha256;
  writeFileSync(meta, JSON.stringify(m));
  const again = await start(dir);
  assert.equal(again.source, 'built');
  assert.ok(
    again.notes.some((n) => /no content hash/.test(n)),
    again.notes.join('\n'),
  );
});
