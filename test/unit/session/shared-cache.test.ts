// Engines whose configs share index-shaping settings share one index and one per-query score cache
// (retrieval/shared-parts.ts): results identical to separate engines, the sharing visible in `eval`, and a corpus
// change reaching every engine that shares an index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readRunJson } from '../../helpers/runs';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { parseMetricList } from '../../../src/core/metrics';
import { type RankConfig, normaliseRankConfig } from '../../../src/core/config';
import { type ConfigEvaluation, evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { indexShareKeys } from '../../../src/core/retrieval/shared-parts';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const specs = parseMetricList(['ndcg@10', 'mrr@10', 'recall@100']);
const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };

/** Configs of the example that run offline (hybrid-rerank needs a downloaded cross-encoder). */
function offlineConfigs(session: RanklabSession): RankConfig[] {
  return session
    .configEntries()
    .map((e) => session.usable(e))
    .filter((c) => !c.rerank);
}

/** The saved run file without what depends on timing (or the clock). */
function savedWithoutTiming(r: ConfigEvaluation): unknown {
  const saved = readRunJson(r.path!);
  delete saved.provenance.createdAt;
  delete saved.latency;
  for (const q of saved.queries) delete q.latencyMs;
  return saved;
}

function capture() {
  const io = {
    stdout: '',
    stderr: '',
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
  };
  return io;
}

test('every example config evaluated through one session (shared indexes and caches, twice, both orders) gives the saved run of its own fresh engine', async () => {
  const ws = copyOfExample();
  const shared = RanklabSession.open(ws, { stateDir: tempDir(), allowModelLoading: false });
  const files = offlineConfigs(shared);
  assert.ok(files.length >= 6, files.map((c) => c.name).join(', '));
  // Variants as a sweep makes them: other depths, RRF k and weights over the same indexes.
  const raw = JSON.parse(readFileSync(join(ws, 'configs', 'hybrid-rrf.rank.json'), 'utf8'));
  const variant = normaliseRankConfig(
    {
      ...raw,
      lexical: { ...raw.lexical, depth: 40, fields: { title: 2, body: 1 } },
      vector: { ...raw.vector, depth: 30 },
      hybrid: { ...raw.hybrid, k: 10, depth: 50, weights: { lexical: 1, vector: 0.4 } },
    },
    'hybrid-variant',
  );
  const configs = [...files, variant];
  const sharedRuns = new Map<string, ConfigEvaluation[]>();
  for (const config of [...configs, ...[...configs].reverse()]) {
    const r = await evaluateConfig(shared, config, { specs, metricOptions });
    sharedRuns.set(config.name, [...(sharedRuns.get(config.name) ?? []), r]);
  }
  let sharedParts = 0;
  for (const config of configs) {
    // Its own session, its own state folder: nothing shared, nothing loaded from another config's cache.
    const fresh = RanklabSession.open(ws, { stateDir: tempDir() });
    const own = await evaluateConfig(fresh, config, { specs, metricOptions });
    assert.deepEqual(own.sharing?.sharedWith, {});
    for (const r of sharedRuns.get(config.name)!) {
      assert.deepEqual(savedWithoutTiming(r), savedWithoutTiming(own), config.name);
      sharedParts += Object.keys(r.sharing!.sharedWith).length;
    }
  }
  assert.ok(sharedParts >= configs.length, `the shared session shared parts (${sharedParts})`);
});

test('configs differing from the baseline only in boosts reuse its index, then its cached scores, and eval says so', async () => {
  const ws = copyOfExample();
  const session = RanklabSession.open(ws, { stateDir: tempDir() });
  const [baseline, boosted] = ['baseline', 'title-boost-3'].map((n) => session.resolveConfig(n));
  assert.notDeepEqual(baseline.lexical!.fields, boosted.lexical!.fields);
  assert.deepEqual(indexShareKeys(baseline), indexShareKeys(boosted));
  const first = await evaluateConfig(session, baseline, { specs, metricOptions, save: false });
  assert.deepEqual(first.sharing?.sharedWith, {});
  assert.equal(first.sharing?.cachedQueries.lexical ?? 0, 0, 'the first config scores every query itself');
  // The second shares the index (nothing built); a query's first passes are pruned top-k searches on it, cheaper
  // than filling the per-field score cache (lexical.ts, PRUNED_PASSES_BEFORE_CACHING).
  const second = await evaluateConfig(session, boosted, { specs, metricOptions, save: false });
  assert.deepEqual(second.sharing?.sharedWith, { lexical: 'baseline' });
  assert.equal(second.sharing?.queries, 94);
  assert.equal((await session.engine(boosted)).build.sharedWith?.lexical, 'baseline');
  // Once a query recurs, its field scores are cached and every further boost vector is a recombination.
  const raw = JSON.parse(readFileSync(join(ws, 'configs', 'title-boost-3.rank.json'), 'utf8'));
  const variants = [2, 4, 5].map((t) =>
    normaliseRankConfig({ ...raw, lexical: { ...raw.lexical, fields: { title: t, body: 1 } } }, `title-${t}`),
  );
  const cachedCounts: number[] = [];
  for (const v of variants)
    cachedCounts.push((await evaluateConfig(session, v, { specs, metricOptions, save: false })).sharing?.cachedQueries.lexical ?? 0);
  assert.equal(cachedCounts[cachedCounts.length - 1], 94, `cached per variant: ${cachedCounts.join(', ')}`);

  // The CLI, as a user runs it: the table output and the JSON both tell.
  const io = capture();
  assert.equal(
    await main(['eval', '--workspace', ws, '--state-dir', tempDir(), '--config', 'baseline', '--config', 'title-boost-3', '--no-save'], io),
    0,
    io.stderr,
  );
  assert.match(io.stdout, /^ {2}title-boost-3: index shared with baseline \(lexical\)/m);
  assert.doesNotMatch(io.stdout, /^ {2}baseline: index shared/m);
  const json = capture();
  assert.equal(
    await main(
      [
        'eval',
        '--workspace',
        ws,
        '--state-dir',
        tempDir(),
        '--config',
        'baseline',
        '--config',
        'title-boost-3',
        '--no-save',
        '--format',
        'json',
      ],
      json,
    ),
    0,
    json.stderr,
  );
  const runs = JSON.parse(json.stdout).runs;
  assert.deepEqual(runs[1].sharing.sharedWith, { lexical: 'baseline' });
  assert.equal(runs[1].sharing.queries, 94);
  // Alone, the same config shares nothing.
  const alone = capture();
  assert.equal(
    await main(['eval', '--workspace', ws, '--state-dir', tempDir(), '--config', 'title-boost-3', '--no-save'], alone),
    0,
    alone.stderr,
  );
  assert.doesNotMatch(alone.stdout, /index shared/);
});

test("a config that is no file (a sweep's variant) shares the same way and ranks as it would alone", async () => {
  const ws = copyOfExample();
  const session = RanklabSession.open(ws, { stateDir: tempDir() });
  const raw = JSON.parse(readFileSync(join(ws, 'configs', 'title-boost-3.rank.json'), 'utf8'));
  const variant = (t: number) =>
    normaliseRankConfig({ ...raw, lexical: { ...raw.lexical, fields: { title: t, body: 1.5 } } }, `title-${t}`);
  for (const c of [session.resolveConfig('baseline'), variant(3), variant(4)])
    await evaluateConfig(session, c, { specs, metricOptions, save: false });
  const shared = await evaluateConfig(session, variant(2), { specs, metricOptions, save: false });
  assert.deepEqual(shared.sharing, { sharedWith: { lexical: 'baseline' }, cachedQueries: { lexical: 94 }, queries: 94 });
  const alone = RanklabSession.open(ws, { stateDir: tempDir() });
  const own = await evaluateConfig(alone, variant(2), { specs, metricOptions, save: false });
  assert.deepEqual([...shared.run], [...own.run]);
  assert.deepEqual(shared.evaluation.means, own.evaluation.means);
});

test('settings that shape an index give another sharing key; settings applied per query do not', () => {
  const session = RanklabSession.open(copyOfExample(), { stateDir: tempDir() });
  const base = session.resolveConfig('baseline');
  const vector = session.resolveConfig('vector');
  const keys = indexShareKeys(base);
  const lx = base.lexical!;
  for (const perQuery of [
    { ...lx, fields: { title: 5, body: 0.5 } },
    { ...lx, bm25: { k1: 2, b: 0.1, d: 0 } },
    { ...lx, depth: 7 },
    { ...lx, combineWith: 'AND' as const },
    { ...lx, coordination: !lx.coordination },
    { ...lx, prefix: true, fuzzy: 0.2 },
  ])
    assert.deepEqual(indexShareKeys({ ...base, lexical: perQuery }), keys, JSON.stringify(perQuery));
  for (const shaping of [
    { ...lx, fields: { body: 1, title: 1 } },
    { ...lx, fields: { title: 1, body: 1, tags: 1 } },
    { ...lx, analyzer: { ...lx.analyzer, minLength: 3 } },
  ])
    assert.notEqual(indexShareKeys({ ...base, lexical: shaping }).lexical, keys.lexical, JSON.stringify(shaping));
  const v = vector.vector!;
  const vkey = indexShareKeys(vector).vector;
  for (const perQuery of [
    { ...v, depth: 3 },
    { ...v, hnsw: { ...v.hnsw, efSearch: 7 } },
  ])
    assert.equal(indexShareKeys({ ...vector, vector: perQuery }).vector, vkey);
  for (const shaping of [
    { ...v, hnsw: { ...v.hnsw, M: 8 } },
    { ...v, exact: true },
    { ...v, embedder: { ...v.embedder, dimensions: 64 } },
    { ...v, space: 'ip' as const },
  ]) {
    assert.notEqual(indexShareKeys({ ...vector, vector: shaping }).vector, vkey, JSON.stringify(shaping));
  }
  // LSA is trained with the analyzer: another analyzer, another vector stage.
  assert.notEqual(indexShareKeys({ ...vector, lexical: { ...lx, analyzer: { ...lx.analyzer, minLength: 3 } } }).vector, vkey);
});

test('a corpus change after sharing reaches every engine that shares an index, and one built later from an index no engine held', async () => {
  const ws = copyOfExample();
  const names = ['baseline', 'title-boost-3', 'pre-filter', 'vector', 'hybrid-rrf'];
  const query = 'zanzibar quokka espresso';
  // Every engine built before the change, each query's scores cached.
  const warm = RanklabSession.open(ws, { stateDir: tempDir() });
  for (const n of names) await (await warm.engine(warm.resolveConfig(n))).search(query);
  // hybrid-rerank cannot be created here (no model loading): its engine fails after its lexical and vector parts were
  // built; only the lexical engines are built, so the vector stage is held by no engine when the corpus changes.
  const orphan = RanklabSession.open(ws, { stateDir: tempDir(), allowModelLoading: false });
  await assert.rejects(orphan.engine(orphan.resolveConfig('hybrid-rerank')));
  for (const n of names.slice(0, 3)) await (await orphan.engine(orphan.resolveConfig(n))).search(query);
  // The change: a new document with words no other has, one changed, one removed.
  const corpusDir = join(ws, 'corpus');
  writeFileSync(
    join(corpusDir, 'zz-new.md'),
    '---\nid: zz-new\ntitle: Zanzibar quokka espresso\n---\nA zanzibar quokka drinks espresso.\n',
  );
  const changed = join(corpusDir, 'recipes', 'recipe-banana-bread.md');
  writeFileSync(changed, readFileSync(changed, 'utf8').replace('a moist loaf', 'a quokka loaf'));
  rmSync(join(corpusDir, 'recipes', 'recipe-lontong-sayur.md'));
  const fresh = RanklabSession.open(ws, { stateDir: tempDir() });
  for (const session of [warm, orphan]) {
    const diff = await session.refreshCorpus();
    assert.deepEqual([diff.added, diff.changed, diff.removed], [['zz-new'], ['recipe-banana-bread'], ['recipe-lontong-sayur']]);
    for (const n of names) {
      const got = await (await session.engine(session.resolveConfig(n))).search(query);
      const want = await (await fresh.engine(fresh.resolveConfig(n))).search(query);
      assert.equal(got.docs[0]?.id, 'zz-new', n);
      assert.deepEqual(got.docs, want.docs, n);
      assert.equal(got.total, want.total, n);
      assert.ok(
        got.docs.some((d) => d.id === 'recipe-banana-bread'),
        n,
      );
    }
  }
  // The engines did share (in `warm`, baseline's engine built the lexical index, vector's the vector stage).
  assert.deepEqual((await warm.engine(warm.resolveConfig('hybrid-rrf'))).build.sharedWith, { lexical: 'baseline', vector: 'vector' });
});
