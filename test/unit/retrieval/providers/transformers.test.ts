import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createEmbedder, createReranker } from '../../../../src/core/retrieval/providers/factory';
import { logitsToScores, TransformersEmbedder, TransformersReranker } from '../../../../src/core/retrieval/providers/transformers';
import { InputError } from '../../../../src/core/util/diagnostics';
import { tinyModelsDir } from '../../../helpers/tiny-models';

const modelsDir = tinyModelsDir();
const ctx = { baseDir: modelsDir, allowNetwork: false, allowModelLoading: true };

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));
const cosine = (a: Float32Array, b: Float32Array) => dot(a, b) / (norm(a) * norm(b));

describe('transformers embedder (tiny-embedder, WASM)', () => {
  const embedder = createEmbedder({ provider: 'transformers', model: 'tiny-embedder', batchSize: 2 }, ctx);

  it('returns one unit-length vector of the model hidden size (64, config.json) per text', async () => {
    const v = await embedder.embed(['the cat sat', 'a dog ran home', 'red green blue'], 'document');
    assert.equal(v.length, 3);
    for (const x of v) {
      assert.equal(x.length, 64);
      assert.ok(Math.abs(norm(x) - 1) < 1e-5);
    }
    assert.equal(embedder.dimension, 64);
  });

  it('is deterministic whatever the batch composition', async () => {
    const a = (await embedder.embed(['the cat sat on the mat'], 'document'))[0];
    const b = (await embedder.embed(['x', 'y', 'the cat sat on the mat', 'z'], 'document'))[2];
    for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) < 1e-5);
  });

  it('gives texts that share words a higher cosine than unrelated texts', async () => {
    const [q, near, far] = await embedder.embed(['cat sat mat', 'the cat sat on a mat', 'quantum physics lecture notes'], 'document');
    assert.ok(cosine(q, near) > cosine(q, far) + 0.1, `${cosine(q, near)} vs ${cosine(q, far)}`);
  });

  it('prepends queryPrefix to queries only', async () => {
    const prefixed = createEmbedder({ provider: 'transformers', model: 'tiny-embedder', queryPrefix: 'cat ' }, ctx);
    const [q] = await prefixed.embed(['dog'], 'query');
    const [d] = await prefixed.embed(['cat dog'], 'document');
    const [plain] = await prefixed.embed(['dog'], 'document');
    assert.ok(cosine(q, d) > 0.9999);
    assert.ok(cosine(q, plain) < 0.999);
    assert.notEqual(prefixed.id, embedder.id);
  });

  it('cls pooling and the quantized file give different vectors (they are really used)', async () => {
    const text = ['the cat sat on the mat'];
    const [mean] = await embedder.embed(text, 'document');
    const [cls] = await createEmbedder({ provider: 'transformers', model: 'tiny-embedder', pooling: 'cls' }, ctx).embed(text, 'document');
    const [q8] = await createEmbedder({ provider: 'transformers', model: 'tiny-embedder', quantized: true }, ctx).embed(text, 'document');
    assert.ok(cosine(mean, cls) < 0.999);
    assert.ok(cosine(mean, q8) < 0.99999 && cosine(mean, q8) > 0.95, `int8 close to fp32: ${cosine(mean, q8)}`);
  });

  it('asking for the other backend in the same process is a clear error', async () => {
    const native = createEmbedder({ provider: 'transformers', model: 'tiny-embedder', backend: 'native' }, ctx);
    await assert.rejects(native.embed(['x'], 'query'), /vector\.embedder\.backend.*"wasm" backend/);
  });

  it('accepts an absolute model folder', async () => {
    const e = new TransformersEmbedder(
      { provider: 'transformers', model: path.join(modelsDir, 'tiny-embedder') },
      { baseDir: '/', allowRemote: false, settingPath: 'vector.embedder' },
    );
    assert.equal((await e.embed(['hello'], 'query'))[0].length, 64);
  });
});

describe('transformers model location errors', () => {
  it('a missing folder names the setting and the folder', () => {
    assert.throws(
      () => createEmbedder({ provider: 'transformers', model: './models/nope' }, ctx),
      (e: unknown) =>
        e instanceof InputError && e.message.includes('vector.embedder.model') && e.message.includes(path.join(modelsDir, 'models/nope')),
    );
  });

  it('an id that is not a local folder, offline, says where it looked and that downloads are off', () => {
    assert.throws(
      () => createReranker({ provider: 'transformers', model: 'Xenova/ms-marco-MiniLM-L-6-v2' }, ctx),
      (e: unknown) =>
        e instanceof InputError &&
        e.message.includes('rerank.provider.model') &&
        e.message.includes(path.join(modelsDir, 'Xenova/ms-marco-MiniLM-L-6-v2')) &&
        /network/.test(e.message),
    );
  });

  it('a folder without config.json is refused with the setting name', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ranklab-model-'));
    mkdirSync(path.join(dir, 'empty'));
    assert.throws(
      () => createEmbedder({ provider: 'transformers', model: 'empty' }, { ...ctx, baseDir: dir }),
      /vector\.embedder\.model.*config\.json/,
    );
  });

  it('is refused when model loading is not allowed (untrusted workspace)', () => {
    assert.throws(
      () => createEmbedder({ provider: 'transformers', model: 'tiny-embedder' }, { ...ctx, allowModelLoading: false }),
      /untrusted/,
    );
  });

  it('an unknown backend is refused', () => {
    assert.throws(() => createEmbedder({ provider: 'transformers', model: 'tiny-embedder', backend: 'gpu' as never }, ctx), /backend/);
  });
});

describe('transformers cross-encoder (tiny-reranker)', () => {
  const reranker = createReranker({ provider: 'transformers', model: 'tiny-reranker', batchSize: 2 }, ctx);

  it('scores grow with query/passage word overlap and lie in (0, 1)', async () => {
    const s = await reranker.score('cat sat mat', ['the cat sat on the mat', 'the cat slept', 'quantum physics lecture']);
    assert.equal(s.length, 3);
    for (const x of s) assert.ok(x > 0 && x < 1, String(x));
    assert.ok(s[0] > s[1] && s[1] > s[2], s.join(' '));
  });

  it('batching does not change the scores', async () => {
    const passages = ['cat', 'the cat sat', 'mat mat', 'dog', 'a cat sat on a mat'];
    const small = await reranker.score('cat sat mat', passages);
    const big = await new TransformersReranker(
      { provider: 'transformers', model: 'tiny-reranker', batchSize: 16 },
      { baseDir: modelsDir, allowRemote: false, settingPath: 'rerank.provider' },
    ).score('cat sat mat', passages);
    small.forEach((x, i) => assert.ok(Math.abs(x - big[i]) < 1e-4));
  });

  it('returns [] for no passages', async () => {
    assert.deepEqual(await reranker.score('q', []), []);
  });
});

describe('logitsToScores', () => {
  it('one logit: sigmoid; two logits: probability of label 1', () => {
    const one = logitsToScores([2, 1], [0, 2]);
    assert.equal(one[0], 0.5);
    assert.ok(Math.abs(one[1] - 0.8807970779778823) < 1e-12); // 1/(1+e^-2)
    const two = logitsToScores([1, 2], [1, 3]); // softmax([1,3])[1] = e^3/(e^1+e^3) = 1/(1+e^-2)
    assert.ok(Math.abs(two[0] - 0.8807970779778823) < 1e-12);
  });
});
