// --vary: settings named by their *.rank.json path, checked against the schema, with a "did you mean" for a typo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../src/core/util/diagnostics';
import { parameterKind, parseVary, withSetting } from '../../../src/core/tuning/parameters';

const fails = (text: string, pattern: RegExp, fields?: string[]) =>
  assert.throws(
    () => parseVary(text, fields),
    (e: unknown) => e instanceof InputError && pattern.test(e.message),
    text,
  );

test('a range is inclusive, stepped from FROM (no drift), and a list keeps its order', () => {
  assert.deepEqual(parseVary('lexical.fields.title=1..3:0.5').values, [1, 1.5, 2, 2.5, 3]);
  assert.deepEqual(parseVary('hybrid.weights.vector=0..1:0.1').values, [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  assert.deepEqual(parseVary('hybrid.k=10,30,60,100').values, [10, 30, 60, 100]);
  assert.deepEqual(parseVary('lexical.depth=50..70:10').values, [50, 60, 70]);
  assert.deepEqual(parseVary('vector.hnsw.efSearch=10..12').values, [10, 11, 12], 'an integer range steps by 1 by default');
  assert.deepEqual(parseVary('lexical.combineWith=AND,OR').values, ['AND', 'OR']);
  assert.deepEqual(parseVary('lexical.coordination=true,false').values, [true, false]);
  assert.deepEqual(parseVary('engine.params.boost=1,2.5,x').values, [1, 2.5, 'x']);
});

test('a path naming no setting is refused with the nearest setting', () => {
  fails('lexical.boosts.title=1..5:0.5', /names no setting.*did you mean lexical\.fields\.title/);
  fails('hybrid.kk=10,20', /did you mean hybrid\.k\b/);
  fails('lexical.bm25.k=1,2', /did you mean lexical\.bm25\.k1/);
  fails('lexical=1,2', /names no setting/);
  fails('lexical.fields=1,2', /names no setting/, ['title']);
  fails('lexical.analyzer.stopwords=none', /names no setting/);
  fails('engine.template.x=1', /names no setting/);
});

test('a bad range or value names the flag and what is wrong', () => {
  fails('hybrid.k=5..1:1', /--vary hybrid\.k=5\.\.1:1: the range is empty/);
  fails('hybrid.k=1..5:0', /STEP above 0/);
  fails('hybrid.k=1..5:-1', /not a range/);
  fails('hybrid.k=1..x', /not a range/);
  fails('hybrid.k=1..5', /needs a step/);
  fails('lexical.bm25.b=0..2:0.5', /above the setting's maximum 1/);
  fails('lexical.fields.title=-1,2', /below the setting's minimum 0/);
  fails('lexical.depth=1.5,2', /not a whole number/);
  fails('lexical.depth=10..20:2.5', /not a whole number/);
  fails('lexical.combineWith=AND,XOR', /"XOR" is not one of "AND", "OR"/);
  fails('lexical.coordination=yes', /not true or false/);
  fails('hybrid.k=10,,20', /"" is not a number/);
  fails('hybrid.k=10,10', /listed twice/);
  fails('hybrid.k', /expected PATH=/);
  fails('hybrid.k=0..1:0.00001', /gives 100001 values/);
});

test('each parameter is classified by what a new value costs', () => {
  for (const p of [
    'lexical.fields.title',
    'lexical.combineWith',
    'lexical.depth',
    'vector.depth',
    'hybrid.k',
    'hybrid.weights.vector',
    'hybrid.depth',
    'rerank.topN',
  ])
    assert.equal(parameterKind(p), 'recombination', p);
  for (const p of ['lexical.bm25.k1', 'lexical.bm25.b', 'lexical.fuzzy', 'lexical.prefix', 'vector.hnsw.efSearch', 'engine.params.boost'])
    assert.equal(parameterKind(p), 're-search', p);
  for (const p of [
    'lexical.analyzer.stemmer',
    'lexical.analyzer.minLength',
    'vector.hnsw.M',
    'vector.hnsw.efConstruction',
    'vector.exact',
    'vector.embedder.dimensions',
  ])
    assert.equal(parameterKind(p), 'rebuild', p);
});

test('withSetting sets a copy, creating sections, and leaves the original alone', () => {
  const raw = { lexical: { fields: { title: 1, body: 1 } } };
  const out = withSetting(raw, 'lexical.bm25.k1', 0.9);
  assert.deepEqual(out, { lexical: { fields: { title: 1, body: 1 }, bm25: { k1: 0.9 } } });
  assert.deepEqual(raw, { lexical: { fields: { title: 1, body: 1 } } });
});
