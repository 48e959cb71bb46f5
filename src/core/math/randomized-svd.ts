import {
  type DenseMatrix,
  choleskyOrthonormalize,
  denseZeros,
  householderQr,
  leadingColumns,
  matmul,
  matmulTransposeA,
  orthonormalize,
  transpose,
} from './dense';
import { symmetricEigen } from './eigen';
import { type Steps, runSync } from '../util/cooperative';
import { createRng, gaussianSource } from '../util/random';
import { type CsrMatrix, csrMultiplyDenseSteps, csrTransposeMultiplyDenseSteps, csrTransposeSteps } from './sparse';

export interface RandomizedSvdOptions {
  /** Number of singular triplets wanted (clamped to min(rows, cols)). */
  rank: number;
  /** Extra sketch columns beyond `rank` (default 10). */
  oversample?: number;
  /** Power (subspace) iterations, each followed by re-orthonormalisation (default 2). */
  powerIterations?: number;
  /** Seed of the Gaussian test matrix (default 42): same seed, same input → same output. */
  seed?: number;
}

export interface TruncatedSvd {
  /** rows × k. Columns orthonormal, except a column whose singular value is 0 may be all zeros. */
  u: DenseMatrix;
  /** k singular values, descending; values below ≈1e-7·σ₁ are reported as exactly 0 (see below). */
  s: Float64Array;
  /** k × cols. Rows orthonormal, except a row whose singular value is 0 may be all zeros. */
  vt: DenseMatrix;
  /** The k actually returned (≤ requested rank when the matrix is smaller). */
  rank: number;
}

/**
 * Truncated SVD X ≈ U Σ Vᵀ by the randomized range finder of Halko, Martinsson & Tropp (2011),
 * "Finding structure with randomness" (Alg. 4.4 subspace iteration, §5 post-processing), arranged so
 * that all dense O(size·l²) work happens on the SMALLER side of X (X is transposed when it has more
 * rows than columns), with l = k + oversample:
 *   Ω ~ N(0,1)^{cols×l};  Q = orth(XΩ);  repeat q times: Q = orth(X(XᵀQ))
 *   G = Qᵀ X Xᵀ Q = B Bᵀ  (l×l, B = QᵀX);  G = E Λ Eᵀ (symmetric eigensolver)
 *   U = Q E_k,  Σ = √Λ_k,  V = Xᵀ U Σ⁻¹  (a sparse product, no dense cols×l factor needed).
 * Re-orthonormalising once per XXᵀ application (instead of after each of X and Xᵀ) only loses
 * directions below √ε·σ₁; likewise forming BBᵀ resolves singular values down to about √ε·σ₁ ≈ 1e-8·σ₁,
 * so smaller ones are treated as 0 (with zero singular vectors). Both are far below what LSA uses.
 */
export function randomizedSvd(x: CsrMatrix, options: RandomizedSvdOptions): TruncatedSvd {
  return runSync(randomizedSvdSteps(x, options));
}

/** randomizedSvd as resumable steps: it yields between row blocks of the sparse products (see util/cooperative). */
export function* randomizedSvdSteps(x: CsrMatrix, options: RandomizedSvdOptions): Steps<TruncatedSvd> {
  const oversample = options.oversample ?? 10;
  const powerIterations = options.powerIterations ?? 2;
  if (!Number.isInteger(options.rank) || options.rank < 1) throw new RangeError(`rank must be a positive integer, got ${options.rank}`);
  if (!Number.isInteger(oversample) || oversample < 0) throw new RangeError(`oversample must be a non-negative integer, got ${oversample}`);
  if (!Number.isInteger(powerIterations) || powerIterations < 0) {
    throw new RangeError(`powerIterations must be a non-negative integer, got ${powerIterations}`);
  }
  if (x.rows > x.cols) {
    const t = yield* randomizedSvdSteps(yield* csrTransposeSteps(x), options);
    return { u: transpose(t.vt), s: t.s, vt: transpose(t.u), rank: t.rank };
  }
  const k = Math.min(options.rank, x.rows, x.cols);
  if (k === 0) return { u: denseZeros(x.rows, 0), s: new Float64Array(0), vt: denseZeros(0, x.cols), rank: 0 };
  const l = Math.min(k + oversample, x.rows);

  const gaussian = gaussianSource(createRng(options.seed ?? 42));
  const omega = denseZeros(x.cols, l);
  for (let i = 0; i < omega.data.length; i++) {
    omega.data[i] = gaussian();
    if ((i & 0xffff) === 0xffff) yield;
  }

  let y = yield* csrMultiplyDenseSteps(x, omega);
  for (let it = 0; it < powerIterations; it++) {
    const q = orthonormalize(y);
    yield;
    y = yield* csrMultiplyDenseSteps(x, yield* csrTransposeMultiplyDenseSteps(x, q));
  }
  const q = accurateOrthonormalize(y);
  yield;
  const w = yield* csrMultiplyDenseSteps(x, yield* csrTransposeMultiplyDenseSteps(x, q)); // X Xᵀ Q
  const g = matmulTransposeA(q, w); // l×l
  for (let i = 0; i < l; i++) {
    for (let j = 0; j < i; j++) {
      const avg = (g.data[i * l + j]! + g.data[j * l + i]!) / 2;
      g.data[i * l + j] = avg;
      g.data[j * l + i] = avg;
    }
  }
  const eig = symmetricEigen(g);
  // l ≥ k ≥ 1 eigenvalues; s has k values (c < k); v is cols×k.
  const lambdaMax = Math.max(eig.values[0]!, 0);
  const s = new Float64Array(k);
  for (let i = 0; i < k; i++) s[i] = eig.values[i]! > lambdaMax * 1e-14 ? Math.sqrt(eig.values[i]!) : 0;

  const u = matmul(q, leadingColumns(eig.vectors, k));
  yield;
  const v = yield* csrTransposeMultiplyDenseSteps(x, u); // = V Σ
  for (let j = 0; j < v.rows; j++) {
    for (let c = 0; c < k; c++) v.data[j * k + c] = s[c]! > 0 ? v.data[j * k + c]! / s[c]! : 0;
  }
  for (let c = 0; c < k; c++) if (s[c] === 0) for (let i = 0; i < u.rows; i++) u.data[i * k + c] = 0;
  return { u, s, vt: transpose(v), rank: k };
}

/** Orthonormal to working precision: Cholesky QR twice (CholQR2), Householder if Cholesky breaks down. */
function accurateOrthonormalize(a: DenseMatrix): DenseMatrix {
  const once = choleskyOrthonormalize(a);
  return (once && choleskyOrthonormalize(once)) ?? householderQr(a).q;
}
