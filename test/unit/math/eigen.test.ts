import { test } from 'node:test';
import assert from 'node:assert/strict';
import { denseFromRows, jacobiSvd, matmul, matmulTransposeA, transpose } from '../../../src/core/math/dense';
import { symmetricEigen } from '../../../src/core/math/eigen';
import { createRng } from '../../../src/core/util/random';

test('symmetricEigen of [[2,1],[1,2]]: eigenvalues 3 and 1, vectors (1,1)/√2 and (1,-1)/√2', () => {
  const { values, vectors } = symmetricEigen(
    denseFromRows([
      [2, 1],
      [1, 2],
    ]),
  );
  assert.ok(Math.abs(values[0] - 3) < 1e-14 && Math.abs(values[1] - 1) < 1e-14, `${values}`);
  const h = Math.SQRT1_2;
  assert.ok(Math.abs(Math.abs(vectors.data[0]) - h) < 1e-14 && Math.abs(vectors.data[0] - vectors.data[2]) < 1e-14);
  assert.ok(Math.abs(vectors.data[1] + vectors.data[3]) < 1e-14);
});

test('symmetricEigen of a diagonal matrix sorts the diagonal descending', () => {
  const { values } = symmetricEigen(
    denseFromRows([
      [1, 0, 0],
      [0, -2, 0],
      [0, 0, 5],
    ]),
  );
  assert.deepEqual(Array.from(values), [5, 1, -2]);
});

test('symmetricEigen of AᵀA (random 40x25) agrees with the squared Jacobi singular values; E Λ Eᵀ = AᵀA', () => {
  const rnd = createRng(3);
  const a = denseFromRows(Array.from({ length: 40 }, () => Array.from({ length: 25 }, () => rnd() - 0.5)));
  const gram = matmulTransposeA(a, a);
  const { values, vectors } = symmetricEigen(gram);
  const { s } = jacobiSvd(a);
  for (let i = 0; i < 25; i++) assert.ok(Math.abs(values[i] - s[i] ** 2) < 1e-12, `λ${i}`);
  const scaled = { rows: 25, cols: 25, data: vectors.data.slice() };
  for (let i = 0; i < 25; i++) for (let j = 0; j < 25; j++) scaled.data[i * 25 + j] *= values[j];
  const back = matmul(scaled, transpose(vectors));
  for (let i = 0; i < gram.data.length; i++) assert.ok(Math.abs(back.data[i] - gram.data[i]) < 1e-12);
  const ete = matmulTransposeA(vectors, vectors);
  for (let i = 0; i < 25; i++) for (let j = 0; j < 25; j++) assert.ok(Math.abs(ete.data[i * 25 + j] - (i === j ? 1 : 0)) < 1e-13);
});
