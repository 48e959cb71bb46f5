// `ranklab sweep` through the built binary: its scores agree with `ranklab eval` on the same split, --write-best
// never clobbers a file, bad --vary flags are exit 2 with the reason, Ctrl-C is exit 130 with nothing written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { runCli } from '../../helpers/interrupt';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const example = copyOfExample();

test("each row's tune and holdout scores are eval's on --split tune and --split holdout of that config", () => {
  const r = ranklab(['sweep', '--workspace', example, '--config', 'baseline', '--vary', 'lexical.fields.title=1,2,4', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.results.length, 3);
  assert.deepEqual(out.parameters, [{ path: 'lexical.fields.title', kind: 'recombination', values: [1, 2, 4] }]);
  const dir = tempDir();
  for (const row of out.results) {
    const file = join(dir, `title-${row.values['lexical.fields.title']}.rank.json`);
    const own = JSON.parse(readFileSync(join(example, 'configs', 'baseline.rank.json'), 'utf8'));
    own.lexical.fields.title = row.values['lexical.fields.title'];
    writeFileSync(file, JSON.stringify(own));
    for (const split of ['tune', 'holdout'] as const) {
      const e = ranklab([
        'eval',
        '--workspace',
        example,
        '--config',
        file,
        '--split',
        split,
        '--metrics',
        'ndcg@10',
        '--no-save',
        '--format',
        'json',
      ]);
      assert.equal(e.code, 0, e.stderr);
      const mean = JSON.parse(e.stdout).runs[0].metrics['ndcg@10'];
      assert.ok(Math.abs(mean - row[split]) < 1e-12, `${split} ${mean} vs ${row[split]}`);
    }
  }
  const tunes = out.results.map((x: { tune: number }) => x.tune);
  assert.deepEqual(
    tunes,
    [...tunes].sort((a, b) => b - a),
    'best first',
  );
  assert.ok(
    out.results[0].holdoutVsBase.ci95[0] <= out.results[0].holdoutVsBase.gain &&
      out.results[0].holdoutVsBase.gain <= out.results[0].holdoutVsBase.ci95[1],
  );
});

test('--write-best writes a new config atomically, never over an existing file without --force, never over an input', () => {
  const dir = tempDir();
  const best = join(dir, 'best.rank.json');
  const args = ['sweep', '--workspace', example, '--config', 'baseline', '--vary', 'lexical.fields.title=1,3', '--format', 'json'];
  const r = ranklab([...args, '--write-best', best]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.writtenBest, best);
  const written = JSON.parse(readFileSync(best, 'utf8'));
  assert.equal(written.lexical.fields.title, out.best['lexical.fields.title']);
  assert.equal(written.lexical.bm25.k1, 1.2, "the rest is BASE's");
  const e = ranklab(['eval', '--workspace', example, '--config', best, '--metrics', 'ndcg@10', '--no-save', '--format', 'json']);
  assert.equal(e.code, 0, e.stderr);
  assert.equal(JSON.parse(e.stdout).runs[0].configHash, out.results[0].configHash, 'the file is the best combination');

  writeFileSync(best, 'mine\n');
  const again = ranklab([...args, '--write-best', best]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /exists.*not overwritten.*--force/);
  assert.equal(readFileSync(best, 'utf8'), 'mine\n');
  const forced = ranklab([...args, '--write-best', best, '--force']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(JSON.parse(readFileSync(best, 'utf8')).lexical.fields.title, out.best['lexical.fields.title']);

  const baseFile = join(example, 'configs', 'baseline.rank.json');
  const before = readFileSync(baseFile, 'utf8');
  const input = ranklab([...args, '--write-best', baseFile, '--force']);
  assert.equal(input.code, 2);
  assert.match(input.stderr, /input of this command or workspace/);
  assert.equal(readFileSync(baseFile, 'utf8'), before);
  const suffix = ranklab([...args, '--write-best', join(dir, 'best.json')]);
  assert.equal(suffix.code, 2);
  assert.match(suffix.stderr, /must end with \.rank\.json/);
});

test('bad flags are exit 2 with the reason, before anything runs', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--vary', 'lexical.boosts.title=1..5:0.5'], /names no setting.*did you mean lexical\.fields\.title/],
    [['--vary', 'hybrid.k=10,60'], /no "hybrid" section/],
    [['--vary', 'lexical.fields.title=5..1:1'], /--vary lexical\.fields\.title=5\.\.1:1: the range is empty/],
    [['--vary', 'lexical.bm25.b=0.5..1.5:0.5'], /above the setting's maximum 1/],
    [[], /--vary: is required/],
    [['--vary', 'lexical.fields.title=1,2', '--search', 'random'], /--search: must be grid or random:N/],
    [['--vary', 'lexical.fields.title=1,2', '--folds', '1'], /--folds: must be an integer >= 2/],
    [['--vary', 'lexical.fields.title=1,2', '--folds', '3', '--split', 'tune'], /exclude each other/],
    [['--vary', 'lexical.fields.title=1,2', '--split', 'holdout'], /--split/],
    [['--vary', 'lexical.fields.title=1,2', '--objective', 'nope@10'], /nope/],
    [['--vary', 'lexical.fields.title=1,2', '--folds', '1000'], /1000 folds need at least 1000 judged queries; there are 94/],
  ];
  for (const [flags, pattern] of cases) {
    const r = ranklab(['sweep', '--workspace', example, '--config', 'baseline', ...flags]);
    assert.equal(r.code, 2, `${flags.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern, flags.join(' '));
  }
});

test('--folds K cross-validates over every query; ranklab help sweep prints the usage', () => {
  const r = ranklab([
    'sweep',
    '--workspace',
    example,
    '--config',
    'baseline',
    '--vary',
    'lexical.fields.title=1,2',
    '--folds',
    '4',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(
    out.folds.reduce((a: number, b: number) => a + b, 0),
    94,
  );
  assert.equal(out.estimate.queries, 94);
  assert.equal(
    out.results.reduce((n: number, x: { chosenInFolds: number }) => n + x.chosenInFolds, 0),
    4,
    'one choice per fold',
  );
  const help = ranklab(['help', 'sweep']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^ranklab sweep \[--workspace DIR\] --config BASE --vary/);
});

test('Ctrl-C during the sweep: exit 130, and --write-best wrote nothing', async () => {
  const best = join(tempDir(), 'best.rank.json');
  // Enough combinations that the sweep cannot end before the interrupt reaches it (a combination searched again takes
  // milliseconds; boost-only combinations are recombined in far less, see the in-process test in tuning/recombination).
  const r = await runCli(
    ['sweep', '--workspace', example, '--config', 'baseline', '--vary', 'lexical.bm25.k1=0.01..5:0.01', '--write-best', best],
    {
      cwd: example,
      interruptWhen: (p) => p.phase === 'queries' && !!p.label?.includes('['),
    },
  );
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /interrupted: \d+ of 501 configs evaluated; nothing written/);
  assert.equal(existsSync(best), false);
});
