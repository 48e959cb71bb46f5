// The action "sweep" (src/core/actions/sweep-config.ts) on a copy of the example workspace, real indexes: BASE is
// read as written (comments allowed), every point of the grid gets its holdout comparison as runSweep gives it, a
// combination that is no valid config is data while the others are evaluated, a broken BASE is an error naming its
// file, and an aborted signal stops it with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type SweepConfigProgress, sweepBase, sweepConfig } from '../../../src/core/actions/sweep-config';
import { parseMetric } from '../../../src/core/metrics';
import { RanklabSession } from '../../../src/core/session/session';
import { parseVary } from '../../../src/core/tuning/parameters';
import { runSweep } from '../../../src/core/tuning/sweep';
import { InputError } from '../../../src/core/util/diagnostics';
import { metricOptionsOf } from '../../../src/core/workspace/settings';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const example = copyOfExample();
// BASE as a user may write it: JSON with comments, and a third field, indexed but not searched (boost 0).
const raw = { lexical: { fields: { title: 1, body: 1, all: 0 }, depth: 100 }, pageSize: 10 };
writeFileSync(
  join(example, 'configs/commented.rank.json'),
  `// all: indexed, not searched\n${JSON.stringify(raw, null, 2).replace('"pageSize"', '/* page */ "pageSize"')}\n`,
);
writeFileSync(join(example, 'configs/broken.rank.json'), '{\n  "lexical": { "fields": { "title": "three" } }\n}\n');

const open = () => RanklabSession.open(example, { stateDir: tempDir() });
const objective = parseMetric('ndcg@10');

test('BASE as written: its fields, and every point of the grid with its holdout comparison, as runSweep gives it', async () => {
  const session = open();
  const base = sweepBase(session, 'commented');
  assert.deepEqual(base.raw, raw);
  assert.deepEqual(base.fields, ['title', 'body', 'all']);
  // Every boost 0 is no config: that point is skipped, as data, and the others are evaluated.
  const variations = [
    parseVary('lexical.fields.title=0,2', base.fields),
    parseVary('lexical.fields.body=0,1', base.fields),
    parseVary('lexical.fields.all=0,0.5', base.fields),
  ];
  const events: SweepConfigProgress[] = [];
  const r = await sweepConfig(session, { base: 'commented', variations, objective }, { progress: (p) => events.push(p) });
  assert.equal(r.skipped.length, 1);
  assert.deepEqual(r.skipped[0].values, { 'lexical.fields.title': 0, 'lexical.fields.body': 0, 'lexical.fields.all': 0 });
  assert.equal(r.combinations.length, 7);
  assert.equal(r.rows.length, 7, 'every evaluated point has its row (the default top is the whole grid)');
  assert.ok(r.rows.every((row) => row.holdoutStats));
  assert.deepEqual(
    events.map((e) => `${e.done}/${e.total}`),
    ['1/8', '2/8', '3/8', '4/8', '5/8', '6/8', '7/8', '8/8'],
  );

  const alone = open();
  const local = await runSweep(alone, {
    base: alone.resolveConfig('commented'),
    raw,
    variations,
    search: { kind: 'grid' },
    objective,
    metricOptions: metricOptionsOf(alone.workspace.settings),
    top: 8,
  });
  assert.deepEqual(r.rows, local.rows);
  assert.deepEqual(r.perQuery, local.perQuery);
});

test('a BASE that cannot be used is an InputError naming its file before anything runs', async () => {
  const variations = [parseVary('lexical.fields.title=1,2')];
  await assert.rejects(
    sweepConfig(open(), { base: 'broken', variations, objective }),
    (e: Error) => e instanceof InputError && e.file === 'configs/broken.rank.json',
  );
});

test('an aborted signal stops it with its reason', async () => {
  const abort = new AbortController();
  const seen: number[] = [];
  // k1 is searched again per combination (not a recombination of cached scores): the signal is read before each.
  await assert.rejects(
    sweepConfig(
      open(),
      { base: 'baseline', variations: [parseVary('lexical.bm25.k1=0.8,1,1.5,2')], objective },
      {
        signal: abort.signal,
        progress: (p) => {
          seen.push(p.done);
          if (p.done === 2) abort.abort(new Error('stopped by the test'));
        },
      },
    ),
    /stopped by the test/,
  );
  assert.deepEqual(seen, [1, 2], 'no combination after the abort was evaluated');
});
