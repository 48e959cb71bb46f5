// A sweep measures exactly what evaluating each combination as its own config file measures: every combination
// of a small boost grid, written by hand as a *.rank.json and evaluated in a fresh session, gives the same
// per-query values and config hash as the sweep reports for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RanklabSession } from '../../../src/core/session/session';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { DEFAULT_METRIC_OPTIONS, parseMetric } from '../../../src/core/metrics';
import { parseVary } from '../../../src/core/tuning/parameters';
import { runSweep, sweepCombinations } from '../../../src/core/tuning/sweep';
import { InputError } from '../../../src/core/util/diagnostics';
import { copyOfExample } from '../../helpers/workspace';

const objective = parseMetric('ndcg@10');
const metricOptions = { ...DEFAULT_METRIC_OPTIONS };

test('every combination of a boost grid scores per query exactly as its own config file does', async () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const base = session.usable(session.configEntry('baseline'));
  const raw = JSON.parse(readFileSync(join(dir, 'configs', 'baseline.rank.json'), 'utf8'));
  const variations = [parseVary('lexical.fields.title=1..3:1'), parseVary('lexical.fields.body=0.5,1')];
  const result = await runSweep(session, { base, raw, variations, search: { kind: 'grid' }, objective, metricOptions });
  assert.equal(result.combinations.length, 6);
  assert.equal(result.rows.length, 6);

  const fresh = RanklabSession.open(dir, { writeCache: false });
  let i = 0;
  for (const title of [1, 2, 3]) {
    for (const body of [0.5, 1]) {
      const file = join(dir, 'configs', `by-hand-${i++}.rank.json`);
      const own = JSON.parse(readFileSync(join(dir, 'configs', 'baseline.rank.json'), 'utf8'));
      own.lexical.fields = { title, body };
      writeFileSync(file, JSON.stringify(own, null, 2));
      const config = fresh.usable(fresh.configEntry(file));
      const evaluated = await evaluateConfig(fresh, config, { specs: [objective], metricOptions, split: 'all', save: false });
      const combination = result.combinations.find(
        (c) => c.values['lexical.fields.title'] === title && c.values['lexical.fields.body'] === body,
      );
      assert.ok(combination, `title=${title} body=${body} is in the sweep`);
      assert.equal(combination.config.configHash, config.configHash);
      const expected = new Map([...evaluated.evaluation.perQuery].map(([q, v]) => [q, v['ndcg@10']]));
      assert.equal(expected.size, 94);
      assert.deepEqual(result.perQuery.combinations.get(combination.index), expected, `title=${title} body=${body}`);
    }
  }
  const baseline = await evaluateConfig(fresh, fresh.usable(fresh.configEntry('baseline')), {
    specs: [objective],
    metricOptions,
    split: 'all',
    save: false,
  });
  assert.deepEqual(result.perQuery.base, new Map([...baseline.evaluation.perQuery].map(([q, v]) => [q, v['ndcg@10']])));
  // The example marks its holdout queries: the split is the judgments' own.
  assert.equal(result.split?.source, 'judgments');
  assert.equal(result.split!.tune + result.split!.holdout, 94);
});

test('combinations: grid order (first --vary outermost), a seeded random sample is reproducible, a section BASE lacks is refused', () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const base = session.usable(session.configEntry('baseline'));
  const raw = JSON.parse(readFileSync(join(dir, 'configs', 'baseline.rank.json'), 'utf8'));
  const vs = [parseVary('lexical.fields.title=1,2'), parseVary('lexical.bm25.k1=0.9,1.2,1.5')];
  const grid = sweepCombinations(base, raw, vs, { kind: 'grid' });
  assert.equal(grid.gridSize, 6);
  assert.deepEqual(
    grid.combinations.map((c) => [c.values['lexical.fields.title'], c.values['lexical.bm25.k1']]),
    [
      [1, 0.9],
      [1, 1.2],
      [1, 1.5],
      [2, 0.9],
      [2, 1.2],
      [2, 1.5],
    ],
  );
  assert.equal(grid.combinations[4].config.lexical!.bm25.k1, 1.2);
  assert.equal(grid.combinations[4].config.lexical!.bm25.b, base.lexical!.bm25.b, "other settings are BASE's");
  const big = [parseVary('lexical.fields.title=0..10:0.5'), parseVary('lexical.fields.body=0..10:0.5')];
  const a = sweepCombinations(base, raw, big, { kind: 'random', n: 20, seed: 7 });
  const b = sweepCombinations(base, raw, big, { kind: 'random', n: 20, seed: 7 });
  const c = sweepCombinations(base, raw, big, { kind: 'random', n: 20, seed: 8 });
  const key = (x: typeof a) => x.combinations.map((k) => JSON.stringify(k.values)).concat(x.skipped.map((k) => JSON.stringify(k.values)));
  assert.deepEqual(key(a), key(b));
  assert.notDeepEqual(key(a), key(c));
  assert.equal(new Set(key(a)).size, 20);
  // title=0 and body=0 together search nothing: that one combination is skipped with the config's own reason.
  const zero = sweepCombinations(base, raw, [parseVary('lexical.fields.title=0,1'), parseVary('lexical.fields.body=0,1')], {
    kind: 'grid',
  });
  assert.equal(zero.combinations.length, 3);
  assert.match(zero.skipped[0].reason, /every field has boost 0/);
  assert.throws(
    () => sweepCombinations(base, raw, [parseVary('hybrid.k=10,60')], { kind: 'grid' }),
    (e: unknown) => e instanceof InputError && /no "hybrid" section/.test(e.message),
  );
});

test('a variation without values, or a random search of no point, is refused: an empty grid left runSweep no reason to report', async () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const base = session.usable(session.configEntry('baseline'));
  const raw = JSON.parse(readFileSync(join(dir, 'configs', 'baseline.rank.json'), 'utf8'));
  const empty = { ...parseVary('lexical.fields.title=1,2'), values: [] };
  const refused = (pattern: RegExp) => (e: unknown) => e instanceof InputError && pattern.test(e.message);
  assert.throws(() => sweepCombinations(base, raw, [empty], { kind: 'grid' }), refused(/lexical\.fields\.title: no values/));
  // Through runSweep as the editor calls it (no CLI parsing in between): an InputError, not a TypeError.
  await assert.rejects(
    runSweep(session, { base, raw, variations: [empty], search: { kind: 'grid' }, objective, metricOptions }),
    refused(/no values/),
  );
  const one = [parseVary('lexical.fields.title=1,2')];
  assert.throws(() => sweepCombinations(base, raw, one, { kind: 'random', n: 0, seed: 1 }), refused(/at least 1 combination, not 0/));
  assert.equal(sweepCombinations(base, raw, one, { kind: 'random', n: 1, seed: 1 }).combinations.length, 1);
});
