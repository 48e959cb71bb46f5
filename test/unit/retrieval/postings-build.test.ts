// Postings built straight from the documents (postings/build.ts) against the ones copied from a MiniSearch index
// of the same documents (Postings.fromMiniSearch over LexicalIndex.build): array for array, the vocabulary's
// prefix / fuzzy expansions, and pruned top-k answers (ids, order, bit-equal scores, totals). On the food-search
// example, on a generated BEIR-like collection (stemmer on) and on random corpora (empty fields, repeated words,
// an analyzer whose processTerm returns arrays and empty strings).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';
import { loadCorpus } from '../../../src/core/corpus';
import type { Document } from '../../../src/core/corpus/document';
import { type Analyzer, createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { LexicalIndex } from '../../../src/core/retrieval/lexical';
import { buildPostings } from '../../../src/core/retrieval/postings/build';
import { Postings } from '../../../src/core/retrieval/postings/postings';
import { topKSearch } from '../../../src/core/retrieval/postings/top-k';
import { loadWorkspace } from '../../../src/core/workspace/load';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { loadDocs, loadQueries } from './collections';

const ROOT = join(import.meta.dirname, '../../..');

function copiedAndBuilt(docs: Document[], fields: string[], analyzer: Analyzer): { copied: Postings; built: Postings } {
  const copied = Postings.fromMiniSearch(LexicalIndex.build(docs, fields, analyzer).miniSearch as never, fields);
  return { copied, built: buildPostings(docs, fields, analyzer) };
}

function assertSamePostings(built: Postings, copied: Postings): void {
  assert.deepEqual([...built.termNumbers], [...copied.termNumbers], 'terms and term numbers');
  for (const key of ['start', 'end', 'maxTf', 'minLength', 'docs', 'tfs'] as const) assert.deepEqual(built[key], copied[key], key);
  assert.deepEqual(built.lengths, copied.lengths, 'field lengths');
  built.avgLength.forEach((a, f) =>
    assert.ok(Object.is(a, copied.avgLength[f]), `average length of field ${f}: ${a} vs ${copied.avgLength[f]}`),
  );
  assert.deepEqual(built.ids, copied.ids, 'ids');
  assert.equal(built.documentCount, copied.documentCount);
  assert.equal(built.docSpace, copied.docSpace);
  assert.equal(built.fieldCount, copied.fieldCount);
}

/** atPrefix and fuzzyGet of the built vocabulary (a radix tree over the terms only) = MiniSearch's, order included. */
function assertSameExpansions(built: Postings, copied: Postings, probes: string[]): void {
  for (const probe of probes) {
    const keys = (p: Postings) => [...p.vocabulary.atPrefix(probe)].map(([t]) => t);
    assert.deepEqual(keys(built), keys(copied), `atPrefix("${probe}")`);
    for (const distance of [1, 2]) {
      const fuzzy = (p: Postings) => [...p.vocabulary.fuzzyGet(probe, distance)].map(([t, [, d]]) => [t, d]);
      assert.deepEqual(fuzzy(built), fuzzy(copied), `fuzzyGet("${probe}", ${distance})`);
    }
  }
}

function assertSameTopK(built: Postings, copied: Postings, queries: string[], analyzer: Analyzer, fieldCount: number): void {
  const fields = Array.from({ length: fieldCount }, (_, f): [number, number] => [f, f === 0 ? 2 : 1]);
  for (const text of queries) {
    for (const [prefix, fuzzy, combineWith] of [
      [false, 0, 'OR'],
      [true, 0.2, 'OR'],
      [false, 0, 'AND'],
    ] as const) {
      const q = {
        terms: analyzer.analyze(text),
        fields,
        bm25: { k: 1.2, b: 0.7, d: 0.5 },
        prefix,
        fuzzy,
        combineWith,
        coordination: true,
        depth: 20,
      };
      const a = topKSearch(built, q);
      const b = topKSearch(copied, q);
      const what = `"${text}" prefix ${prefix} fuzzy ${fuzzy} ${combineWith}`;
      assert.equal(a.total, b.total, `${what}: total`);
      assert.deepEqual(
        a.hits.map((h) => h.id),
        b.hits.map((h) => h.id),
        `${what}: ids`,
      );
      a.hits.forEach((h, i) => assert.ok(Object.is(h.score, b.hits[i].score), `${what}: score of ${h.id}`));
    }
  }
}

/** Query words and their first letters as prefixes / fuzzy probes. */
function probesOf(queries: string[], analyzer: Analyzer): string[] {
  const terms = [...new Set(queries.flatMap((q) => analyzer.analyze(q)))].slice(0, 40);
  return [...terms, ...terms.map((t) => t.slice(0, 2)), ''];
}

test('food-search example: built postings = copied ones (arrays, vocabulary expansions, top-k)', () => {
  const ws = loadWorkspace(join(ROOT, 'examples/food-search'));
  const docs = loadCorpus(ws.root, ws.settings.corpus).corpus.docs;
  assert.ok(docs.length > 20, `food-search has ${docs.length} documents`);
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const fields = ['title', 'body'];
  const { copied, built } = copiedAndBuilt(docs, fields, analyzer);
  assert.ok(built.postingCount > 100);
  assertSamePostings(built, copied);
  const queries = ['espresso grind', 'cold brew ratio', 'milk steam temperature', 'arabica origin', 'roast'];
  assertSameExpansions(built, copied, probesOf(queries, analyzer));
  assertSameTopK(built, copied, queries, analyzer, fields.length);
});

test('generated collection (english stemmer): built postings = copied ones (arrays, expansions, top-k)', () => {
  const dir = syntheticCollection({ docs: 1500, queries: 40 });
  const docs = loadDocs(dir);
  const queries = loadQueries(dir).map((q) => q.text);
  const analyzer = createAnalyzer({ ...DEFAULT_ANALYZER, stemmer: 'english' });
  const fields = ['title', 'body'];
  const { copied, built } = copiedAndBuilt(docs, fields, analyzer);
  assertSamePostings(built, copied);
  assertSameExpansions(built, copied, probesOf(queries, analyzer));
  assertSameTopK(built, copied, queries, analyzer, fields.length);
});

const WORDS = ['cat', 'cats', 'catalog', 'car', 'dog', 'dig', 'the', 'of', 'tea', 'team', 'steam', 'x', 'Kopi', 'kopa'];
const textArb = (max: number) => fc.array(fc.constantFrom(...WORDS, ',', '  '), { maxLength: max }).map((w) => w.join(' '));

test('random corpora and analyzers (arrays, empty strings, stop words): built postings = copied ones', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ title: textArb(4), body: textArb(20), tag: textArb(2) }), { maxLength: 40 }),
      fc.constantFrom('plain', 'stop', 'arrays'),
      (records, kind) => {
        const docs: Document[] = records.map((r, i) => ({
          id: `d${(i * 7) % 41}-${i}`,
          title: r.title,
          body: r.body,
          fields: i % 3 === 0 ? ({} as Record<string, string>) : { tag: r.tag }, // no tag at all: MiniSearch indexes '' (length 0)
          meta: {},
          source: { path: 'mem' },
          hash: String(i),
        }));
        const base = createAnalyzer({ ...DEFAULT_ANALYZER, stopwords: kind === 'stop' ? 'english' : 'none' });
        // processTerm may return arrays (every element indexed) and '' (not indexed): MiniSearch allows both.
        const analyzer: Analyzer =
          kind === 'arrays'
            ? {
                ...base,
                processTerm: ((t: string) =>
                  t.length > 3 ? [t.toLowerCase(), t.slice(0, 3).toLowerCase()] : t === 'x' ? '' : t.toLowerCase()) as never,
              }
            : base;
        const fields = ['title', 'body', 'tag'];
        const { copied, built } = copiedAndBuilt(docs, fields, analyzer);
        assertSamePostings(built, copied);
        assertSameExpansions(built, copied, ['ca', 'c', 'te', 'kop', 'zz']);
      },
    ),
    { numRuns: 100 },
  );
});

test('buildPostings refuses a duplicate id, as MiniSearch does', () => {
  const doc = (id: string): Document => ({ id, title: 'a', body: 'b', fields: {}, meta: {}, source: { path: 'mem' }, hash: id });
  assert.throws(
    () => buildPostings([doc('a'), doc('b'), doc('a')], ['title'], createAnalyzer(DEFAULT_ANALYZER)),
    /duplicate document id a/,
  );
});

test('large term frequencies and many terms (multi-byte varints while gathering): built postings = copied ones', () => {
  const doc = (id: string, body: string): Document => ({ id, title: '', body, fields: {}, meta: {}, source: { path: 'mem' }, hash: id });
  const many = Array.from({ length: 20_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
  const docs = [doc('a', many), doc('b', `${'tea '.repeat(70_000)}cat`), doc('c', `cat ${'steam '.repeat(300)}`)];
  const { copied, built } = copiedAndBuilt(docs, ['title', 'body'], createAnalyzer(DEFAULT_ANALYZER));
  assert.ok(Math.max(...built.maxTf) === 70_000);
  assertSamePostings(built, copied);
});
