// The dashboard's comparison through the core's comparison cache: a second open reads it, and a change of ANY input
// (a judgment grade, a tag, the query set, a metric option, a gate, a run file) is computed
// again with the new figures, never served from the cache. "Fresh" = the same call without a cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readSavedRuns } from '../../../src/extension/run-store';
import { type ComparisonSettings, dashboardComparison } from '../../../src/extension/dashboard/model';
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

/** The figures a user reads: every metric line, slices, gates, verdict, per-query values. */
const figures = (c: Awaited<ReturnType<typeof dashboardComparison>>) => ({ view: c.view, perQuery: c.core?.perQuery });

test('a second open reads the comparison from the cache: the same figures, core and verdict included, as computed', async () => {
  const { ws, runsDir, judgments } = workspace();
  const j = judgments();
  const first = await both(ws, runsDir, j);
  assert.equal(first.cached.cached, false);
  assert.deepEqual(figures(first.cached), figures(first.fresh));
  assert.equal(readdirSync(path.join(runsDir, COMPARISON_CACHE_DIR)).length, 1);
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
  editJudgments((qs) => { qs[1].judgments['corpus/quick-bread.md'] = 3; });
  const graded = await check('a judgment grade');
  assert.notEqual(ndcg(graded).candidate, ndcg(before.cached).candidate);
  // A tag (the slices).
  editJudgments((qs) => { qs[0].tags = ['soup']; });
  const tagged = await check('a tag');
  assert.deepEqual(tagged.core!.queryInfo.q1.tags, ['soup']);
  // The query set: q3 no longer judged.
  editJudgments((qs) => { qs.splice(2, 1); });
  const fewer = await check('the query set');
  assert.equal(fewer.view!.queries, 2);
  // A metric option: linear gain.
  const linear = await check('a metric option', { ...SETTINGS, gain: 'linear' });
  assert.notEqual(ndcg(linear).candidate, ndcg(fewer).candidate);
  // A gate.
  const gated = await check('a gate', { ...SETTINGS, gates: { min: { 'ndcg@10': 0.99 } } });
  assert.deepEqual(gated.view!.gates.map((g) => g.passed), [false]);
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
  const [entry] = readdirSync(dir);
  for (const garbage of [Buffer.from('not gzip'), readFileSync(path.join(dir, entry)).subarray(0, 40)]) {
    writeFileSync(path.join(dir, entry), garbage);
    const again = await both(ws, runsDir, j);
    assert.equal(again.cached.cached, false);
    assert.deepEqual(figures(again.cached), figures(first.fresh));
    assert.equal((await both(ws, runsDir, j)).cached.cached, true, 'the entry was written again');
  }
});
