// One tune/holdout split for every command: `sweep` holds out the queries `eval --split holdout` scores and
// `compare --split holdout` compares, whether the judgments mark them or (none marked) a hash of the id decides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { copyOfExample } from '../../helpers/workspace';

/** The example workspace with its golden set's "split" fields removed: no query is marked holdout. */
function unmarkedExample(): string {
  const dir = copyOfExample();
  const file = join(dir, 'judgments', 'golden.json');
  const queries = JSON.parse(readFileSync(file, 'utf8')) as { split?: string }[];
  for (const q of queries) delete q.split;
  writeFileSync(file, JSON.stringify(queries, null, 2));
  return dir;
}

function idsOf(dir: string, source: string) {
  const sweep = ranklab(['sweep', '--workspace', dir, '--config', 'baseline', '--vary', 'lexical.fields.title=1,2', '--format', 'json']);
  assert.equal(sweep.code, 0, sweep.stderr);
  const split = JSON.parse(sweep.stdout).split;
  assert.equal(split.source, source);
  const swept: string[] = split.holdoutQueries;
  assert.equal(swept.length, split.holdout);

  const held = ranklab(['eval', '--workspace', dir, '--config', 'baseline', '--split', 'holdout', '--format', 'json', '--no-save']);
  assert.equal(held.code, 0, held.stderr);
  const ev = JSON.parse(held.stdout);
  assert.deepEqual(ev.splitQueries, { split: 'holdout', source, ids: swept });
  assert.deepEqual(Object.keys(ev.runs[0].perQuery).sort(), [...swept].sort(), 'eval scores exactly the holdout queries');

  const tune = JSON.parse(
    ranklab(['eval', '--workspace', dir, '--config', 'baseline', '--split', 'tune', '--format', 'json', '--no-save']).stdout,
  );
  assert.equal(tune.splitQueries.ids.length, split.tune);
  assert.ok(!tune.splitQueries.ids.some((q: string) => swept.includes(q)), 'tune and holdout are disjoint');

  const cmp = JSON.parse(
    ranklab([
      'compare',
      '--workspace',
      dir,
      '--baseline',
      'baseline',
      '--candidate',
      'title-boost-3',
      '--split',
      'holdout',
      '--format',
      'json',
    ]).stdout,
  );
  assert.deepEqual(Object.keys(cmp.perQuery).sort(), [...swept].sort(), 'compare --split holdout compares exactly the holdout queries');
  const all = JSON.parse(
    ranklab(['compare', '--workspace', dir, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--format', 'json']).stdout,
  );
  // The tune/holdout rows (and their Holm tests) of a whole compare only for a split the judgments declare.
  if (source === 'judgments')
    assert.equal(all.splits.holdout.queries, swept.length, 'the tune/holdout rows of a whole compare use the same split');
  else assert.deepEqual(all.splits, {});
  const heldInfo = Object.entries(all.queryInfo as Record<string, { split: string }>)
    .filter(([, i]) => i.split === 'holdout')
    .map(([q]) => q);
  assert.deepEqual(heldInfo.sort(), [...swept].sort());
  return swept;
}

test('no query marked holdout: sweep, eval and compare hold out the same hashed queries', () => {
  const ids = idsOf(unmarkedExample(), 'hash');
  assert.ok(ids.length > 10 && ids.length < 40, `about a quarter of 94: ${ids.length}`);
});

test('queries marked holdout in the judgments: the same marked queries everywhere', () => {
  const dir = copyOfExample();
  const marked = (JSON.parse(readFileSync(join(dir, 'judgments', 'golden.json'), 'utf8')) as { id: string; split?: string }[])
    .filter((q) => q.split === 'holdout')
    .map((q) => q.id);
  assert.deepEqual(idsOf(dir, 'judgments'), marked);
});
