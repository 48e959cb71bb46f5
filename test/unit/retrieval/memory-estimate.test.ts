import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Document } from '../../../src/core/corpus/document';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { LexicalIndex } from '../../../src/core/retrieval/lexical';
import {
  BYTES_PER_POSTING,
  HEADROOM,
  HEAP_BYTES_PER_DOC,
  HEAP_BYTES_PER_TERM,
  MINISEARCH_BYTES_PER_POSTING,
  MINISEARCH_BYTES_PER_TERM,
  cachedPostingsMemory,
  checkLexicalFits,
  checkPostingsFit,
  estimateLexicalMemory,
  estimatePostingsMemory,
  indexedChars,
  miniSearchVerdict,
  usableHeap,
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

test('the characters counted are those of the fields the index holds, nothing else', () => {
  assert.equal(indexedChars(docs, ['title']), 3);
  assert.equal(indexedChars(docs, ['title', 'body']), 3 + 5 + 10);
  assert.equal(indexedChars(docs, ['tags']), 2);
  assert.equal(indexedChars(docs, ['all']), 3 + 5 + 2 + 10);
});

const MiB = 1024 ** 2;
const shape = { docs: 1_000_000, chars: 4e9, postings: 2e8, terms: 1e6 };

test('refused when the heap in use plus the estimate passes the usable share of the old space, with the figures in the message', () => {
  const estimate = { ...shape, bytes: 18 * 1024 ** 3 };
  const limit = 4 * 1024 ** 3 + 48 * MiB; // the default: 4,096 MiB of old space and the young generation
  assert.throws(
    () => checkLexicalFits(estimate, 'the corpus of /data/big', { used: 1024 ** 3, limit }, {}),
    (e: unknown) => {
      assert.ok(e instanceof InputError);
      assert.match(
        e.message,
        /the corpus of \/data\/big \(1,000,000 documents, about 200\.0 million postings and 1,000,000 terms estimated\)/,
      );
      assert.match(e.message, /needs about 18\.0 GiB of heap; 1\.0 GiB is in use and the heap limit is 4\.0 GiB/);
      // (1 GiB + 18 GiB) / 0.8 = 23.75 GiB = 24320 MiB, a multiple of 256
      assert.match(e.message, /NODE_OPTIONS=--max-old-space-size=24320\b/);
      assert.match(e.message, /RANKLAB_HEAP_CHECK=off/);
      return true;
    },
  );
  const fits = { ...shape, bytes: 4096 * MiB * HEADROOM - 1024 };
  assert.equal(checkLexicalFits(fits, 'c', { used: 1024, limit }, {}), undefined);
  assert.throws(() => checkLexicalFits(fits, 'c', { used: 2048, limit }, {}), InputError);
});

test('only the old space holds an index: a 128 MiB old space (a 176 MiB limit) leaves 102 MiB, not 141', () => {
  const heap = { used: 45 * MiB, limit: 176 * MiB };
  assert.equal(usableHeap(heap), 128 * MiB * HEADROOM);
  // 45 + 60 = 105 MiB: under 0.8 x 176 (the check before, which then crashed V8), over 0.8 x 128
  assert.throws(() => checkLexicalFits({ ...shape, bytes: 60 * MiB }, 'c', heap, {}), /needs about 60 MiB of heap/);
  assert.equal(checkLexicalFits({ ...shape, bytes: 55 * MiB }, 'c', heap, {}), undefined);
});

test('RANKLAB_HEAP_CHECK=off: what would be refused is built, with a warning naming the figures', () => {
  const heap = { used: 45 * MiB, limit: 176 * MiB };
  const warning = checkLexicalFits({ ...shape, bytes: 60 * MiB }, 'c', heap, { RANKLAB_HEAP_CHECK: 'off' });
  assert.match(
    warning ?? '',
    /60 MiB of heap estimated beside 45 MiB in use, over the 102 MiB usable; built all the same \(RANKLAB_HEAP_CHECK=off\)/,
  );
  assert.throws(() => checkLexicalFits({ ...shape, bytes: 60 * MiB }, 'c', heap, { RANKLAB_HEAP_CHECK: 'no' }), InputError);
});

test('the MiniSearch estimate follows postings and terms (52 and 520 bytes), from a sample of the corpus', () => {
  const corpus = loadDocs(syntheticCollection({ docs: 6000, queries: 1 }));
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const e = estimateLexicalMemory(corpus, ['title', 'body'], analyzer);
  assert.equal(e.bytes, MINISEARCH_BYTES_PER_POSTING * e.postings + MINISEARCH_BYTES_PER_TERM * e.terms);
  assert.equal(e.chars, indexedChars(corpus, ['title', 'body']));
  // the same corpus, the same estimate (a seeded sample)
  assert.deepEqual(estimateLexicalMemory(corpus, ['title', 'body'], analyzer), e);
  // a heap that holds it: fits (no sampling needed); a small one: why not, with the sampled figures and the heap to ask
  assert.deepEqual(miniSearchVerdict(corpus, ['title', 'body'], analyzer, { used: 0, limit: 4096 * MiB }, {}), { fits: true });
  const small = { used: 10 * MiB, limit: 64 * MiB };
  const verdict = miniSearchVerdict(corpus, ['title', 'body'], analyzer, small, {});
  assert.equal(verdict.fits, false);
  assert.match(
    verdict.fits ? '' : verdict.why,
    new RegExp(
      `^the full index \\(6,000 documents, about ${(e.postings / 1e6).toFixed(1)} million postings and ${e.terms.toLocaleString('en')} terms estimated\\) ` +
        `would need about ${Math.round(e.bytes / MiB)} MiB of heap beside 10 MiB in use, over the 34 MiB usable \\(NODE_OPTIONS=--max-old-space-size=\\d+ would give it room\\)$`,
    ),
  );
  // with the check off it fits, with the warning
  const off = miniSearchVerdict(corpus, ['title', 'body'], analyzer, small, { RANKLAB_HEAP_CHECK: 'off' });
  assert.ok(off.fits && /built all the same \(RANKLAB_HEAP_CHECK=off\)/.test(off.warning ?? ''), JSON.stringify(off));
});

// ---- the postings-only index (postings/build.ts) -------------------------------------------------------------

test('postings estimate: extrapolated from a sample, within 15% of the postings a real build lays out, the terms not under', () => {
  // 10,000 documents cycling through 250 topics: every 5th document (the sample before) saw 50 of them, 83% of the terms
  const dir = syntheticCollection({ docs: 10_000, queries: 1 });
  const corpus = loadDocs(dir);
  const analyzer = createAnalyzer({ ...DEFAULT_ANALYZER, stemmer: 'english' });
  const fields = ['title', 'body'];
  const e = estimatePostingsMemory(corpus, fields, analyzer);
  const built = LexicalIndex.buildPostingsOnly(corpus, fields, analyzer).postings();
  const ratio = e.postings / built.postingCount;
  assert.ok(ratio > 0.85 && ratio < 1.15, `estimated ${e.postings} postings, built ${built.postingCount}`);
  let terms = 0;
  for (const _ of built.termNumbers) terms++;
  assert.ok(e.terms >= terms * 0.95, `estimated ${e.terms} terms, built ${terms}: a vocabulary must not be underestimated`);
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
  // 64 MB (61.0 MiB) of ids beside 45 MiB in use: 106.0 MiB, over 0.8 × the ~85 MiB old space of a 128 MiB limit
  // (68.3; a third of so small a limit counted as young generation), refused; fits under 256 (0.8 × 208)
  assert.throws(() => checkPostingsFit(e, 'c', { used: 45 * 1024 ** 2, limit: 128 * 1024 ** 2 }, 1e12), /needs about 61 MiB of heap/);
  assert.doesNotThrow(() => checkPostingsFit(e, 'c', { used: 45 * 1024 ** 2, limit: 256 * 1024 ** 2 }, 1e12));
});
