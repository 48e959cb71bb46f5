import { test } from 'node:test';
import assert from 'node:assert/strict';
import { denseFromRows, denseToRows } from '../../../src/core/math/dense';
import { csrFromRows, csrMultiplyDense, csrToDense, csrTranspose, csrTransposeMultiplyDense } from '../../../src/core/math/sparse';

// X = [[1, 0, 2],
//      [0, 0, 0],
//      [0, 3, 4]]
const x = csrFromRows(
  [
    new Map([
      [2, 2],
      [0, 1],
    ]),
    new Map(),
    new Map([
      [1, 3],
      [2, 4],
      [0, 0],
    ]),
  ],
  3,
);

test('csrFromRows sorts columns, drops zeros, keeps empty rows', () => {
  assert.deepEqual(Array.from(x.rowPtr), [0, 2, 2, 4]);
  assert.deepEqual(Array.from(x.colIdx), [0, 2, 1, 2]);
  assert.deepEqual(Array.from(x.values), [1, 2, 3, 4]);
  assert.deepEqual(denseToRows(csrToDense(x)), [
    [1, 0, 2],
    [0, 0, 0],
    [0, 3, 4],
  ]);
});

test('csrFromRows rejects out-of-range columns', () => {
  assert.throws(() => csrFromRows([new Map([[3, 1]])], 3), /column 3 outside 0..2 in row 0/);
});

test('X·B and Xᵀ·Y match hand-computed products', () => {
  const b = denseFromRows([
    [1, 2],
    [3, 4],
    [5, 6],
  ]);
  // X·B: row0 = 1·(1,2) + 2·(5,6) = (11,14); row1 = 0; row2 = 3·(3,4) + 4·(5,6) = (29,36)
  assert.deepEqual(denseToRows(csrMultiplyDense(x, b)), [
    [11, 14],
    [0, 0],
    [29, 36],
  ]);
  // Xᵀ·Y with Y = B: col0 of X = (1,0,0) → (1,2); col1 = (0,0,3) → (15,18); col2 = (2,0,4) → (2+20, 4+24)
  assert.deepEqual(denseToRows(csrTransposeMultiplyDense(x, b)), [
    [1, 2],
    [15, 18],
    [22, 28],
  ]);
  assert.throws(() => csrMultiplyDense(x, denseFromRows([[1], [2]])), /shape mismatch/);
});

test('csrTranspose gives the transposed matrix with sorted columns', () => {
  const t = csrTranspose(x);
  assert.deepEqual(denseToRows(csrToDense(t)), [
    [1, 0, 0],
    [0, 0, 3],
    [2, 0, 4],
  ]);
  assert.deepEqual(Array.from(t.rowPtr), [0, 1, 2, 4]);
  assert.deepEqual(Array.from(t.colIdx), [0, 2, 0, 2]);
});
