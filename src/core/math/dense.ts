/**
 * A dense matrix stored row-major: entry (i, j) is data[i * cols + j], data.length = rows · cols.
 * The kernels below index data and their own scratch arrays inside those bounds (their loops run over the shapes),
 * so the reads carry `!` with the bound said once per loop: no check in an inner loop.
 */
export interface DenseMatrix {
  readonly rows: number;
  readonly cols: number;
  readonly data: Float64Array;
}

export function denseZeros(rows: number, cols: number): DenseMatrix {
  return { rows, cols, data: new Float64Array(rows * cols) };
}

export function denseFromRows(rows: ReadonlyArray<ArrayLike<number>>): DenseMatrix {
  const cols = rows[0]?.length ?? 0;
  const out = denseZeros(rows.length, cols);
  rows.forEach((r, i) => {
    if (r.length !== cols) throw new RangeError(`row ${i} has ${r.length} entries, expected ${cols}`);
    for (let j = 0; j < cols; j++) out.data[i * cols + j] = r[j]!; // j < cols = r.length
  });
  return out;
}

export function denseToRows(a: DenseMatrix): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < a.rows; i++) out.push(Array.from(a.data.subarray(i * a.cols, (i + 1) * a.cols)));
  return out;
}

export function transpose(a: DenseMatrix): DenseMatrix {
  const out = denseZeros(a.cols, a.rows);
  // i < rows, j < cols
  for (let i = 0; i < a.rows; i++) {
    for (let j = 0; j < a.cols; j++) out.data[j * a.rows + i] = a.data[i * a.cols + j]!;
  }
  return out;
}

/** A·B. */
export function matmul(a: DenseMatrix, b: DenseMatrix): DenseMatrix {
  if (a.cols !== b.rows) throw new RangeError(`shape mismatch: ${a.rows}x${a.cols} · ${b.rows}x${b.cols}`);
  const n = b.cols;
  const out = denseZeros(a.rows, n);
  const o = out.data;
  // i < a.rows, k < a.cols = b.rows, j < n = b.cols = out.cols
  for (let i = 0; i < a.rows; i++) {
    const oRow = i * n;
    for (let k = 0; k < a.cols; k++) {
      const aik = a.data[i * a.cols + k]!;
      if (aik === 0) continue;
      const bRow = k * n;
      for (let j = 0; j < n; j++) o[oRow + j]! += aik * b.data[bRow + j]!;
    }
  }
  return out;
}

/** Aᵀ·B without forming Aᵀ. */
export function matmulTransposeA(a: DenseMatrix, b: DenseMatrix): DenseMatrix {
  if (a.rows !== b.rows) throw new RangeError(`shape mismatch: (${a.rows}x${a.cols})ᵀ · ${b.rows}x${b.cols}`);
  const n = b.cols;
  const out = denseZeros(a.cols, n);
  const o = out.data;
  // r < a.rows = b.rows, i < a.cols = out.rows, j < n = b.cols = out.cols
  for (let r = 0; r < a.rows; r++) {
    const bRow = r * n;
    for (let i = 0; i < a.cols; i++) {
      const ari = a.data[r * a.cols + i]!;
      if (ari === 0) continue;
      const oRow = i * n;
      for (let j = 0; j < n; j++) o[oRow + j]! += ari * b.data[bRow + j]!;
    }
  }
  return out;
}

/** The first `count` columns of A. */
export function leadingColumns(a: DenseMatrix, count: number): DenseMatrix {
  if (count > a.cols) throw new RangeError(`asked for ${count} columns of a ${a.rows}x${a.cols} matrix`);
  const out = denseZeros(a.rows, count);
  for (let i = 0; i < a.rows; i++) out.data.set(a.data.subarray(i * a.cols, i * a.cols + count), i * count);
  return out;
}

/** The first `count` rows of A (a copy). */
export function leadingRows(a: DenseMatrix, count: number): DenseMatrix {
  if (count > a.rows) throw new RangeError(`asked for ${count} rows of a ${a.rows}x${a.cols} matrix`);
  return { rows: count, cols: a.cols, data: a.data.slice(0, count * a.cols) };
}

export function frobeniusSquared(a: DenseMatrix): number {
  let s = 0;
  for (const v of a.data) s += v * v;
  return s;
}

/**
 * Thin QR by Householder reflections: A (n×l) = Q (n×p) · R (p×l), p = min(n, l), Q with orthonormal
 * columns even when A is rank-deficient (a zero column just gets no reflection). Row-major friendly:
 * every inner loop runs along a row.
 */
export function householderQr(a: DenseMatrix): { q: DenseMatrix; r: DenseMatrix } {
  const n = a.rows;
  const l = a.cols;
  const p = Math.min(n, l);
  const w = a.data.slice();
  const reflectors: Float64Array[] = [];
  const betas = new Float64Array(p);
  const acc = new Float64Array(Math.max(l, p));

  // w is n×l (i < n, j ≤ c < l); v = reflectors[j] holds rows j..n-1, read at i - j for j ≤ i < n.
  for (let j = 0; j < p; j++) {
    let norm2 = 0;
    for (let i = j; i < n; i++) {
      const x = w[i * l + j]!;
      norm2 += x * x;
    }
    const v = new Float64Array(n - j);
    reflectors.push(v);
    if (norm2 === 0) continue; // nothing to annihilate; beta stays 0 (H = I)
    const x0 = w[j * l + j]!;
    const alpha = x0 >= 0 ? -Math.sqrt(norm2) : Math.sqrt(norm2); // sign chosen to avoid cancellation
    for (let i = j; i < n; i++) v[i - j] = w[i * l + j]!;
    v[0]! -= alpha;
    const vNorm2 = norm2 - x0 * x0 + v[0]! * v[0]!;
    const beta = 2 / vNorm2;
    betas[j] = beta;
    // w[j:, j+1:] -= beta · v · (vᵀ w[j:, j+1:])
    acc.fill(0, j + 1, l);
    for (let i = j; i < n; i++) {
      const vi = v[i - j]!;
      if (vi === 0) continue;
      const row = i * l;
      for (let c = j + 1; c < l; c++) acc[c]! += vi * w[row + c]!;
    }
    for (let c = j + 1; c < l; c++) acc[c]! *= beta;
    for (let i = j; i < n; i++) {
      const vi = v[i - j]!;
      if (vi === 0) continue;
      const row = i * l;
      for (let c = j + 1; c < l; c++) w[row + c]! -= vi * acc[c]!;
    }
    w[j * l + j] = alpha;
    for (let i = j + 1; i < n; i++) w[i * l + j] = 0;
  }

  const r = denseZeros(p, l);
  for (let i = 0; i < p; i++) {
    for (let c = i; c < l; c++) r.data[i * l + c] = w[i * l + c]!;
  }

  // Q = H_0 H_1 … H_{p-1} [I; 0], accumulated backwards so step j only touches Q[j:, j:].
  const q = denseZeros(n, p);
  const qd = q.data;
  // j < p: one beta and one reflector each; q is n×p (i < n, j ≤ c < p).
  for (let i = 0; i < p; i++) qd[i * p + i] = 1;
  for (let j = p - 1; j >= 0; j--) {
    const beta = betas[j]!;
    if (beta === 0) continue;
    const v = reflectors[j]!;
    acc.fill(0, j, p);
    for (let i = j; i < n; i++) {
      const vi = v[i - j]!;
      if (vi === 0) continue;
      const row = i * p;
      for (let c = j; c < p; c++) acc[c]! += vi * qd[row + c]!;
    }
    for (let c = j; c < p; c++) acc[c]! *= beta;
    for (let i = j; i < n; i++) {
      const vi = v[i - j]!;
      if (vi === 0) continue;
      const row = i * p;
      for (let c = j; c < p; c++) qd[row + c]! -= vi * acc[c]!;
    }
  }
  return { q, r };
}

export interface DenseSvd {
  /** rows × p, orthonormal columns (p = min(rows, cols)). */
  u: DenseMatrix;
  /** p singular values, descending, ≥ 0. */
  s: Float64Array;
  /** p × cols, orthonormal rows. */
  vt: DenseMatrix;
}

/**
 * Full thin SVD by one-sided (Hestenes) Jacobi: rotate column pairs of A until all are orthogonal; then
 * the column norms are the singular values. Accurate (small singular values to high relative accuracy),
 * simple, and fast enough for the small matrices it is used on (≈ a few hundred columns).
 * Left vectors for zero singular values are completed to an orthonormal set.
 */
export function jacobiSvd(a: DenseMatrix, maxSweeps = 60): DenseSvd {
  if (a.rows < a.cols) {
    const t = jacobiSvd(transpose(a), maxSweeps);
    return { u: transpose(t.vt), s: t.s, vt: transpose(t.u) };
  }
  const m = a.rows;
  const n = a.cols;
  // Work on columns as contiguous arrays.
  const cols: Float64Array[] = [];
  const vcols: Float64Array[] = [];
  // n columns of m entries (i < m, p < q < n), n vectors of n entries.
  for (let j = 0; j < n; j++) {
    const c = new Float64Array(m);
    for (let i = 0; i < m; i++) c[i] = a.data[i * n + j]!;
    cols.push(c);
    const e = new Float64Array(n);
    e[j] = 1;
    vcols.push(e);
  }
  const tol = 1e-15 * Math.max(1, m);
  for (let sweep = 0; sweep < maxSweeps; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      const ap = cols[p]!;
      for (let q = p + 1; q < n; q++) {
        const aq = cols[q]!;
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < m; i++) {
          const x = ap[i]!;
          const y = aq[i]!;
          alpha += x * x;
          beta += y * y;
          gamma += x * y;
        }
        if (gamma === 0 || Math.abs(gamma) <= tol * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const c = 1 / Math.sqrt(1 + t * t);
        const s = c * t;
        for (let i = 0; i < m; i++) {
          const x = ap[i]!;
          const y = aq[i]!;
          ap[i] = c * x - s * y;
          aq[i] = s * x + c * y;
        }
        const vp = vcols[p]!;
        const vq = vcols[q]!;
        for (let i = 0; i < n; i++) {
          const x = vp[i]!;
          const y = vq[i]!;
          vp[i] = c * x - s * y;
          vq[i] = s * x + c * y;
        }
      }
    }
    if (!rotated) break;
  }

  const norms = cols.map((c) => Math.sqrt(c.reduce((acc, x) => acc + x * x, 0)));
  // order holds the column indices 0..n-1, so norms[j], cols[j] and vcols[j] are there; each u column has m entries.
  const order = norms.map((_, j) => j).sort((x, y) => norms[y]! - norms[x]! || x - y);
  const s = new Float64Array(n);
  const uCols: Float64Array[] = [];
  const vt = denseZeros(n, n);
  order.forEach((j, k) => {
    s[k] = norms[j]!;
    // A column that Jacobi drove to exactly zero carries no direction: completed below.
    uCols.push(norms[j]! > 0 ? cols[j]!.map((x) => x / norms[j]!) : new Float64Array(m));
    vt.data.set(vcols[j]!, k * n);
  });
  completeOrthonormal(uCols, s);
  const u = denseZeros(m, n);
  uCols.forEach((c, k) => {
    for (let i = 0; i < m; i++) u.data[i * n + k] = c[i]!;
  });
  return { u, s, vt };
}

/** Replaces the columns whose singular value is 0 by unit vectors orthogonal to all the others (Gram–Schmidt twice on e_i). */
function completeOrthonormal(columns: Float64Array[], s: Float64Array): void {
  const m = columns[0]?.length ?? 0;
  let candidate = 0;
  // One singular value per column (k, o < columns.length); every column and v have m entries (i < m).
  for (let k = 0; k < columns.length; k++) {
    if (s[k]! > 0) continue;
    for (; candidate < m; candidate++) {
      const v = new Float64Array(m);
      v[candidate] = 1;
      for (let pass = 0; pass < 2; pass++) {
        for (let o = 0; o < columns.length; o++) {
          if (o === k || (s[o] === 0 && o > k)) continue;
          const c = columns[o]!;
          let d = 0;
          for (let i = 0; i < m; i++) d += c[i]! * v[i]!;
          for (let i = 0; i < m; i++) v[i]! -= d * c[i]!;
        }
      }
      const norm = Math.sqrt(v.reduce((acc, x) => acc + x * x, 0));
      if (norm > 0.5) {
        for (let i = 0; i < m; i++) v[i]! /= norm;
        columns[k] = v;
        candidate++;
        break;
      }
    }
  }
}

/**
 * Orthonormal basis of A's columns by Cholesky QR (G = AᵀA = RᵀR, Q = A R⁻¹): half the work of
 * Householder, accurate when A is well conditioned (orthogonality error ≈ ε·cond(A)²). Returns
 * undefined when the Cholesky factorisation breaks down (A numerically rank-deficient).
 */
export function choleskyOrthonormalize(a: DenseMatrix): DenseMatrix | undefined {
  const n = a.rows;
  const l = a.cols;
  const g = new Float64Array(l * l); // upper triangle of AᵀA, accumulated row by row
  // Every index below is (i < n)·l + (p, q, k < l) into a, or (p, q, k < l)·l + (< l) into g, rt and the result.
  for (let i = 0; i < n; i++) {
    const row = i * l;
    for (let p = 0; p < l; p++) {
      const x = a.data[row + p]!;
      if (x === 0) continue;
      const gRow = p * l;
      for (let q = p; q < l; q++) g[gRow + q]! += x * a.data[row + q]!;
    }
  }
  // G = RᵀR, R upper triangular stored in place of G's upper triangle.
  let maxDiag = 0;
  for (let p = 0; p < l; p++) maxDiag = Math.max(maxDiag, g[p * l + p]!);
  for (let p = 0; p < l; p++) {
    let diag = g[p * l + p]!;
    for (let k = 0; k < p; k++) diag -= g[k * l + p]! ** 2;
    if (!(diag > maxDiag * 1e-13)) return undefined;
    const rpp = Math.sqrt(diag);
    g[p * l + p] = rpp;
    for (let q = p + 1; q < l; q++) {
      let v = g[p * l + q]!;
      for (let k = 0; k < p; k++) v -= g[k * l + p]! * g[k * l + q]!;
      g[p * l + q] = v / rpp;
    }
  }
  // Rᵀ row-major, so the substitution below reads contiguous memory.
  const rt = new Float64Array(l * l);
  for (let p = 0; p < l; p++) for (let k = 0; k <= p; k++) rt[p * l + k] = g[k * l + p]!;
  // Each row of Q solves qᵀR = aᵀ (forward substitution along the row).
  const q = denseZeros(n, l);
  const qd = q.data;
  for (let i = 0; i < n; i++) {
    const row = i * l;
    for (let p = 0; p < l; p++) {
      let v = a.data[row + p]!;
      const rtRow = p * l;
      for (let k = 0; k < p; k++) v -= qd[row + k]! * rt[rtRow + k]!;
      qd[row + p] = v / rt[rtRow + p]!;
    }
  }
  return q;
}

/** Orthonormal basis of A's columns: Cholesky QR when it succeeds (fast), Householder otherwise (always works). */
export function orthonormalize(a: DenseMatrix): DenseMatrix {
  return choleskyOrthonormalize(a) ?? householderQr(a).q;
}
