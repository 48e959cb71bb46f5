import { test } from 'node:test';
import assert from 'node:assert/strict';
import MiniSearch from 'minisearch';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { LexicalIndex } from '../../../src/core/retrieval/lexical';
import { fieldText } from '../../../src/core/retrieval/ranking';
import type { Document } from '../../../src/core/corpus/document';
import { fingerprint } from '../../../src/core/util/fingerprint';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { loadDocs, loadQueries } from './collections';

// Generated collections the size of Cranfield and MED (titles and bodies, so both fields matter).
const large = syntheticCollection({ docs: 1400, queries: 40 });
const medium = syntheticCollection({ docs: 1033, queries: 30 });

const analyzer = createAnalyzer({ lowercase: true, stopwords: 'english', stemmer: 'english', minLength: 2 });
const bm25 = { k1: 1.2, b: 0.7, d: 0.5 };

function assertSameScores(actual: Array<{ id: string; score: number }>, expected: Array<{ id: string; score: number }>, label: string) {
  assert.equal(actual.length, expected.length, `${label}: result count`);
  const exp = new Map(expected.map((r) => [r.id, r.score]));
  for (const r of actual) {
    const e = exp.get(r.id);
    assert.ok(e !== undefined, `${label}: unexpected doc ${r.id}`);
    assert.ok(Math.abs(r.score - e) <= 1e-9 * Math.max(1, Math.abs(e)), `${label}: doc ${r.id} score ${r.score} vs ${e}`);
  }
  // Same order wherever scores differ by more than the tolerance.
  for (let i = 1; i < actual.length; i++) {
    assert.ok(actual[i - 1].score >= actual[i].score - 1e-9 * Math.abs(actual[i].score), `${label}: not sorted at ${i}`);
  }
}

test('recombined per-field BM25 equals MiniSearch boosted search (OR and AND, several boost vectors)', () => {
  const docs = loadDocs(large);
  const queries = loadQueries(large);
  const fields = ['title', 'body'];
  const index = LexicalIndex.build(docs, fields, analyzer);
  // An independent plain MiniSearch with the same analysis, searched the ordinary way.
  const plain = new MiniSearch<Document>({
    fields,
    extractField: (d: any, f) => (f === 'id' ? d.id : fieldText(d, f)),
    tokenize: analyzer.tokenize,
    processTerm: (t) => analyzer.processTerm(t),
  });
  plain.addAll(docs);
  const boostVectors = [
    { title: 1, body: 1 },
    { title: 3, body: 1 },
    { title: 0.5, body: 2.25 },
    { title: 7, body: 0.1 },
  ];
  let compared = 0;
  for (const combineWith of ['OR', 'AND'] as const) {
    for (const boosts of boostVectors) {
      for (const q of queries) {
        const ours = index.search(q.text, { bm25, prefix: false, fuzzy: 0, boosts, combineWith, coordination: true, depth: 1e9 });
        const theirs = plain.search(q.text, { boost: boosts, combineWith, bm25: { k: 1.2, b: 0.7, d: 0.5 } });
        assertSameScores(ours.hits, theirs, `${combineWith} ${JSON.stringify(boosts)} q${q.id}`);
        assert.equal(ours.total, theirs.length);
        compared += theirs.length;
      }
    }
  }
  assert.ok(compared > 10000, 'the comparison covered many scored documents');
});

test('recombination also matches MiniSearch with prefix and fuzzy matching, and a single searched field', () => {
  const docs = loadDocs(medium);
  const fields = ['title', 'body'];
  const index = LexicalIndex.build(docs, fields, analyzer);
  const plain = new MiniSearch<Document>({
    fields,
    extractField: (d: any, f) => (f === 'id' ? d.id : fieldText(d, f)),
    tokenize: analyzer.tokenize,
    processTerm: (t) => analyzer.processTerm(t),
  });
  plain.addAll(docs);
  for (const q of loadQueries(medium).slice(0, 10)) {
    const ours = index.search(q.text, {
      bm25,
      prefix: true,
      fuzzy: 0.2,
      boosts: { title: 2, body: 1 },
      combineWith: 'OR',
      coordination: true,
      depth: 1e9,
    });
    const theirs = plain.search(q.text, { boost: { title: 2, body: 1 }, prefix: true, fuzzy: 0.2, bm25: { k: 1.2, b: 0.7, d: 0.5 } });
    assertSameScores(ours.hits, theirs, `prefix+fuzzy q${q.id}`);
    // boost 0 = field not searched (MiniSearch would treat boost 0 as 1, so compare with fields: ['body'])
    const bodyOnly = index.search(q.text, {
      bm25,
      prefix: false,
      fuzzy: 0,
      boosts: { title: 0, body: 1 },
      combineWith: 'AND',
      coordination: true,
      depth: 1e9,
    });
    const theirsBody = plain.search(q.text, { fields: ['body'], combineWith: 'AND', bm25: { k: 1.2, b: 0.7, d: 0.5 } });
    assertSameScores(bodyOnly.hits, theirsBody, `body only q${q.id}`);
  }
});

test('pre-filter and depth: only permitted docs, total counts permitted matches', () => {
  const docs = loadDocs(medium);
  const index = LexicalIndex.build(docs, ['title', 'body'], analyzer);
  const q = loadQueries(medium)[0].text;
  const all = index.search(q, { bm25, prefix: false, fuzzy: 0, boosts: { title: 1, body: 1 }, combineWith: 'OR', depth: 1e9 });
  const even = (id: string) => Number(id) % 2 === 0;
  const filtered = index.search(q, {
    bm25,
    prefix: false,
    fuzzy: 0,
    boosts: { title: 1, body: 1 },
    combineWith: 'OR',
    depth: 5,
    filter: even,
  });
  assert.deepEqual(filtered.hits, all.hits.filter((h) => even(h.id)).slice(0, 5));
  assert.equal(filtered.total, all.hits.filter((h) => even(h.id)).length);
});

test('incremental add, change and delete give the same results as a fresh index', async () => {
  const docs = loadDocs(medium);
  const initial = docs.slice(0, 900);
  const index = LexicalIndex.build(initial, ['title', 'body'], analyzer);
  const queries = loadQueries(medium);
  // warm the query cache so we also prove updates invalidate it
  for (const q of queries)
    index.search(q.text, { bm25, prefix: false, fuzzy: 0, boosts: { title: 1, body: 1 }, combineWith: 'OR', depth: 10 });

  const added = docs.slice(900);
  const changed = initial.slice(0, 50).map((d) => {
    const body = d.body.split(' ').reverse().join(' ') + ' glucose insulin';
    return { ...d, body, hash: fingerprint([d.id, d.title, body]) };
  });
  const deleted = initial.slice(100, 180).map((d) => d.id);
  await index.update(added);
  await index.update(changed, deleted);

  const changedById = new Map(changed.map((d) => [d.id, d]));
  const finalDocs = [...initial.filter((d) => !deleted.includes(d.id)).map((d) => changedById.get(d.id) ?? d), ...added];
  const fresh = LexicalIndex.build(finalDocs, ['title', 'body'], analyzer);
  assert.equal(index.documentCount, fresh.documentCount);
  for (const q of queries) {
    for (const combineWith of ['OR', 'AND'] as const) {
      const opts = { bm25, prefix: false, fuzzy: 0, boosts: { title: 2, body: 1 }, combineWith, depth: 1e9 };
      assertSameScores(index.search(q.text, opts).hits, fresh.search(q.text, opts).hits, `incremental q${q.id} ${combineWith}`);
    }
  }
  assert.ok(
    !index
      .search('glucose', { bm25, prefix: false, fuzzy: 0, boosts: { title: 1, body: 1 }, combineWith: 'OR', depth: 1e9 })
      .hits.some((h) => deleted.includes(h.id)),
  );
});
