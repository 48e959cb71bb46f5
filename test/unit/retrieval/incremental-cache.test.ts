// Reopening a workspace after a few documents changed updates the cached lexical index instead of rebuilding
// it, and the results are those of a freshly built index. The LSA model and the HNSW graph are rebuilt for the
// new corpus (reused ones would make results depend on cache history: see reproducible.test.ts) and cached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';

test('reopening after an edit, an addition and a deletion updates the lexical cache incrementally and retrains LSA once', async () => {
  const ws = copyOfExample();
  const state = tempDir();
  const first = RanklabSession.open(ws, { stateDir: state });
  for (const name of ['baseline', 'vector']) await first.engine(first.resolveConfig(name));

  // While the workspace is "closed": edit one document, add one, delete one.
  const edited = join(ws, 'corpus', 'bar', 'ops-burrs.md');
  writeFileSync(
    edited,
    readFileSync(edited, 'utf8').replace('Keep spare burr sets', 'Keep spare burr sets and the zirconium torque wrench'),
  );
  writeFileSync(
    join(ws, 'corpus', 'bar', 'ops-new.md'),
    '---\nid: ops-new\ntitle: Quokka latte art checklist\npublic: true\n---\n\nThe quokka pattern needs microfoam and a steady pour.\n',
  );
  rmSync(join(ws, 'corpus', 'bar', 'ops-complaints.md'));

  const reopened = RanklabSession.open(ws, { stateDir: state });
  const lexical = await reopened.engine(reopened.resolveConfig('baseline'));
  // The first load of this cache: no timing can switch it off (that takes SLOW_LOADS_TO_SWITCH loads in a row).
  assert.equal(lexical.build.lexical?.source, 'cache');
  assert.ok(
    lexical.build.notes.includes('lexical: cache brought up to date incrementally (2 added or changed, 1 removed)'),
    lexical.build.notes.join('; '),
  );
  const vector = await reopened.engine(reopened.resolveConfig('vector'));
  assert.equal(vector.build.vector?.source, 'built', 'LSA retrained and HNSW rebuilt for the changed corpus');
  const before = await (await first.engine(first.resolveConfig('vector'))).learnedModels();
  const after = await vector.learnedModels();
  assert.ok(after.lsa && before.lsa && after.lsa !== before.lsa, 'a new LSA model');
  // ... and cached: the next start with the same corpus loads both.
  const third = RanklabSession.open(ws, { stateDir: state });
  const again = await third.engine(third.resolveConfig('vector'));
  assert.equal(again.build.vector?.source, 'cache');
  assert.deepEqual(await again.learnedModels(), after);

  // Same results as an index built from scratch on the current files.
  const fresh = RanklabSession.open(ws, { stateDir: tempDir() });
  const freshLexical = await fresh.engine(fresh.resolveConfig('baseline'));
  assert.equal(freshLexical.build.lexical?.source, 'built');
  for (const q of ['zirconium torque wrench', 'quokka latte', 'customer complaints', 'espresso grinder burrs', 'kopi gayo']) {
    const a = await lexical.search(q);
    const b = await freshLexical.search(q);
    assert.deepEqual(
      a.docs.map((d) => d.id),
      b.docs.map((d) => d.id),
      q,
    );
    a.docs.forEach((d, i) => assert.ok(Math.abs(d.score - b.docs[i].score) <= 1e-9 * Math.abs(d.score), `${q}: ${d.id}`));
    assert.equal(a.total, b.total);
  }
  assert.equal((await lexical.search('zirconium')).docs[0]?.id, 'ops-burrs');
  const v = await vector.search('quokka microfoam pour');
  assert.ok(
    v.docs.some((d) => d.id === 'ops-new'),
    'the added document is in the vector index',
  );
  assert.ok(!(await vector.search('complaints')).docs.some((d) => d.id === 'ops-complaints'), 'the deleted one is gone');
});
