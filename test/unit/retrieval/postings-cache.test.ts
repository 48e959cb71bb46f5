// The postings-only index's binary cache (postings/postings-cache-file.ts), on real files: read back it is the same
// index (arrays, vocabulary tree, search answers); a truncated, tampered or other-corpus file is refused with a note
// and rebuilt; a cache folder that cannot be written is a warning. The threshold is lowered through its parameter.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ANALYZER, DEFAULT_BM25 } from '../../../src/core/config/defaults';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { buildOrLoadLexical } from '../../../src/core/retrieval/index-cache';
import { LexicalIndex, type LexicalQueryOptions } from '../../../src/core/retrieval/lexical';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { tempDir } from '../../helpers/workspace';
import { corpusFingerprint, loadDocs, loadQueries } from './collections';

const dir = syntheticCollection({ docs: 800, queries: 25 });
const docs = loadDocs(dir);
const queries = loadQueries(dir).map((q) => q.text);
const analyzer = createAnalyzer({ ...DEFAULT_ANALYZER, stemmer: 'english' });
const FIELDS = ['title', 'body'];
const fp = corpusFingerprint(docs);
const start = (cacheDir: string, corpus = fp) => buildOrLoadLexical(docs, corpus, FIELDS, analyzer, cacheDir, { postingsOnlyFrom: 1 });
const cacheFile = (cacheDir: string) => {
  const files = readdirSync(join(cacheDir, 'lexical')).filter((f) => f.endsWith('.postings.bin'));
  assert.equal(files.length, 1, files.join(', '));
  return join(cacheDir, 'lexical', files[0]);
};
const search: LexicalQueryOptions[] = [
  { bm25: DEFAULT_BM25, prefix: false, fuzzy: 0, boosts: { title: 3, body: 1 }, combineWith: 'OR', depth: 100 },
  { bm25: DEFAULT_BM25, prefix: true, fuzzy: 0.2, boosts: { title: 1, body: 1 }, combineWith: 'OR', depth: 10 },
];

function assertSameIndex(a: LexicalIndex, b: LexicalIndex): void {
  const pa = a.postings();
  const pb = b.postings();
  for (const k of ['start', 'end', 'maxTf', 'minLength', 'docs', 'tfs'] as const) assert.deepEqual(pa[k], pb[k], k);
  assert.deepEqual(pa.lengths, pb.lengths, 'lengths');
  assert.deepEqual(pa.avgLength, pb.avgLength, 'avgLength');
  assert.deepEqual(pa.ids, pb.ids, 'ids');
  assert.equal(pa.documentCount, pb.documentCount);
  assert.deepEqual([...pa.termNumbers], [...pb.termNumbers], 'terms and numbers in tree order');
  for (const opts of search) {
    for (const q of queries) {
      const x = a.search(q, opts);
      const y = b.search(q, opts);
      assert.deepEqual(
        x.hits.map((h) => [h.id, h.score]),
        y.hits.map((h) => [h.id, h.score]),
        q,
      );
      assert.equal(x.total, y.total);
    }
  }
}

test('postings cache round trip: the loaded index has identical arrays, vocabulary and top-k answers', async () => {
  const cacheDir = tempDir();
  const built = await start(cacheDir);
  assert.equal(built.source, 'built');
  assert.equal(built.warnings.length, 1, built.warnings.join('\n')); // the postings-only limits, no write failure
  const loaded = await start(cacheDir);
  assert.equal(loaded.source, 'cache');
  assert.equal(loaded.index.postingsOnly, true);
  assertSameIndex(loaded.index, built.index);
  assertSameIndex(loaded.index, LexicalIndex.buildPostingsOnly(docs, FIELDS, analyzer));
});

test('a truncated postings cache is refused with a note, rebuilt and rewritten', async () => {
  const cacheDir = tempDir();
  await start(cacheDir);
  const file = cacheFile(cacheDir);
  const written = readFileSync(file);
  truncateSync(file, written.length - 1000);
  const again = await start(cacheDir);
  assert.equal(again.source, 'built');
  assert.match(again.notes.join('\n'), /postings cache not reused: its size is \d+ bytes, \d+ expected.*rebuilt/);
  assert.deepEqual(readFileSync(file), written, 'rewritten whole');
  assert.equal((await start(cacheDir)).source, 'cache');
});

test('a postings cache with one flipped byte is refused by its checksum', async () => {
  const cacheDir = tempDir();
  const built = await start(cacheDir);
  const file = cacheFile(cacheDir);
  const bytes = readFileSync(file);
  bytes[Math.floor(bytes.length / 2)] ^= 0x01; // inside the postings (the header is at the start)
  writeFileSync(file, bytes);
  const again = await start(cacheDir);
  assert.equal(again.source, 'built');
  assert.match(again.notes.join('\n'), /postings cache not reused: its checksum does not match/);
  assertSameIndex(again.index, built.index);
});

test('a postings cache of another corpus version is not loaded', async () => {
  const cacheDir = tempDir();
  await start(cacheDir, 'sha256:other');
  const again = await start(cacheDir);
  assert.equal(again.source, 'built');
  assert.match(again.notes.join('\n'), /postings cache not reused: it holds another version of the corpus/);
});

test('a postings cache that cannot be written is a warning, and the index is still built', async () => {
  const cacheDir = tempDir();
  writeFileSync(join(cacheDir, 'lexical'), 'a file where the cache folder should be');
  const r = await start(cacheDir);
  assert.equal(r.source, 'built');
  assert.equal(r.index.documentCount, docs.length);
  assert.match(r.warnings.join('\n'), /lexical: index cache not written \(.*\); the next start builds the index again/);
});

test('a postings cache of the previous format (the radix tree stored node by node) is refused, rebuilt and rewritten', async () => {
  const cacheDir = tempDir();
  await start(cacheDir);
  const file = cacheFile(cacheDir);
  const bytes = readFileSync(file);
  const at = bytes.indexOf('"ranklab-postings@2"');
  assert.ok(at > 0, 'the header names its format');
  bytes.write('"ranklab-postings@1"', at, 'latin1');
  writeFileSync(file, bytes);
  const again = await start(cacheDir);
  assert.equal(again.source, 'built');
  assert.match(again.notes.join('\n'), /postings cache not reused: it is in another format \(ranklab-postings@1\)/);
  assert.equal((await start(cacheDir)).source, 'cache');
});
