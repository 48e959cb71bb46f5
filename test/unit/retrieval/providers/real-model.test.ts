/**
 * Optional: the real all-MiniLM-L6-v2 (fetched by `bash scripts/fetch-model.sh` into the git-ignored .models/)
 * through the `transformers` provider. Skipped, saying so, when the folder is not there.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createEmbedder } from '../../../../src/core/retrieval/providers/factory';

const folder = process.env.RANKLAB_MODELS ?? path.resolve(__dirname, '../../../../.models');
const model = path.join(folder, 'all-MiniLM-L6-v2');
const skip = existsSync(path.join(model, 'onnx', 'model.onnx')) ? false : `no ${model} (bash scripts/fetch-model.sh fetches it)`;
if (skip) process.stderr.write(`SKIPPED real-model test: ${skip}\n`);

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('all-MiniLM-L6-v2 through the transformers provider', { skip }, () => {
  const ctx = { baseDir: folder, allowNetwork: false, allowModelLoading: true };
  const native = createEmbedder(
    { provider: 'transformers', model: 'all-MiniLM-L6-v2', pooling: 'mean', normalize: true, backend: 'native' },
    ctx,
  );

  it('gives unit vectors of 384 dimensions, and paraphrases without a shared word beat unrelated sentences', async () => {
    const [guitar, music, market, espresso, coffee, tax] = await native.embed(
      [
        'a man is playing a guitar',
        'someone performs a song on a stringed instrument',
        'share prices fell sharply on wall street',
        'how do I pull a shot of espresso',
        'brewing strong coffee under pressure',
        'filing an annual income tax return',
      ],
      'document',
    );
    for (const v of [guitar, music, market]) {
      assert.equal(v.length, 384);
      assert.ok(Math.abs(Math.sqrt(dot(v, v)) - 1) < 1e-5);
    }
    assert.ok(dot(guitar, music) > dot(guitar, market) + 0.2, `${dot(guitar, music)} vs ${dot(guitar, market)}`);
    assert.ok(dot(espresso, coffee) > dot(espresso, tax) + 0.2, `${dot(espresso, coffee)} vs ${dot(espresso, tax)}`);
  });
});
