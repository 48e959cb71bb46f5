import { type DenseMatrix, denseZeros } from './dense';

export interface SymmetricEigen {
  /** Eigenvalues, descending. */
  values: Float64Array;
  /** n × n; column j is the unit eigenvector of values[j]. */
  vectors: DenseMatrix;
}

/**
 * Eigen-decomposition of a symmetric matrix: Householder tridiagonalisation then the implicit QL
 * algorithm (EISPACK tred2/tql2, as in the public-domain JAMA EigenvalueDecomposition). O(n³) with
 * a small constant — several times faster than Jacobi sweeps for the few-hundred-square matrices of
 * the randomized SVD. Only the lower triangle of `a` is read.
 */
export function symmetricEigen(a: DenseMatrix): SymmetricEigen {
  const n = a.rows;
  if (a.cols !== n) throw new RangeError(`symmetricEigen needs a square matrix, got ${a.rows}x${a.cols}`);
  // V is n×n (n rows of n entries), d and e have n entries: every index below and in tred2/tql2 is < n.
  const V: Float64Array[] = [];
  for (let i = 0; i < n; i++) {
    const row = new Float64Array(n);
    for (let j = 0; j <= i; j++) row[j] = a.data[i * n + j]!;
    V.push(row);
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) V[i]![j] = V[j]![i]!;
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  if (n > 0) {
    tred2(V, d, e, n);
    tql2(V, d, e, n);
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => d[y]! - d[x]! || x - y);
  const values = Float64Array.from(order, (i) => d[i]!);
  const vectors = denseZeros(n, n);
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) vectors.data[r * n + c] = V[r]![order[c]!]!;
  return { values, vectors };
}

/** n ≥ 1; j ≤ k ≤ i ≤ n - 1 throughout (see symmetricEigen for the shapes). */
function tred2(V: Float64Array[], d: Float64Array, e: Float64Array, n: number): void {
  for (let j = 0; j < n; j++) d[j] = V[n - 1]![j]!;
  for (let i = n - 1; i > 0; i--) {
    let scale = 0;
    let h = 0;
    for (let k = 0; k < i; k++) scale += Math.abs(d[k]!);
    if (scale === 0) {
      e[i] = d[i - 1]!;
      for (let j = 0; j < i; j++) {
        d[j] = V[i - 1]![j]!;
        V[i]![j] = 0;
        V[j]![i] = 0;
      }
    } else {
      for (let k = 0; k < i; k++) {
        d[k]! /= scale;
        h += d[k]! * d[k]!;
      }
      let f = d[i - 1]!;
      let g = Math.sqrt(h);
      if (f > 0) g = -g;
      e[i] = scale * g;
      h -= f * g;
      d[i - 1] = f - g;
      for (let j = 0; j < i; j++) e[j] = 0;
      for (let j = 0; j < i; j++) {
        f = d[j]!;
        V[j]![i] = f;
        g = e[j]! + V[j]![j]! * f;
        for (let k = j + 1; k <= i - 1; k++) {
          g += V[k]![j]! * d[k]!;
          e[k]! += V[k]![j]! * f;
        }
        e[j] = g;
      }
      f = 0;
      for (let j = 0; j < i; j++) {
        e[j]! /= h;
        f += e[j]! * d[j]!;
      }
      const hh = f / (h + h);
      for (let j = 0; j < i; j++) e[j]! -= hh * d[j]!;
      for (let j = 0; j < i; j++) {
        f = d[j]!;
        g = e[j]!;
        for (let k = j; k <= i - 1; k++) V[k]![j]! -= f * e[k]! + g * d[k]!;
        d[j] = V[i - 1]![j]!;
        V[i]![j] = 0;
      }
    }
    d[i] = h;
  }
  // Accumulate the transformations.
  for (let i = 0; i < n - 1; i++) {
    V[n - 1]![i] = V[i]![i]!;
    V[i]![i] = 1;
    const h = d[i + 1]!;
    if (h !== 0) {
      for (let k = 0; k <= i; k++) d[k] = V[k]![i + 1]! / h;
      for (let j = 0; j <= i; j++) {
        let g = 0;
        for (let k = 0; k <= i; k++) g += V[k]![i + 1]! * V[k]![j]!;
        for (let k = 0; k <= i; k++) V[k]![j]! -= g * d[k]!;
      }
    }
    for (let k = 0; k <= i; k++) V[k]![i + 1] = 0;
  }
  for (let j = 0; j < n; j++) {
    d[j] = V[n - 1]![j]!;
    V[n - 1]![j] = 0;
  }
  V[n - 1]![n - 1] = 1;
  e[0] = 0;
}

/**
 * n ≥ 1; l ≤ m < n below, so l + 1 ≤ m and i + 1 ≤ m are indices too. m < n because e[n - 1] is 0 and stays 0: the
 * first rotation of each pass writes e[m] = 0·r, later ones write below it. (With a NaN or an infinity in the input the search can
 * run to m = n, and the reads past the end give NaN as before, not a throw.)
 */
function tql2(V: Float64Array[], d: Float64Array, e: Float64Array, n: number): void {
  for (let i = 1; i < n; i++) e[i - 1] = e[i]!;
  e[n - 1] = 0;
  let f = 0;
  let tst1 = 0;
  const eps = 2 ** -52;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]!) + Math.abs(e[l]!));
    let m = l;
    while (m < n) {
      if (Math.abs(e[m]!) <= eps * tst1) break;
      m++;
    }
    if (m > l) {
      let iter = 0;
      do {
        if (++iter > 100) throw new Error('symmetricEigen: QL iteration did not converge');
        let g = d[l]!;
        let p = (d[l + 1]! - g) / (2 * e[l]!);
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l]! / (p + r);
        d[l + 1] = e[l]! * (p + r);
        const dl1 = d[l + 1]!;
        let h = g - d[l]!;
        for (let i = l + 2; i < n; i++) d[i]! -= h;
        f += h;
        p = d[m]!;
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1]!;
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i]!;
          h = c * p;
          r = Math.hypot(p, e[i]!);
          e[i + 1] = s * r;
          s = e[i]! / r;
          c = p / r;
          p = c * d[i]! - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]!);
          for (let k = 0; k < n; k++) {
            const row = V[k]!;
            h = row[i + 1]!;
            row[i + 1] = s * row[i]! + c * h;
            row[i] = c * row[i]! - s * h;
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]!) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]!) > eps * tst1);
    }
    d[l]! += f;
    e[l] = 0;
  }
}
