// The project's own tiny test models (scripts/gen-tiny-models.mjs through test/helpers/tiny-models.ts): the same
// bytes on every run, in the layout transformers.js loads, and generated safely by test files starting together.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { REPO_DIR } from '../../../helpers/cli';
import { tempDir } from '../../../helpers/workspace';
import { TINY_MODELS_GENERATOR, tinyModelsDir } from '../../../helpers/tiny-models';

const MODEL_FILES = [
  'README.md',
  'config.json',
  'onnx/model.onnx',
  'onnx/model_quantized.onnx',
  'special_tokens_map.json',
  'tokenizer.json',
  'tokenizer_config.json',
  'vocab.txt',
];

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

test('the generator writes both models, every file the loader reads, the same bytes each time', () => {
  const [a, b] = [tempDir('ranklab-tiny-a-'), tempDir('ranklab-tiny-b-')];
  for (const out of [a, b]) execFileSync(process.execPath, [TINY_MODELS_GENERATOR, out], { stdio: 'ignore' });
  assert.deepEqual(readdirSync(a).sort(), ['tiny-embedder', 'tiny-reranker']);
  for (const model of ['tiny-embedder', 'tiny-reranker']) {
    assert.deepEqual(files(join(a, model)), MODEL_FILES);
    for (const f of MODEL_FILES)
      assert.ok(readFileSync(join(a, model, f)).equals(readFileSync(join(b, model, f))), `${model}/${f} differs between two runs`);
  }
  const embedder = JSON.parse(readFileSync(join(a, 'tiny-embedder', 'config.json'), 'utf8'));
  const reranker = JSON.parse(readFileSync(join(a, 'tiny-reranker', 'config.json'), 'utf8'));
  assert.deepEqual([embedder.model_type, embedder.architectures, embedder.hidden_size], ['bert', ['BertModel'], 64]);
  assert.deepEqual([reranker.architectures, reranker.num_labels], [['BertForSequenceClassification'], 1]);
  // The vocabulary of the tokenizer is vocab.txt, line for line.
  const vocab = readFileSync(join(a, 'tiny-embedder', 'vocab.txt'), 'utf8')
    .trimEnd()
    .split('\n');
  assert.equal(Object.keys(JSON.parse(readFileSync(join(a, 'tiny-embedder', 'tokenizer.json'), 'utf8')).model.vocab).length, vocab.length);
  assert.equal(embedder.vocab_size, vocab.length);
});

test('test files starting together: each gets the same complete folder, nothing half-written is left behind', async () => {
  const root = tempDir('ranklab-tiny-root-');
  const helper = join(REPO_DIR, 'test/helpers/tiny-models.ts');
  const runs = Array.from(
    { length: 4 },
    () =>
      new Promise<{ code: number | null; out: string; err: string }>((done) => {
        const p = spawn(
          process.execPath,
          ['--import', 'tsx', '-e', `process.stdout.write(require(${JSON.stringify(helper)}).tinyModelsDir(process.argv[1]))`, root],
          { cwd: REPO_DIR },
        );
        let out = '';
        let err = '';
        p.stdout.on('data', (d) => (out += d));
        p.stderr.on('data', (d) => (err += d));
        p.on('close', (code) => done({ code, out, err }));
      }),
  );
  const results = await Promise.all(runs);
  for (const r of results) assert.equal(r.code, 0, r.err);
  const dirs = new Set(results.map((r) => r.out));
  assert.equal(dirs.size, 1, [...dirs].join(', '));
  const [dir] = dirs;
  assert.equal(dir, tinyModelsDir(root), 'a later call finds the folder and does not generate again');
  assert.deepEqual(readdirSync(root), [relative(root, dir)], 'no temporary folder left in the root');
  for (const model of ['tiny-embedder', 'tiny-reranker']) assert.deepEqual(files(join(dir, model)), MODEL_FILES);
});
