import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Document } from '../../../src/core/corpus/document';
import { BASE_BYTES, BYTES_PER_CHAR, HEADROOM, checkLexicalFits, estimateLexicalMemory } from '../../../src/core/retrieval/memory-estimate';
import { InputError } from '../../../src/core/util/diagnostics';

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
