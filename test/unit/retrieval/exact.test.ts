import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { permittedFilter } from '../../../src/core/retrieval/doc-filter';
import { ExactIndex } from '../../../src/core/retrieval/exact';
import { HALF_MAX, halfValue, toHalfBits } from '../../../src/core/retrieval/simd/half';
import { loadScanModule } from '../../../src/core/retrieval/simd/kernels';

before(async () => {
  assert.ok(await loadScanModule());
});

test('half floats: hand-checked encodings (IEEE 754 binary16, ties to even, saturating)', () => {
  const cases: Array<[number, number]> = [
    [0, 0x0000],
    [-0, 0x8000],
    [1, 0x3c00],
    [-2, 0xc000],
    [0.5, 0x3800],
    [65504, 0x7bff],
    [65519, 0x7bff], // rounds down to the largest half
    [65520, 0x7bff],
    [1e9, 0x7bff],
    [-1e9, 0xfbff], // would round to infinity: saturates
    [2 ** -14, 0x0400], // smallest normal
    [2 ** -24, 0x0001], // smallest subnormal
    [2 ** -25, 0x0000], // halfway between 0 and 2^-24: ties to even (0)
    [3 * 2 ** -25, 0x0002], // halfway between 1 and 2 ulps: to even (2)
    [2 ** -14 - 2 ** -25, 0x0400], // halfway between the largest subnormal and the smallest normal: to even
    [1 + 2 ** -11, 0x3c00], // halfway between 1 and 1 + 2^-10: to even (1)
    [1 + 3 * 2 ** -11, 0x3c02], // halfway between 1 + 2^-10 and 1 + 2^-9: to even
    [0.1, 0x2e66],
    [1 / 3, 0x3555],
    [-0.7, 0xb99a],
    [NaN, 0x0000],
  ];
  for (const [x, bits] of cases) assert.equal(toHalfBits(x), bits, `toHalfBits(${x})`);
  assert.equal(halfValue(0x3555), 0.333251953125);
  assert.equal(halfValue(0x0001), 2 ** -24);
  assert.equal(halfValue(0x7bff), HALF_MAX);
  assert.equal(halfValue(0xc000), -2);
});

test('half floats: every finite value encodes to its nearest half (no neighbour is closer)', () => {
  fc.assert(
    fc.property(fc.double({ min: -65504, max: 65504, noNaN: true }), (x) => {
      const bits = toHalfBits(x);
      const err = Math.abs(halfValue(bits) - x);
      for (const neighbour of [bits - 1, bits + 1]) {
        if ((neighbour & 0x7fff) > 0x7bff || neighbour < 0 || (neighbour & 0x8000) !== (bits & 0x8000)) continue;
        assert.ok(err <= Math.abs(halfValue(neighbour) - x), `${x}: ${bits.toString(16)} vs ${neighbour.toString(16)}`);
      }
    }),
    { numRuns: 2000 },
  );
  // and every half round-trips
  for (let h = 0; h < 0x10000; h++) if ((h & 0x7c00) !== 0x7c00 && h !== 0x8000) assert.equal(toHalfBits(halfValue(h)), h);
});

test('int8 storage keeps each component within half a quantisation step of the (normalised) vector', () => {
  const index = new ExactIndex(5, 'cosine', { storage: 'int8' });
  const v = [3, -4, 0.001, 12, -0.5];
  index.set('a', v);
  const norm = Math.hypot(...v);
  const step = 12 / norm / 127;
  const stored = index.vectorOf('a')!;
  v.forEach((x, j) => assert.ok(Math.abs(stored[j] - x / norm) <= step / 2 + 1e-7, `component ${j}`));
  assert.ok(Math.abs(stored[3] - 12 / norm) < 1e-7, 'the largest component is exact (it defines the scale)');
});

test('a permitted-set filter is never called per row, and its row list follows the index', () => {
  const index = new ExactIndex(3, 'ip', { capacity: 2 });
  for (let i = 0; i < 50; i++) index.set(`d${i}`, [i, 1, 0]);
  const permitted = new Set(['d3', 'd7', 'd40', 'missing']);
  let calls = 0;
  const filter = Object.assign((id: string) => (calls++, permitted.has(id)), { permitted });
  assert.deepEqual(
    index.search([1, 0, 0], 10, filter).map((h) => h.id),
    ['d40', 'd7', 'd3'],
  );
  assert.equal(index.permittedCount(filter), 3);
  assert.equal(calls, 0, 'the function was not called');
  index.delete('d40');
  index.set('d3', [100, 0, 0]);
  assert.deepEqual(
    index.search([1, 0, 0], 10, filter).map((h) => h.id),
    ['d3', 'd7'],
  );
  index.set('missing', [1000, 0, 0]); // a permitted id that gets a vector later
  assert.deepEqual(
    index.search([1, 0, 0], 2, filter).map((h) => h.id),
    ['missing', 'd3'],
  );
  assert.equal(calls, 0);
  // A plain function filter is called per row and gives the same result.
  assert.deepEqual(
    index.search([1, 0, 0], 10, (id) => permitted.has(id)),
    index.search([1, 0, 0], 10, permittedFilter(permitted)),
  );
  // A dense set (most rows) is searched by scanning every row and skipping the others: same contract.
  const dense = new Set([...Array(40).keys()].map((i) => `d${i}`).filter((id) => id !== 'd39' && id !== 'd3'));
  const denseFilter = Object.assign((id: string) => (calls++, dense.has(id)), { permitted: dense });
  assert.deepEqual(
    index.search([1, 0, 0], 3, denseFilter).map((h) => h.id),
    ['d38', 'd37', 'd36'],
  );
  assert.equal(index.permittedCount(denseFilter), 38);
  assert.equal(calls, 0);
});

test('ties are ordered by id descending (trec_eval order), also across k', () => {
  const index = new ExactIndex(2, 'ip');
  for (const id of ['10', '9', '100', 'b', 'a']) index.set(id, [1, 1]);
  index.set('top', [2, 2]);
  assert.deepEqual(
    index.search([1, 1], 10).map((h) => h.id),
    ['top', 'b', 'a', '9', '100', '10'],
  );
  assert.deepEqual(
    index.search([1, 1], 3).map((h) => h.id),
    ['top', 'b', 'a'],
  );
  assert.deepEqual(index.search([1, 1], 0), []);
  assert.deepEqual(index.search([1, 1], Infinity).length, 6);
});

test('kernels: SIMD when available, JS on request or with RANKLAB_EXACT_KERNEL=js; wrong dimensions are refused', () => {
  assert.equal(new ExactIndex(4).kernel, 'simd');
  assert.equal(new ExactIndex(4, 'cosine', { kernel: 'js' }).kernel, 'js');
  process.env.RANKLAB_EXACT_KERNEL = 'js';
  try {
    assert.equal(new ExactIndex(4).kernel, 'js');
    assert.throws(() => new ExactIndex(4, 'cosine', { kernel: 'simd' }), /SIMD kernels are not available/);
  } finally {
    delete process.env.RANKLAB_EXACT_KERNEL;
  }
  const index = new ExactIndex(4);
  assert.throws(() => index.set('x', [1, 2, 3]), /has 3 dimensions, expected 4/);
  assert.throws(() => index.search([1, 2, 3], 1), /query vector has 3 dimensions, expected 4/);
});

test('the WebAssembly memory grows with the index and keeps every vector', () => {
  const dim = 384;
  const index = new ExactIndex(dim, 'ip', { capacity: 1 });
  const n = 3000; // 4.6 MB: dozens of memory.grow calls from one page
  for (let i = 0; i < n; i++)
    index.set(
      `d${i}`,
      Float32Array.from({ length: dim }, (_, j) => (j === i % dim ? i : 0)),
    );
  for (const i of [0, 1, 383, 384, 2999]) assert.equal(index.vectorOf(`d${i}`)![i % dim], i);
  const q = new Float32Array(dim).fill(1);
  assert.deepEqual(
    index.search(q, 3).map((h) => h.id),
    ['d2999', 'd2998', 'd2997'],
  );
});
