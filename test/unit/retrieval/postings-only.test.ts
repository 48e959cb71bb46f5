// A postings-only lexical index (LexicalIndex.buildPostingsOnly: no MiniSearch, for large corpora) against the full
// one on a generated collection: the same search answers (ids, order, bit-equal scores, totals) whichever pass,
// boost vector, AND/OR, prefix or fuzzy; what needs MiniSearch refuses with a message naming itself; and
// buildOrLoadLexical chooses it from its threshold, says so, and caches it (postings-cache.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_ANALYZER, DEFAULT_BM25 } from '../../../src/core/config/defaults';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { buildOrLoadLexical } from '../../../src/core/retrieval/index-cache';
import { LexicalIndex, type LexicalQueryOptions, NeedsMiniSearch } from '../../../src/core/retrieval/lexical';
import { explainLexical } from '../../../src/core/retrieval/lexical-explain';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { tempDir } from '../../helpers/workspace';
import { corpusFingerprint, loadDocs, loadQueries } from './collections';

const dir = syntheticCollection({ docs: 1200, queries: 30 });
const docs = loadDocs(dir);
const queries = loadQueries(dir).map((q) => q.text);
const analyzer = createAnalyzer({ ...DEFAULT_ANALYZER, stemmer: 'english' });
const FIELDS = ['title', 'body'];

const settings: LexicalQueryOptions[] = [
  { bm25: DEFAULT_BM25, prefix: false, fuzzy: 0, boosts: { title: 3, body: 1 }, combineWith: 'OR', depth: 100 },
  {
    bm25: { k1: 1.2, b: 0.7, d: 0.5 },
    prefix: true,
    fuzzy: 0.2,
    boosts: { title: 1, body: 1 },
    combineWith: 'OR',
    coordination: true,
    depth: 10,
  },
  { bm25: DEFAULT_BM25, prefix: false, fuzzy: 0, boosts: { title: 0, body: 1 }, combineWith: 'AND', depth: 1000 },
];

test('postings-only index answers every search as the full index does (first passes and cached recombinations alike)', () => {
  const full = LexicalIndex.build(docs, FIELDS, analyzer);
  const only = LexicalIndex.buildPostingsOnly(docs, FIELDS, analyzer);
  assert.equal(only.postingsOnly, true);
  assert.equal(full.postingsOnly, false);
  assert.equal(only.documentCount, full.documentCount);
  assert.equal(only.has(docs[7].id), true);
  assert.equal(only.has('no such id'), false);
  // Three passes: the full index answers the third from cached field scores (recombine), the other by pruned top-k.
  for (let pass = 0; pass < 3; pass++) {
    for (const opts of settings) {
      for (const q of queries) {
        const a = only.search(q, opts);
        const b = full.search(q, opts);
        assert.equal(a.total, b.total, `"${q}" pass ${pass}: total`);
        assert.deepEqual(
          a.hits.map((h) => h.id),
          b.hits.map((h) => h.id),
          `"${q}" pass ${pass}: ids`,
        );
        a.hits.forEach((h, i) => assert.ok(Object.is(h.score, b.hits[i].score), `"${q}" pass ${pass}: score of ${h.id}`));
      }
    }
  }
  assert.equal(full.hasFieldScores(queries[0], settings[0]), true, 'the full index did cache field scores');
});

test('postings-only index: what needs MiniSearch refuses, naming what asked', async () => {
  const only = LexicalIndex.buildPostingsOnly(docs, FIELDS, analyzer);
  const refused = (what: RegExp) => (e: unknown) =>
    e instanceof NeedsMiniSearch && what.test(e.message) && /1,200 documents/.test(e.message);
  assert.throws(() => only.suggest('top'), refused(/^Suggestions needs the full MiniSearch index/));
  assert.throws(() => only.fieldScores(queries[0], settings[0]), refused(/^Per-field scores/));
  assert.throws(() => explainLexical(only, queries[0], docs[0].id, settings[0]), refused(/^Explaining a lexical score/));
  await assert.rejects(only.update([], [docs[0].id]), refused(/^An incremental update/));
  assert.equal(only.search(queries[0], settings[0]).hits.length > 0, true, 'still searchable after the refusals');
});

test('buildOrLoadLexical: postings only from the threshold on, told, and cached in its own binary file', async () => {
  const cacheDir = tempDir();
  const fp = corpusFingerprint(docs);
  const small = await buildOrLoadLexical(docs, fp, FIELDS, analyzer, cacheDir, { postingsOnlyFrom: docs.length + 1 });
  assert.equal(small.index.postingsOnly, false);
  assert.equal(small.warnings.length, 0);
  const large = await buildOrLoadLexical(docs, fp, FIELDS, analyzer, join(cacheDir, 'other'), { postingsOnlyFrom: docs.length });
  assert.equal(large.index.postingsOnly, true);
  assert.equal(large.source, 'built');
  assert.match(large.warnings.join('\n'), /1,200 documents \(1,200 or more\): the index holds the postings only/);
  assert.deepEqual(
    readdirSync(join(cacheDir, 'other', 'lexical')).filter((f) => f.endsWith('.postings.bin')).length,
    1,
    'the postings-only cache written',
  );
  assert.ok(readdirSync(join(cacheDir, 'lexical')).length > 0, 'the full index was cached');
});
