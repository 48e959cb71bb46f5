// Issue 32: a large corpus must not fail silently. Caches that cannot be written are warned about on stderr (not only
// in the --verbose log).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ranklab } from '../../helpers/cli';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { tempDir } from '../../helpers/workspace';

test('a corpus snapshot or lexical cache that cannot be written is a warning on stderr, and the evaluation still runs', () => {
  const state = tempDir();
  // a file where the lexical cache folder goes, a non-empty folder where the snapshot file goes
  mkdirSync(join(state, 'cache', 'corpus-snapshot.json', 'x'), { recursive: true });
  writeFileSync(join(state, 'cache', 'lexical'), 'not a folder');
  const r = ranklab(['eval', '--workspace', syntheticCollection({ docs: 120, queries: 10 }), '--state-dir', state, '--no-save', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).runs.length, 1);
  assert.match(r.stderr, /warning: corpus snapshot not written \(.+\): the next start reads every corpus file again/);
  const lexical = r.stderr.match(/warning: config bm25: lexical: index cache not written \(.+\); the next start builds the index again/g);
  assert.equal(lexical?.length, 1, r.stderr); // once, though the timing file failed too
});
