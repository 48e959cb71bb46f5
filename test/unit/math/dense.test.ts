import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  type DenseMatrix,
  choleskyOrthonormalize,
  orthonormalize,
  denseFromRows,
  denseToRows,
  frobeniusSquared,
  householderQr,
  jacobiSvd,
  matmul,
  matmulTransposeA,
  transpose,
} from '../../../src/core/math/dense';
import { createRng } from '../../../src/core/util/random';

function randomDense(rows: number, cols: number, seed: number): DenseMatrix {
  const rnd = createRng(seed);
  return denseFromRows(Array.from({ length: rows }, () => Array.from({ length: cols }, () => rnd() * 2 - 1)));
}

function assertClose(actual: number, expected: number, tol: number, what = ''): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what} ${actual} vs ${expected} (tol ${tol})`);
}

function assertMatrixClose(a: DenseMatrix, b: DenseMatrix, tol: number, what = ''): void {
  assert.equal(a.rows, b.rows, `${what} rows`);
  assert.equal(a.cols, b.cols, `${what} cols`);
  for (let i = 0; i < a.data.length; i++) assertClose(a.data[i], b.data[i], tol, `${what}[${i}]`);
}

function identity(n: number): DenseMatrix {
  return denseFromRows(Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))));
}

function diagTimes(s: Float64Array, vt: DenseMatrix): DenseMatrix {
  const out = { rows: vt.rows, cols: vt.cols, data: vt.data.slice() };
  for (let i = 0; i < vt.rows; i++) for (let j = 0; j < vt.cols; j++) out.data[i * vt.cols + j] *= s[i];
  return out;
}

test('matmul and matmulTransposeA on a hand-computed 2x3 · 3x2 product', () => {
  const a = denseFromRows([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  const b = denseFromRows([
    [7, 8],
    [9, 10],
    [11, 12],
  ]);
  assert.deepEqual(denseToRows(matmul(a, b)), [
    [58, 64],
    [139, 154],
  ]);
  assert.deepEqual(denseToRows(matmulTransposeA(transpose(a), b)), [
    [58, 64],
    [139, 154],
  ]);
  assert.throws(() => matmul(a, a), /shape mismatch/);
});

test('householderQr: Q orthonormal, R upper triangular, QR = A (tall random matrix)', () => {
  const a = randomDense(30, 7, 1);
  const { q, r } = householderQr(a);
  assert.equal(q.rows, 30);
  assert.equal(q.cols, 7);
  assertMatrixClose(matmulTransposeA(q, q), identity(7), 1e-13, 'QᵀQ');
  for (let i = 0; i < r.rows; i++) for (let j = 0; j < i; j++) assert.equal(r.data[i * r.cols + j], 0);
  assertMatrixClose(matmul(q, r), a, 1e-13, 'QR');
});

test('householderQr on a hand-checkable 3x2 matrix: |R| diagonal = column norms after projection', () => {
  // Columns (3,4,0) and (0,0,2): orthogonal, so |r11| = 5, |r22| = 2, r12 = 0.
  const { q, r } = householderQr(
    denseFromRows([
      [3, 0],
      [4, 0],
      [0, 2],
    ]),
  );
  assertClose(Math.abs(r.data[0]), 5, 1e-14);
  assertClose(r.data[1], 0, 1e-14);
  assertClose(Math.abs(r.data[3]), 2, 1e-14);
  assertMatrixClose(matmulTransposeA(q, q), identity(2), 1e-14);
});

test('householderQr keeps Q orthonormal for a rank-deficient matrix (zero and repeated columns)', () => {
  const a = denseFromRows([
    [1, 0, 1],
    [2, 0, 2],
    [3, 0, 3],
    [4, 0, 4],
  ]);
  const { q, r } = householderQr(a);
  assertMatrixClose(matmulTransposeA(q, q), identity(3), 1e-13, 'QᵀQ');
  assertMatrixClose(matmul(q, r), a, 1e-13, 'QR');
});

test('jacobiSvd: 2x2 hand case [[3,0],[4,5]] has singular values 3√5 and √5', () => {
  // AᵀA = [[25,20],[20,25]] → eigenvalues 45 and 5.
  const { s } = jacobiSvd(
    denseFromRows([
      [3, 0],
      [4, 5],
    ]),
  );
  assertClose(s[0], 3 * Math.sqrt(5), 1e-14);
  assertClose(s[1], Math.sqrt(5), 1e-14);
});

test('jacobiSvd: rank-1 matrix u vᵀ with |u| = 3, |v| = 5 has σ = (15, 0)', () => {
  const { u, s, vt } = jacobiSvd(
    denseFromRows([
      [3, 4],
      [6, 8],
      [6, 8],
    ]),
  ); // u = (1,2,2), v = (3,4)
  assertClose(s[0], 15, 1e-13);
  assertClose(s[1], 0, 1e-13);
  // Leading vectors are ±(1,2,2)/3 and ±(3,4)/5; the completed second left vector is still orthonormal.
  const sign = Math.sign(u.data[0]);
  assertClose(u.data[0] * sign, 1 / 3, 1e-14);
  assertClose(u.data[2] * sign, 2 / 3, 1e-14);
  assertClose(vt.data[0] * sign, 3 / 5, 1e-14);
  assertClose(vt.data[1] * sign, 4 / 5, 1e-14);
  assertMatrixClose(matmulTransposeA(u, u), identity(2), 1e-14, 'UᵀU');
});

for (const [rows, cols] of [
  [12, 8],
  [8, 12],
  [10, 10],
] as const) {
  test(`jacobiSvd of a random ${rows}x${cols} matrix: orthonormal factors, UΣVᵀ = A, Σσ² = ‖A‖²`, () => {
    const a = randomDense(rows, cols, rows * 100 + cols);
    const { u, s, vt } = jacobiSvd(a);
    const p = Math.min(rows, cols);
    assert.equal(s.length, p);
    for (let i = 1; i < p; i++) assert.ok(s[i - 1] >= s[i], 'descending');
    assertMatrixClose(matmulTransposeA(u, u), identity(p), 1e-13, 'UᵀU');
    assertMatrixClose(matmul(vt, transpose(vt)), identity(p), 1e-13, 'VᵀV');
    assertMatrixClose(matmul(u, diagTimes(s, vt)), a, 1e-13, 'UΣVᵀ');
    assertClose(
      s.reduce((acc, x) => acc + x * x, 0),
      frobeniusSquared(a),
      1e-12,
      'Σσ²',
    );
  });
}

test('choleskyOrthonormalize spans the same columns with QᵀQ = I, and gives up on rank deficiency', () => {
  const a = randomDense(25, 6, 4);
  const q = choleskyOrthonormalize(a)!;
  assertMatrixClose(matmulTransposeA(q, q), identity(6), 1e-12, 'QᵀQ');
  // Same column space: projecting A onto span(Q) gives A back.
  assertMatrixClose(matmul(q, matmulTransposeA(q, a)), a, 1e-12, 'QQᵀA');
  const deficient = denseFromRows([
    [1, 2],
    [2, 4],
    [3, 6],
  ]);
  assert.equal(choleskyOrthonormalize(deficient), undefined);
  const fallback = orthonormalize(deficient);
  assertMatrixClose(matmulTransposeA(fallback, fallback), identity(2), 1e-13, 'Householder fallback');
});
