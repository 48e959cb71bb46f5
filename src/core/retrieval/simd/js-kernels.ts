/**
 * Plain-JS counterparts of the WebAssembly kernels (exact-scan.wat), used where WebAssembly SIMD is not
 * available. Same layout: `m` holds rows of `dim` elements (padded) at `rows[i] * dim`; out[i] gets the
 * score of rows[i]. Four accumulators per row, as in the kernels: independent additions are what lets
 * the JIT keep several in flight (a single-accumulator loop is bound by the latency of each add).
 * Bounds (the callers' contract, as for the kernels): i < n ≤ rows.length; every rows[i] is a row of m, whose rows
 * are `dim` long; dim is a multiple of 4 and q holds dim elements; half-float bits index all 65536 entries of `half`.
 */

export function dotF32(m: Float32Array, q: Float32Array, dim: number, rows: Int32Array, n: number, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const off = rows[i]! * dim;
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0;
    for (let j = 0; j < dim; j += 4) {
      a0 += m[off + j]! * q[j]!;
      a1 += m[off + j + 1]! * q[j + 1]!;
      a2 += m[off + j + 2]! * q[j + 2]!;
      a3 += m[off + j + 3]! * q[j + 3]!;
    }
    out[i] = a0 + a1 + (a2 + a3);
  }
}

/** -|q - row|^2 (larger = closer). */
export function l2F32(m: Float32Array, q: Float32Array, dim: number, rows: Int32Array, n: number, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const off = rows[i]! * dim;
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0;
    for (let j = 0; j < dim; j += 4) {
      const d0 = m[off + j]! - q[j]!;
      const d1 = m[off + j + 1]! - q[j + 1]!;
      const d2 = m[off + j + 2]! - q[j + 2]!;
      const d3 = m[off + j + 3]! - q[j + 3]!;
      a0 += d0 * d0;
      a1 += d1 * d1;
      a2 += d2 * d2;
      a3 += d3 * d3;
    }
    out[i] = 0 - (a0 + a1 + (a2 + a3)); // 0 - s: a distance of 0 scores +0, not -0
  }
}

/** Rows as half-float bits, decoded through `half` (halfTable()). */
export function dotF16(
  m: Uint16Array,
  half: Float32Array,
  q: Float32Array,
  dim: number,
  rows: Int32Array,
  n: number,
  out: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const off = rows[i]! * dim;
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0;
    for (let j = 0; j < dim; j += 4) {
      a0 += half[m[off + j]!]! * q[j]!;
      a1 += half[m[off + j + 1]!]! * q[j + 1]!;
      a2 += half[m[off + j + 2]!]! * q[j + 2]!;
      a3 += half[m[off + j + 3]!]! * q[j + 3]!;
    }
    out[i] = a0 + a1 + (a2 + a3);
  }
}

/**
 * Integer dot products (exact: the caller keeps every partial sum below 2^31, as for the kernel). The same
 * loop as dotF32 on purpose: one function per array type keeps each JIT-compiled loop monomorphic.
 */
export function dotI8(m: Int8Array, q: Int16Array, dim: number, rows: Int32Array, n: number, out: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const off = rows[i]! * dim;
    let a0 = 0,
      a1 = 0,
      a2 = 0,
      a3 = 0;
    for (let j = 0; j < dim; j += 4) {
      a0 += m[off + j]! * q[j]!;
      a1 += m[off + j + 1]! * q[j + 1]!;
      a2 += m[off + j + 2]! * q[j + 2]!;
      a3 += m[off + j + 3]! * q[j + 3]!;
    }
    out[i] = a0 + a1 + (a2 + a3);
  }
}
