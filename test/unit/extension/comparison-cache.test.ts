// The dashboard's comparison through the core's comparison cache: a second open reads it, and a change of ANY input
// (a judgment grade, a tag, the query set, a metric option, a gate, a run file) is computed
// again with the new figures, never served from the cache. "Fresh" = the same call without a cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { SavedRuns, readSavedRuns } from '../../../src/extension/run-store';
import { buildDashboardModel } from '../../../src/extension/dashboard/model';
import { type ComparisonSettings, type DashboardComparison, dashboardComparison } from '../../../src/extension/dashboard/comparison';
import type { ComparisonStatistics } from '../../../src/core/experiment/compare';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { parseMetricList } from '../../../src/core/metrics';
import { copyOfExample } from '../../helpers/workspace';
import { RanklabSession } from '../../../src/core/session/session';
import { COMPARISON_CACHE_DIR } from '../../../src/core/experiment/comparison-cache';
import type { JudgmentSet } from '../../../src/core/judgments/types';

const FIXTURE = path.resolve(__dirname, '../../fixtures/vscode-workspace');
const SETTINGS: ComparisonSettings = { metrics: ['ndcg@10'], gain: 'exp', relevanceThreshold: 1, gates: {} };

function workspace() {
  const ws = mkdtempSync(path.join(tmpdir(), 'ranklab-cmpcache-'));
  cpSync(FIXTURE, ws, { recursive: true });
  const runsDir = path.join(ws, '.ranklab/runs');
  const judgments = () => RanklabSession.open(ws, { stateDir: mkdtempSync(path.join(tmpdir(), 'ranklab-state-')) }).judgments();
  const golden = path.join(ws, 'judgments/golden.json');
  const editJudgments = (edit: (qs: { id: string; judgments: Record<string, number>; tags?: string[] }[]) => void) => {
    const qs = JSON.parse(readFileSync(golden, 'utf8'));
    edit(qs);
    writeFileSync(golden, JSON.stringify(qs));
  };
  return { ws, runsDir, judgments, editJudgments };
}

async function both(ws: string, runsDir: string, judgments: JudgmentSet, settings = SETTINGS) {
  const { runs } = readSavedRuns(ws);
  const cached = await dashboardComparison(runs[0], runs[1], judgments, settings, { cacheDir: runsDir });
  const fresh = await dashboardComparison(runs[0], runs[1], judgments, settings);
  return { cached, fresh };
}

/** The cache's entries, sorted: a pair's comparison (named by both runs) or a run's per-query values (by the run). */
const entries = (runsDir: string) =>
  readdirSync(path.join(runsDir, COMPARISON_CACHE_DIR))
    .map((name) => ({ name, kind: name.split('-').length === 3 ? 'pair' : 'run' }))
    .sort((a, b) => a.kind.localeCompare(b.kind));

/** The figures a user reads: every metric line, slices, gates, verdict, per-query values. */
const figures = (c: Awaited<ReturnType<typeof dashboardComparison>>) => ({ view: c.view, perQuery: c.core?.perQuery });

test('a second open reads the comparison from the cache: the same figures, core and verdict included, as computed', async () => {
  const { ws, runsDir, judgments } = workspace();
  const j = judgments();
  const first = await both(ws, runsDir, j);
  assert.equal(first.cached.cached, false);
  assert.deepEqual(figures(first.cached), figures(first.fresh));
  assert.deepEqual(
    entries(runsDir).map((e) => e.kind),
    ['pair', 'run', 'run'],
    "the comparison, and each run's per-query values",
  );
  assert.equal(readSavedRuns(ws).runs.length, 2, 'the cache folder is never taken for a run');
  const second = await both(ws, runsDir, j);
  assert.equal(second.cached.cached, true);
  // The whole core comparison came back equal through JSON (Maps, undefined, NaN and infinities included).
  assert.deepEqual(second.cached.core, second.fresh.core);
  assert.deepEqual(second.cached.view, second.fresh.view);
});

test('every input changed in turn is recomputed with the new figures, never the cached ones', async () => {
  const { ws, runsDir, judgments, editJudgments } = workspace();
  const before = await both(ws, runsDir, judgments());
  const ndcg = (c: typeof before.cached) => c.view!.metrics.find((m) => m.spec === 'ndcg@10')!;
  const check = async (what: string, settings = SETTINGS) => {
    const now = await both(ws, runsDir, judgments(), settings);
    assert.equal(now.cached.cached, false, `${what}: not served from the cache`);
    assert.deepEqual(figures(now.cached), figures(now.fresh), `${what}: the figures computed now`);
    assert.notDeepEqual(figures(now.cached), figures(before.cached), `${what}: the figures changed`);
    const again = await both(ws, runsDir, judgments(), settings);
    assert.equal(again.cached.cached, true, `${what}: cached once computed`);
    return now.cached;
  };

  // A judgment grade: q2's quick-bread 2 → 3.
  editJudgments((qs) => {
    qs[1].judgments['corpus/quick-bread.md'] = 3;
  });
  const graded = await check('a judgment grade');
  assert.notEqual(ndcg(graded).candidate, ndcg(before.cached).candidate);
  // A tag (the slices).
  editJudgments((qs) => {
    qs[0].tags = ['soup'];
  });
  const tagged = await check('a tag');
  assert.deepEqual(tagged.core!.queryInfo.q1.tags, ['soup']);
  // The query set: q3 no longer judged.
  editJudgments((qs) => {
    qs.splice(2, 1);
  });
  const fewer = await check('the query set');
  assert.equal(fewer.view!.queries, 2);
  // A metric option: linear gain.
  const linear = await check('a metric option', { ...SETTINGS, gain: 'linear' });
  assert.notEqual(ndcg(linear).candidate, ndcg(fewer).candidate);
  // A gate.
  const gated = await check('a gate', { ...SETTINGS, gates: { min: { 'ndcg@10': 0.99 } } });
  assert.deepEqual(
    gated.view!.gates.map((g) => g.passed),
    [false],
  );
  // A run file: the candidate's q1 list reversed, then the file rewritten (a later mtime, same size).
  const file = path.join(runsDir, '2025-11-02-title-boost.json');
  const run = JSON.parse(readFileSync(file, 'utf8'));
  run.queries[0].docs.reverse();
  writeFileSync(file, JSON.stringify(run, null, 2));
  utimesSync(file, new Date(), new Date(Date.now() + 5000));
  const rewritten = await check('a run file');
  assert.notEqual(ndcg(rewritten).candidate, ndcg(fewer).candidate);
});

test('a garbled or partial entry is ignored and recomputed, then replaced', async () => {
  const { ws, runsDir, judgments } = workspace();
  const j = judgments();
  const first = await both(ws, runsDir, j);
  const dir = path.join(runsDir, COMPARISON_CACHE_DIR);
  const entry = entries(runsDir).find((e) => e.kind === 'pair')!.name;
  for (const garbage of [Buffer.from('not gzip'), readFileSync(path.join(dir, entry)).subarray(0, 40)]) {
    writeFileSync(path.join(dir, entry), garbage);
    const again = await both(ws, runsDir, j);
    assert.equal(again.cached.cached, false);
    assert.deepEqual(figures(again.cached), figures(first.fresh));
    assert.equal((await both(ws, runsDir, j)).cached.cached, true, 'the entry was written again');
  }
});

test('Open Dashboard on runs just evaluated: the page and the verdict without reading a run file, then the comparison in full; the next open reads none', async () => {
  const ws = copyOfExample();
  const session = RanklabSession.open(ws, { stateDir: mkdtempSync(path.join(tmpdir(), 'ranklab-state-')) });
  const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };
  const settingsOf = { metrics: ['ndcg@10', 'recall@10'], gates: { maxRegression: { 'ndcg@10': 0.01 } } };
  const specs = parseMetricList(settingsOf.metrics);
  // Saving a run also keeps its per-query values (core session/evaluate.ts), here as the worker's evaluation does.
  await evaluateConfig(session, session.resolveConfig('baseline'), { specs, metricOptions });
  await evaluateConfig(session, session.resolveConfig('title-boost-3'), { specs, metricOptions });
  const runsDir = session.workspace.runsDir;
  assert.deepEqual(
    entries(runsDir).map((e) => e.kind),
    ['run', 'run'],
  );
  const judgments = session.judgmentsFor({ relevanceThreshold: 1 });

  const open = async (metricOptions: { gain: 'exp' | 'linear'; relevanceThreshold: number } = { gain: 'exp', relevanceThreshold: 1 }) => {
    const settings: ComparisonSettings = { ...settingsOf, ...metricOptions };
    const store = new SavedRuns(runsDir, ws);
    const { runs } = store.list();
    const read = () => store.filesRead - readAtList;
    const readAtList = store.filesRead;
    const model = (cmp?: DashboardComparison<ComparisonStatistics>) =>
      buildDashboardModel({
        workspaceName: 'ws',
        runsFolder: runsDir,
        runs,
        problems: [],
        metricOptions,
        baselineRunId: runs[0].id,
        candidateRunId: runs[1].id,
        comparing: !cmp,
        comparison: cmp?.view,
        core: cmp?.core,
        sides: cmp?.sides,
      });
    const page = model();
    assert.equal(read(), 0, 'the page: from the run index');
    assert.deepEqual([page.runs.map((r) => r.queryCount), page.perQuery], [[runs[0].summary.queryCount, runs[1].summary.queryCount], []]);
    const firsts: { model: ReturnType<typeof model>; read: number }[] = [];
    const full = await dashboardComparison(runs[0], runs[1], judgments, settings, {
      cacheDir: runsDir,
      onStatistics: (first) => firsts.push({ model: model(first), read: read() }),
    });
    return { firsts, full, model: model(full), read: read() };
  };

  const cold = await open();
  assert.equal(cold.firsts.length, 1, 'the statistics came first');
  const [first] = cold.firsts;
  assert.equal(first.read, 0, 'the verdict: no run file read');
  assert.equal(cold.read, 2, 'the comparison in full: both runs read');
  const shown = first.model.comparison!;
  assert.match(shown.pending ?? '', /moved documents/);
  assert.deepEqual([shown.moved, shown.classes, shown.judged], [[], undefined, undefined]);
  // Every figure of the first screen is the whole comparison's: metrics, slices, splits, gates, verdict, per-query rows.
  const whole = cold.model.comparison!;
  assert.ok(whole.moved.length > 0 && whole.classes && whole.judged && !whole.pending);
  const statistics = ({ metrics, slices, splits, gates, queries, correction, verdict }: typeof shown) => ({
    metrics,
    slices,
    splits,
    gates,
    queries,
    correction,
    verdict: { ...verdict, notes: undefined, lines: verdict.lines.map(({ couldFlip: _c, text: _t, ...l }) => l) },
  });
  assert.deepEqual(statistics(shown), statistics(whole));
  assert.deepEqual(
    first.model.perQuery,
    cold.model.perQuery.map(({ classes: _c, ...r }) => r),
  );
  assert.ok(shown.warnings.every((w) => whole.warnings.includes(w)));

  const warm = await open();
  assert.equal(warm.full.cached, true);
  assert.deepEqual([warm.firsts.length, warm.read], [0, 0], 'the next open: straight from the cache, no run file read');
  assert.deepEqual(warm.model, cold.model);

  // Scored otherwise (linear gain: no per-query values kept for it): the verdict still comes first, from the run files.
  const linear = await open({ gain: 'linear', relevanceThreshold: 1 });
  assert.deepEqual(
    [linear.firsts.length, linear.firsts[0].read, linear.read],
    [1, 2, 2],
    'both runs read once, for the verdict and the rest',
  );
  assert.deepEqual(statistics(linear.firsts[0].model.comparison!), statistics(linear.model.comparison!));
  assert.notDeepEqual(statistics(linear.model.comparison!), statistics(whole), 'other figures');
  assert.equal((await open({ gain: 'linear', relevanceThreshold: 1 })).read, 0, 'then cached too');
});
