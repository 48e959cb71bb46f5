// The action "compare saved runs" (src/core/actions/compare-saved-runs.ts) on runs of the example workspace, real
// indexes: the pair is computed once and then read from the comparison cache with the same figures, its statistics
// first agree with the full comparison, an aborted signal stops it with nothing cached, and the N-way matrix's
// significance is the core's (one candidate: the pair's own adjusted p-values).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { evaluateConfigs } from '../../../src/core/actions/evaluate-configs';
import {
  type ComparisonSettings,
  type StoredRunRef,
  compareSavedMatrix,
  compareSavedPair,
} from '../../../src/core/actions/compare-saved-runs';
import { COMPARISON_CACHE_DIR } from '../../../src/core/experiment/comparison-cache';
import { summaryOf } from '../../../src/core/experiment/run-index';
import { ALPHA } from '../../../src/core/experiment/verdict';
import { parseMetricList } from '../../../src/core/metrics';
import { runIdOfFile } from '../../../src/core/run/run-files';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const settings: ComparisonSettings = { metrics: ['ndcg@10', 'mrr@10'], gain: 'exp', relevanceThreshold: 1, gates: {} };

/** Three saved runs of the example (baseline, title-boost-3, vector), as a run store lists them. */
async function savedRuns() {
  const session = RanklabSession.open(copyOfExample(), { stateDir: tempDir() });
  const configs = ['baseline', 'title-boost-3', 'vector'].map((n) => session.resolveConfig(n));
  const { results } = await evaluateConfigs(session, {
    configs,
    specs: parseMetricList(settings.metrics),
    metricOptions: { gain: 'exp', relevanceThreshold: 1 },
  });
  const runs: StoredRunRef[] = results.map((r) => {
    const id = runIdOfFile(basename(r.path!))!;
    return { id, file: r.path!, summary: summaryOf(id, r.saved), run: r.saved };
  });
  return { session, runs, judgments: session.judgments(), dir: session.workspace.runsDir };
}

/** The files of the runs folder's cache (the runs' kept per-query values are there too, written when they were saved). */
const cacheFiles = (dir: string) => (existsSync(join(dir, COMPARISON_CACHE_DIR)) ? readdirSync(join(dir, COMPARISON_CACHE_DIR)) : []);

test('a pair is computed (statistics first), cached, then read from the cache with the same figures', async () => {
  const {
    runs: [b, c],
    judgments,
    dir,
  } = await savedRuns();
  const firsts: unknown[] = [];
  const before = cacheFiles(dir);
  const computed = await compareSavedPair(b, c, judgments, settings, { cacheDir: dir, titlesFor: 20, onStatistics: (f) => firsts.push(f) });
  assert.ok(!computed.refusal);
  assert.equal(computed.cached, false);
  assert.equal(firsts.length, 1, 'the statistics are given first when the pair is computed');
  const first = firsts[0] as { comparison: { metrics: Record<string, { delta: number; pAdjusted: number }> } };
  for (const [name, m] of Object.entries(computed.comparison.metrics)) {
    assert.equal(first.comparison.metrics[name].delta, m.delta, name);
    assert.equal(first.comparison.metrics[name].pAdjusted, m.pAdjusted, name);
  }
  assert.equal(computed.comparison.baseline, 'baseline');
  assert.equal(computed.comparison.candidate, 'title-boost-3');
  assert.equal(cacheFiles(dir).length, before.length + 1, 'one comparison cached');

  const again = await compareSavedPair(b, c, judgments, settings, { cacheDir: dir, titlesFor: 20, onStatistics: (f) => firsts.push(f) });
  assert.ok(!again.refusal);
  assert.equal(again.cached, true);
  assert.equal(firsts.length, 1, 'a cached pair computes no statistics');
  assert.deepEqual(again.comparison.metrics, computed.comparison.metrics);
  assert.deepEqual(again.verdict, computed.verdict);
  assert.deepEqual(again.sides, computed.sides);
});

test('an aborted signal stops the pair with its reason, and nothing is cached', async () => {
  const {
    runs: [b, c],
    judgments,
    dir,
  } = await savedRuns();
  const abort = new AbortController();
  abort.abort(new Error('stopped by the test'));
  const before = cacheFiles(dir);
  await assert.rejects(
    compareSavedPair(b, c, judgments, settings, { cacheDir: dir, titlesFor: 20, signal: abort.signal }),
    /stopped by the test/,
  );
  assert.deepEqual(cacheFiles(dir), before);
});

test("the matrix: one row per candidate, significant exactly when the adjusted p is under ALPHA; one candidate gives the pair's figures", async () => {
  const {
    runs: [b, c, v],
    judgments,
  } = await savedRuns();
  const two = await compareSavedMatrix(b, [c, v], judgments, settings);
  assert.deepEqual(
    two.matrix.rows.map((r) => r.candidate),
    ['title-boost-3', 'vector'],
  );
  assert.equal(two.matrix.alpha, ALPHA);
  for (const row of two.matrix.rows) for (const cell of Object.values(row.cells)) assert.equal(cell.significant, cell.pAdjusted < ALPHA);
  const one = await compareSavedMatrix(b, [v], judgments, settings);
  const pair = await compareSavedPair(b, v, judgments, settings, { titlesFor: 0 });
  assert.ok(!pair.refusal);
  for (const metric of one.matrix.metrics) {
    const cell = one.matrix.rows[0].cells[metric];
    assert.equal(cell.delta, pair.comparison.metrics[metric].delta, metric);
    assert.equal(cell.pAdjusted, pair.comparison.metrics[metric].pAdjusted, metric);
  }
  // Two candidates share one correction: more tests, adjusted p-values never lower than with one.
  assert.ok(two.matrix.tests > one.matrix.tests);
  for (const metric of one.matrix.metrics)
    assert.ok(two.matrix.rows[1].cells[metric].pAdjusted >= one.matrix.rows[0].cells[metric].pAdjusted, metric);
});

test('runs made as different principals are refused as data, not thrown', async () => {
  const {
    runs: [b, c],
    judgments,
  } = await savedRuns();
  const asChef = { ...c, summary: { ...c.summary, principal: 'chef' }, run: { ...c.run, principal: 'chef' } };
  const r = await compareSavedPair(b, asChef, judgments, settings, { titlesFor: 0 });
  assert.ok(r.refusal);
  assert.match(r.refusal.message, /chef/);
});
