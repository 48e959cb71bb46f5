import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { RanklabSession } from '../../../src/core/session/session';

const EXAMPLE = resolve(__dirname, '../../../examples/food-search');

test('session.search returns each hit with its title from the corpus (example workspace, real index)', async () => {
  const session = RanklabSession.open(EXAMPLE, { writeCache: false });
  const config = session.resolveConfig('baseline');
  for (const principal of [undefined, 'sari']) {
    const r = await session.search(config, 'how to replace the grinder burrs', { principal });
    const burrs = r.docs.find((d) => d.id === 'ops-burrs');
    assert.ok(burrs, `ops-burrs is a hit (${principal ?? 'unrestricted'})`);
    // The front matter of examples/food-search/corpus/bar/ops-burrs.md says "title: Grinder service notes".
    assert.equal(burrs.title, 'Grinder service notes');
    assert.ok(r.docs.length > 1);
    for (const d of r.docs) assert.equal(d.title, session.document(d.id)?.title || undefined, d.id);
  }
});
