// The postings-only index's front-coded vocabulary (postings/vocabulary.ts, tree-order.ts) against MiniSearch's radix
// tree itself (SearchableMap, the independent implementation), on random vocabularies inserted in random orders:
// term numbers = the tree's iteration order; get / has; atPrefix and fuzzyGet with the same terms, distances and
// order (the order top-k.ts sums expansions in). Alphabets include multi-byte letters and lone surrogate halves (the
// tree and Levenshtein work on UTF-16 code units), and long shared prefixes across block boundaries.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import SearchableMap from 'minisearch/SearchableMap';
import { treeOrder } from '../../../src/core/retrieval/postings/tree-order';
import { FrontCodedVocabulary } from '../../../src/core/retrieval/postings/vocabulary';

/** The tree MiniSearch builds by inserting the terms in this order, each term's value its tree rank. */
function tree(order: readonly string[]): SearchableMap<number> {
  const map = new SearchableMap<number>();
  for (const t of order) map.set(t, -1);
  let rank = 0;
  for (const t of [...map.keys()]) map.set(t, rank++); // an existing key: the tree keeps its shape and order
  return map;
}

const built = (order: readonly string[]) => FrontCodedVocabulary.build(new Map(order.map((t, i) => [t, i])));

const LETTERS = ['a', 'b', 'c', 'ab', 'é', 'ß', '\ud83d', '\ude00', 'ж', 'x'];
const word = (letters: string[], max: number) =>
  fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: max }).map((w) => w.join(''));
const vocabularyArb = fc.oneof(
  fc.uniqueArray(word(LETTERS.slice(0, 3), 8), { minLength: 1, maxLength: 120 }),
  fc.uniqueArray(word(LETTERS, 6), { minLength: 1, maxLength: 60 }),
  // long shared prefixes: many terms per block share most of their code units
  fc.uniqueArray(
    word(['x', 'y'], 3).map((w) => `prefix${w}`),
    { minLength: 1, maxLength: 40 },
  ),
);

test('tree order from first-occurrence order = SearchableMap iteration order (random vocabularies and insertion orders)', () => {
  fc.assert(
    fc.property(vocabularyArb, (order) => {
      const expected = [...tree(order).keys()];
      const sorted = [...order].sort();
      const times = Int32Array.from(sorted, (t) => order.indexOf(t));
      const rank = treeOrder(sorted, times);
      const got = new Array<string>(sorted.length);
      sorted.forEach((t, i) => {
        got[rank[i]] = t;
      });
      assert.deepEqual(got, expected);
    }),
    { numRuns: 400 },
  );
});

test('a hand-made case: an edge split moves its key last, a term set on an existing node comes after its children', () => {
  // Inserting "abc", "ad", "abe": "ad" splits "abc" at "a" (node a: [bc, d]); "abe" splits "bc" (node a: [d, b]).
  // The tree iterates a node's entries last-set first: b (abe before abc: e set after c), then d.
  assert.deepEqual([...tree(['abc', 'ad', 'abe']).keys()], ['abe', 'abc', 'ad']);
  const { vocabulary, numberOf } = built(['abc', 'ad', 'abe']);
  assert.deepEqual([...numberOf], [1, 2, 0]);
  assert.deepEqual(
    [...vocabulary],
    [
      ['abe', 0],
      ['abc', 1],
      ['ad', 2],
    ],
  );
  // "a" inserted after "ab": its own entry is set after the child "b" on the node it splits off, so it comes first.
  assert.deepEqual([...tree(['ab', 'a']).keys()], ['a', 'ab']);
  assert.deepEqual(
    [...built(['ab', 'a']).vocabulary].map(([t]) => t),
    ['a', 'ab'],
  );
});

test('get, has, atPrefix, fuzzyGet and iteration = SearchableMap (terms, values, distances and order)', () => {
  fc.assert(
    fc.property(vocabularyArb, fc.array(word(LETTERS, 6), { minLength: 1, maxLength: 8 }), (order, queries) => {
      const expected = tree(order);
      const { vocabulary, numberOf } = built(order);
      assert.deepEqual([...vocabulary], [...expected], 'iteration');
      assert.deepEqual(
        [...numberOf],
        order.map((t) => expected.get(t)),
        'numberOf',
      );
      assert.equal(vocabulary.size, order.length);
      for (const q of [...queries, ...order.slice(0, 5), ...order.slice(0, 5).map((t) => t.slice(0, 2))]) {
        assert.equal(vocabulary.get(q), expected.get(q), `get(${JSON.stringify(q)})`);
        assert.equal(vocabulary.has(q), expected.has(q), `has(${JSON.stringify(q)})`);
        assert.deepEqual([...vocabulary.atPrefix(q)], [...expected.atPrefix(q)], `atPrefix(${JSON.stringify(q)})`);
        for (const d of [1, 2, 3])
          assert.deepEqual([...vocabulary.fuzzyGet(q, d)], [...expected.fuzzyGet(q, d)], `fuzzyGet(${JSON.stringify(q)}, ${d})`);
      }
    }),
    { numRuns: 300 },
  );
});

test('a vocabulary read back from its parts answers as the built one; damaged parts are refused', () => {
  const order = Array.from({ length: 1000 }, (_, i) => `t${(i * 7919) % 1009}${i % 3 ? 'é' : ''}${i % 5 ? '' : 'ж\ud83d'}`);
  const unique = [...new Set(order)];
  const { vocabulary } = built(unique);
  const parts = vocabulary.toParts();
  assert.equal(parts.wide, true, 'a code unit above 0xFF: two bytes each');
  assert.deepEqual([...vocabulary], [...tree(unique)]);
  const again = new FrontCodedVocabulary({
    bytes: parts.bytes.slice(),
    blocks: parts.blocks.slice(),
    numbers: parts.numbers.slice(),
    wide: parts.wide,
  });
  assert.deepEqual([...again], [...vocabulary]);
  assert.deepEqual([...again.fuzzyGet('t100', 2)], [...vocabulary.fuzzyGet('t100', 2)]);
  const numbers = parts.numbers.slice();
  numbers[3] = numbers[4];
  assert.throws(() => new FrontCodedVocabulary({ ...parts, numbers }), /not a permutation/);
  assert.throws(() => new FrontCodedVocabulary({ ...parts, blocks: parts.blocks.slice(1) }), /block count/);
  const blocks = parts.blocks.slice();
  blocks[2] = blocks[1];
  assert.throws(() => new FrontCodedVocabulary({ ...parts, blocks }), /block offsets/);
});

test('front coding keeps the vocabulary small: bytes a term for 20,000 generated terms', () => {
  const terms = Array.from({ length: 20_000 }, (_, i) => `q${((i * 2654435761) % 3_000_000).toString(36)}z`);
  const { vocabulary } = built([...new Set(terms)]);
  const perTerm = vocabulary.byteLength / vocabulary.size;
  // 4 (term number) + 4/16 (block offset) + ~1 shared + ~1 length + the suffix (~2-4 of 6 letters): about 9-11.
  assert.ok(perTerm > 6 && perTerm < 14, `${perTerm.toFixed(1)} bytes a term`);
});
