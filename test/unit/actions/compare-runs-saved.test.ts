// The action "compare runs" (src/core/actions/compare-runs.ts) on saved runs of the example workspace, as the
// dashboard asks for it, real indexes: the pair is computed once and then read from the comparison cache with the same
// figures, its statistics first agree with the full comparison, an aborted signal stops it with nothing cached, the
// N-way matrix's significance is the core's (one candidate: the pair's own adjusted p-values), and each run's kept
// per-query values (evaluation-cache.ts) are what the comparison uses, keyed by the run file's real stamp, while a
// tampered entry is refused and the values evaluated again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import { basename, join } from 'node:path';
import { evaluateConfigs } from '../../../src/core/actions/evaluate-configs';
import {
  type CompareRunsHooks,
  type ComparisonSettings,
  type StoredRunRef,
  compareRuns,
  comparisonSpecs,
} from '../../../src/core/actions/compare-runs';
import { COMPARISON_CACHE_DIR, cacheEntry, runFileStamp } from '../../../src/core/experiment/comparison-cache';
import { readRunEvaluation, writeRunEvaluation } from '../../../src/core/experiment/evaluation-cache';
import { MixedPrincipalsError } from '../../../src/core/experiment/compare';
import { summaryOf } from '../../../src/core/experiment/run-index';
import { ALPHA } from '../../../src/core/experiment/verdict';
import type { JudgmentSet } from '../../../src/core/judgments';
import { parseMetricList } from '../../../src/core/metrics';
import { runIdOfFile } from '../../../src/core/run/run-files';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';
import { editEntry, entryText } from '../../helpers/cache-entries';

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

/** A pair of saved runs as the dashboard compares it: through both caches of `dir` (none: no cache), statistics first. */
async function pair(b: StoredRunRef, c: StoredRunRef, judgments: JudgmentSet, dir?: string, hooks: CompareRunsHooks = {}) {
  const { specs, options } = comparisonSpecs([b, c], settings);
  const r = await compareRuns(
    undefined,
    {
      baseline: { kind: 'saved', ref: b },
      candidates: [{ kind: 'saved', ref: c }],
      specs,
      metricOptions: options,
      split: 'all',
      judgments,
      explain: 0,
      gates: settings.gates,
      cache: { dir, figures: { titlesFor: 20 } },
    },
    hooks,
  );
  return { comparison: r.many.comparisons[0], verdict: r.verdicts[0], matrixVerdict: r.matrix.rows[0]?.verdict, ...r.figures! };
}

/** One baseline against several saved runs (the matrix), reading their kept values from `dir` when given. */
async function many(b: StoredRunRef, cs: StoredRunRef[], judgments: JudgmentSet, dir?: string) {
  const { specs, options } = comparisonSpecs([b, ...cs], settings);
  return compareRuns(undefined, {
    baseline: { kind: 'saved', ref: b },
    candidates: cs.map((ref) => ({ kind: 'saved' as const, ref })),
    specs,
    metricOptions: options,
    split: 'all',
    judgments,
    explain: 0,
    gates: settings.gates,
    cache: { dir },
  });
}

test('a pair is computed (statistics first), cached, then read from the cache with the same figures', async () => {
  const {
    runs: [b, c],
    judgments,
    dir,
  } = await savedRuns();
  const firsts: unknown[] = [];
  const before = cacheFiles(dir);
  const computed = await pair(b, c, judgments, dir, { onStatistics: (f) => firsts.push(f) });
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

  const again = await pair(b, c, judgments, dir, { onStatistics: (f) => firsts.push(f) });
  assert.equal(again.cached, true);
  assert.equal(firsts.length, 1, 'a cached pair computes no statistics');
  assert.deepEqual(again.comparison.metrics, computed.comparison.metrics);
  assert.deepEqual(again.verdict, computed.verdict);
  // The matrix row's verdict is the kept one (made with the bounds, which the cache does not keep), not made again.
  assert.deepEqual(again.matrixVerdict, computed.verdict);
  assert.deepEqual(computed.matrixVerdict, computed.verdict);
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
  await assert.rejects(pair(b, c, judgments, dir, { signal: abort.signal }), /stopped by the test/);
  assert.deepEqual(cacheFiles(dir), before);
});

test("the matrix: one row per candidate, significant exactly when the adjusted p is under ALPHA; one candidate gives the pair's figures", async () => {
  const {
    runs: [b, c, v],
    judgments,
  } = await savedRuns();
  const two = await many(b, [c, v], judgments);
  assert.deepEqual(
    two.matrix.rows.map((r) => r.candidate),
    ['title-boost-3', 'vector'],
  );
  assert.equal(two.matrix.alpha, ALPHA);
  for (const row of two.matrix.rows) for (const cell of Object.values(row.cells)) assert.equal(cell.significant, cell.pAdjusted < ALPHA);
  const one = await many(b, [v], judgments);
  const figures = await pair(b, v, judgments);
  for (const metric of one.matrix.metrics) {
    const cell = one.matrix.rows[0].cells[metric];
    assert.equal(cell.delta, figures.comparison.metrics[metric].delta, metric);
    assert.equal(cell.pAdjusted, figures.comparison.metrics[metric].pAdjusted, metric);
  }
  // Two candidates share one correction: more tests, adjusted p-values never lower than with one.
  assert.ok(two.matrix.tests > one.matrix.tests);
  for (const metric of one.matrix.metrics)
    assert.ok(two.matrix.rows[1].cells[metric].pAdjusted >= one.matrix.rows[0].cells[metric].pAdjusted, metric);
});

test('runs made as different principals are refused (MixedPrincipalsError, which the dashboard shows as a refusal)', async () => {
  const {
    runs: [b, c],
    judgments,
  } = await savedRuns();
  const asChef = { ...c, summary: { ...c.summary, principal: 'chef' }, run: { ...c.run, principal: 'chef' } };
  await assert.rejects(pair(b, asChef, judgments), (e) => e instanceof MixedPrincipalsError && /chef/.test(e.message));
});

/** Where `r`'s kept values on these judgments are (the entry evaluation-cache.ts writes), with its key. */
function keptEntry(r: StoredRunRef, judgments: JudgmentSet, dir: string) {
  const key = { run: runFileStamp(r.id, r.file), judgments: judgments.fingerprint, options: comparisonSpecs([r], settings).options };
  return { key, path: cacheEntry(dir, [r.id], { kind: 'run-evaluation', ...key }).path };
}

test("a saved run's kept values are what the comparison uses (not evaluated again), while its file's stamp is the same", async () => {
  const {
    runs: [b, c],
    judgments,
    dir,
  } = await savedRuns();
  const honest = (await many(b, [c], judgments)).many.comparisons[0].metrics['ndcg@10'].baseline;
  // Kept values that evaluating the run could not give: every query's ndcg@10 at 0.5, written under the run's key.
  const { key, path } = keptEntry(b, judgments, dir);
  const kept = readRunEvaluation(dir, key, ['ndcg@10', 'mrr@10']);
  assert.ok(kept, 'the run kept its values when it was saved');
  assert.notEqual(honest, 0.5);
  const planted = new Map([...kept.values].map(([q, v]) => [q, { ...v, 'ndcg@10': 0.5 }]));
  assert.ok(writeRunEvaluation(dir, key, { ...kept, values: planted }));
  assert.ok(existsSync(path));
  assert.equal((await many(b, [c], judgments, dir)).many.comparisons[0].metrics['ndcg@10'].baseline, 0.5, 'the matrix and the CLI path');
  assert.equal((await pair(b, c, judgments, dir)).comparison.metrics['ndcg@10'].baseline, 0.5, "the dashboard's pair");
  assert.equal((await many(b, [c], judgments)).many.comparisons[0].metrics['ndcg@10'].baseline, honest, 'no runs folder: evaluated');
  // The run file touched: its stamp changes, so the kept values are no longer its own and the run is evaluated.
  const later = new Date(Date.now() + 60_000);
  utimesSync(b.file, later, later);
  assert.equal((await many(b, [c], judgments, dir)).many.comparisons[0].metrics['ndcg@10'].baseline, honest);
});

test('a tampered kept evaluation is refused: the run is evaluated again and its honest values kept in its place', async () => {
  const {
    runs: [b, c],
    judgments,
    dir,
  } = await savedRuns();
  const honest = (await many(b, [c], judgments)).many.comparisons[0].metrics['ndcg@10'].baseline;
  const { key, path } = keptEntry(b, judgments, dir);
  const kept = readRunEvaluation(dir, key, ['ndcg@10', 'mrr@10'])!;
  writeRunEvaluation(dir, key, { ...kept, values: new Map([...kept.values].map(([q, v]) => [q, { ...v, 'ndcg@10': 0.5 }])) });
  // Edited after it was sealed: one value changed, the content hash left as it was.
  const text = entryText(path);
  const edited = text.replace('0.5', '0.25');
  assert.notEqual(edited, text);
  editEntry(path, edited);
  assert.equal(readRunEvaluation(dir, key, ['ndcg@10']), undefined, 'the edited entry is not read');
  assert.equal((await many(b, [c], judgments, dir)).many.comparisons[0].metrics['ndcg@10'].baseline, honest);
  assert.equal((await pair(b, c, judgments, dir)).comparison.metrics['ndcg@10'].baseline, honest);
  // The pair evaluated the run again and kept its values: the entry is whole and honest now.
  const rewritten = readRunEvaluation(dir, key, ['ndcg@10']);
  assert.ok(rewritten);
  assert.ok([...rewritten.values.values()].some((v) => v['ndcg@10'] !== 0.5 && v['ndcg@10'] !== 0.25));
});
