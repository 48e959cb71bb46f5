// Issue 32: vectors that would not fit in memory are refused before they are embedded or indexed: exit 2 with the
// estimate and the ways out (RANKLAB_VECTOR_MEMORY_MB stands in for a small machine).
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import { ranklab } from '../../helpers/cli';
import { tempDir } from '../../helpers/workspace';

const EXAMPLE = resolve(__dirname, '../../../examples/food-search');

test('a vector config over the memory budget is exit 2 with its estimate, never a crash; within the budget it runs', () => {
  const args = ['eval', '--workspace', EXAMPLE, '--config', 'vector', '--state-dir', tempDir(), '--no-save'];
  process.env.RANKLAB_VECTOR_MEMORY_MB = '0.01';
  let r;
  try {
    r = ranklab(args);
  } finally {
    delete process.env.RANKLAB_VECTOR_MEMORY_MB;
  }
  assert.equal(r.code, 2, r.stderr);
  assert.match(
    r.stderr,
    /config vector: the vectors of [\d,]+ documents × \d+ dimensions need about \d+ [KM]iB \(.*HNSW graph \d+ [KM]iB\); the budget RANKLAB_VECTOR_MEMORY_MB is 11 KiB/,
  );
  assert.match(r.stderr, /"storage": "int8"/);
  assert.match(r.stderr, /engine adapter/);
  const ok = ranklab(args);
  assert.equal(ok.code, 0, ok.stderr);
});
