/**
 * An embedder that answers fewer vectors than texts (against the Embedder contract) fails as a ProviderError naming
 * the counts, both at the call and through a built-in engine (indexing documents, embedding a query); before, the
 * missing vector was read as `undefined` and the engine failed with a TypeError inside the exact index.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseRankConfig } from '../../../../src/core/config/defaults';
import type { Document } from '../../../../src/core/corpus/document';
import { createEngine } from '../../../../src/core/retrieval/engine';
import { embedEach, embedQuery } from '../../../../src/core/retrieval/providers/embed';
import { ProviderError } from '../../../../src/core/retrieval/providers/errors';
import type { Embedder } from '../../../../src/core/retrieval/providers/types';
import { fingerprint } from '../../../../src/core/util/fingerprint';

/** A 4-dim embedder from letter counts; `short` drops the last vector of every answer of that kind. */
function letters(short?: 'query' | 'document'): Embedder {
  return {
    id: `letters${short ? `-short-${short}` : ''}`,
    dimension: 4,
    async embed(texts, kind) {
      const vectors = texts.map((t) => Float32Array.from('abcd', (c) => t.split(c).length - 1 + 0.5));
      return kind === short ? vectors.slice(0, -1) : vectors;
    },
  };
}

const docs: Document[] = ['a b', 'b c', 'c d', 'a d'].map((body, i) => ({
  id: `d${i}`,
  title: '',
  body,
  fields: {},
  meta: {},
  source: { path: `d${i}.md` },
  hash: fingerprint(body),
}));
const config = normaliseRankConfig({ vector: { embedder: { provider: 'lsa' }, exact: true } }, 'vector');
const engineWith = (embedder: Embedder) => createEngine({ docs, corpusFingerprint: fingerprint(docs.map((d) => d.id)), config, embedder });
const isShortAnswer = (e: unknown) => e instanceof ProviderError && /returned \d+ vectors for \d+ texts/.test(e.message);

describe('embedEach / embedQuery', () => {
  it('pass an answer of one vector per text through', async () => {
    const vectors = await embedEach(letters(), ['a', 'bb'], 'document');
    assert.deepEqual(
      vectors.map((v) => [...v]),
      [
        [1.5, 0.5, 0.5, 0.5],
        [0.5, 2.5, 0.5, 0.5],
      ],
    );
    assert.deepEqual([...(await embedQuery(letters(), 'cc'))], [0.5, 0.5, 2.5, 0.5]);
  });

  it('refuse a short answer as a ProviderError', async () => {
    await assert.rejects(embedEach(letters('document'), ['a', 'b', 'c'], 'document'), (e) => {
      assert.ok(e instanceof ProviderError);
      assert.match(e.message, /letters-short-document returned 2 vectors for 3 texts/);
      return true;
    });
    await assert.rejects(embedQuery(letters('query'), 'a'), isShortAnswer);
  });
});

describe('a built-in engine with an embedder that answers short', () => {
  it('indexing documents fails as a ProviderError', async () => {
    await assert.rejects(engineWith(letters('document')), isShortAnswer);
  });

  it('searching fails as a ProviderError (the documents were indexed)', async () => {
    const engine = await engineWith(letters('query'));
    await assert.rejects(engine.search('a', {}), isShortAnswer);
  });
});
