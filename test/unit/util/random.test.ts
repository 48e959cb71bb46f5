import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Mulberry32, createRng, createUint32Rng, gaussianSource } from '../../../src/core/util/random';

test('fill gives the same sequence as nextUint32, and createRng is that sequence over 2^32', () => {
  const filled = new Uint32Array(50);
  new Mulberry32(99).fill(filled);
  const one = new Mulberry32(99);
  const uint = createUint32Rng(99);
  const unit = createRng(99);
  for (const x of filled) {
    assert.equal(one.nextUint32(), x);
    assert.equal(uint(), x);
    assert.equal(unit(), x / 4294967296);
  }
});

test('fillIndices gives the indices floor(nextUint32 · n / 2^32) of the same sequence, and continues it', () => {
  for (const n of [1, 7, 1000, 2 ** 31 + 5]) {
    const generator = new Mulberry32(7);
    const one = new Mulberry32(7);
    const out = new Uint32Array(300);
    for (let round = 0; round < 3; round++) {
      generator.fillIndices(out, n);
      for (const x of out) {
        const expected = Math.floor((one.nextUint32() * n) / 4294967296);
        assert.equal(x, expected, `n ${n}`);
        assert.ok(x < n);
      }
    }
  }
});

test('gaussianSource is Box–Muller: a cosine sample, then the spare sine sample', () => {
  // u = e^-2 gives radius sqrt(-2 ln u) = 2; v = 1/12 gives angle π/6 (cos √3/2, sin 1/2).
  const uniforms = [0, Math.exp(-2), 1 / 12]; // the 0 is skipped (ln 0 = -Infinity)
  const gaussian = gaussianSource(() => uniforms.shift()!);
  assert.ok(Math.abs(gaussian() - Math.sqrt(3)) < 1e-12);
  assert.ok(Math.abs(gaussian() - 1) < 1e-12);
  assert.equal(uniforms.length, 0);
});

test('gaussianSource over createRng has mean ≈ 0 and variance ≈ 1', () => {
  const gaussian = gaussianSource(createRng(7));
  const n = 20000;
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < n; i++) {
    const x = gaussian();
    sum += x;
    sumSq += x * x;
  }
  const mean = sum / n;
  // Standard errors: 1/sqrt(n) ≈ 0.007 for the mean, sqrt(2/n) ≈ 0.01 for the variance; 5 of them allowed.
  assert.ok(Math.abs(mean) < 0.035, `mean ${mean}`);
  assert.ok(Math.abs(sumSq / n - mean * mean - 1) < 0.05, `variance ${sumSq / n}`);
});
