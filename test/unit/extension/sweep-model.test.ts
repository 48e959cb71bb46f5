// The sweep view's model: the core's sweep as points, a point's per-query diff, the settings a sweep can vary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RanklabSession } from '../../../src/core/session/session';
import { DEFAULT_METRIC_OPTIONS, parseMetric } from '../../../src/core/metrics';
import { parseVary } from '../../../src/core/tuning/parameters';
import { runSweep } from '../../../src/core/tuning/sweep';
import { defaultRange, numericSettings, queryDiff, savePathFor, settingAt, sweepView } from '../../../src/extension/sweep/model';
import { copyOfExample } from '../../helpers/workspace';

test('the numeric settings a config writes, and the one under the cursor', () => {
  const text =
    '{\n  "lexical": {\n    "fields": { "title": 2, "body": 1 },\n    "bm25": { "k1": 1.2 },\n    "combineWith": "OR"\n  },\n  "pageSize": 10\n}';
  const raw = JSON.parse(text);
  assert.deepEqual(numericSettings(raw), [
    { path: 'lexical.fields.title', value: 2 },
    { path: 'lexical.fields.body', value: 1 },
    { path: 'lexical.bm25.k1', value: 1.2 },
    { path: 'pageSize', value: 10 },
  ]);
  assert.equal(settingAt(text, text.indexOf('"title": 2') + 10, raw), 'lexical.fields.title', 'on the value');
  assert.equal(settingAt(text, text.indexOf('"k1"') + 2, raw), 'lexical.bm25.k1', 'on the key');
  assert.equal(settingAt(text, text.indexOf('"OR"') + 1, raw), undefined, 'not numeric');
  for (const [path, value] of [
    ['lexical.fields.title', 2],
    ['lexical.bm25.k1', 1.2],
    ['lexical.bm25.b', 0.75],
    ['pageSize', 10],
  ] as const) {
    assert.doesNotThrow(() => parseVary(`${path}=${defaultRange(path, value)}`), `${path}: ${defaultRange(path, value)}`);
  }
});

test('savePathFor never names an existing file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-sweep-'));
  const base = join(dir, 'baseline.rank.json');
  assert.equal(savePathFor(base), join(dir, 'baseline-sweep-1.rank.json'));
  writeFileSync(join(dir, 'baseline-sweep-1.rank.json'), '{}');
  assert.equal(savePathFor(base), join(dir, 'baseline-sweep-2.rank.json'));
});

test("the view has one point per combination with its holdout CI; a point's diff is its per-query values minus BASE's", async () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const base = session.usable(session.configEntry('baseline'));
  const raw = JSON.parse(readFileSync(join(dir, 'configs', 'baseline.rank.json'), 'utf8'));
  const result = await runSweep(session, {
    base,
    raw,
    variations: [parseVary('lexical.fields.title=1,3')],
    search: { kind: 'grid' },
    objective: parseMetric('ndcg@10'),
    metricOptions: { ...DEFAULT_METRIC_OPTIONS },
    top: 2,
  });
  const view = sweepView(result, 'ndcg@10');
  assert.deepEqual(
    view.points.map((p) => p.values['lexical.fields.title']),
    [1, 3],
  );
  for (const p of view.points) assert.ok(p.ci[0] <= p.gain && p.gain <= p.ci[1], 'the gain lies in its CI');
  const diff = queryDiff(result, view.points[1].index, session.judgments());
  assert.equal(diff.rows.length, 94);
  const values = result.perQuery.combinations.get(view.points[1].index)!;
  for (const r of diff.rows) {
    assert.equal(r.value, values.get(r.qid));
    assert.equal(r.base, result.perQuery.base.get(r.qid));
    assert.equal(r.delta, r.value - r.base);
  }
  const sizes = diff.rows.map((r) => Math.abs(r.delta));
  assert.deepEqual(
    sizes,
    [...sizes].sort((a, b) => b - a),
    'largest change first',
  );
  assert.equal(diff.rows.filter((r) => r.split === 'holdout').length, result.split!.holdout);
});
