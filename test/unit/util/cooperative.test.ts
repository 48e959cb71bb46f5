// Cooperative cancellation: the pauses give the event loop a turn (so a signal handler or a Cancel request
// can run), an abort stops the work at its next pause with the abort's reason, and an algorithm driven with
// pauses returns exactly what it returns without them. No test here depends on how fast anything runs:
// sliceMs 0 makes every item a pause point, and aborts are triggered from progress reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';
import { compareRuns, compareRunsSliced } from '../../../src/core/experiment/compare';
import { loadCorpus, loadCorpusSliced } from '../../../src/core/corpus';
import { parseMetricList } from '../../../src/core/metrics';
import { randomizedSvd, randomizedSvdSteps } from '../../../src/core/math/randomized-svd';
import { csrFromRows } from '../../../src/core/math/sparse';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { buildOrLoadLexical } from '../../../src/core/retrieval/index-cache';
import { LexicalIndex } from '../../../src/core/retrieval/lexical';
import { createEngine, embedText } from '../../../src/core/retrieval/engine';
import { trainLsa, trainLsaSliced } from '../../../src/core/retrieval/providers/lsa';
import { HnswIndex } from '../../../src/core/retrieval/vector-index';
import { RanklabSession } from '../../../src/core/session/session';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { type Steps, Work, type WorkProgress, abortable, abortableSleep, runSliced, runSync } from '../../../src/core/util/cooperative';
import { createRng } from '../../../src/core/util/random';
import { copyOfExample } from '../../helpers/workspace';

const example = copyOfExample();
const session = RanklabSession.open(example, { writeCache: false });
const docs = session.corpus().docs;
const analyzer = createAnalyzer(DEFAULT_ANALYZER);
/** Pauses at every item: the most pauses a driver can make. */
const everyItem = (signal?: AbortSignal, onProgress?: (p: WorkProgress) => void) => new Work({ signal, onProgress, sliceMs: 0 });

function* countTo(n: number, log: string[]): Steps<number> {
  let sum = 0;
  for (let i = 1; i <= n; i++) {
    sum += i;
    log.push(`step ${i}`);
    yield i;
  }
  return sum;
}

test('runSync and runSliced return the same result; runSliced lets other tasks run between steps', async () => {
  assert.equal(runSync(countTo(4, [])), 10);
  const log: string[] = [];
  setImmediate(() => log.push('immediate'));
  const sum = await runSliced(countTo(4, log), everyItem().phase('queries', 4));
  assert.equal(sum, 10);
  // The immediate queued before the run happens between steps, not after the whole run.
  assert.ok(log.indexOf('immediate') < log.indexOf('step 4'), log.join(', '));
});

test('an abort during a pause stops the steps there, with the abort reason; progress reports the last count', async () => {
  const controller = new AbortController();
  const seen: WorkProgress[] = [];
  const log: string[] = [];
  const work = everyItem(controller.signal, (p) => {
    seen.push(p);
    if (p.done === 2) setImmediate(() => controller.abort(new Error('stop here')));
  });
  await assert.rejects(runSliced(countTo(1000, log), work.phase('queries', 1000, 'cfg')), /stop here/);
  assert.ok(log.length < 10, `stopped within a few steps of the abort, not after ${log.length}`);
  assert.deepEqual(seen.slice(0, 3), [
    { phase: 'queries', label: 'cfg', done: 0, total: 1000 },
    { phase: 'queries', label: 'cfg', done: 1, total: 1000 },
    { phase: 'queries', label: 'cfg', done: 2, total: 1000 },
  ]);
  // A phase cannot even start once aborted.
  assert.throws(() => work.phase('lsa', 1), /stop here/);
});

test('abortable and abortableSleep reject with the reason as soon as the signal aborts', async () => {
  const controller = new AbortController();
  const never = new Promise<number>(() => {});
  const p = abortable(never, controller.signal);
  const s = abortableSleep(3_600_000, controller.signal);
  setImmediate(() => controller.abort(new Error('cancelled')));
  await assert.rejects(p, /cancelled/);
  await assert.rejects(s, /cancelled/);
  assert.equal(await abortable(Promise.resolve(7), new AbortController().signal), 7);
  await abortableSleep(1); // resolves without a signal
});

test('the time-sliced drivers produce exactly what the straight ones do', async () => {
  // corpus
  const settings = session.workspace.settings.corpus;
  assert.deepEqual(
    (await loadCorpusSliced(example, settings, everyItem().phase('corpus', 0))).corpus,
    loadCorpus(example, settings).corpus,
  );
  // randomized SVD (bit for bit)
  const rnd = createRng(3);
  const rows = Array.from(
    { length: 300 },
    () => new Map(Array.from({ length: 8 }, () => [Math.floor(rnd() * 120), rnd()] as [number, number])),
  );
  const x = csrFromRows(rows, 120);
  const svd = randomizedSvd(x, { rank: 10, seed: 5 });
  const sliced = await runSliced(randomizedSvdSteps(x, { rank: 10, seed: 5 }), everyItem().phase('lsa', 0));
  assert.deepEqual(sliced, svd);
  // LSA model
  const texts = docs.map(embedText);
  const lsaOptions = { dimensions: 32, tokenize: (t: string) => analyzer.analyze(t) };
  const model = trainLsa(texts, lsaOptions);
  const slicedModel = await trainLsaSliced(texts, lsaOptions, everyItem().phase('lsa', texts.length));
  assert.deepEqual(slicedModel.toJSON(), model.toJSON());
  // HNSW: the same graph answers every query the same way
  const vectors = model.docVectors();
  const ids = docs.map((d) => d.id);
  const params = { M: 8, efConstruction: 50, efSearch: 30 };
  const a = HnswIndex.build(ids, vectors, model.dimension, 'cosine', params);
  const b = await HnswIndex.buildSliced(ids, vectors, model.dimension, 'cosine', params, everyItem().phase('hnsw', ids.length));
  for (const q of vectors.slice(0, 40)) assert.deepEqual(b.search(q, 10), a.search(q, 10));
  // lexical index: the same serialized index
  const fields = ['title', 'body'];
  const built = await buildOrLoadLexical(docs, 'fp', fields, analyzer, undefined, { work: everyItem() });
  assert.deepEqual(
    JSON.parse(JSON.stringify(built.index.miniSearch)),
    JSON.parse(JSON.stringify(LexicalIndex.build(docs, fields, analyzer).miniSearch)),
  );
  // compare statistics
  const specs = parseMetricList(['ndcg@10', 'mrr@10']);
  const options = { gain: 'exp' as const, relevanceThreshold: 1 };
  const base = await evaluateConfig(session, session.resolveConfig('baseline'), { specs, metricOptions: options, save: false });
  const cand = await evaluateConfig(session, session.resolveConfig('title-boost-3'), { specs, metricOptions: options, save: false });
  const sides = [
    { name: 'baseline', run: base.run },
    { name: 'title-boost-3', run: cand.run },
  ] as const;
  const settingsCmp = { bootstrapSamples: 500, permutationSamples: 500 };
  assert.deepEqual(
    await compareRunsSliced(sides[0], sides[1], session.judgments(), specs, options, everyItem().phase('statistics', 0), settingsCmp),
    compareRuns(sides[0], sides[1], session.judgments(), specs, options, settingsCmp),
  );
});

test('an index build aborted half-way throws the reason and writes no cache', async () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'ranklab-abort-cache-'));
  const controller = new AbortController();
  const work = everyItem(controller.signal, (p) => {
    if (p.phase === 'lexical-index' && p.done === 100) controller.abort(new Error('user cancelled'));
  });
  await assert.rejects(buildOrLoadLexical(docs, 'fp', ['title', 'body'], analyzer, cacheDir, { work }), /user cancelled/);
  assert.deepEqual(existsSync(join(cacheDir, 'lexical')) ? readdirSync(join(cacheDir, 'lexical')) : [], []);
});

test('evaluateConfig stops at any phase when its signal aborts: rejects with the reason, saves no run, and a later call builds afresh', async () => {
  const dir = copyOfExample();
  const phases: string[] = [];
  let abortAt: string | undefined;
  let controller = new AbortController();
  const s = RanklabSession.open(dir, {
    onProgress: (p) => {
      phases.push(p.phase);
      if (p.phase === abortAt) controller.abort(new Error(`stopped in ${p.phase}`));
    },
  });
  const config = s.resolveConfig('hybrid-rrf');
  const opts = () => ({
    specs: parseMetricList(['ndcg@10']),
    metricOptions: { gain: 'exp' as const, relevanceThreshold: 1 },
    signal: controller.signal,
  });
  for (const phase of ['corpus', 'lexical-index', 'lsa', 'hnsw', 'queries'] as const) {
    abortAt = phase;
    controller = new AbortController();
    await assert.rejects(evaluateConfig(s, config, opts()), new RegExp(`stopped in ${phase}`));
    assert.ok(
      !existsSync(join(dir, '.ranklab', 'runs')) || readdirSync(join(dir, '.ranklab', 'runs')).length === 0,
      `no run saved after a stop in ${phase}`,
    );
  }
  abortAt = undefined;
  controller = new AbortController();
  const r = await evaluateConfig(s, config, opts());
  assert.equal(r.evaluation.queries, 94);
  assert.ok(r.path && existsSync(r.path));
  for (const phase of ['corpus', 'lexical-index', 'lsa', 'hnsw', 'queries']) assert.ok(phases.includes(phase), phase);
});

test("evaluateConfig's onWork gets every phase of that call, labelled with the config, besides the session's onProgress", async () => {
  const dir = copyOfExample();
  const ofSession: string[] = [];
  const s = RanklabSession.open(dir, { writeCache: false, onProgress: (p) => ofSession.push(p.phase) });
  const config = s.resolveConfig('hybrid-rrf');
  const mine: WorkProgress[] = [];
  const r = await evaluateConfig(s, config, {
    specs: parseMetricList(['ndcg@10']),
    metricOptions: { gain: 'exp', relevanceThreshold: 1 },
    save: false,
    onWork: (p) => mine.push(p),
  });
  assert.equal(r.evaluation.queries, 94);
  for (const phase of ['corpus', 'lexical-index', 'lsa', 'hnsw', 'queries'])
    assert.ok(
      mine.some((p) => p.phase === phase),
      phase,
    );
  assert.deepEqual(
    mine.map((p) => p.phase),
    ofSession,
    'the session hears the same reports',
  );
  assert.ok(
    mine.every((p) => p.label === 'hybrid-rrf'),
    'labelled with the config',
  );
  const last = mine.filter((p) => p.phase === 'queries').at(-1)!;
  assert.deepEqual([last.done, last.total], [94, 94], 'the query loop ends reported complete');
  // Another call on the same session without onWork: only the session's reports, nothing more to the first listener.
  const before = mine.length;
  await evaluateConfig(s, config, {
    specs: parseMetricList(['ndcg@10']),
    metricOptions: { gain: 'exp', relevanceThreshold: 1 },
    save: false,
  });
  assert.equal(mine.length, before);
});

test('a build cancelled by the caller that started it is built again for another caller waiting for it', async () => {
  const s = RanklabSession.open(copyOfExample(), { writeCache: false });
  const config = s.resolveConfig('baseline');
  const a = new AbortController();
  let builds = 0;
  const first = s.engine(
    config,
    everyItem(a.signal, (p) => {
      if (p.phase === 'lexical-index' && p.done === 0) builds++;
      if (p.phase === 'lexical-index' && p.done === 50) a.abort(new Error('first caller cancelled'));
    }),
  );
  const second = s.engine(
    config,
    everyItem(undefined, (p) => p.phase === 'lexical-index' && p.done === 0 && builds++),
  );
  await assert.rejects(first, /first caller cancelled/);
  const engine = await second;
  assert.equal(builds, 2, 'the second caller built it again');
  assert.ok((await engine.search('kopi gayo')).docs.length > 0);
  assert.equal(await s.engine(config), engine, 'and that engine is kept');
});

test('the vector rebuild update() leaves for later follows the search that starts it; a search waiting for it rebuilds', async () => {
  const s = RanklabSession.open(copyOfExample(), { writeCache: false });
  const config = s.resolveConfig('vector'); // LSA + HNSW: update() leaves the model to be retrained at the next search
  const all = s.corpus().docs;
  const cancel = new AbortController();
  let lsaStarts = 0;
  const engine = await s.engine(
    config,
    everyItem(undefined, (p) => {
      if (p.phase !== 'lsa' || p.done !== 0) return;
      lsaStarts++;
      if (lsaStarts === 2) setImmediate(() => cancel.abort(new Error('search cancelled'))); // the first rebuild
    }),
  );
  const docs = all.slice(1);
  await engine.update({ delete: [all[0].id], docs, corpusFingerprint: 'one fewer' });
  const cancelled = engine.search('kopi gayo', { signal: cancel.signal });
  const waiting = engine.search('kopi gayo');
  await assert.rejects(cancelled, /search cancelled/);
  const result = await waiting;
  assert.equal(lsaStarts, 3, 'the waiting search retrained the model the cancelled one had started');
  // What it rebuilt is what a fresh engine on the new corpus has.
  const fresh = await createEngine({ docs, corpusFingerprint: 'one fewer', config });
  assert.deepEqual(
    result.docs.map((d) => [d.id, d.score]),
    (await fresh.search('kopi gayo')).docs.map((d) => [d.id, d.score]),
  );
  assert.ok(!result.docs.some((d) => d.id === all[0].id));
});
