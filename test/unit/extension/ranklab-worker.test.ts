// The real Ranklab worker (src/extension/worker/main.ts) on a copy of examples/food-search, through the RPC the
// extension uses: an evaluation in the worker saves the same figures as the core called in this thread, reports
// its progress, and a cancel stops it with nothing of the stopped config written; the access check crosses the
// thread whole; a sweep in the worker equals the core's sweep here and stops on cancel; the Tune view's Tuner kept in
// the worker answers a move as the core does here. No timing is asserted.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { threadId } from 'node:worker_threads';
import { parseRankConfig } from '../../../src/core/config';
import { loadSavedRun } from '../../../src/core/run/run-format';
import { parseMetric } from '../../../src/core/metrics';
import { parseMetricList } from '../../../src/core/metrics/spec';
import { checkAcl } from '../../../src/core/session/check-acl';
import { addMoveReasons, explainDocument } from '../../../src/core/session/explain';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { poolEntries, workspacePool } from '../../../src/core/session/judging-pool';
import { RanklabSession } from '../../../src/core/session/session';
import { parseVary } from '../../../src/core/tuning/parameters';
import { runSweep } from '../../../src/core/tuning/sweep';
import { prepareTune } from '../../../src/core/tuning/tuner';
import { LIST_TOP, evaluateAgainstBaseline } from '../../../src/extension/logic/against-baseline';
import type { EvaluateProgress, SweepProgress } from '../../../src/extension/worker/protocol';
import { readRunJson } from '../../helpers/runs';
import { realWorker } from '../../helpers/worker';

const { client, workspace } = realWorker('ranklab-worker-');

/** The example made slow enough to cancel mid-loop: many generated queries over many generated documents (fixed generator). */
function slowWorkspace(): string {
  const dir = workspace();
  const golden = JSON.parse(readFileSync(join(dir, 'judgments/golden.json'), 'utf8'));
  const words = [...new Set(golden.flatMap((q: { query: string }) => q.query.split(/\s+/)))].sort() as string[];
  const queries = [...golden];
  for (let i = 0; queries.length < 3000; i++)
    queries.push({
      id: `gen${i}`,
      query: [i, i * 7 + 3].map((k) => words[k % words.length]).join(' '),
      judgments: golden[i % golden.length].judgments,
    });
  writeFileSync(join(dir, 'judgments/golden.json'), JSON.stringify(queries));
  const docs = Array.from({ length: 3000 }, (_, d) =>
    JSON.stringify({
      id: `gen-${d}`,
      title: words[d % words.length],
      text: Array.from({ length: 30 }, (_, k) => words[(d * (k + 1) * 31 + k) % words.length]).join(' '),
      public: true,
    }),
  );
  writeFileSync(join(dir, 'data/generated.jsonl'), docs.join('\n') + '\n');
  return dir;
}

const runFiles = (dir: string) => (existsSync(join(dir, '.ranklab/runs')) ? readdirSync(join(dir, '.ranklab/runs')) : []);

test('an evaluation in the worker saves the runs the core saves in this thread, with its progress on the way', async () => {
  const dir = workspace();
  const status = await client.request('status', {});
  assert.notEqual(status.threadId, threadId);
  const seen: EvaluateProgress[] = [];
  const r = await client.request('evaluate', { root: dir, trusted: true }, { onProgress: (p) => seen.push(p) });
  assert.equal(r.cancelled, false);
  assert.deepEqual(r.failed, []);
  assert.equal(r.total, 2);
  assert.equal(r.saved.length, 2);
  // Progress: each config's queries counted up to the number of queries, then its "saved" with the path.
  const queryCounts = seen
    .filter((p) => p.type === 'work' && p.work.phase === 'queries')
    .map((p) => (p as Extract<EvaluateProgress, { type: 'work' }>).work);
  assert.ok(queryCounts.some((w) => w.label === 'baseline' && w.done === w.total && w.total > 0));
  assert.deepEqual(
    seen.filter((p) => p.type === 'saved').map((p) => (p as { path: string }).path),
    r.saved,
  );

  // The same figures from the core called here, on a separate copy (an independent session and index).
  const here = RanklabSession.open(workspace());
  const settings = here.workspace.settings;
  for (const path of r.saved) {
    const saved = readRunJson(path);
    const mine = await evaluateConfig(here, here.resolveConfig(saved.provenance.config), {
      specs: parseMetricList(settings.metrics),
      metricOptions: { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold },
      save: false,
    });
    assert.deepEqual(saved.metrics, mine.saved.metrics, saved.provenance.config);
    assert.deepEqual(
      saved.queries.map((q: { qid: string }) => q.qid),
      mine.saved.queries.map((q) => q.qid),
    );
  }
});

test('cancel stops an evaluation in the worker at its next pause: nothing of the stopped config is written, the worker lives on', async () => {
  const dir = slowWorkspace();
  await client.request('status', {}); // the worker is up (this test may run alone)
  const started = client.started;
  const abort = new AbortController();
  const after: EvaluateProgress[] = [];
  const r = await client.request(
    'evaluate',
    { root: dir, trusted: true },
    {
      signal: abort.signal,
      onProgress: (p) => {
        if (abort.signal.aborted) after.push(p);
        else if (p.type === 'work' && p.work.phase === 'queries' && p.work.done > 0) abort.abort();
      },
    },
  );
  assert.equal(r.cancelled, true);
  assert.equal(r.stopped, 'baseline');
  assert.deepEqual(r.saved, []);
  assert.deepEqual(runFiles(dir), [], 'no run (and no temporary file) written');
  assert.equal(after.filter((p) => p.type === 'saved').length, 0);
  // Stopped by its AbortSignal, not by terminating the thread: the same worker answers the next request.
  assert.equal((await client.request('status', {})).threadId > 0, true);
  assert.equal(client.started, started);
});

test('the access check runs in the worker and its report crosses the thread whole', async () => {
  const dir = workspace();
  const remote = await client.request('checkAcl', { root: dir, trusted: true });
  const local = await checkAcl(RanklabSession.open(workspace()));
  assert.equal(remote.checked, local.checked);
  assert.ok(remote.checked > 0);
  assert.deepEqual(remote.violations, local.violations);
  assert.deepEqual(Object.keys(remote.byPrincipal).sort(), Object.keys(local.byPrincipal).sort());
  assert.deepEqual(remote.failed, local.failed);
});

test("bad input in the worker comes back as the core's error with its message", async () => {
  await assert.rejects(
    client.request('evaluate', { root: workspace(), trusted: true, only: ['nothing-here'] }),
    (e: Error) => e.name === 'InputError' && /no usable ranking config/.test(e.message),
  );
});

test('Rebuild Index in the worker deletes the cached indexes and builds every config again from a fresh read', async () => {
  const dir = workspace();
  await client.request('evaluate', { root: dir, trusted: true, only: ['baseline'] });
  const cache = join(dir, '.ranklab/cache');
  const before = readdirSync(cache);
  assert.ok(before.length > 0);
  const steps: string[] = [];
  const r = await client.request(
    'rebuildIndex',
    { root: dir, trusted: true },
    { onProgress: (p) => steps.push(`${p.step.index + 1}/${p.step.count} ${p.work.phase}`) },
  );
  assert.deepEqual(r.configs.sort(), ['baseline', 'title-boost-3']);
  assert.deepEqual(r.failed, []);
  assert.equal(r.docs, RanklabSession.open(workspace()).corpus().docs.length);
  assert.ok(r.removed.length > 0, 'cached entries were deleted');
  // The first config builds the lexical index anew (its cache was deleted); the second has the same index settings,
  // so it shares that index in the session (docs/design.md "Shared indexes") and builds nothing: no step of its own.
  assert.ok(steps.includes('1/2 lexical-index'), steps.join(', '));
  assert.ok(!steps.some((s) => s.startsWith('2/2 lexical-index')), steps.join(', '));
});

test('the judging pool drawn in the worker is the pool the core draws in this thread', async () => {
  const dir = workspace();
  const remote = await client.request('pool', { root: dir, trusted: true, configs: ['baseline', 'title-boost-3'] });
  const here = RanklabSession.open(workspace());
  const local = await workspacePool(here, { configs: poolEntries(here, ['baseline', 'title-boost-3']).map((e) => here.usable(e)) });
  assert.ok(remote.pool.pairs.length > 0);
  assert.deepEqual(remote.pool.pairs, local.pool.pairs);
  assert.deepEqual(remote.pool.judged, local.pool.judged);
  assert.deepEqual(remote.failed, []);
});

test("a judgments change the host saw reaches the worker's warm session before its next task", async () => {
  const dir = workspace();
  const first = await client.request('evaluate', { root: dir, trusted: true, only: ['baseline'] });
  const ndcg = (path: string) => readRunJson(path).metrics['ndcg@10'];
  // Every judgment of the golden set made 0: nothing is relevant any more, so nDCG@10 drops to 0.
  const file = join(dir, 'judgments/golden.json');
  const golden = JSON.parse(readFileSync(file, 'utf8'));
  for (const q of golden) for (const d of Object.keys(q.judgments)) q.judgments[d] = 0;
  writeFileSync(file, JSON.stringify(golden));
  client.notify({ type: 'changed', root: dir, kinds: ['judgments'] });
  const second = await client.request('evaluate', { root: dir, trusted: true, only: ['baseline'] });
  assert.ok(ndcg(first.saved[0]) > 0);
  assert.equal(ndcg(second.saved[0]), 0);
});

test('the background evaluation of a saved config runs in the worker: compared with the baseline, gates checked, as in this thread', async () => {
  const dir = workspace();
  const file = join(dir, 'configs/title-boost-3.rank.json');
  const config = parseRankConfig(file).config!;
  const remote = await client.request('evaluateAgainstBaseline', { root: dir, trusted: true, file, config });
  const here = RanklabSession.open(workspace());
  const local = await evaluateAgainstBaseline(
    here,
    parseRankConfig(join(here.root, 'configs/title-boost-3.rank.json')).config!,
    join(here.root, 'configs/title-boost-3.rank.json'),
  );
  assert.equal(remote.result.name, 'title-boost-3');
  assert.ok(remote.result.candidate.path && existsSync(remote.result.candidate.path));
  assert.ok(remote.result.baseline?.path && existsSync(remote.result.baseline.path));
  assert.ok(remote.result.evaluatedAt instanceof Date);
  assert.ok(remote.result.judgments.qrels instanceof Map && remote.result.judgments.qrels.size > 0);
  assert.deepEqual(remote.result.candidate.evaluation.means, local.candidate.evaluation.means);
  assert.deepEqual(remote.result.candidate.evaluation.means, readRunJson(remote.result.candidate.path).metrics, 'the figures saved');
  // What crosses back is what the editor reads: the top of each list (the Testing view's diff), not the whole run.
  const saved = loadSavedRun(remote.result.candidate.path);
  assert.equal(remote.result.candidate.top.size, saved.queries.length);
  for (const q of saved.queries)
    assert.deepEqual(
      remote.result.candidate.top.get(q.qid)?.map((d) => d.id),
      q.docs.slice(0, LIST_TOP).map((d) => d.id),
    );
  assert.ok(
    saved.queries.some((q) => q.docs.length > LIST_TOP),
    'some list is longer than what crosses',
  );
  assert.equal('saved' in remote.result.candidate || 'stageIds' in remote.result.candidate || 'run' in remote.result.candidate, false);
  assert.deepEqual(
    remote.result.gates.map((g) => [g.gate, g.passed]),
    local.gates.map((g) => [g.gate, g.passed]),
  );
  assert.ok(remote.result.gates.length > 0);
  assert.deepEqual(
    remote.fieldProblems,
    here.configCorpusDiagnostics(here.resolveConfig(join(here.root, 'configs/title-boost-3.rank.json'))),
  );
});

test('a task cancelled while it waits behind another on the same folder stops at once, without stopping the worker', async () => {
  const dir = slowWorkspace();
  await client.request('status', {}); // the worker is up (this test may run alone)
  const started = client.started;
  const first = new AbortController();
  let firstRunning = false;
  let firstSettled = false;
  const evaluation = client
    .request(
      'evaluate',
      { root: dir, trusted: true },
      {
        signal: first.signal,
        onProgress: (p) => void (p.type === 'work' && p.work.phase === 'queries' && (firstRunning = true)),
      },
    )
    .finally(() => (firstSettled = true));
  while (!firstRunning) await new Promise((r) => setTimeout(r, 20));
  const second = new AbortController();
  const waiting = client.request('checkAcl', { root: dir, trusted: true }, { signal: second.signal });
  second.abort(new Error('cancelled while queued'));
  await assert.rejects(waiting, /cancelled while queued/);
  assert.equal(firstSettled, false, 'the queued task stopped before the running one ended');
  first.abort();
  const r = await evaluation;
  assert.equal(r.cancelled, true);
  assert.equal(client.started, started, 'the worker was not terminated');
});

/** A saved run's reference to its config and corpus, as the dashboard sends it (here: straight from the workspace). */
function runRef(session: RanklabSession, config: string): { configHash?: string; corpus?: string } {
  return { configHash: session.configEntries().find((e) => e.name === config)?.config?.configHash, corpus: session.corpus().fingerprint };
}

test("a document explained in the worker is the core's explanation in this thread; a run whose config changed is refused", async () => {
  const dir = workspace();
  const here = RanklabSession.open(workspace());
  const [base, cand] = ['baseline', 'title-boost-3'].map((n) => here.usable(here.configEntries().find((e) => e.name === n)!));
  const qid = [...here.judgments().queries.keys()][0];
  const doc = (await (await here.engine(cand)).search(here.judgments().queries.get(qid)!.text)).docs[2].id;
  const remote = await client.request('explain', {
    root: dir,
    trusted: true,
    candidate: runRef(here, 'title-boost-3'),
    baseline: runRef(here, 'baseline'),
    query: qid,
    doc,
  });
  const local = await explainDocument(here, { config: cand, baseline: base, query: qid, doc });
  assert.deepEqual(remote, local);
  assert.equal(remote.candidate?.rank, 3);
  assert.ok(remote.reason && remote.candidate?.steps.some((s) => s.lexical?.parts.length));

  // The run was made with another version of the config: nothing is explained, and the message says why.
  await assert.rejects(
    client.request('explain', {
      root: dir,
      trusted: true,
      candidate: { ...runRef(here, 'title-boost-3'), configHash: 'changed' },
      query: qid,
      doc,
    }),
    (e: Error) => /no longer reproducible: config or corpus changed/.test(e.message),
  );
});

test("the moved documents' reasons computed in the worker are those the core gives in this thread", async () => {
  const dir = workspace();
  const here = RanklabSession.open(workspace());
  const [base, cand] = ['baseline', 'title-boost-3'].map((n) => here.usable(here.configEntries().find((e) => e.name === n)!));
  const engine = await here.engine(cand);
  const queries = [];
  for (const [qid, q] of [...here.judgments().queries].slice(0, 3))
    queries.push({ qid, text: q.text, moved: (await engine.search(q.text)).docs.slice(0, 3).map((d) => d.id) });
  const remote = await client.request('moveReasons', {
    root: dir,
    trusted: true,
    baseline: runRef(here, 'baseline'),
    candidate: runRef(here, 'title-boost-3'),
    queries,
  });
  const local = {
    queryDeltas: queries.map((q) => ({
      qid: q.qid,
      text: q.text,
      moved: q.moved.map((id) => ({ id, reason: undefined as string | undefined })),
    })),
  };
  await addMoveReasons(here, base, cand, local);
  assert.equal(remote.reproducible, true);
  assert.deepEqual(
    remote.reasons,
    local.queryDeltas.flatMap((q) => q.moved.map((m) => ({ qid: q.qid, id: m.id, reason: m.reason }))),
  );
  assert.equal(remote.reasons.length, 9);

  const stale = await client.request('moveReasons', {
    root: dir,
    trusted: true,
    baseline: runRef(here, 'baseline'),
    candidate: { ...runRef(here, 'title-boost-3'), corpus: 'other' },
    queries,
  });
  assert.deepEqual(stale, { reproducible: false, reasons: [] });
});

test('a sweep in the worker gives the sweep the core gives in this thread, every point with its holdout comparison', async () => {
  const dir = workspace();
  const baseFile = join(dir, 'configs/baseline.rank.json');
  const variations = [parseVary('lexical.fields.title=1..3:1'), parseVary('lexical.fields.body=0.5,1')];
  const steps: SweepProgress[] = [];
  const remote = await client.request(
    'sweep',
    { root: dir, trusted: true, baseFile, variations, objective: 'ndcg@10' },
    { onProgress: (p) => steps.push(p) },
  );
  assert.deepEqual(
    steps.map((p) => `${p.done}/${p.total}`),
    ['1/7', '2/7', '3/7', '4/7', '5/7', '6/7', '7/7'],
  );

  const here = RanklabSession.open(workspace());
  const settings = here.workspace.settings;
  const local = await runSweep(here, {
    base: here.usable(here.configEntry('baseline')),
    raw: JSON.parse(readFileSync(baseFile, 'utf8')),
    variations,
    search: { kind: 'grid' },
    objective: parseMetric('ndcg@10'),
    metricOptions: { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold },
    top: 6,
  });
  assert.equal(remote.rows.length, 6);
  assert.ok(
    remote.rows.every((r) => r.holdoutStats),
    'every point has its holdout comparison',
  );
  assert.deepEqual(remote.rows, local.rows);
  assert.deepEqual(remote.estimate, local.estimate);
  assert.deepEqual(remote.perQuery, local.perQuery);
  assert.deepEqual(
    remote.combinations.map((c) => c.config.configHash),
    local.combinations.map((c) => c.config.configHash),
  );
});

test('cancel stops a sweep in the worker at its next pause, and the worker lives on', async () => {
  const dir = slowWorkspace();
  await client.request('status', {});
  const started = client.started;
  const abort = new AbortController();
  const sweeping = client.request(
    'sweep',
    {
      root: dir,
      trusted: true,
      baseFile: join(dir, 'configs/baseline.rank.json'),
      variations: [parseVary('lexical.fields.title=1..5:0.5')],
      objective: 'ndcg@10',
    },
    { signal: abort.signal, onProgress: (p) => void (p.done >= 1 && abort.abort(new Error('sweep cancelled'))) },
  );
  await assert.rejects(sweeping, /sweep cancelled|abort/i);
  assert.deepEqual(runFiles(dir), [], 'a sweep writes no run');
  assert.equal((await client.request('status', {})).threadId > 0, true);
  assert.equal(client.started, started, 'the worker was not terminated');
});

test('the Tune view in the worker: the Tuner it keeps answers a move as the core does here; a judgments change drops it', async () => {
  const dir = workspace();
  const file = join(dir, 'configs/title-boost-3.rank.json');
  const params = { root: dir, trusted: true, file };
  const settings = { 'lexical.fields.title': 1.5, 'lexical.bm25.b': 0.4 };
  await assert.rejects(client.request('tuneEvaluate', { ...params, settings }), /the Tune view is out of date/, 'nothing prepared yet');
  const sliders = await client.request('tunePrepare', params);
  const session = RanklabSession.open(dir, { writeCache: false });
  const local = await prepareTune(session, { baseConfig: session.resolveConfig(file) });
  assert.deepEqual(sliders, { ...local.sliders(), baseline: session.baselineConfig().name });
  // The two stages as the panel asks them: quick, then evaluate of the same settings.
  const quick = await client.request('tuneQuick', { ...params, settings });
  const remote = await client.request('tuneEvaluate', { ...params, settings });
  const here = await local.evaluate(settings);
  assert.deepEqual(quick.metrics, here.metrics);
  assert.deepEqual(quick.perQuery, here.perQuery);
  assert.deepEqual(quick.gates, remote.gates, 'the first stage has the gates of the second');
  assert.deepEqual(quick.gates, here.gates);
  assert.deepEqual(remote.metrics, here.metrics);
  assert.deepEqual(remote.comparison.metrics, here.comparison.metrics);
  assert.deepEqual(remote.verdict, here.verdict);
  client.notify({ type: 'changed', root: dir, kinds: ['judgments'] });
  await assert.rejects(client.request('tuneEvaluate', { ...params, settings }), /out of date/, 'a stale Tuner is not used');
  await assert.rejects(client.request('tuneQuick', { ...params, settings }), /out of date/, 'by either stage');
});
