import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Document } from '../../../src/core/corpus/document';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { LexicalIndex } from '../../../src/core/retrieval/lexical';
import {
  BASE_BYTES,
  BYTES_PER_CHAR,
  BYTES_PER_POSTING,
  HEADROOM,
  HEAP_BYTES_PER_DOC,
  HEAP_BYTES_PER_TERM,
  checkLexicalFits,
  cachedPostingsMemory,
  checkPostingsFit,
  estimateLexicalMemory,
  estimatePostingsMemory,
} from '../../../src/core/retrieval/memory-estimate';
import { InputError } from '../../../src/core/util/diagnostics';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { loadDocs } from './collections';

const doc = (id: string, title: string, body: string, fields: Record<string, string> = {}): Document => ({
  id,
  title,
  body,
  fields,
  meta: {},
  source: { path: 'c.jsonl' },
  hash: '',
});
const docs = [doc('a', 'abc', 'defgh', { tags: 'xy' }), doc('b', '', '0123456789')];

test('the estimate counts the characters of the fields the index holds, nothing else', () => {
  assert.equal(estimateLexicalMemory(docs, ['title']).chars, 3);
  assert.equal(estimateLexicalMemory(docs, ['title', 'body']).chars, 3 + 5 + 10);
  assert.equal(estimateLexicalMemory(docs, ['tags']).chars, 2);
  assert.equal(estimateLexicalMemory(docs, ['all']).chars, 3 + 5 + 2 + 10);
  const e = estimateLexicalMemory(docs, ['body']);
  assert.equal(e.docs, 2);
  assert.equal(e.bytes, Math.round(BASE_BYTES + BYTES_PER_CHAR * 15));
});

test('refused when the heap in use plus the estimate passes the usable share of the limit, with the figures in the message', () => {
  const estimate = { docs: 1_000_000, chars: 4e9, bytes: 18 * 1024 ** 3 };
  const limit = 4 * 1024 ** 3;
  assert.throws(
    () => checkLexicalFits(estimate, 'the corpus of /data/big', { used: 1024 ** 3, limit }),
    (e: unknown) => {
      assert.ok(e instanceof InputError);
      assert.match(e.message, /the corpus of \/data\/big \(1,000,000 documents, 4000\.0 million characters/);
      assert.match(e.message, /needs about 18\.0 GiB of heap; 1\.0 GiB is in use and the heap limit is 4\.0 GiB/);
      // (1 GiB + 18 GiB) / 0.8 = 23.75 GiB = 24320 MiB, a multiple of 256
      assert.match(e.message, /NODE_OPTIONS=--max-old-space-size=24320\b/);
      return true;
    },
  );
  const fits = { docs: 10, chars: 100, bytes: limit * HEADROOM - 1024 };
  assert.doesNotThrow(() => checkLexicalFits(fits, 'c', { used: 1024, limit }));
  assert.throws(() => checkLexicalFits(fits, 'c', { used: 2048, limit }), InputError);
});

// ---- the postings-only index (postings/build.ts) -------------------------------------------------------------

test('postings estimate: extrapolated from a sample, within 15% of the postings a real build lays out', () => {
  const dir = syntheticCollection({ docs: 6000, queries: 1 });
  const corpus = loadDocs(dir);
  const analyzer = createAnalyzer({ ...DEFAULT_ANALYZER, stemmer: 'english' });
  const fields = ['title', 'body'];
  const e = estimatePostingsMemory(corpus, fields, analyzer);
  const built = LexicalIndex.buildPostingsOnly(corpus, fields, analyzer).postings();
  const ratio = e.postings / built.postingCount;
  assert.ok(ratio > 0.85 && ratio < 1.15, `estimated ${e.postings} postings, built ${built.postingCount}`);
  let terms = 0;
  for (const _ of built.termNumbers) terms++;
  assert.ok(e.terms >= terms * 0.85, `estimated ${e.terms} terms, built ${terms}: a vocabulary must not be underestimated`);
  assert.ok(e.terms <= terms * 4, `estimated ${e.terms} terms, built ${terms}`);
  assert.equal(e.offHeapBytes >= BYTES_PER_POSTING * e.postings, true);
  assert.equal(e.bytes, HEAP_BYTES_PER_TERM * e.terms + HEAP_BYTES_PER_DOC * corpus.length);
});

test('postings check: refused when the typed arrays exceed the available memory, or the heap part the heap', () => {
  const e = { docs: 1_000_000, chars: 9e8, bytes: 300 * 1024 ** 2, postings: 1e8, terms: 1e6, offHeapBytes: 1.2e9 };
  const heap = { used: 1024 ** 3, limit: 4 * 1024 ** 3 };
  assert.doesNotThrow(() => checkPostingsFit(e, 'c', heap, 2e9));
  assert.throws(
    () => checkPostingsFit(e, 'the corpus of /data/big', heap, 1e9),
    (x: unknown) => {
      assert.ok(x instanceof InputError);
      assert.match(x.message, /the corpus of \/data\/big \(1,000,000 documents, about 100\.0 million postings estimated\)/);
      assert.match(x.message, /needs about 1\.1 GiB of memory outside the heap.*954 MiB is available/);
      assert.match(x.message, /engine adapter/);
      return true;
    },
  );
  // the heap part goes through checkLexicalFits: its message, with the heap advice
  assert.throws(() => checkPostingsFit({ ...e, bytes: 3 * 1024 ** 3 }, 'c', heap, 1e12), /NODE_OPTIONS=--max-old-space-size=/);
});

test('a cached postings-only index: on the heap only its ids (64 bytes a document), its vocabulary among the typed arrays', () => {
  const e = cachedPostingsMemory({ documentCount: 1_000_000, terms: 2_000_000, postings: 1e8, arrayBytes: 1.3e9 });
  assert.equal(e.bytes, 64_000_000); // 1,000,000 × 64: no term on the heap
  assert.equal(e.offHeapBytes, 1.3e9);
  // 64 MB (61.0 MiB) of ids beside 45 MiB in use: 106.0 MiB, over 0.8 × a 128 MiB limit (102.4), refused; fits under 256
  assert.throws(() => checkPostingsFit(e, 'c', { used: 45 * 1024 ** 2, limit: 128 * 1024 ** 2 }, 1e12), /needs about 61 MiB of heap/);
  assert.doesNotThrow(() => checkPostingsFit(e, 'c', { used: 45 * 1024 ** 2, limit: 256 * 1024 ** 2 }, 1e12));
});
