// The Tune view's model: settings written into a config with its comments kept, the tuned copy beside it, the checks
// on webview input, the view of a TuneResult, and the proof that an applied config's evaluation reproduces the view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { evaluateConfigs } from '../../../src/core/actions/evaluate-configs';
import { withGateMetrics } from '../../../src/core/experiment/gates';
import { parseMetricList } from '../../../src/core/metrics';
import { RanklabSession } from '../../../src/core/session/session';
import { prepareTune, tuneSliders } from '../../../src/core/tuning/tuner';
import { metricOptionsOf } from '../../../src/core/workspace/settings';
import { applySettings, checkSettings, saveTunedConfig, settingsEdits, tuneQuickView, tuneView } from '../../../src/extension/tune/model';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const COMMENTED = `// tuned by hand: keep the title high
{
    "description": "BM25, title first", // why
    "lexical": {
        /* the fields and their boosts */
        "fields": { "title": 3, "body": 1 },
        "bm25": { "k1": 1.2, "b": 0.7 },
        "depth": 100
    }
}
`;

test('settings are written into the text: values change, comments and layout stay, a missing setting is added', () => {
  const out = applySettings(COMMENTED, {
    'lexical.fields.title': 2.5,
    'lexical.bm25.b': 0.35,
    'lexical.bm25.d': 0.4,
    'lexical.depth': 100,
  });
  for (const comment of ['// tuned by hand: keep the title high', '// why', '/* the fields and their boosts */'])
    assert.ok(out.includes(comment), `keeps ${comment}`);
  const raw = parse(out) as { lexical: { fields: Record<string, number>; bm25: Record<string, number>; depth: number } };
  assert.deepEqual(raw.lexical.fields, { title: 2.5, body: 1 });
  assert.deepEqual(raw.lexical.bm25, { k1: 1.2, b: 0.35, d: 0.4 });
  assert.equal(raw.lexical.depth, 100);
  assert.ok(out.includes('"fields": { "title": 2.5, "body": 1 }'), 'the one-line object stays on one line');
  assert.ok(out.includes('\n        "depth": 100\n'), 'the untouched line keeps its indentation');
  // One edit covering only what changed, so the editor's undo restores the file in one step.
  const edits = settingsEdits(COMMENTED, { 'lexical.fields.title': 2.5 });
  assert.equal(edits.length, 1);
  assert.equal(COMMENTED.slice(edits[0].offset, edits[0].offset + edits[0].length), '3');
  assert.deepEqual(settingsEdits(COMMENTED, { 'lexical.fields.title': 3 }), [], 'an unchanged value is no edit');
});

test('webview settings are checked against the sliders: unknown paths and values out of range are named', () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const sliders = tuneSliders(session.resolveConfig('title-boost-3'));
  assert.deepEqual(checkSettings({ 'lexical.bm25.b': 0.5 }, sliders), { 'lexical.bm25.b': 0.5 });
  assert.throws(() => checkSettings({ 'lexical.prefix': 1 }, sliders), /"lexical\.prefix" is not a slider/);
  assert.throws(() => checkSettings({ 'lexical.bm25.b': 2 }, sliders), /2 is not a number from 0 to 1/);
  assert.throws(() => checkSettings({ 'lexical.bm25.b': '0.5' }, sliders), /"0\.5" is not a number/);
  assert.throws(() => checkSettings([1], sliders), /expected an object/);
});

test('Save as new config: the first free -tuned-N, never over an existing file, its name field renamed', () => {
  const dir = tempDir('ranklab-tune-');
  const base = join(dir, 'boost.rank.json');
  const named = '{\n  "name": "boost", // the name\n  "lexical": { "fields": { "title": 3 } }\n}\n';
  writeFileSync(base, named);
  writeFileSync(join(dir, 'boost-tuned-1.rank.json'), 'kept');
  const first = saveTunedConfig(base, named, { 'lexical.fields.title': 1.5 });
  assert.equal(first, join(dir, 'boost-tuned-2.rank.json'));
  assert.equal(readFileSync(join(dir, 'boost-tuned-1.rank.json'), 'utf8'), 'kept', 'the existing file is untouched');
  const written = readFileSync(first, 'utf8');
  assert.deepEqual(parse(written), { name: 'boost-tuned-2', lexical: { fields: { title: 1.5 } } });
  assert.ok(written.includes('// the name'));
  assert.equal(saveTunedConfig(base, named, {}), join(dir, 'boost-tuned-3.rank.json'));
  assert.equal(readFileSync(base, 'utf8'), named, 'the base config is untouched');
  // A file without a name field gets none (its name is its file name).
  const unnamed = '{ "lexical": { "fields": { "title": 3 } } }';
  const path = saveTunedConfig(join(dir, 'plain.rank.json'), unnamed, { 'lexical.fields.title': 2 });
  assert.deepEqual(parse(readFileSync(path, 'utf8')), { lexical: { fields: { title: 2 } } });
  assert.deepEqual(
    readdirSync(dir).filter((f) => f.endsWith('.tmp')),
    [],
    'no temporary file left',
  );
});

test('the applied config, evaluated by the core, reproduces the view: headline, every metric on all / tune / holdout', async () => {
  const dir = copyOfExample();
  const file = join(dir, 'configs', 'title-boost-3.rank.json');
  const session = RanklabSession.open(dir, { writeCache: false });
  const tuner = await prepareTune(session, { baseConfig: session.resolveConfig(file) });
  const settings = { 'lexical.fields.title': 1.5, 'lexical.bm25.k1': 0.9, 'lexical.bm25.b': 0.4, 'lexical.depth': 20 };
  const own = tuneView(await tuner.evaluate({}), {}, 0);
  const view = tuneView(await tuner.evaluate(settings), settings, 0);
  assert.notEqual(view.headline.current, own.headline.current, 'the settings move the headline (else the check below proves little)');

  writeFileSync(file, applySettings(readFileSync(file, 'utf8'), settings));
  const fresh = RanklabSession.open(dir, { writeCache: false });
  const ws = fresh.workspace.settings;
  const specs = withGateMetrics(parseMetricList(ws.metrics), ws.gates);
  const metricOptions = metricOptionsOf(ws);
  const config = fresh.resolveConfig(file);
  const baseline = fresh.baselineConfig();
  for (const side of ['all', 'tune', 'holdout'] as const) {
    const { results, failed } = await evaluateConfigs(fresh, {
      configs: [config, baseline],
      specs,
      metricOptions,
      split: side,
      save: false,
    });
    assert.deepEqual(failed, []);
    const [applied, base] = results.map((r) => r.evaluation);
    assert.equal(applied.perQuery.size, view.queries[side], `${side}: queries`);
    for (const row of view.metrics) {
      assert.equal(row[side].current, applied.means[row.metric], `${side} ${row.metric}: the applied config`);
      assert.equal(row[side].baseline, base.means[row.metric], `${side} ${row.metric}: the baseline`);
    }
    if (side === 'all') assert.equal(view.headline.current, applied.means[view.headline.metric], 'the headline');
  }
});

test('the view of a result: per-query Δ largest gain first, W/L/T, the overfitting warning when the core flags it', async () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const tuner = await prepareTune(session, { baseConfig: session.resolveConfig('title-boost-3') });
  const r = await tuner.evaluate({ 'lexical.fields.title': 0.5 });
  const view = tuneView(r, { 'lexical.fields.title': 0.5 }, 7);
  const deltas = view.perQuery.map((q) => q.delta);
  assert.deepEqual(
    deltas,
    [...deltas].sort((a, b) => b - a),
  );
  assert.equal(view.perQuery.length, r.perQuery.length);
  assert.equal(view.wins + view.losses + view.ties, view.queries.all);
  assert.equal(view.stats?.verdict.headline, r.verdict.headline);
  assert.equal(view.overfitting !== undefined, r.overfitting);
  assert.equal(tuneView({ ...r, overfitting: true }, {}, 0).overfitting?.startsWith(`Overfitting: ${r.headline} gains`), true);
});

test('the two stages of a move: the first (quick, with the gates) is the full view less its statistics; evaluate after quick equals evaluate alone', async () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const tuner = await prepareTune(session, { baseConfig: session.resolveConfig('title-boost-3') });
  const baseline = session.baselineConfig().name;
  const moves: Array<Record<string, number>> = [
    {},
    { 'lexical.fields.title': 0.5 },
    { 'lexical.bm25.k1': 0.6, 'lexical.depth': 15 },
    { 'lexical.fields.title': 0, 'lexical.depth': 1 },
  ];
  const passed = new Set<string>();
  for (const settings of moves) {
    // As the panel calls them (the worker's tuneQuick, then tuneEvaluate): quickWithGates, then evaluate of the same
    // settings (which reuses its ranking).
    const first = tuneQuickView(await tuner.quickWithGates(settings), settings, baseline, 3);
    const { stats, ...full } = tuneView(await tuner.evaluate(settings), settings, 3);
    assert.equal(first.stats, undefined, 'the first stage carries no statistics');
    assert.deepEqual(first, full, `${JSON.stringify(settings)}: every figure of the first stage is the full answer's`);
    assert.ok(stats && Number.isFinite(stats.pAdjusted) && stats.verdict.outcome.length > 0);
    // The example's gates (ranklab.json): the first stage's are the second's, passed or failed alike.
    assert.ok(first.gates && first.gates.length > 1, 'the first stage has the gates');
    assert.deepEqual(first.gates, stats.gates, "the gates of the first stage are the statistics' gates");
    passed.add(first.gates.map((g) => g.passed).join());
  }
  assert.ok(passed.size > 1, `the moves pass different gates: ${[...passed].join(' | ')}`);
  // evaluate alone (no quick before it) gives the same figures as after quick.
  const fresh = await prepareTune(RanklabSession.open(dir, { writeCache: false }), { baseConfig: session.resolveConfig('title-boost-3') });
  const alone = tuneView(await fresh.evaluate({ 'lexical.fields.title': 0.5 }), {}, 0);
  const after = tuneView(await tuner.evaluate({ 'lexical.fields.title': 0.5 }), {}, 0);
  assert.deepEqual(alone, after);
});
