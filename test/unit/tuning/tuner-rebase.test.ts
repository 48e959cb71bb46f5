// A Tuner seen from another position of its own sliders (rebaseTuner: the Tune view opened on a config the CodeLens's
// Tuner recombines) gives every figure a Tuner prepared for that config gives, without a preparation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RanklabSession } from '../../../src/core/session/session';
import { type TuneSettings, prepareTune, rebaseTuner } from '../../../src/core/tuning/tuner';
import { copyOfExample } from '../../helpers/workspace';

test('a Tuner rebased on a saved edit equals a Tuner prepared for it: sliders at its values, every figure of every move', async () => {
  const session = RanklabSession.open(copyOfExample(), { writeCache: false });
  const tuner = await prepareTune(session, { baseConfig: session.resolveConfig('title-boost-3') });
  assert.equal(rebaseTuner(tuner, tuner.base), tuner, 'its own config: itself');
  const other = session.resolveConfig('baseline');
  assert.equal(rebaseTuner(tuner, other), undefined, 'another config (another name, other boosts): none');
  assert.equal(
    rebaseTuner(tuner, { ...other, name: tuner.base.name, lexical: { ...other.lexical!, prefix: true } }),
    undefined,
    'prefix: none',
  );

  const edit = { 'lexical.fields.title': 1.5, 'lexical.bm25.k1': 0.6, 'lexical.depth': 40 };
  const edited = (await tuner.quick(edit)).config;
  const rebased = rebaseTuner(tuner, edited)!;
  const fresh = await prepareTune(session, { baseConfig: edited });
  assert.equal(rebased.base, edited);
  assert.equal(rebased.candidates, tuner.candidates, 'the same caches');
  const at = (t: typeof tuner) => t.sliders().sliders.map((s) => [s.path, s.value]);
  assert.deepEqual(at(rebased), at(fresh), 'the sliders stand at the edit’s values');
  assert.deepEqual(rebased.sliders().fixed, fresh.sliders().fixed);
  // The edit's own position, moves from it (one back to the Tuner's base value), and several settings at once.
  const moves: TuneSettings[] = [
    {},
    { 'lexical.fields.title': 3 },
    { 'lexical.fields.body': 2, 'lexical.bm25.b': 0.3 },
    { 'lexical.bm25.k1': 1.2, 'lexical.depth': 100 },
    { 'lexical.fields.title': 0, 'lexical.bm25.d': 0 },
  ];
  const headlines = new Set<number>();
  for (const moved of moves) {
    const got = await rebased.evaluate(moved);
    assert.deepEqual(got, await fresh.evaluate(moved), `${JSON.stringify(moved)}: evaluate`);
    assert.deepEqual(await rebased.quickWithGates(moved), await fresh.quickWithGates(moved), `${JSON.stringify(moved)}: first stage`);
    assert.deepEqual(rebased.settingsOf(got.config), fresh.settingsOf(got.config), `${JSON.stringify(moved)}: settingsOf`);
    headlines.add(got.metrics.all.candidate[got.headline]!);
  }
  assert.ok(headlines.size > 2, `the moves score differently: ${[...headlines].join(', ')}`);
  // Another config's settings (the hash leaves names out), as a Tuner prepared for the edit reads them.
  assert.deepEqual(rebased.settingsOf(other), fresh.settingsOf(other));
});
