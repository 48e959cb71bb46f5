// "Rebuild Index" in the editor calls RanklabSession.clearIndexCaches(): the cached indexes and the corpus snapshot
// go, cached embeddings stay, and the next engine is built from the corpus files, not loaded from the cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';

test('clearIndexCaches deletes the lexical, LSA and vector caches and the corpus snapshot, keeps embeddings, and the next build starts from scratch', async () => {
  const ws = copyOfExample();
  const state = tempDir();
  const warm = RanklabSession.open(ws, { stateDir: state });
  for (const name of ['baseline', 'vector']) await warm.engine(warm.resolveConfig(name));
  const cacheDir = warm.workspace.cacheDir;
  // An embedding cached by a model provider (layout of embedding-cache.ts: embeddings/<embedder>/<segment>.vec).
  const embedding = join(cacheDir, 'embeddings', 'some-embedder', '0.vec');
  mkdirSync(join(cacheDir, 'embeddings', 'some-embedder'), { recursive: true });
  writeFileSync(embedding, 'vectors');
  assert.deepEqual(readdirSync(cacheDir).sort(), ['corpus-snapshot.json', 'embeddings', 'lexical', 'lsa', 'vector']);

  // Without clearing, a second session loads the lexical index from the cache (the control for the assertion below).
  const reopened = RanklabSession.open(ws, { stateDir: state });
  assert.equal((await reopened.engine(reopened.resolveConfig('baseline'))).build.lexical?.source, 'cache');

  const removed = reopened.clearIndexCaches();
  assert.deepEqual(removed, ['corpus-snapshot.json', 'lexical', 'lsa', 'vector']);
  assert.deepEqual(readdirSync(cacheDir), ['embeddings']);
  assert.ok(existsSync(embedding), 'cached embeddings are kept');

  // The same session builds again: the engine it held is gone and the indexes are rebuilt from the files.
  const rebuilt = await reopened.engine(reopened.resolveConfig('baseline'));
  assert.equal(rebuilt.build.lexical?.source, 'built');
  const vector = await reopened.engine(reopened.resolveConfig('vector'));
  assert.equal(vector.build.vector?.source, 'built');
  assert.ok((await rebuilt.search('espresso')).docs.length > 0);
  // The snapshot is written again by the corpus read that followed.
  assert.ok(existsSync(join(cacheDir, 'corpus-snapshot.json')));
});

test('clearIndexCaches on a workspace that never cached anything deletes nothing', () => {
  const session = RanklabSession.open(copyOfExample(), { stateDir: tempDir() });
  assert.deepEqual(session.clearIndexCaches(), []);
});
