import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { readSavedRuns, readWorkspaceSettings, storedRunOf } from '../../../src/extension/run-store';
import { buildDashboardModel, buildQueryDetail, perQueryRows } from '../../../src/extension/dashboard/model';
import { classesView, dashboardComparison } from '../../../src/extension/dashboard/comparison';
import { RanklabSession } from '../../../src/core/session/session';
import { isWebviewToHost } from '../../../src/protocol/dashboard';
import { parseMetricList } from '../../../src/core/metrics';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { tuneHoldoutSplit } from '../../../src/core/judgments';
import { inSlice } from '../../../webview/dashboard/query-view';
import { stagesWorkspace } from '../../helpers/stages-workspace';

const FIXTURE = path.resolve(__dirname, '../../fixtures/vscode-workspace');

function copyFixture(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ranklab-model-'));
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

test('reads the fixture runs oldest first and the ranklab.json settings', () => {
  const { runs, problems } = readSavedRuns(copyFixture());
  assert.deepEqual(problems, []);
  assert.deepEqual(
    runs.map((r) => r.id),
    ['2025-11-01-baseline', '2025-11-02-title-boost'],
  );
  const s = readWorkspaceSettings(FIXTURE);
  assert.equal(s.baselineConfig, 'baseline');
  assert.deepEqual(s.metricOptions, { gain: 'exp', relevanceThreshold: 1 });
});

test('a broken run file is reported by name and the others still load', () => {
  const ws = copyFixture();
  writeFileSync(path.join(ws, '.ranklab/runs/zz-broken.json'), '{ "format": "ranklab-run@1", ');
  writeFileSync(path.join(ws, '.ranklab/runs/zz-other.json'), '{ "format": "something-else" }');
  const { runs, problems } = readSavedRuns(ws);
  assert.equal(runs.length, 2);
  assert.equal(problems.length, 2);
  assert.match(problems[0], /^\.ranklab\/runs\/zz-broken\.json: .*file skipped$/);
  assert.match(problems[1], /^\.ranklab\/runs\/zz-other\.json: .*format is "something-else"/);
});

test('no runs folder: empty list, no problem', () => {
  const ws = mkdtempSync(path.join(tmpdir(), 'ranklab-empty-'));
  mkdirSync(path.join(ws, 'x'));
  assert.deepEqual(readSavedRuns(ws), { runs: [], problems: [] });
});

test('model: baseline from ranklab.json, candidate = newest other run, per-query sorted by delta ascending', () => {
  const { runs, problems } = readSavedRuns(copyFixture());
  const m = buildDashboardModel({
    workspaceName: 'ws',
    runsFolder: '.ranklab/runs',
    runs,
    problems,
    metricOptions: { gain: 'exp', relevanceThreshold: 1 },
    baselineConfig: 'baseline',
  });
  assert.equal(m.baselineRunId, '2025-11-01-baseline');
  assert.equal(m.candidateRunId, '2025-11-02-title-boost');
  assert.deepEqual(
    m.metricColumns.map((c) => c.spec),
    ['ndcg@10', 'mrr@10', 'p@5'],
  );
  assert.match(m.metricColumns[0].label, /^nDCG@10, gain 2\^rel−1/);
  assert.equal(m.metricColumns[2].label, 'Precision@5, relevant = grade ≥ 1');
  // q2: 0.3 − 0.8 = −0.5; q3: 0.6 − 0.6 = 0; q1: 0.9 − 0.5 = +0.4
  assert.deepEqual(
    m.perQuery.map((q) => [q.qid, Number(q.delta!.toFixed(6))]),
    [
      ['q2', -0.5],
      ['q3', 0],
      ['q1', 0.4],
    ],
  );
  assert.equal(m.runs[1].latency.total.p99, 4.1);
});

test('model: explicit baseline wins; a vanished explicit id falls back to the configured one', () => {
  const { runs } = readSavedRuns(copyFixture());
  const base = {
    workspaceName: 'ws',
    runsFolder: 'r',
    runs,
    problems: [],
    metricOptions: { gain: 'linear' as const, relevanceThreshold: 2 },
    baselineConfig: 'baseline',
  };
  const m = buildDashboardModel({ ...base, baselineRunId: '2025-11-02-title-boost' });
  assert.equal(m.baselineRunId, '2025-11-02-title-boost');
  assert.equal(m.candidateRunId, '2025-11-01-baseline');
  assert.match(m.metricColumns[0].label, /gain rel \(linear\)/);
  assert.equal(m.metricColumns[1].label, 'MRR@10, relevant = grade ≥ 2');
  const gone = buildDashboardModel({ ...base, baselineRunId: 'deleted-run' });
  assert.equal(gone.baselineRunId, '2025-11-01-baseline');
});

test('per-query rows: queries missing on one side have no delta and sort last', () => {
  const mk = (id: string, q: Record<string, number>) =>
    storedRunOf(id, id, {
      format: 'ranklab-run@1' as const,
      provenance: { config: id, createdAt: id, tool: 't' },
      config: {},
      metricSpecs: ['m'],
      metrics: {},
      latency: {},
      queries: Object.entries(q).map(([qid, v]) => ({ qid, text: qid, docs: [], latencyMs: {}, metrics: { m: v } })),
    });
  const rows = perQueryRows(mk('a', { x: 0.5, y: 0.2, only_a: 1 }), mk('b', { x: 0.7, y: 0.1, only_b: 0 }), 'm');
  assert.deepEqual(
    rows.map((r) => r.qid),
    ['y', 'x', 'only_a', 'only_b'],
  );
  assert.equal(rows[2].delta, undefined);
  assert.equal(rows[3].candidate, 0);
});

test("query detail keeps titles verbatim (escaping is the view's job) and ranks from 1", () => {
  const { runs } = readSavedRuns(copyFixture());
  const d = buildQueryDetail('q2', runs[0], runs[1], 'ndcg@10');
  assert.equal(d.candidate!.docs[0].title, 'Bread <script>alert(1)</script> and <img src=x onerror=alert(2)>');
  assert.deepEqual(
    d.candidate!.docs.map((x) => x.rank),
    [1, 2, 3],
  );
  assert.equal(d.baseline!.metric, 0.8);
});

test('query detail: runs saved without titles get them (and a snippet) from the corpus lookup; stored titles win', () => {
  const { runs } = readSavedRuns(copyFixture());
  const strip = (r: (typeof runs)[number]) =>
    storedRunOf(r.id, r.file, {
      ...r.run,
      titles: undefined,
      queries: r.run.queries.map((q) => ({ ...q, docs: q.docs.map(({ title: _t, ...d }) => d) })),
    });
  const lookup = (id: string) => (id === 'corpus/quick-bread.md' ? { title: 'From corpus', snippet: 'Flour, water…' } : undefined);
  const bare = buildQueryDetail('q2', strip(runs[0]), strip(runs[1]), 'ndcg@10', 10, undefined, undefined, undefined, lookup);
  const row = bare.baseline!.docs.find((d) => d.id === 'corpus/quick-bread.md')!;
  assert.equal(row.title, 'From corpus');
  assert.equal(row.snippet, 'Flour, water…');
  assert.equal(bare.baseline!.docs.find((d) => d.id === 'corpus/soda-bread.md')!.title, undefined, 'unknown to the corpus: no title');
  const stored = buildQueryDetail('q2', runs[0], runs[1], 'ndcg@10', 10, undefined, undefined, undefined, lookup);
  assert.equal(stored.baseline!.docs.find((d) => d.id === 'corpus/quick-bread.md')!.title, 'Quick bread');
});

test('protocol guard rejects malformed webview messages', () => {
  assert.equal(isWebviewToHost({ type: 'ready', protocol: 1 }), true);
  assert.equal(isWebviewToHost({ type: 'request', requestId: 3, method: 'getDashboard', params: {} }), true);
  assert.equal(isWebviewToHost({ type: 'request', requestId: '3', method: 'getDashboard', params: {} }), false);
  assert.equal(isWebviewToHost({ type: 'request', requestId: 3, method: 'deleteEverything', params: {} }), false);
  assert.equal(isWebviewToHost({ type: 'command', command: 'openDocument', params: { docId: 'a' } }), true);
  assert.equal(isWebviewToHost({ type: 'command', command: 'openDocument' }), false);
  assert.equal(isWebviewToHost(null), false);
});

test("dashboard comparison: runs made as different principals show the core's refusal instead of figures; labels name the principal", async () => {
  const { runs } = readSavedRuns(copyFixture());
  const judgments = RanklabSession.open(copyFixture(), { stateDir: mkdtempSync(path.join(tmpdir(), 'ranklab-state-')) }).judgments();
  const settings = { metrics: ['ndcg@10'], gain: 'exp' as const, relevanceThreshold: 1, gates: {} };
  const same = await dashboardComparison(runs[0], runs[1], judgments, settings);
  assert.ok(same.view && !same.refusal, same.refusal?.message);
  const asAyu = storedRunOf(runs[0].id, runs[0].file, { ...runs[0].run, principal: 'ayu' });
  const refused = await dashboardComparison(asAyu, runs[1], judgments, settings);
  assert.equal(refused.view, undefined);
  assert.equal(refused.refusal?.baselinePrincipal, 'ayu');
  assert.equal(refused.refusal?.candidatePrincipal, null);
  assert.match(
    refused.refusal!.message,
    /baseline "baseline" was run as principal "ayu", candidate "title-boost" without a principal \(every document\)/,
  );

  const m = buildDashboardModel({
    workspaceName: 'ws',
    runsFolder: 'r',
    runs: [asAyu, runs[1]],
    problems: [],
    metricOptions: { gain: 'exp', relevanceThreshold: 1 },
  });
  // "config · principal · time · headline metric"; the time is local, so only its shape is checked.
  const parts = m.runs.map((r) => r.label.split(' · '));
  assert.deepEqual(
    parts.map((p) => [p[0], p[1], p[3]]),
    [
      ['baseline', 'as ayu', 'ndcg@10 0.633'],
      ['title-boost', 'unrestricted', 'ndcg@10 0.600'],
    ],
  );
  for (const p of parts) assert.match(p[2], /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
});

test('metric columns carry their definition for hover and legend: words, formula, reference and tie rule', async () => {
  const { metricColumn } = await import('../../../src/extension/dashboard/runs');
  const ndcg = metricColumn('ndcg@10', { gain: 'exp', relevanceThreshold: 1 });
  assert.equal(ndcg.spec, 'ndcg@10');
  assert.match(ndcg.definition ?? '', /log2\(i\+1\)/, 'the discount');
  assert.match(ndcg.definition ?? '', /Järvelin/, 'the reference');
  assert.match(ndcg.definition ?? '', /Ties: .*docid desc/, 'the tie rule');
  const bpref = metricColumn('bpref', { gain: 'exp', relevanceThreshold: 1 });
  assert.match(bpref.definition ?? '', /Buckley & Voorhees 2004/);
  // an unknown name keeps its column, without a definition to show
  assert.equal(metricColumn('nosuch@3', { gain: 'exp', relevanceThreshold: 1 }).definition, undefined);
});

test('query classes: counts of both runs and the queries that changed class, from real saved runs; classes slice the per-query filter', async () => {
  const dir = stagesWorkspace();
  const session = RanklabSession.open(dir);
  const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };
  const specs = parseMetricList('p@1');
  await evaluateConfig(session, session.resolveConfig('rerank'), { specs, metricOptions });
  await evaluateConfig(session, session.resolveConfig('shallow'), { specs, metricOptions });
  const { runs, problems } = readSavedRuns(dir);
  assert.deepEqual(problems, []);
  const base = runs.find((r) => r.run.provenance.config === 'rerank')!;
  const cand = runs.find((r) => r.run.provenance.config === 'shallow')!;
  const cmp = await dashboardComparison(base, cand, session.judgmentsFor({}), { metrics: ['p@1'], ...metricOptions, gates: {} });
  const classes = cmp.view!.classes!;
  assert.equal(classes.k, 1, 'the primary metric p@1 makes a hit "relevant at rank 1"');
  // rerank (BM25 depth 3, reranked, top 1): qA a1 first → hit; qB b1 retrieved by BM25 but b2 reranked first →
  // ranking miss; qC c1 shares no word → retrieval miss; qD has no relevant document.
  assert.deepEqual(classes.counts.baseline, { hit: 1, 'ranking-miss': 1, 'retrieval-miss': 1, 'no-relevant': 1 });
  // shallow (BM25 depth 1): qA a1 matches all three words → hit; qB only b2 (all three words) → b1 never retrieved.
  assert.deepEqual(classes.counts.candidate, { hit: 1, 'ranking-miss': 0, 'retrieval-miss': 2, 'no-relevant': 1 });
  assert.deepEqual(classes.complete, { baseline: true, candidate: true });
  // The app's columns, their order (better first) and labels come from the core's table, at the view's k.
  assert.deepEqual(
    classes.classes.map((c) => [c.name, c.label]),
    [
      ['hit', 'hit@1'],
      ['ranking-miss', 'ranking miss'],
      ['retrieval-miss', 'retrieval miss'],
      ['no-relevant', 'no relevant'],
    ],
  );
  assert.equal(classes.classes[0].means, 'a relevant document is in the top 1');
  assert.deepEqual(classes.changed, [{ qid: 'qB', text: 'delta epsilon zeta', baseline: 'ranking-miss', candidate: 'retrieval-miss' }]);
  assert.equal(classes.changedTotal, 1);
  // A long list is cut for the page, its total kept.
  const cut = classesView(cmp.core!, 0);
  assert.deepEqual([cut.changed.length, cut.changedTotal], [0, 1]);

  const m = buildDashboardModel({
    workspaceName: 'ws',
    runsFolder: '.ranklab/runs',
    runs,
    problems,
    metricOptions,
    baselineRunId: base.id,
    candidateRunId: cand.id,
    comparison: cmp.view,
    core: cmp.core,
  });
  assert.deepEqual(m.comparison?.classes, classes);
  // No query is marked holdout, so the workspace's hashed split (the one `sweep` and `eval --split` use) is offered.
  const split = tuneHoldoutSplit(session.judgmentsFor({}));
  const splitNames = split.tune.length && split.holdout.length ? ['split:tune', 'split:holdout'] : [];
  assert.deepEqual(m.sliceNames, ['greek', ...splitNames, 'class:hit', 'class:ranking-miss', 'class:retrieval-miss', 'class:no-relevant']);
  const qB = m.perQuery.find((r) => r.qid === 'qB')!;
  assert.deepEqual(qB.classes, { baseline: 'ranking-miss', candidate: 'retrieval-miss' });
  const slice = (name: string) =>
    m.perQuery
      .filter((r) => inSlice(r, name))
      .map((r) => r.qid)
      .sort();
  assert.deepEqual(slice('class:ranking-miss'), ['qB'], "the baseline's class, as compare --class-slices");
  assert.deepEqual(slice('class:retrieval-miss'), ['qC']);
  assert.deepEqual(slice('class:hit'), ['qA']);
  // Without a comparison (and no query info here) there are no classes, and no class slices.
  const bare = buildDashboardModel({ workspaceName: 'ws', runsFolder: 'r', runs, problems, metricOptions });
  assert.deepEqual(bare.sliceNames, []);
  assert.equal(bare.perQuery.find((r) => r.qid === 'qB')!.classes, undefined);
});

test("moved documents carry the core's one-line reason when both runs are still reproducible, and none otherwise", async () => {
  const { addMoveReasons, configsOfRuns } = await import('../../../src/core/session/explain');
  const { copyOfExample } = await import('../../helpers/workspace');
  const ws = copyOfExample();
  const session = RanklabSession.open(ws);
  const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };
  const specs = parseMetricList('ndcg@10');
  await evaluateConfig(session, session.resolveConfig('baseline'), { specs, metricOptions });
  await evaluateConfig(session, session.resolveConfig('title-boost-3'), { specs, metricOptions });
  const { runs } = readSavedRuns(ws);
  const base = runs.find((r) => r.run.provenance.config === 'baseline')!;
  const cand = runs.find((r) => r.run.provenance.config === 'title-boost-3')!;
  const configs = configsOfRuns(session, [base.run.provenance, cand.run.provenance])!;
  assert.deepEqual(
    configs.map((c) => c.name),
    ['baseline', 'title-boost-3'],
  );
  const cmp = await dashboardComparison(
    base,
    cand,
    session.judgmentsFor({}),
    { metrics: ['ndcg@10'], ...metricOptions, gates: {} },
    {
      reasons: (c) => addMoveReasons(session, configs[0], configs[1], c),
    },
  );
  const docs = cmp.view!.moved.flatMap((q) => q.docs);
  assert.ok(docs.length > 0);
  for (const d of docs) assert.match(d.reason ?? '', /^title boost 1→3[:;] .*rank \d+→\d+/);
  // The config changed since the run: its moved documents cannot be explained any more.
  writeFileSync(path.join(ws, 'configs', 'title-boost-3.rank.json'), JSON.stringify({ lexical: { fields: { title: 4, body: 1 } } }));
  assert.equal(configsOfRuns(RanklabSession.open(ws), [base.run.provenance, cand.run.provenance]), undefined);
});
