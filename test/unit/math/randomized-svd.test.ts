import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type DenseMatrix, jacobiSvd, matmul, matmulTransposeA, transpose } from '../../../src/core/math/dense';
import { createRng } from '../../../src/core/util/random';
import { randomizedSvd } from '../../../src/core/math/randomized-svd';
import { type CsrMatrix, csrFromRows, csrFrobeniusSquared, csrToDense } from '../../../src/core/math/sparse';

/** A random sparse matrix (about `density` of the entries non-zero, values uniform in (0, 1]). */
function randomSparse(rows: number, cols: number, density: number, seed: number): CsrMatrix {
  const rnd = createRng(seed);
  const data: Map<number, number>[] = [];
  for (let i = 0; i < rows; i++) {
    const row = new Map<number, number>();
    for (let j = 0; j < cols; j++) if (rnd() < density) row.set(j, 1 - rnd());
    data.push(row);
  }
  return csrFromRows(data, cols);
}

function reconstructionErrorSquared(x: DenseMatrix, u: DenseMatrix, s: Float64Array, vt: DenseMatrix): number {
  const us = { rows: u.rows, cols: u.cols, data: u.data.slice() };
  for (let i = 0; i < u.rows; i++) for (let j = 0; j < u.cols; j++) us.data[i * u.cols + j] *= s[j];
  const approx = matmul(us, vt);
  let err = 0;
  for (let i = 0; i < x.data.length; i++) err += (x.data[i] - approx.data[i]) ** 2;
  return err;
}

function assertOrthonormalColumns(a: DenseMatrix, tol: number, what: string): void {
  const g = matmulTransposeA(a, a);
  for (let i = 0; i < g.rows; i++) {
    for (let j = 0; j < g.cols; j++) {
      const want = i === j ? 1 : 0;
      assert.ok(Math.abs(g.data[i * g.cols + j] - want) < tol, `${what}: (${i},${j}) = ${g.data[i * g.cols + j]}`);
    }
  }
}

for (const [rows, cols, density, seed] of [
  [60, 40, 0.15, 7],
  [40, 60, 0.2, 8],
  [80, 50, 0.1, 9],
] as const) {
  test(`randomizedSvd(${rows}x${cols}, rank 8) matches the dense Jacobi SVD truncated to 8`, () => {
    const x = randomSparse(rows, cols, density, seed);
    const xd = csrToDense(x);
    const dense = jacobiSvd(xd);
    const k = 8;
    const r = randomizedSvd(x, { rank: k, powerIterations: 25, oversample: 10, seed: 1 });
    assert.equal(r.rank, k);
    assert.equal(r.u.rows, rows);
    assert.equal(r.u.cols, k);
    assert.equal(r.vt.rows, k);
    assert.equal(r.vt.cols, cols);

    // Singular values.
    for (let i = 0; i < k; i++) assert.ok(Math.abs(r.s[i] - dense.s[i]) < 1e-6, `σ${i}: ${r.s[i]} vs ${dense.s[i]}`);

    // Eckart–Young: the best rank-k error is the sum of the discarded squared singular values.
    let discarded = 0;
    for (let i = k; i < dense.s.length; i++) discarded += dense.s[i] ** 2;
    let total = 0;
    for (const sv of dense.s) total += sv * sv;
    assert.ok(Math.abs(total - csrFrobeniusSquared(x)) < 1e-9, 'dense SVD accounts for the whole matrix');
    const err = reconstructionErrorSquared(xd, r.u, r.s, r.vt);
    assert.ok(Math.abs(err - discarded) < 1e-6 * total, `‖X − UΣVᵀ‖² = ${err}, Eckart–Young ${discarded}`);

    // Orthonormal factors, and the same subspaces as the dense SVD: |U_rᵀ U_d| ≈ I (signs are arbitrary).
    assertOrthonormalColumns(r.u, 1e-10, 'UᵀU');
    assertOrthonormalColumns(transpose(r.vt), 1e-10, 'VᵀV');
    const overlapU = matmulTransposeA(r.u, dense.u);
    const overlapV = matmul(r.vt, transpose(dense.vt));
    for (let i = 0; i < k; i++) {
      for (let j = 0; j < k; j++) {
        const want = i === j ? 1 : 0;
        assert.ok(Math.abs(Math.abs(overlapU.data[i * overlapU.cols + j]) - want) < 1e-4, `U overlap (${i},${j})`);
        assert.ok(Math.abs(Math.abs(overlapV.data[i * overlapV.cols + j]) - want) < 1e-4, `V overlap (${i},${j})`);
      }
    }
  });
}

test('randomizedSvd of a diagonal matrix returns its diagonal, sorted, and coordinate vectors', () => {
  // 8x6 with diagonal (2, 5, 1, 4, 3, 0.5): singular values 5, 4, 3 for rank 3; vectors e2, e4, e5 (1-based).
  const diag = [2, 5, 1, 4, 3, 0.5];
  const x = csrFromRows(
    Array.from({ length: 8 }, (_, i) => new Map(i < 6 ? [[i, diag[i]]] : [])),
    6,
  );
  const r = randomizedSvd(x, { rank: 3, oversample: 3, seed: 3 });
  assert.deepEqual(
    Array.from(r.s, (v) => Math.round(v * 1e9) / 1e9),
    [5, 4, 3],
  );
  const expectedIndex = [1, 3, 4];
  for (let c = 0; c < 3; c++) {
    for (let j = 0; j < 6; j++) {
      const want = j === expectedIndex[c] ? 1 : 0;
      assert.ok(Math.abs(Math.abs(r.vt.data[c * 6 + j]) - want) < 1e-9, `v${c}[${j}]`);
    }
  }
});

test('randomizedSvd of a rank-1 matrix finds σ = |u|·|v| and zeros after it', () => {
  // u = (1, 2, 2, 0) (norm 3), v = (3, 0, 4) (norm 5): σ1 = 15.
  const u = [1, 2, 2, 0];
  const v = [3, 0, 4];
  const x = csrFromRows(
    u.map((ui) => new Map(v.map((vj, j) => [j, ui * vj] as [number, number]))),
    3,
  );
  const r = randomizedSvd(x, { rank: 3, seed: 11 });
  assert.equal(r.rank, 3, 'clamped to min(rows, cols) = 3');
  assert.ok(Math.abs(r.s[0] - 15) < 1e-12, `σ1 = ${r.s[0]}`);
  assert.ok(r.s[1] < 1e-12 && r.s[2] < 1e-12, `σ2, σ3 = ${r.s[1]}, ${r.s[2]}`);
  const sign = Math.sign(r.u.data[0]);
  assert.ok(Math.abs(r.u.data[0] * sign - 1 / 3) < 1e-12);
  assert.ok(Math.abs(r.u.data[2 * 3] * sign - 2 / 3) < 1e-12);
  assert.ok(Math.abs(r.vt.data[2] * sign - 4 / 5) < 1e-12);
  // Documented contract: vectors of zero singular values are zero, so U Σ Vᵀ is still exactly X.
  for (let i = 0; i < 4; i++) for (const c of [1, 2]) assert.equal(r.u.data[i * 3 + c], 0);
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 3; j++) assert.ok(Math.abs(r.u.data[i * 3] * r.s[0] * r.vt.data[j] - u[i] * v[j]) < 1e-12);
  }
});

test('randomizedSvd is deterministic for a seed; different seeds agree on σ', () => {
  const x = randomSparse(50, 30, 0.2, 21);
  const a = randomizedSvd(x, { rank: 5, seed: 5 });
  const b = randomizedSvd(x, { rank: 5, seed: 5 });
  assert.deepEqual(a.u.data, b.u.data);
  assert.deepEqual(a.s, b.s);
  assert.deepEqual(a.vt.data, b.vt.data);
  const c = randomizedSvd(x, { rank: 5, seed: 6, powerIterations: 20 });
  const d = randomizedSvd(x, { rank: 5, seed: 5, powerIterations: 20 });
  for (let i = 0; i < 5; i++) assert.ok(Math.abs(c.s[i] - d.s[i]) < 1e-8);
});

test('randomizedSvd rejects bad options and handles an all-zero matrix', () => {
  const x = randomSparse(5, 4, 0.5, 1);
  assert.throws(() => randomizedSvd(x, { rank: 0 }), /rank must be a positive integer/);
  assert.throws(() => randomizedSvd(x, { rank: 2, powerIterations: -1 }), /powerIterations/);
  const zero = csrFromRows([new Map(), new Map(), new Map()], 4);
  const r = randomizedSvd(zero, { rank: 2 });
  assert.deepEqual(Array.from(r.s), [0, 0]);
  assert.ok(r.u.data.every((v) => v === 0) && r.vt.data.every((v) => v === 0));
  assert.equal(r.u.rows, 3);
  assert.equal(r.vt.cols, 4);
});
