// Pruned top-k BM25 (postings/top-k.ts, MaxScore over compact postings) against the exhaustive path, which stays
// the oracle: MiniSearch's per-field search (`fieldScores`) recombined with the boosts (`recombine`). Same ids in
// the same order, same scores, same totals — for random
// corpora (shared prefixes, near-misspellings, repeated words, duplicate documents for exact ties, empty fields),
// random boost vectors (zeros included), AND/OR, prefix, fuzzy, coordination, a permitted set or a predicate,
// and any depth; then over a shared collection's real queries. Scores are asserted bit-identical (the brief asks
// 1e-9): the pruned path repeats MiniSearch's floating-point operations in its order, so ties order the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Document } from '../../../src/core/corpus/document';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { type DocFilter, permittedFilter } from '../../../src/core/retrieval/doc-filter';
import { LexicalIndex, type LexicalQueryOptions, type LexicalResult, recombine } from '../../../src/core/retrieval/lexical';
import { COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { loadDocs, loadQueries } from './collections';

const FIELDS = ['title', 'body', 'tag'];
const WORDS = [
  'cat',
  'cats',
  'catalog',
  'cart',
  'car',
  'care',
  'dog',
  'dogs',
  'dig',
  'bird',
  'birds',
  'fish',
  'fisher',
  'fishing',
  'tea',
  'team',
  'teams',
  'steam',
  'x',
  'kopi',
  'kopa',
  'gula',
  'aren',
  'the',
  'of',
];
const fcOptions = {
  numRuns: 150,
  ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH, endOnFailure: true } : {}),
};

function doc(id: string, title: string, body: string, tag: string): Document {
  return { id, title, body, fields: { tag }, meta: {}, source: { path: 'mem' }, hash: id };
}

const textArb = (max: number) => fc.array(fc.constantFrom(...WORDS), { maxLength: max }).map((w) => w.join(' '));
const docArb = fc.record({ title: textArb(4), body: textArb(25), tag: textArb(2), copies: fc.constantFrom(1, 1, 1, 2, 3) });

const caseArb = fc.record({
  docs: fc.array(docArb, { minLength: 0, maxLength: 60 }),
  query: fc
    .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom('unknown', 'fishy', 'ca', 'te', 'CAT')), { minLength: 0, maxLength: 6 })
    .map((w) => w.join(' ')),
  boosts: fc.tuple(...FIELDS.map(() => fc.constantFrom(0, 0, 0.5, 1, 2, 3.7))),
  combineWith: fc.constantFrom('AND' as const, 'OR' as const),
  coordination: fc.boolean(),
  prefix: fc.boolean(),
  fuzzy: fc.constantFrom(0, 0, 0.2, 0.34, 1, 2),
  bm25: fc.constantFrom({ k1: 1.2, b: 0.75, d: 0 }, { k1: 1.2, b: 0.7, d: 0.5 }, { k1: 2, b: 0, d: 0.3 }, { k1: 0.6, b: 1, d: 0 }),
  depth: fc.constantFrom(0, 1, 2, 3, 10, 1000, Infinity),
  filter: fc.constantFrom('none', 'set', 'predicate', 'empty'),
  filterSeed: fc.nat(),
  stopwords: fc.boolean(),
  idOrder: fc.boolean(),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function build(c: Case): { index: LexicalIndex; ids: string[] } {
  const docs: Document[] = [];
  c.docs.forEach((d, i) => {
    // Ids not in insertion order (ties are broken by id, not by position).
    for (let k = 0; k < d.copies; k++)
      docs.push(doc(c.idOrder ? `d${(i * 37 + k * 11) % 101}-${i}-${k}` : `${i}.${k}`, d.title, d.body, d.tag));
  });
  const analyzer = createAnalyzer({ ...DEFAULT_ANALYZER, stopwords: c.stopwords ? 'english' : 'none' });
  return { index: LexicalIndex.build(docs, FIELDS, analyzer), ids: docs.map((d) => d.id) };
}

function filterOf(c: Case, ids: string[]): DocFilter | undefined {
  if (c.filter === 'none') return undefined;
  if (c.filter === 'empty') return permittedFilter(new Set());
  const keep = new Set(ids.filter((_, i) => ((i * 2654435761 + c.filterSeed) >>> 0) % 3 !== 0));
  return c.filter === 'set' ? permittedFilter(keep) : (id: string) => keep.has(id);
}

function options(c: Case, ids: string[]): LexicalQueryOptions {
  return {
    bm25: c.bm25,
    prefix: c.prefix,
    fuzzy: c.fuzzy,
    combineWith: c.combineWith,
    coordination: c.coordination,
    depth: c.depth,
    boosts: Object.fromEntries(FIELDS.map((f, i) => [f, c.boosts[i]])),
    filter: filterOf(c, ids),
  };
}

function assertSame(pruned: LexicalResult, exhaustive: LexicalResult, what: string): void {
  assert.equal(pruned.total, exhaustive.total, `${what}: total`);
  assert.deepEqual(
    pruned.hits.map((h) => h.id),
    exhaustive.hits.map((h) => h.id),
    `${what}: ids in order`,
  );
  pruned.hits.forEach((h, i) => {
    const want = exhaustive.hits[i].score;
    assert.ok(h.score === want, `${what}: score of ${h.id} ${h.score} vs ${want}`);
  });
}

test('pruned top-k = exhaustive recombination (ids, order, scores, totals) on random corpora and queries', () => {
  fc.assert(
    fc.property(caseArb, (c) => {
      const { index, ids } = build(c);
      const opts = options(c, ids);
      const exhaustive = recombine(index.fieldScores(c.query, opts), opts);
      assertSame(index.topK(c.query, opts), exhaustive, `query "${c.query}"`);
    }),
    fcOptions,
  );
});

test('pruned top-k follows in-place updates (postings rebuilt: new, replaced and removed documents)', async () => {
  await fc.assert(
    fc.asyncProperty(caseArb, fc.array(docArb, { maxLength: 10 }), fc.nat(), async (c, extra, cut) => {
      const { index, ids } = build(c);
      const opts = options(c, ids);
      index.topK(c.query, opts); // postings built before the update
      const removed = ids.filter((_, i) => (i + cut) % 4 === 0);
      const upserts = extra.map((d, i) =>
        doc(i % 2 === 0 && ids.length > 0 ? ids[(i * 7 + cut) % ids.length] : `new${i}`, d.title, d.body, d.tag),
      );
      await index.update(
        upserts,
        removed.filter((id) => !upserts.some((u) => u.id === id)),
      );
      const exhaustive = recombine(index.fieldScores(c.query, opts), opts);
      assertSame(index.topK(c.query, opts), exhaustive, `after update, query "${c.query}"`);
    }),
    { ...fcOptions, numRuns: 60 },
  );
});

test("search: pruned for a query's first two passes, then its field scores are cached and recombined; same answers", () => {
  const docs = [doc('a', 'cat', 'cat dog', ''), doc('b', 'dog', 'cat cat cat', ''), doc('c', 'bird', 'fish', 'cat')];
  const index = LexicalIndex.build(docs, FIELDS, createAnalyzer(DEFAULT_ANALYZER));
  const cached = () => (index as unknown as { cache: Map<string, unknown> }).cache.size; // private: the policy under test
  const opts: LexicalQueryOptions = {
    bm25: { k1: 1.2, b: 0.75, d: 0 },
    prefix: false,
    fuzzy: 0,
    boosts: { title: 2, body: 1 },
    combineWith: 'OR',
    depth: 10,
  };
  const first = index.search('cat dog', opts);
  // c matches only in `tag`, whose boost is 0 here; a has both terms (title and body), b both in body and title.
  assert.deepEqual(first.hits.map((h) => h.id).sort(), ['a', 'b']);
  assert.equal(first.total, 2);
  assert.equal(index.search('cat dog', { ...opts, depth: 0 }).total, 2, 'a count');
  assert.equal(cached(), 0, 'first pass (and a count) leave nothing cached');
  const boosted = { ...opts, boosts: { title: 1, body: 1, tag: 5 } };
  const second = index.search('cat dog', boosted);
  assert.equal(cached(), 0, 'second pass (other boosts, same scoring settings): still pruned');
  assert.equal(second.hits[0].id, 'c', 'tag boost 5 puts c first');
  const third = index.search('cat dog', opts);
  assert.equal(cached(), 1, 'third pass fills the cache');
  assert.deepEqual(third, first);
  assert.deepEqual(index.search('cat dog', boosted), second, 'recombined from the cache: same answer as pruned');
});

// On a generated collection the size of CISI, always; on CISI's real (long, varied) queries when the collections are given.
const SOURCES = [
  { name: 'a generated collection', skip: false as const, dir: () => syntheticCollection({ docs: 1460, queries: 76 }) },
  { name: "cisi's real queries", skip: COLLECTIONS_SKIP, dir: () => collectionPath('cisi') },
];

for (const source of SOURCES)
  test(`pruned top-k = exhaustive on ${source.name} (OR/AND, prefix, fuzzy, boosts, permitted set)`, { skip: source.skip }, () => {
    const docs = loadDocs(source.dir());
    const index = LexicalIndex.build(docs, ['title', 'body'], createAnalyzer(DEFAULT_ANALYZER));
    const permitted = permittedFilter(new Set(docs.filter((_, i) => i % 3 !== 1).map((d) => d.id)));
    const variants: Array<Partial<LexicalQueryOptions>> = [
      {},
      { combineWith: 'AND' },
      { boosts: { title: 0, body: 1 }, depth: 1000 },
      { boosts: { title: 3, body: 0.5 }, coordination: true, filter: permitted },
      { prefix: true, depth: 10 },
      { fuzzy: 0.2, prefix: true, filter: permitted, depth: 20 },
    ];
    const queries = loadQueries(source.dir());
    for (const [v, variant] of variants.entries()) {
      // Prefix and fuzzy expand every term through the vocabulary (slow in the oracle): a sample of the queries.
      const sample = variant.prefix || variant.fuzzy ? queries.filter((_, i) => i % 10 === 0) : queries;
      for (const q of sample) {
        const opts: LexicalQueryOptions = {
          bm25: { k1: 1.2, b: 0.75, d: 0 },
          prefix: false,
          fuzzy: 0,
          boosts: { title: 2, body: 1 },
          combineWith: 'OR',
          depth: 100,
          ...variant,
        };
        const exhaustive = recombine(index.fieldScores(q.text, opts), opts);
        assertSame(index.topK(q.text, opts), exhaustive, `variant ${v}, query ${q.id}`);
      }
    }
  });
