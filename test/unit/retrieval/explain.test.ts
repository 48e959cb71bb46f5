import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseRankConfig } from '../../../src/core/config/defaults';
import type { Document } from '../../../src/core/corpus/document';
import { createEngine } from '../../../src/core/retrieval/engine';
import { createReranker } from '../../../src/core/retrieval/providers/factory';
import type { StepExplanation } from '../../../src/core/retrieval/steps';
import { fingerprint } from '../../../src/core/util/fingerprint';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { tinyModelsDir } from '../../helpers/tiny-models';
import { corpusFingerprint, loadDocs, loadQueries } from './collections';

const collection = syntheticCollection({ docs: 400, queries: 6 });
const docs = loadDocs(collection);
const fp = corpusFingerprint(docs);
const queries = loadQueries(collection);
const lsa = { provider: 'lsa', dimensions: 32 };
// Two-word queries that every word of matches in some document (two words of its title), for AND.
const andQueries = docs.slice(0, 4).map((d) => d.title.split(' ').slice(1, 3).join(' '));

function close(a: number, b: number, label: string): void {
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${label}: ${a} vs ${b}`);
}

function step(ex: StepExplanation[] | undefined, name: string): StepExplanation {
  const s = ex?.find((e) => e.step === name);
  assert.ok(s, `explanation of ${name}`);
  return s;
}

/** For the documents at a few ranks of each query: every step's parts add up to the score the run shows for it. */
async function checkSums(
  name: string,
  raw: Record<string, unknown>,
  reranker?: ReturnType<typeof createReranker>,
  texts = queries.map((q) => q.text),
): Promise<void> {
  const config = normaliseRankConfig(raw, name);
  const engine = await createEngine({ docs, corpusFingerprint: fp, config, reranker });
  let checked = 0;
  for (const [n, text] of texts.entries()) {
    const q = { id: `q${n}`, text };
    const run = await engine.search(q.text);
    for (const i of [0, 1, 4, run.docs.length - 1]) {
      const d = run.docs[i];
      if (!d) continue;
      const r = await engine.search(q.text, { explain: d.id });
      assert.deepEqual(
        r.docs.map((x) => x.id),
        run.docs.map((x) => x.id),
        `${name}: explaining does not change the ranking`,
      );
      const ex = r.explanation;
      if (d.stages?.lexical) {
        const s = step(ex, 'lexical');
        assert.equal(s.rank, d.stages.lexical.rank);
        close(s.lexical!.sum, d.stages.lexical.score, `${name} ${q.id} ${d.id} lexical`);
        assert.equal(s.outcome, 'kept');
      }
      if (d.stages?.vector) {
        const s = step(ex, 'vector');
        assert.equal(s.rank, d.stages.vector.rank);
        assert.equal(s.vector!.similarity, d.stages.vector.score);
        if (config.vector!.exact) assert.equal(s.vector!.exactRank, s.rank, 'exact search is its own exact rank');
      }
      if (d.stages?.fuse) {
        const s = step(ex, 'fuse');
        assert.equal(s.fusion!.sum, d.stages.fuse.score, `${name}: fused parts sum exactly`);
        for (const l of s.fusion!.lists) {
          const stage: { rank: number } | undefined = d.stages[l.name as 'lexical' | 'vector'];
          assert.equal(l.rank, stage && stage.rank <= config.hybrid!.depth ? stage.rank : null, `${name}: ${l.name} rank`);
        }
      }
      if (d.stages?.rerank) {
        const s = step(ex, 'rerank');
        assert.equal(s.rerank!.modelScore, d.stages.rerank.score);
        assert.equal(s.rerank!.rankAfter, i + 1);
        assert.equal(s.rerank!.rankBefore, d.stages.fuse?.rank ?? d.stages.lexical?.rank);
      }
      checked++;
    }
  }
  assert.ok(checked >= texts.length * 2, `${name}: checked ${checked}`);
}

test('lexical: the per-term parts add up to the run score (boosts, OR/AND, prefix, fuzzy, coordination)', async () => {
  await checkSums('or', { lexical: { fields: { title: 1, body: 1 } } });
  await checkSums('boosted', { lexical: { fields: { title: 3, body: 0.5 } } });
  await checkSums('and', { lexical: { fields: { title: 2, body: 1 }, combineWith: 'AND' } }, undefined, andQueries);
  await checkSums('prefix', { lexical: { fields: { title: 2, body: 1 }, prefix: true } });
  await checkSums('fuzzy', { lexical: { fields: { title: 1, body: 1 }, fuzzy: 0.2 } });
  await checkSums('coordination', {
    lexical: { fields: { title: 2, body: 1 }, coordination: true, prefix: true, bm25: { k1: 0.9, b: 0.4, d: 0.5 } },
  });
});

test('vector (HNSW and exact), hybrid: similarity, list ranks and the RRF sum equal the run', async () => {
  await checkSums('hnsw', { vector: { embedder: lsa } });
  await checkSums('exact', { vector: { embedder: lsa, exact: true } });
  await checkSums('hybrid', { lexical: {}, vector: { embedder: lsa }, hybrid: { k: 30, weights: { lexical: 1, vector: 0.7 } } });
});

test('rerank with the tiny ONNX cross-encoder: model score and the rank before and after', async () => {
  const reranker = createReranker(
    { provider: 'transformers', model: 'tiny-reranker' },
    { baseDir: tinyModelsDir(), allowNetwork: false, allowModelLoading: true },
  );
  await checkSums(
    'rerank',
    { lexical: {}, vector: { embedder: lsa }, rerank: { provider: { provider: 'transformers', model: 'x' }, topN: 20, topM: 10 } },
    reranker,
  );
  await checkSums(
    'lexical-rerank',
    { lexical: {}, rerank: { provider: { provider: 'transformers', model: 'x' }, topN: 15, topM: 5 } },
    reranker,
  );
});

function doc(id: string, title: string, body: string): Document {
  return { id, title, body, fields: {}, meta: {}, source: { path: 'x.jsonl', line: 1 }, hash: fingerprint([id, title, body]) };
}

test('BM25 by hand: tf, idf, length norm and boost of a three-document corpus', async () => {
  // No stemming or stopwords so the terms are the words.
  const tiny = [
    doc('a', 'espresso', 'espresso espresso beans roast'),
    doc('b', 'tea', 'green tea leaves'),
    doc('c', 'coffee', 'espresso machine'),
  ];
  const config = normaliseRankConfig(
    { lexical: { fields: { title: 3, body: 1 }, analyzer: { stopwords: 'none', stemmer: 'none' }, bm25: { k1: 1.2, b: 0.75, d: 0.5 } } },
    'hand',
  );
  const engine = await createEngine({ docs: tiny, corpusFingerprint: 'tiny', config });
  const r = await engine.search('espresso', { explain: 'a' });
  const lx = step(r.explanation, 'lexical').lexical!;
  // body of a: tf 2; MiniSearch's field length counts distinct terms: 3 (espresso, beans, roast), then 3 and 2 → avg 8/3;
  // df 2 of N 3.
  const idf = Math.log(1 + (3 - 2 + 0.5) / (2 + 0.5)); // ln 1.6
  const normBody = 1 - 0.75 + (0.75 * 3) / (8 / 3); // 1.09375
  const bm25Body = idf * (0.5 + (2 * 2.2) / (2 + 1.2 * normBody)); // idf · (0.5 + 4.4/3.3125)
  // title of a: tf 1, length 1, avg 1; df 1.
  const idfTitle = Math.log(1 + (3 - 1 + 0.5) / (1 + 0.5)); // ln(8/3)
  const bm25Title = idfTitle * (0.5 + 2.2 / (1 + 1.2 * 1));
  const body = lx.parts.find((p) => p.field === 'body')!;
  const title = lx.parts.find((p) => p.field === 'title')!;
  assert.equal(lx.parts.length, 2);
  assert.equal(body.tf, 2);
  assert.equal(body.df, 2);
  assert.equal(body.fieldLength, 3);
  close(body.avgFieldLength, 8 / 3, 'avg length');
  close(body.idf, Math.log(1.6), 'idf');
  close(body.lengthNorm, 1.09375, 'norm');
  close(body.bm25, bm25Body, 'body bm25');
  close(title.bm25, bm25Title, 'title bm25');
  close(title.contribution, 3 * bm25Title, 'title boosted');
  close(r.docs.find((d) => d.id === 'a')!.score, bm25Body + 3 * bm25Title, 'score');
  close(lx.sum, bm25Body + 3 * bm25Title, 'sum');
});

test('a document that is not retrieved says at which step and why', async () => {
  const tiny = [
    doc('a', 'espresso', 'espresso beans'),
    doc('b', 'tea', 'green tea'),
    doc('c', 'coffee', 'espresso machine'),
    doc('d', 'mocha', 'espresso chocolate'),
  ];
  const config = normaliseRankConfig(
    { lexical: { fields: { title: 1, body: 1 }, depth: 2, analyzer: { stopwords: 'none', stemmer: 'none' } } },
    'cut',
  );
  const engine = await createEngine({ docs: tiny, corpusFingerprint: 'tiny2', config });
  const notMatched = step((await engine.search('espresso', { explain: 'b' })).explanation, 'lexical');
  assert.equal(notMatched.outcome, 'not-matched');
  const r = await engine.search('espresso', { explain: 'd' });
  const below = step(r.explanation, 'lexical');
  if (r.docs.some((x) => x.id === 'd')) assert.equal(below.outcome, 'kept');
  else {
    assert.equal(below.outcome, 'below-depth');
    assert.match(below.note, /below depth 2 \(rank 3 of 3 matches\)/);
  }
  const filtered = step(
    (await engine.search('espresso', { explain: 'a', filter: (id) => id !== 'a', aclMode: 'pre-filter' })).explanation,
    'lexical',
  );
  assert.equal(filtered.outcome, 'filtered');
  const post = (await engine.search('espresso', { explain: 'a', filter: (id) => id !== 'a', aclMode: 'post-filter' })).explanation!;
  assert.equal(step(post, 'lexical').outcome, 'kept');
  assert.equal(step(post, 'post-filter').outcome, 'filtered');
});
