// `ranklab eval` end to end through the built binary: every mode on the example workspace and on generated
// collections (a real one when RANKLAB_COLLECTIONS is set), saved runs, TREC export that scores the same as the evaluation itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { loadSavedRun } from '../../../src/core/experiment/run-store';
import { runFileText } from '../../../src/core/run/run-format';
import { COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { tinyModel } from '../../helpers/tiny-models';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const example = copyOfExample();

test('every offline mode runs on the example workspace, and runs are saved with their provenance', () => {
  const r = ranklab([
    'eval',
    '--workspace',
    example,
    '--config',
    'baseline',
    '--config',
    'title-boost-3',
    '--config',
    'vector',
    '--config',
    'hybrid-rrf',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    out.runs.map((x: { config: string; mode: string }) => `${x.config}:${x.mode}`),
    ['baseline:lexical', 'title-boost-3:lexical', 'vector:vector', 'hybrid-rrf:hybrid'],
  );
  for (const run of out.runs) {
    assert.equal(Object.keys(run.perQuery).length, 94);
    assert.ok(run.metrics['ndcg@10'] > 0.3 && run.metrics['ndcg@10'] <= 1, `${run.config} ndcg@10 ${run.metrics['ndcg@10']}`);
    assert.ok(run.latency.total.p50 > 0 && run.latency.total.p99 >= run.latency.total.p50);
    assert.ok(existsSync(run.saved), run.saved);
  }
  const vector = out.runs.find((x: { config: string }) => x.config === 'vector');
  assert.ok(vector.annRecall > 0.5 && vector.annRecall <= 1, 'HNSW runs report ANN recall against exact search');
  assert.equal(out.runs[0].annRecall, null);
  assert.equal(JSON.parse(runFileText(readFileSync(out.runs[3].saved))).format, 'ranklab-run@4');
  const saved = loadSavedRun(out.runs[3].saved);
  assert.equal(saved.provenance.corpus, out.runs[3].corpus);
  assert.match(saved.provenance.configHash ?? '', /^sha256:/);
  const first = saved.queries[0].docs[0];
  assert.ok(first.stages?.fuse && (first.stages.lexical || first.stages.vector), 'per-stage ranks are saved');
});

test('the hybrid + rerank mode runs with a local cross-encoder (the tiny generated test model)', () => {
  const config = join(tempDir(), 'rerank-tiny.rank.json');
  const original = JSON.parse(readFileSync(join(example, 'configs', 'hybrid-rerank.rank.json'), 'utf8'));
  original.rerank.provider.model = tinyModel('tiny-reranker');
  writeFileSync(config, JSON.stringify(original));
  const r = ranklab(['eval', '--workspace', example, '--config', config, '--format', 'json', '--no-save']);
  assert.equal(r.code, 0, r.stderr);
  const run = JSON.parse(r.stdout).runs[0];
  assert.equal(run.mode, 'hybrid+rerank');
  assert.ok(run.latency.rerank.p50 > 0);
  assert.equal(run.saved, null);
});

test('a config whose model is unavailable offline is reported, the others still run, exit code 2', () => {
  const r = ranklab(['eval', '--workspace', example, '--config', 'baseline', '--config', 'hybrid-rerank', '--format', 'json', '--no-save']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /config hybrid-rerank not run: rerank\.provider\.model/);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(
    out.runs.map((x: { config: string }) => x.config),
    ['baseline'],
  );
  assert.equal(out.failed[0].name, 'hybrid-rerank');
});

/** `ranklab eval` of a BEIR folder's built-in config: the run, after checking the read-only folder was not written. */
function evalBeirFolder(folder: string) {
  const state = tempDir();
  const before = readdirSync(folder).sort();
  const r = ranklab([
    'eval',
    '--workspace',
    folder,
    '--metrics',
    'ndcg@10,p@5',
    '--gain',
    'linear',
    '--format',
    'json',
    '--state-dir',
    state,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const run = JSON.parse(r.stdout).runs[0];
  assert.equal(run.config, 'bm25');
  assert.deepEqual(readdirSync(folder).sort(), before);
  assert.ok(existsSync(join(state, 'runs')));
  return run;
}

test('a BEIR folder is a workspace (the built-in bm25 config); the read-only data set is not written', () => {
  const run = evalBeirFolder(syntheticCollection({ docs: 1033, queries: 30 }));
  assert.equal(run.queries, 30);
});

test('med as a BEIR folder: BM25 reaches the reference nDCG@10 minus 0.02', { skip: COLLECTIONS_SKIP }, () => {
  const run = evalBeirFolder(collectionPath('med'));
  assert.ok(run.metrics['ndcg@10'] >= 0.67 - 0.02, `med nDCG@10 ${run.metrics['ndcg@10']}`);
});

test('--trec-run writes a standard run that ranklab score scores exactly like the evaluation', () => {
  const dir = tempDir();
  const trec = join(dir, 'run.txt');
  const r = ranklab([
    'eval',
    '--workspace',
    example,
    '--config',
    'title-boost-3',
    '--trec-run',
    trec,
    '--format',
    'json',
    '--no-save',
    '--metrics',
    'ndcg@10,mrr,p@5',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const evalMetrics = JSON.parse(r.stdout).runs[0].metrics;
  const s = ranklab([
    'score',
    '--qrels',
    join(example, 'judgments', 'golden.json'),
    '--run',
    trec,
    '--metrics',
    'ndcg@10,mrr,p@5',
    '--format',
    'json',
  ]);
  assert.equal(s.code, 0, s.stderr);
  const scored = JSON.parse(s.stdout).metrics;
  for (const m of ['ndcg@10', 'mrr', 'p@5'])
    assert.ok(Math.abs(scored[m] - evalMetrics[m]) < 1e-12, `${m}: eval ${evalMetrics[m]} vs score ${scored[m]}`);
  assert.match(readFileSync(trec, 'utf8').split('\n')[0], /^\S+ Q0 \S+ 1 \S+ title-boost-3$/);
});

test('--split holdout evaluates only holdout queries; --as restricts judgments to what the principal may see', () => {
  const hold = JSON.parse(
    ranklab(['eval', '--workspace', example, '--config', 'baseline', '--split', 'holdout', '--format', 'json', '--no-save']).stdout,
  );
  assert.equal(hold.runs[0].queries, 23);
  const r = ranklab(['eval', '--workspace', example, '--config', 'pre-filter', '--as', 'dimas', '--format', 'json', '--no-save']);
  assert.equal(r.code, 0, r.stderr);
  const asDimas = JSON.parse(r.stdout).runs[0];
  assert.equal(asDimas.principal, 'dimas');
  assert.ok(asDimas.queries < 94, 'queries with nothing visible to dimas are dropped');
  assert.notEqual(asDimas.judgments, hold.runs[0].judgments);
});

test('every mode runs on an ADI-sized collection: lexical, vector (HNSW and exact), hybrid, hybrid + rerank', () => {
  const dir = tempDir();
  const configs: Record<string, unknown> = {
    lexical: { lexical: { fields: { title: 2, body: 1 }, analyzer: { stemmer: 'english' } } },
    hnsw: { vector: { embedder: { provider: 'lsa', dimensions: 32 } } },
    exact: { vector: { embedder: { provider: 'lsa', dimensions: 32 }, exact: true } },
    hybrid: { lexical: { fields: { title: 1, body: 1 } }, vector: { embedder: { provider: 'lsa', dimensions: 32 } }, hybrid: { k: 60 } },
    rerank: {
      lexical: { fields: { title: 1, body: 1 } },
      vector: { embedder: { provider: 'lsa', dimensions: 32 } },
      hybrid: { k: 60 },
      rerank: { provider: { provider: 'transformers', model: tinyModel('tiny-reranker') }, topN: 20, topM: 10 },
    },
  };
  const args = [
    'eval',
    '--workspace',
    syntheticCollection({ docs: 82, queries: 35 }),
    '--state-dir',
    join(dir, 'state'),
    '--metrics',
    'ndcg@10,recall@10',
    '--format',
    'json',
    '--no-save',
  ];
  for (const [name, config] of Object.entries(configs)) {
    writeFileSync(join(dir, `${name}.rank.json`), JSON.stringify(config));
    args.push('--config', join(dir, `${name}.rank.json`));
  }
  const r = ranklab(args);
  assert.equal(r.code, 0, r.stderr);
  const runs = JSON.parse(r.stdout).runs as {
    config: string;
    mode: string;
    queries: number;
    metrics: Record<string, number>;
    annRecall: number | null;
  }[];
  assert.deepEqual(
    runs.map((x) => `${x.config}:${x.mode}`),
    ['lexical:lexical', 'hnsw:vector', 'exact:vector', 'hybrid:hybrid', 'rerank:hybrid+rerank'],
  );
  for (const run of runs) {
    assert.equal(run.queries, 35);
    assert.ok(run.metrics['ndcg@10'] > 0.05, `${run.config}: ${run.metrics['ndcg@10']}`);
  }
  assert.equal(runs[2].annRecall, null, 'exact search has no ANN recall to report');
  assert.ok(runs[1].annRecall! > 0.8);
});

test('--class-slices: the metrics per query class, each the mean over exactly the queries of that class', () => {
  const r = ranklab([
    'eval',
    '--workspace',
    example,
    '--config',
    'title-boost-3',
    '--metrics',
    'ndcg@10,hit@10,recall@100',
    '--class-slices',
    '--format',
    'json',
    '--no-save',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const run = JSON.parse(r.stdout).runs[0];
  const classes: Record<string, { class: string }> = run.stageRecall.perQuery;
  const slices: Record<string, { queries: number; metrics: Record<string, number> }> = run.slices;
  assert.ok(slices['class:hit'] && (slices['class:retrieval-miss'] || slices['class:ranking-miss']), JSON.stringify(Object.keys(slices)));
  let counted = 0;
  for (const [tag, slice] of Object.entries(slices)) {
    const ids = Object.keys(classes).filter((q) => `class:${classes[q].class}` === tag && run.perQuery[q]);
    assert.equal(slice.queries, ids.length, tag);
    counted += ids.length;
    for (const m of ['ndcg@10', 'hit@10', 'recall@100']) {
      const mean = ids.reduce((s, q) => s + run.perQuery[q][m], 0) / ids.length;
      assert.ok(Math.abs(slice.metrics[m] - mean) < 1e-12, `${tag} ${m}: ${slice.metrics[m]} vs ${mean}`);
    }
  }
  assert.equal(counted, Object.keys(run.perQuery).length, 'every scored query is in one class slice');
  // What the classes mean: a hit has a relevant document in the top 10, a miss of either kind has none.
  assert.equal(slices['class:hit'].metrics['hit@10'], 1);
  for (const miss of ['class:ranking-miss', 'class:retrieval-miss'])
    if (slices[miss]) assert.equal(slices[miss].metrics['ndcg@10'], 0, miss);
  if (slices['class:retrieval-miss']) assert.equal(slices['class:retrieval-miss'].metrics['recall@100'], 0);
  // The table names the slices too.
  const t = ranklab(['eval', '--workspace', example, '--config', 'title-boost-3', '--class-slices', '--no-save']);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /Metrics per query class[\s\S]*title-boost-3\s+class:hit\s+\d+/);
  // Without the flag, no slices.
  const plain = ranklab(['eval', '--workspace', example, '--config', 'title-boost-3', '--format', 'json', '--no-save']);
  assert.equal(JSON.parse(plain.stdout).runs[0].slices, undefined);
});
