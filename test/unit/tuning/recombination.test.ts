// The sweep's fast path (recombination.ts, CandidateRanker) is exact: the same ranked lists (ids, scores, order,
// ties) as the engine's own search of each boost vector (pruned top-k, what a fresh engine's first pass gives), and
// the same per-query objective as evaluating each combination as a config of its own in a fresh session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { RanklabSession } from '../../../src/core/session/session';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { DEFAULT_METRIC_OPTIONS, type EvaluateOptions, parseMetric } from '../../../src/core/metrics';
import { parseVary } from '../../../src/core/tuning/parameters';
import { recombinable } from '../../../src/core/tuning/recombination';
import { type SweepResult, runSweep } from '../../../src/core/tuning/sweep';
import { CandidateRanker, LexicalIndex, recombine } from '../../../src/core/retrieval/lexical';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';
import type { Document } from '../../../src/core/corpus/document';
import { copyOfExample } from '../../helpers/workspace';
import { BM25_CONFIG, writeSyntheticWorkspace } from '../../helpers/synthetic-workspace';

/** Every combination's objective per query, evaluated as a config file of its own in a fresh session (no shared cache). */
async function ownConfigValues(
  dir: string,
  result: SweepResult,
  metric: string,
  metricOptions: EvaluateOptions,
): Promise<Map<number, Map<string, number>>> {
  const out = new Map<number, Map<string, number>>();
  for (const c of result.combinations) {
    const fresh = RanklabSession.open(dir, { writeCache: false });
    const file = join(dir, 'configs', `own-${c.index}.rank.json`);
    writeFileSync(file, JSON.stringify(c.raw));
    const config = fresh.usable(fresh.configEntry(file));
    assert.equal(config.configHash, c.config.configHash);
    const spec = parseMetric(metric);
    const evaluated = await evaluateConfig(fresh, config, { specs: [spec], metricOptions, split: 'all', save: false });
    out.set(c.index, new Map([...evaluated.evaluation.perQuery].map(([q, v]) => [q, v[spec.name]])));
  }
  return out;
}

async function sweepBothWays(dir: string, raw: Record<string, unknown>, varies: string[], metric: string, metricOptions: EvaluateOptions) {
  const run = (recombine: boolean) => {
    const session = RanklabSession.open(dir, { writeCache: false });
    const base = session.usable(session.configEntry('baseline'));
    const variations = varies.map((v) => parseVary(v));
    assert.equal(recombinable(base, variations), true, 'the fast path applies');
    return runSweep(session, { base, raw, variations, search: { kind: 'grid' }, objective: parseMetric(metric), metricOptions, recombine });
  };
  return { fast: await run(true), general: await run(false) };
}

test('example workspace: boosts with 0 and equal values, combineWith and depth: the fast path equals each combination as its own config', async () => {
  const dir = copyOfExample();
  const raw = JSON.parse(readFileSync(join(dir, 'configs', 'baseline.rank.json'), 'utf8'));
  const varies = ['lexical.fields.title=0,1,2', 'lexical.fields.body=0,2', 'lexical.combineWith=OR,AND', 'lexical.depth=5,100'];
  for (const [metric, metricOptions] of [
    ['ndcg@10', DEFAULT_METRIC_OPTIONS],
    ['map', { ...DEFAULT_METRIC_OPTIONS, excludeNoRelevant: true }],
  ] as const) {
    const { fast, general } = await sweepBothWays(dir, raw, varies, metric, metricOptions);
    assert.equal(fast.combinations.length, 20, 'title=0 with body=0 is no config');
    assert.equal(fast.skipped.length, 4);
    assert.deepEqual(fast.perQuery, general.perQuery);
    assert.deepEqual(fast.rows, general.rows);
    // Each combination as its own config in a fresh session (its first pass: pruned top-k, no cached scores).
    if (metric === 'ndcg@10') assert.deepEqual(fast.perQuery.combinations, await ownConfigValues(dir, fast, metric, metricOptions));
    // The grid's values differ (the test would not notice a fast path that ignores the boosts otherwise).
    assert.ok(new Set(fast.rows.map((r) => r.tune)).size > 3);
  }
});

test('synthetic corpus with coordination: condensed lists, another threshold: the fast path equals each combination as its own config', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ranklab-recombination-'));
  try {
    const dir = join(root, 'ws');
    mkdirSync(dir);
    writeSyntheticWorkspace(dir, {
      docs: 400,
      queries: 60,
      configs: { baseline: { ...BM25_CONFIG, lexical: { ...BM25_CONFIG.lexical, coordination: true } } },
      seed: 3,
    });
    const raw = JSON.parse(readFileSync(join(dir, 'configs', 'baseline.rank.json'), 'utf8'));
    const metricOptions = { ...DEFAULT_METRIC_OPTIONS, judgedOnly: true, relevanceThreshold: 3 };
    const { fast, general } = await sweepBothWays(
      dir,
      raw,
      ['lexical.fields.title=0,1,3', 'lexical.fields.body=1,3', 'lexical.depth=3,50'],
      'p@5',
      metricOptions,
    );
    assert.deepEqual(fast.perQuery, general.perQuery);
    assert.deepEqual(fast.rows, general.rows);
    assert.deepEqual(fast.perQuery.combinations, await ownConfigValues(dir, fast, 'p@5', metricOptions));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('not recombinable: another section, a field BASE does not have, a re-search setting', () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const base = session.usable(session.configEntry('baseline'));
  assert.equal(recombinable(base, [parseVary('lexical.fields.title=1,2'), parseVary('lexical.depth=10,20')]), true);
  assert.equal(recombinable(base, [parseVary('lexical.fields.summary=1,2')]), false);
  assert.equal(recombinable(base, [parseVary('lexical.bm25.k1=0.9,1.2')]), false);
  assert.equal(recombinable(base, [parseVary('lexical.fields.title=1,2'), parseVary('lexical.coordination=true,false')]), false);
});

// Property: on a random corpus from a tiny vocabulary (many equal scores), for any boost vector (0 and equal boosts
// included), AND/OR, coordination and depth, CandidateRanker's list is the engine's: pruned top-k and recombine.
test('property: CandidateRanker ranks exactly as the engine (ids, scores, order, ties) for any boosts', () => {
  const vocabulary = ['kopi', 'teh', 'gula', 'susu', 'roti', 'keju', 'nasi', 'mie'];
  const words = fc.array(fc.constantFrom(...vocabulary), { minLength: 0, maxLength: 3 }).map((w) => w.join(' '));
  const corpus = fc.array(fc.record({ title: words, body: words, summary: words }), { minLength: 1, maxLength: 80 });
  const boost = fc.constantFrom(0, 0.5, 1, 1, 2, 3);
  fc.assert(
    fc.property(
      corpus,
      fc.array(words, { minLength: 1, maxLength: 4 }),
      fc.tuple(boost, boost, boost),
      fc.constantFrom<'AND' | 'OR'>('AND', 'OR'),
      fc.boolean(),
      fc.integer({ min: 1, max: 8 }),
      (texts, queries, [title, body, summary], combineWith, coordination, depth) => {
        const docs: Document[] = texts.map((t, i) => ({
          id: `d${(i * 7) % 41}-${i}`,
          title: t.title,
          body: t.body,
          fields: { summary: t.summary },
          meta: {},
          source: { path: 'x' },
          hash: String(i),
        }));
        const index = LexicalIndex.build(docs, ['title', 'body', 'summary'], createAnalyzer({ ...DEFAULT_ANALYZER, stopwords: 'none' }));
        const options = {
          bm25: { k1: 1.2, b: 0.75, d: 0.5 },
          prefix: false,
          fuzzy: 0,
          boosts: { title, body, summary },
          combineWith,
          coordination,
          depth,
        };
        for (const q of queries) {
          const scores = index.fieldScores(q, options);
          const ranker = new CandidateRanker(scores);
          const top = new Int32Array(scores.docIds.length);
          const got = new Float64Array(scores.docIds.length);
          const n = ranker.rank(options, top, got);
          const mine = Array.from({ length: n }, (_, i) => ({ id: scores.docIds[top[i]], score: got[i] }));
          assert.deepEqual(mine, recombine(scores, options).hits, `recombine, query "${q}"`);
          if (title + body + summary > 0) assert.deepEqual(mine, index.topK(q, options).hits, `pruned top-k, query "${q}"`);
        }
      },
    ),
    { numRuns: 60 },
  );
});

test("ties at the depth cut: the highest ids of the tied documents, in descending id order (the engine's tie rule)", () => {
  // Seven documents with the same text score the same; one scores higher. Depth 4: the best, then the three highest ids.
  const ids = ['d3', 'd10', 'd7', 'd1', 'd9', 'd22', 'd5'];
  const docs: Document[] = [
    ...ids.map((id) => ({ id, title: 'kopi', body: 'teh susu' })),
    { id: 'top', title: 'kopi kopi', body: 'teh' },
  ].map((d, i) => ({ ...d, fields: {}, meta: {}, source: { path: 'x' }, hash: String(i) }));
  const index = LexicalIndex.build(docs, ['title', 'body'], createAnalyzer({ ...DEFAULT_ANALYZER, stopwords: 'none' }));
  const options = {
    bm25: { k1: 1.2, b: 0.75, d: 0 },
    prefix: false,
    fuzzy: 0,
    boosts: { title: 2, body: 1 },
    combineWith: 'OR' as const,
    depth: 4,
  };
  const scores = index.fieldScores('kopi teh', options);
  const top = new Int32Array(scores.docIds.length);
  const n = new CandidateRanker(scores).rank(options, top);
  assert.deepEqual(
    [...top.subarray(0, n)].map((slot) => scores.docIds[slot]),
    ['top', 'd9', 'd7', 'd5'],
  );
  assert.deepEqual(
    index.topK('kopi teh', options).hits.map((h) => h.id),
    ['top', 'd9', 'd7', 'd5'],
  );
});

test('cancel during the recombined combinations: the sweep stops with the abort reason (a queries phase per block, as scoreConfig)', async () => {
  const dir = copyOfExample();
  const session = RanklabSession.open(dir, { writeCache: false });
  const base = session.usable(session.configEntry('baseline'));
  const raw = JSON.parse(readFileSync(join(dir, 'configs', 'baseline.rank.json'), 'utf8'));
  const controller = new AbortController();
  const reason = new Error('cancelled by the test');
  const phases: string[] = [];
  const done: number[] = [];
  await assert.rejects(
    runSweep(session, {
      base,
      raw,
      variations: [parseVary('lexical.fields.title=0.1..5:0.1')],
      search: { kind: 'grid' },
      objective: parseMetric('ndcg@10'),
      metricOptions: DEFAULT_METRIC_OPTIONS,
      signal: controller.signal,
      onProgress: (d) => done.push(d),
      onWork: (p) => {
        phases.push(`${p.phase} ${p.label}`);
        // The third block of combinations starts: cancel.
        if (p.phase === 'queries' && p.label?.includes(' more') && done.length === 21) controller.abort(reason);
      },
    }),
    (e) => e === reason,
  );
  assert.deepEqual(
    done,
    Array.from({ length: 21 }, (_, i) => i + 1),
    'BASE and two blocks of 10 were done',
  );
  assert.ok(phases.includes('queries baseline[lexical.fields.title=0.1] and 9 more'));
});
