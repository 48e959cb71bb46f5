import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { Document } from '../../../../src/core/corpus/document';
import { PrecomputedQueryEmbedder, precomputedDocumentVectors } from '../../../../src/core/retrieval/providers/precomputed';
import type { Embedder } from '../../../../src/core/retrieval/providers/types';

const doc = (id: string, line: number, vector?: unknown, meta: Record<string, unknown> = {}): Document => ({
  id,
  title: id,
  body: '',
  fields: {},
  meta,
  source: { path: 'data/docs.jsonl', line },
  vector: vector as number[] | undefined,
  hash: id,
});

describe('precomputedDocumentVectors', () => {
  it('keeps valid vectors and reports missing, ragged and non-numeric ones with file:line', () => {
    const r = precomputedDocumentVectors([
      doc('d1', 1, [1, 0, 0]),
      doc('d2', 2, [0, 1, 0]),
      doc('d3', 3),
      doc('d4', 4, [1, 2]),
      doc('d5', 5, [1, 'x', 3]),
      doc('d6', 6, [0, 0, 1]),
    ]);
    assert.equal(r.dimension, 3);
    assert.deepEqual([...r.vectors.keys()], ['d1', 'd2', 'd6']);
    assert.deepEqual(Array.from(r.vectors.get('d2')!), [0, 1, 0]);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.file, d.line]),
      [
        ['data/docs.jsonl', 3],
        ['data/docs.jsonl', 5],
        ['data/docs.jsonl', 4],
      ],
    );
    assert.match(r.diagnostics[2].message, /d4.*2 dimensions.*3/);
  });

  it('reads another field from metadata', () => {
    const r = precomputedDocumentVectors([doc('a', 1, undefined, { emb: [0.5, 0.5] })], 'emb');
    assert.deepEqual(Array.from(r.vectors.get('a')!), [0.5, 0.5]);
    assert.equal(r.diagnostics.length, 0);
  });
});

describe('PrecomputedQueryEmbedder', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ranklab-qv-'));
  writeFileSync(
    path.join(dir, 'q.vectors.jsonl'),
    [
      '{"id":"q1","text":"red shoes","vector":[1,0]}',
      '{"text":"bad","vector":[1,2,3]}',
      'not json',
      '{"query":"blue hat","vector":[0,1]}',
      '',
    ].join('\n'),
  );

  it('answers from the file and reports bad lines with their numbers', async () => {
    const e = new PrecomputedQueryEmbedder(
      { provider: 'precomputed', queryVectors: 'q.vectors.jsonl' },
      { baseDir: dir, settingPath: 'vector.embedder' },
    );
    assert.deepEqual(
      (await e.embed(['blue hat', 'red shoes'], 'query')).map((v) => Array.from(v)),
      [
        [0, 1],
        [1, 0],
      ],
    );
    assert.deepEqual(
      e.diagnostics.map((d) => [d.file, d.line]),
      [
        ['q.vectors.jsonl', 2],
        ['q.vectors.jsonl', 3],
      ],
    );
    assert.equal(e.dimension, 2);
  });

  it('an unknown query without a fallback is an error naming it and the settings', async () => {
    const e = new PrecomputedQueryEmbedder(
      { provider: 'precomputed', queryVectors: 'q.vectors.jsonl' },
      { baseDir: dir, settingPath: 'vector.embedder' },
    );
    await assert.rejects(e.embed(['green socks'], 'query'), /green socks.*vector\.embedder\.queryVectors.*vector\.embedder\.queryEmbedder/);
  });

  it('sends only unknown queries to queryEmbedder', async () => {
    const seen: string[][] = [];
    const fallback: Embedder = { id: 'fb', dimension: 2, embed: async (t) => (seen.push(t), t.map(() => Float32Array.from([9, 9]))) };
    const e = new PrecomputedQueryEmbedder(
      { provider: 'precomputed', queryVectors: 'q.vectors.jsonl' },
      { baseDir: dir, settingPath: 'vector.embedder', fallback },
    );
    const v = await e.embed(['red shoes', 'green socks'], 'query');
    assert.deepEqual(
      v.map((x) => Array.from(x)),
      [
        [1, 0],
        [9, 9],
      ],
    );
    assert.deepEqual(seen, [['green socks']]);
  });

  it('refuses to embed documents', async () => {
    const e = new PrecomputedQueryEmbedder({ provider: 'precomputed' }, { baseDir: dir, settingPath: 'vector.embedder' });
    await assert.rejects(e.embed(['x'], 'document'), /from the corpus/);
  });

  it('a missing query-vector file is an InputError naming it', () => {
    assert.throws(
      () =>
        new PrecomputedQueryEmbedder(
          { provider: 'precomputed', queryVectors: 'nope.jsonl' },
          { baseDir: dir, settingPath: 'vector.embedder' },
        ),
      /nope\.jsonl/,
    );
  });
});
