// The Tune engine is exact: for random slider positions (field boosts, BM25 k1, b and d, depth; a hybrid config's RRF
// k, list weights and depths; a vector-only config's depth; a reranked config's top-N and top-M), every figure tuner.evaluate gives equals a full
// evaluation of the same settings written as a config file of its own, in a fresh session (evaluateConfig, the
// engine's first pass: pruned top-k, HNSW or exact vector search, the reranker), compared with the baseline by the
// compare action (actions/compare-runs.ts): metrics, per-query values, wins/losses/ties, tests and Holm-adjusted
// p-values, slices, splits, warnings, gates and the verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { compareRuns } from '../../../src/core/actions/compare-runs';
import { checkGates, withGateMetrics } from '../../../src/core/experiment/gates';
import { verdictOf } from '../../../src/core/experiment/verdict';
import { parseMetricList } from '../../../src/core/metrics';
import { RanklabSession } from '../../../src/core/session/session';
import { withSetting } from '../../../src/core/tuning/parameters';
import { type TuneSettings, prepareTune, tuneSliders } from '../../../src/core/tuning/tuner';
import { metricOptionsOf } from '../../../src/core/workspace/settings';
import { copyOfExample } from '../../helpers/workspace';
import { BM25_CONFIG, writeSyntheticWorkspace } from '../../helpers/synthetic-workspace';
import { tinyModel } from '../../helpers/tiny-models';

/** Settings → what the compare action says of them as a config file of their own, in a fresh session. */
async function fullPath(dir: string, baseFile: string, settings: TuneSettings, n: number, name: string) {
  let raw = JSON.parse(readFileSync(join(dir, 'configs', baseFile), 'utf8')) as Record<string, unknown>;
  for (const [path, value] of Object.entries(settings)) raw = withSetting(raw, path, value);
  const file = join(dir, 'configs', `moved-${n}.rank.json`);
  writeFileSync(file, JSON.stringify(raw));
  const session = RanklabSession.open(dir, { writeCache: false });
  const config = session.usable(session.configEntry(file));
  const ws = session.workspace.settings;
  const specs = withGateMetrics(parseMetricList(ws.metrics), ws.gates);
  const metricOptions = metricOptionsOf(ws);
  const baseline = session.baselineConfig();
  const { many } = await compareRuns(session, {
    baseline: { kind: 'config', config: baseline, name: baseline.name },
    candidates: [{ kind: 'config', config, name }], // the tuner's name for it, which the verdict's text quotes
    specs,
    metricOptions,
    split: 'all',
    explain: 0,
  });
  rmSync(file);
  return { config, cmp: many.comparisons[0], gates: checkGates(ws.gates, many.comparisons[0]) };
}

const boost = fc.constantFrom(0, 0.3, 1, 2.5, 4);
const settingsArb = fc
  .record(
    {
      'lexical.fields.title': boost,
      'lexical.fields.body': boost,
      'lexical.bm25.k1': fc.constantFrom(0, 0.5, 0.9, 1.2, 2.75),
      'lexical.bm25.b': fc.constantFrom(0, 0.3, 0.75, 1),
      'lexical.bm25.d': fc.constantFrom(0, 0.5, 1),
      'lexical.depth': fc.constantFrom(1, 3, 10, 100),
    },
    { requiredKeys: [] },
  )
  .filter((s) => (s['lexical.fields.title'] ?? 1) + (s['lexical.fields.body'] ?? 1) > 0);

const lexicalMoves = {
  'lexical.fields.title': boost,
  'lexical.fields.body': boost,
  'lexical.bm25.k1': fc.constantFrom(0, 0.5, 1.2),
  'lexical.bm25.b': fc.constantFrom(0, 0.75, 1),
  'lexical.depth': fc.constantFrom(1, 5, 100),
};
const fusionMoves = {
  'hybrid.k': fc.constantFrom(0, 1, 20, 60, 150),
  'hybrid.weights.lexical': fc.constantFrom(0, 0.4, 1, 2.5),
  'hybrid.weights.vector': fc.constantFrom(0, 0.7, 1, 3),
  'hybrid.depth': fc.constantFrom(1, 4, 10, 100, 400),
};
/** Settings a config file may have (the parser refuses every boost 0 and both fusion weights 0, and so does the tuner). */
const anyBoost = (s: TuneSettings) =>
  (s['lexical.fields.title'] ?? 1) + (s['lexical.fields.body'] ?? 1) > 0 &&
  (s['hybrid.weights.lexical'] ?? 1) + (s['hybrid.weights.vector'] ?? 1) > 0;
/** A hybrid config over HNSW: the vector depth is not a slider (another depth is another HNSW search). */
const hnswHybridArb = fc.record({ ...lexicalMoves, ...fusionMoves }, { requiredKeys: [] }).filter(anyBoost);
/** A hybrid config over exact vector search: the vector depth cuts the cached list. */
const exactHybridArb = fc
  .record({ ...lexicalMoves, ...fusionMoves, 'vector.depth': fc.constantFrom(1, 3, 20, 100, 1000) }, { requiredKeys: [] })
  .filter(anyBoost);
/** The synthetic reranked config's pool: the 50 fused documents (its hybrid depth). */
const rerankArb = fc.record(
  { 'rerank.topN': fc.constantFrom(1, 2, 7, 20, 33, 50), 'rerank.topM': fc.constantFrom(1, 3, 10, 50) },
  { requiredKeys: [] },
);

/** A vector-only config over exact search: the depth cuts the cached list (1,000 deep). */
const vectorOnlyArb = fc.record({ 'vector.depth': fc.constantFrom(1, 2, 3, 5, 10, 20, 100, 1000) }, { requiredKeys: [] });
/** The synthetic reranked vector-only config's pool: its 60 vector hits. */
const rerankVectorArb = fc.record(
  { 'rerank.topN': fc.constantFrom(1, 2, 7, 20, 33, 60), 'rerank.topM': fc.constantFrom(1, 3, 10, 60) },
  { requiredKeys: [] },
);

async function checkExact(
  dir: string,
  baseName: string,
  runs: number,
  seed: number,
  arb: fc.Arbitrary<TuneSettings> = settingsArb,
): Promise<void> {
  const session = RanklabSession.open(dir, { writeCache: false });
  const tuner = await prepareTune(session, { baseConfig: session.resolveConfig(baseName) });
  const headlines = new Set<number>();
  let n = 0;
  const check = async (settings: TuneSettings) => {
    // Every other move in two stages (quick, then evaluate reusing its ranking), the others in one step.
    const staged = n % 2 === 0;
    const quick = staged ? await tuner.quick(settings) : undefined;
    const got = await tuner.evaluate(settings);
    const { config, cmp, gates } = await fullPath(dir, `${baseName}.rank.json`, settings, n++, got.config.name);
    // The first stage's figures are compare's own.
    const first = quick ?? (await tuner.quick(settings));
    const headline = cmp.primaryMetric;
    for (const [name, m] of Object.entries(cmp.metrics)) {
      assert.equal(first.metrics.all.baseline[name], m.baseline, `quick: baseline mean of ${name}`);
      assert.equal(first.metrics.all.candidate[name], m.candidate, `quick: mean of ${name}`);
      for (const split of ['tune', 'holdout'] as const)
        if (cmp.splits[split])
          for (const side of ['baseline', 'candidate'] as const)
            assert.equal(first.metrics[split][side][name], cmp.splits[split].metrics[name][side], `quick: ${split} ${side} ${name}`);
    }
    assert.deepEqual(
      first.perQuery,
      Object.entries(cmp.perQuery).map(([qid, m]) => ({ qid, ...m[headline] })),
      'quick: per-query headline values and deltas',
    );
    assert.deepEqual([first.wins, first.losses, first.ties], [cmp.wins[headline], cmp.losses[headline], cmp.ties[headline]]);
    const { comparison: _e, gates: _f, verdict: _g, ...rest } = got;
    assert.deepEqual(first, rest, 'quick gives the same figures as evaluate');
    const { name: _a, description: _b, ...mine } = got.config;
    const { name: _c, description: _d, ...theirs } = config;
    assert.deepEqual(mine, theirs, 'the config these settings mean');
    assert.deepEqual(got.comparison.perQuery, cmp.perQuery, 'per-query values');
    assert.deepEqual(got.comparison.metrics, cmp.metrics, 'means, CIs, tests, adjusted p-values');
    assert.deepEqual(got.comparison.slices, cmp.slices);
    assert.deepEqual(got.comparison.splits, cmp.splits);
    assert.deepEqual([got.comparison.wins, got.comparison.losses, got.comparison.ties], [cmp.wins, cmp.losses, cmp.ties]);
    assert.deepEqual(
      got.comparison.queryDeltas,
      cmp.queryDeltas.map(({ moved: _, ...q }) => q),
    );
    assert.equal(got.comparison.correction, cmp.correction);
    assert.deepEqual(got.gates, gates);
    // The CodeLens's early answer: the gates without compare's resampling are the same gates.
    const lens = await tuner.quickWithGates(settings);
    assert.deepEqual(lens.gates, gates, 'quickWithGates: the gates');
    assert.deepEqual({ ...lens, gates: undefined }, { ...first, gates: undefined }, 'quickWithGates: the first stage');
    // The tuner has no ranked lists, so no bounds over unjudged documents (the verdict's could-flip notes).
    assert.deepEqual(got.verdict, verdictOf({ ...cmp, bounds: undefined }, gates));
    assert.equal(got.metrics.all.candidate[headline], cmp.metrics[headline].candidate);
    assert.equal(got.wins, cmp.wins[headline]);
    headlines.add(got.metrics.all.candidate[headline]);
  };
  await check({}); // the base config's own settings
  await fc.assert(fc.asyncProperty(arb, check), { numRuns: runs, seed });
  // The positions score differently (a tuner that ignored the settings would pass the equalities only by luck).
  assert.ok(headlines.size > 2, `headline values: ${[...headlines].join(', ')}`);
}

test('example workspace: random slider positions equal a full eval + compare of the same config', async () => {
  await checkExact(copyOfExample(), 'title-boost-3', 12, 31);
});

test('synthetic corpus: random slider positions equal a full eval + compare of the same config', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ranklab-tuner-'));
  try {
    const dir = join(root, 'ws');
    mkdirSync(dir);
    const moved = { ...BM25_CONFIG, lexical: { ...BM25_CONFIG.lexical, fields: { title: 2, body: 1 }, bm25: { k1: 0.9, b: 0.4, d: 0.5 } } };
    writeSyntheticWorkspace(dir, { docs: 400, queries: 60, configs: { baseline: BM25_CONFIG, moved }, seed: 5 });
    await checkExact(dir, 'moved', 10, 7);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('example workspace, hybrid (HNSW): random fusion and lexical slider positions equal a full eval + compare', async () => {
  await checkExact(copyOfExample(), 'hybrid-rrf', 10, 31, hnswHybridArb);
});

test('synthetic corpus, tiny embedder and reranker: hybrid (exact) and reranked slider positions equal a full eval + compare', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ranklab-tuner-'));
  try {
    const dir = join(root, 'ws');
    mkdirSync(dir);
    const vector = { embedder: { provider: 'transformers', model: tinyModel('tiny-embedder') }, exact: true, depth: 60 };
    const hybrid = { ...BM25_CONFIG, vector, hybrid: { k: 30, depth: 50, weights: { lexical: 1, vector: 0.7 } } };
    const reranked = {
      ...hybrid,
      rerank: { provider: { provider: 'transformers', model: tinyModel('tiny-reranker') }, topN: 20, topM: 10 },
    };
    writeSyntheticWorkspace(dir, { docs: 300, queries: 40, configs: { baseline: BM25_CONFIG, hybrid, reranked }, seed: 5 });
    await checkExact(dir, 'hybrid', 10, 7, exactHybridArb);
    await checkExact(dir, 'reranked', 10, 7, rerankArb);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('synthetic corpus, tiny embedder and reranker: vector-only (exact) and reranked vector-only slider positions equal a full eval + compare', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ranklab-tuner-'));
  try {
    const dir = join(root, 'ws');
    mkdirSync(dir);
    const vector = { embedder: { provider: 'transformers', model: tinyModel('tiny-embedder') }, exact: true, depth: 60 };
    const dense = { vector, pageSize: 10 };
    const reranked = {
      ...dense,
      rerank: { provider: { provider: 'transformers', model: tinyModel('tiny-reranker') }, topN: 20, topM: 10 },
    };
    writeSyntheticWorkspace(dir, { docs: 300, queries: 40, configs: { baseline: BM25_CONFIG, dense, reranked }, seed: 9 });
    const session = RanklabSession.open(dir, { writeCache: false });
    // Vector-only: the depth moves (the list is cached 1,000 deep); what needs a new search or a rebuild is listed.
    const { sliders, fixed } = tuneSliders(session.resolveConfig('dense'));
    assert.deepEqual(
      sliders.map((s) => [s.path, s.value, s.min, s.max]),
      [['vector.depth', 60, 1, 1000]],
    );
    assert.deepEqual(
      fixed.map((f) => f.path),
      ['vector.hnsw.efSearch', 'vector.embedder'],
    );
    // Reranked vector-only: top-N over the 60 vector hits' cached reranker scores; the vector depth is a new rerank.
    const rr = tuneSliders(session.resolveConfig('reranked'));
    assert.deepEqual(
      rr.sliders.map((s) => [s.path, s.value, s.min, s.max]),
      [
        ['rerank.topN', 20, 1, 60],
        ['rerank.topM', 10, 1, 60],
      ],
    );
    assert.match(rr.fixed.find((f) => f.path === 'vector.depth')!.reason, /reranker scores/);
    await checkExact(dir, 'dense', 10, 7, vectorOnlyArb);
    await checkExact(dir, 'reranked', 10, 7, rerankVectorArb);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('sliders and refusals: the settings of each kind of config, bad settings named', async () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const tuner = await prepareTune(session, { baseConfig: session.resolveConfig('baseline') });
  const { sliders, fixed } = tuner.sliders();
  const lexicalPaths = [
    'lexical.fields.title',
    'lexical.fields.body',
    'lexical.bm25.k1',
    'lexical.bm25.b',
    'lexical.bm25.d',
    'lexical.depth',
  ];
  assert.deepEqual(
    sliders.map((s) => s.path),
    lexicalPaths,
  );
  assert.deepEqual(
    sliders.find((s) => s.path === 'lexical.bm25.b'),
    { path: 'lexical.bm25.b', value: 0.7, min: 0, max: 1, step: 0.05 },
  );
  assert.ok(fixed.some((f) => f.path === 'lexical.prefix'));
  await assert.rejects(tuner.evaluate({ 'lexical.bm25.k': 1 }), /"lexical\.bm25\.k" is not a setting.*did you mean lexical\.bm25\.k1/s);
  await assert.rejects(tuner.evaluate({ 'lexical.bm25.b': 1.5 }), /lexical\.bm25\.b.*from 0 to 1/s);
  await assert.rejects(tuner.evaluate({ 'lexical.fields.title': 0, 'lexical.fields.body': 0 }), /every field has boost 0/);
  await assert.rejects(tuner.evaluate({ 'hybrid.k': 10 }), /"hybrid\.k" is not a setting/);

  // Hybrid over HNSW: fusion settings are sliders, the vector depth is listed (another HNSW search).
  const hybrid = tuneSliders(session.resolveConfig('hybrid-rrf'));
  assert.deepEqual(
    hybrid.sliders.map((s) => s.path),
    [...lexicalPaths, 'hybrid.k', 'hybrid.weights.lexical', 'hybrid.weights.vector', 'hybrid.depth'],
  );
  assert.deepEqual(
    hybrid.sliders.find((s) => s.path === 'hybrid.k'),
    { path: 'hybrid.k', value: 60, min: 0, max: 200, step: 1 },
  );
  assert.match(hybrid.fixed.find((f) => f.path === 'vector.depth')!.reason, /HNSW/);
  const hybridTuner = await prepareTune(session, { baseConfig: session.resolveConfig('hybrid-rrf') });
  await assert.rejects(hybridTuner.evaluate({ 'vector.depth': 50 }), /"vector\.depth" is not a setting.*HNSW/s);
  await assert.rejects(hybridTuner.evaluate({ 'hybrid.depth': 2.5 }), /hybrid\.depth.*whole number/s);
  await assert.rejects(hybridTuner.evaluate({ 'hybrid.weights.lexical': 0, 'hybrid.weights.vector': 0 }), /both fusion weights are 0/);

  // Reranked: top-N and top-M over the cached pool; what changes the reranker's candidates is listed.
  const reranked = tuneSliders(session.resolveConfig('hybrid-rerank'));
  assert.deepEqual(
    reranked.sliders.map((s) => [s.path, s.value, s.min, s.max]),
    [
      ['rerank.topN', 50, 1, 100],
      ['rerank.topM', 10, 1, 100],
    ],
  );
  for (const path of [...lexicalPaths, 'hybrid.k', 'hybrid.weights.vector'])
    assert.match(reranked.fixed.find((f) => f.path === path)?.reason ?? `${path} not listed`, /reranker scores/);

  // Vector-only over HNSW: nothing moves without a new search (another depth is another HNSW search).
  const hnsw = tuneSliders(session.resolveConfig('vector'));
  assert.deepEqual(hnsw.sliders, []);
  assert.match(hnsw.fixed.find((f) => f.path === 'vector.depth')!.reason, /HNSW/);
  await assert.rejects(
    prepareTune(session, { baseConfig: session.resolveConfig('vector') }),
    /"vector" has no setting.*vector\.depth \(a new search: HNSW/s,
  );
});
