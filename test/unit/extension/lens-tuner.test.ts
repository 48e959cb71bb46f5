// The CodeLens's early answer (issue 31) in the real Ranklab worker (src/extension/worker/main.ts) on a copy of
// examples/food-search, through the RPC the extension uses: after a config's evaluation the worker prepares its Tuner
// when idle; a saved edit of boosts or BM25 settings is then answered from it (the request's progress) before the
// full evaluation, with exactly the full evaluation's figures; an edit the Tuner cannot recombine takes the full path,
// answered as soon as its search is scored (before the run is saved), with the same figures as its end; closing the
// config or a judgments change drops the Tuner. No timing is asserted.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseRankConfig } from '../../../src/core/config';
import { summaryOf } from '../../../src/core/experiment/run-index';
import { runIdOfFile } from '../../../src/core/run/run-files';
import { loadSavedRun } from '../../../src/core/run/run-format';
import { RanklabSession } from '../../../src/core/session/session';
import { prepareTune } from '../../../src/core/tuning/tuner';
import { evaluateAgainstBaseline, lensFiguresOf } from '../../../src/extension/logic/against-baseline';
import type { EarlyAnswer, RunSaved } from '../../../src/extension/worker/protocol';
import { realWorker } from '../../helpers/worker';

const { client, workspace } = realWorker('ranklab-lens-');

/** The config file with `edit` applied to its JSON. */
function edit(file: string, change: (raw: { lexical: Record<string, any> }) => void): void {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  change(raw);
  writeFileSync(file, JSON.stringify(raw, null, 2));
}

/** What the editor does on a save: the host parses the file, the worker evaluates it; the early answers it sent. */
async function save(dir: string, file: string) {
  client.notify({ type: 'changed', root: dir, kinds: ['config'] });
  const config = parseRankConfig(file).config!;
  const early: EarlyAnswer[] = [];
  const saved: RunSaved[] = [];
  const r = await client.request(
    'evaluateAgainstBaseline',
    { root: dir, trusted: true, file, config },
    { onProgress: (p) => (p.type === 'saved' ? saved.push(p) : early.push(p)) },
  );
  return { config, early, saved, ...r };
}

/** Waits until the worker keeps (or no longer keeps) a CodeLens Tuner for `file`: prepared when the folder is idle. */
async function tunerKept(file: string, kept = true): Promise<void> {
  // polled, not timed: the bound only turns a worker that never gets there into a failure instead of a hung run
  const giveUp = Date.now() + 5 * 60_000;
  while ((await client.request('status', {})).lensTuners.includes(file) !== kept) {
    if (Date.now() > giveUp) assert.fail(`the worker ${kept ? 'kept no' : 'still keeps a'} CodeLens Tuner for ${file} after 5 minutes`);
    await sleep(20);
  }
}

test('a saved boost or BM25 edit is answered from the prepared Tuner first, with exactly the figures of the full evaluation', async () => {
  const dir = workspace();
  const file = join(dir, 'configs/title-boost-3.rank.json');
  const first = await save(dir, file);
  assert.deepEqual(
    first.early.map((x) => x.source),
    ['search'],
    'nothing prepared before the first evaluation: its figures once its search is scored',
  );
  assert.deepEqual(first.early[0]!.figures, lensFiguresOf(first.result));
  assert.deepEqual(first.result.early && [first.result.early.source, first.result.early.matched], ['search', true]);
  assert.ok(first.result.gates.length > 1 && first.result.gates.some((g) => g.kind === 'maxSliceRegression'), 'gates of every kind');
  // The saved run's summary comes along (the host's run index takes it): the one its file gives.
  assert.deepEqual(
    first.saved.map((x) => x.path),
    [first.result.candidate.path],
  );
  const path = first.result.candidate.path!;
  assert.deepEqual(first.saved[0]!.summary, summaryOf(runIdOfFile(basename(path))!, loadSavedRun(path)));
  await tunerKept(file);

  const edits: Array<(raw: { lexical: Record<string, any> }) => void> = [
    (raw) => (raw.lexical.fields.title = 1.5),
    (raw) => (raw.lexical.bm25.k1 = 0.6),
    (raw) => (raw.lexical.bm25.b = 0.25),
    (raw) => {
      raw.lexical.fields.body = 2.5;
      raw.lexical.bm25.d = 0;
      raw.lexical.depth = 15;
    },
    (raw) => (raw.lexical.fields.title = 0), // the body alone
  ];
  const headlines = new Set<number>();
  let last: EarlyAnswer | undefined;
  for (const change of edits) {
    edit(file, change);
    const r = await save(dir, file);
    assert.deepEqual(
      r.early.map((x) => x.source),
      ['tuner'],
      'one early answer, from the Tuner',
    );
    const [early] = r.early;
    assert.equal(early!.configHash, r.config.configHash);
    assert.deepEqual(early!.figures, lensFiguresOf(r.result), 'the early figures are the full evaluation’s');
    assert.deepEqual(r.result.early && [r.result.early.source, r.result.early.matched], ['tuner', true]);
    assert.equal(r.result.candidate.reused, false, 'the full evaluation ran the new settings');
    headlines.add(early!.figures.candidate[early!.figures.specs[0]]!);
    last = early;
  }
  assert.ok(headlines.size > 2, `the edits moved the headline: ${[...headlines].join(', ')}`);

  // And those of the same config evaluated by the core in this thread, in a fresh copy (no saved run to reuse).
  const fresh = workspace();
  const copy = join(fresh, 'configs/title-boost-3.rank.json');
  writeFileSync(copy, readFileSync(file, 'utf8'));
  const local = await evaluateAgainstBaseline(RanklabSession.open(fresh), parseRankConfig(copy).config!, copy);
  assert.deepEqual(lensFiguresOf(local), last!.figures);
});

test('an edit the Tuner cannot recombine (prefix expansion) takes the full path, answered once searched; then a Tuner of the new config is prepared', async () => {
  const dir = workspace();
  const file = join(dir, 'configs/title-boost-3.rank.json');
  await save(dir, file);
  await tunerKept(file);
  edit(file, (raw) => (raw.lexical.prefix = true));
  const r = await save(dir, file);
  assert.deepEqual(
    r.early.map((x) => x.source),
    ['search'],
    'not from the Tuner',
  );
  assert.deepEqual(r.early[0]!.figures, lensFiguresOf(r.result), 'the figures before the run is saved are the end’s');
  assert.deepEqual(r.result.early && [r.result.early.source, r.result.early.matched], ['search', true]);
  assert.equal(r.result.candidate.reused, false);
  // The kept Tuner cannot answer this config: a new one is prepared for it, and answers its next tunable edit.
  await tunerKept(file);
  edit(file, (raw) => (raw.lexical.bm25.b = 0.5));
  const next = await save(dir, file);
  assert.deepEqual(
    next.early.map((x) => x.source),
    ['tuner'],
  );
  assert.deepEqual(next.early[0]!.figures, lensFiguresOf(next.result));
});

test('closing the config drops its Tuner; a judgments change drops every Tuner of the folder', async () => {
  const dir = workspace();
  const file = join(dir, 'configs/title-boost-3.rank.json');
  await save(dir, file);
  await tunerKept(file);
  client.notify({ type: 'closed', root: dir, file });
  await tunerKept(file, false);
  edit(file, (raw) => (raw.lexical.fields.title = 2));
  assert.deepEqual(
    (await save(dir, file)).early.map((x) => x.source),
    ['search'],
    'a closed config’s edit: the full path',
  );
  await tunerKept(file);
  const golden = join(dir, 'judgments/golden.json');
  const queries = JSON.parse(readFileSync(golden, 'utf8'));
  writeFileSync(golden, JSON.stringify(queries.slice(1)));
  client.notify({ type: 'changed', root: dir, kinds: ['judgments'] });
  await tunerKept(file, false);
  edit(file, (raw) => (raw.lexical.fields.title = 2.5));
  const r = await save(dir, file);
  assert.deepEqual(
    r.early.map((x) => x.source),
    ['search'],
    'a stale Tuner is not used',
  );
  assert.equal(r.result.judgments.qrels.size, queries.length - 1);
});

/** How many Tuners the worker has prepared so far (the view's and the CodeLens's; a reused one is not counted). */
const preparations = async () => (await client.request('status', {})).tunerPreparations;

test('one Tuner per config: the Tune view opened after the CodeLens reuses its Tuner, with the figures of a Tuner of its own', async () => {
  const dir = workspace();
  const file = join(dir, 'configs/title-boost-3.rank.json');
  await save(dir, file);
  await tunerKept(file);
  const before = await preparations();
  const { candidates } = await client.request('status', {}).then((s) => ({ candidates: s.lensCandidates }));
  const params = { root: dir, trusted: true, file };
  const sliders = await client.request('tunePrepare', params);
  assert.equal(await preparations(), before, 'no Tuner prepared for the view');
  assert.equal((await client.request('status', {})).lensCandidates, candidates, 'nothing more cached');
  // The figures are those of a Tuner prepared by the view alone (in this thread, a fresh session).
  const session = RanklabSession.open(dir, { writeCache: false });
  const local = await prepareTune(session, { baseConfig: session.resolveConfig(file) });
  assert.deepEqual(sliders, { ...local.sliders(), baseline: session.baselineConfig().name });
  const settings = { 'lexical.fields.title': 1.5, 'lexical.bm25.k1': 0.6 };
  const remote = await client.request('tuneEvaluate', { ...params, settings });
  const here = await local.evaluate(settings);
  assert.deepEqual(remote.metrics, here.metrics);
  assert.deepEqual(remote.comparison.metrics, here.comparison.metrics);
  assert.deepEqual(remote.gates, here.gates);
  assert.deepEqual(remote.verdict, here.verdict);
  // A tunable save is still answered from that one Tuner, and the view keeps it.
  edit(file, (raw) => (raw.lexical.fields.title = 2));
  const r = await save(dir, file);
  assert.deepEqual(
    r.early.map((x) => x.source),
    ['tuner'],
  );
  assert.deepEqual(r.early[0]!.figures, lensFiguresOf(r.result));
  assert.equal(await preparations(), before);
  await client.request('tuneQuick', { ...params, settings });
});

test('one Tuner per config: the Tune view opened on a saved edit the CodeLens’s Tuner recombines takes that Tuner, seen from the edit', async () => {
  const dir = workspace();
  const file = join(dir, 'configs/title-boost-3.rank.json');
  await save(dir, file);
  await tunerKept(file);
  edit(file, (raw) => {
    raw.lexical.fields.title = 2;
    raw.lexical.bm25.b = 0.4;
  });
  assert.deepEqual(
    (await save(dir, file)).early.map((x) => x.source),
    ['tuner'],
  );
  const before = await preparations();
  const params = { root: dir, trusted: true, file };
  const sliders = await client.request('tunePrepare', params);
  assert.equal(await preparations(), before, 'no Tuner prepared for the view');
  // The sliders stand at the file's values, and every move gives the figures of a Tuner prepared for the file.
  const session = RanklabSession.open(dir, { writeCache: false });
  const local = await prepareTune(session, { baseConfig: session.resolveConfig(file) });
  const at = (s: { sliders: { path: string; value: number }[] }) => s.sliders.map((x) => [x.path, x.value]);
  assert.deepEqual(at(sliders), at(local.sliders()));
  const moves: Array<Record<string, number>> = [{}, { 'lexical.fields.title': 3 }, { 'lexical.bm25.k1': 0.6, 'lexical.depth': 15 }];
  for (const settings of moves) {
    const quick = await client.request('tuneQuick', { ...params, settings });
    const remote = await client.request('tuneEvaluate', { ...params, settings });
    const here = await local.evaluate(settings);
    assert.deepEqual(quick.metrics, here.metrics, `${JSON.stringify(settings)}: first stage`);
    assert.deepEqual(quick.gates, here.gates);
    assert.deepEqual(remote.config, here.config);
    assert.deepEqual(remote.comparison.metrics, here.comparison.metrics, `${JSON.stringify(settings)}: statistics`);
    assert.deepEqual(remote.verdict, here.verdict);
  }
});

test('one Tuner per config: the CodeLens answers from the Tune view’s Tuner, and a closed editor or an edit outside it leaves the view its Tuner', async () => {
  const dir = workspace();
  const file = join(dir, 'configs/title-boost-3.rank.json');
  const params = { root: dir, trusted: true, file };
  const before = await preparations();
  await client.request('tunePrepare', params);
  assert.equal(await preparations(), before + 1, 'the view prepared one');
  edit(file, (raw) => (raw.lexical.bm25.b = 0.3));
  const r = await save(dir, file);
  assert.deepEqual(
    r.early.map((x) => x.source),
    ['tuner'],
    'the first save is answered from the view’s Tuner',
  );
  assert.deepEqual(r.early[0]!.figures, lensFiguresOf(r.result));
  // No CodeLens Tuner could have been prepared before this first save: the answer came from the view's.
  assert.equal(await preparations(), before + 1, 'the CodeLens prepared none');
  client.notify({ type: 'closed', root: dir, file });
  await client.request('tuneQuick', { ...params, settings: { 'lexical.bm25.b': 0.5 } });
  // An edit the view's Tuner cannot recombine: the CodeLens prepares its own Tuner, the view keeps answering.
  edit(file, (raw) => (raw.lexical.prefix = true));
  assert.deepEqual(
    (await save(dir, file)).early.map((x) => x.source),
    ['search'],
  );
  await client.request('tuneQuick', { ...params, settings: { 'lexical.bm25.b': 0.5 } });
  // A judgments change drops both.
  client.notify({ type: 'changed', root: dir, kinds: ['judgments'] });
  await assert.rejects(client.request('tuneQuick', { ...params, settings: {} }), /out of date/);
});

test('the Tune view’s Tuner is never evicted by the CodeLens’s: with two Tuners a folder at most, the CodeLens’s oldest goes', async () => {
  const dir = workspace();
  const viewed = join(dir, 'configs/title-boost-3.rank.json');
  const [b, c] = ['title-boost-2', 'title-boost-4'].map((name) => join(dir, `configs/${name}.rank.json`));
  for (const [file, boost] of [
    [b, 2],
    [c, 4],
  ] as const) {
    writeFileSync(file, readFileSync(viewed, 'utf8'));
    edit(file, (raw) => (raw.lexical.fields.title = boost));
  }
  const params = { root: dir, trusted: true, file: viewed };
  await client.request('tunePrepare', params);
  await save(dir, b);
  await tunerKept(b);
  await save(dir, c);
  await tunerKept(c);
  await tunerKept(b, false); // the view's and c's: two
  const { lensTuners } = await client.request('status', {});
  assert.deepEqual(lensTuners.filter((f) => f.startsWith(dir)).sort(), [viewed, c].sort());
  await client.request('tuneQuick', { ...params, settings: { 'lexical.bm25.b': 0.5 } });
});
