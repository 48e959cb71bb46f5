import { type Steps, runSync } from '../util/cooperative';
import { type DenseMatrix, denseZeros } from './dense';

/**
 * The products below yield after each block of rows holding about this many entries (a few ms of work at the
 * widths LSA uses), so that long ones can pause; by entries, not rows, because term rows differ a lot in length.
 */
const BLOCK_ENTRIES = 8_192;

/** Calls `rows(from, to)` for consecutive blocks of X's rows (about BLOCK_ENTRIES entries each), yielding after each. */
function* inRowBlocks(x: CsrMatrix, rows: (from: number, to: number) => void): Steps<void> {
  for (let from = 0; from < x.rows; ) {
    const to = blockEnd(x, from);
    rows(from, to);
    from = to;
    yield;
  }
}

/** The first row after `from` that ends a block of about BLOCK_ENTRIES entries (at least one row). */
function blockEnd(x: CsrMatrix, from: number): number {
  // from < rows, and to < rows where to + 1 is read: both are row offsets (rowPtr has rows + 1).
  const limit = x.rowPtr[from]! + BLOCK_ENTRIES;
  let to = from + 1;
  while (to < x.rows && x.rowPtr[to + 1]! <= limit) to++;
  return to;
}

/**
 * Compressed sparse row matrix: row i's entries are colIdx/values[rowPtr[i] .. rowPtr[i+1]),
 * column indices strictly increasing within a row. So rowPtr has rows + 1 offsets rising from 0 to
 * colIdx.length = values.length, and every column index is < cols: the kernels here read by `!` on that shape.
 */
export interface CsrMatrix {
  readonly rows: number;
  readonly cols: number;
  readonly rowPtr: Int32Array;
  readonly colIdx: Int32Array;
  readonly values: Float64Array;
}

/** Builds a CSR matrix from one sparse row per entry (column → value), e.g. per-document term weights. Zeros are dropped. */
export function csrFromRows(rows: ReadonlyArray<ReadonlyMap<number, number>>, cols: number): CsrMatrix {
  return runSync(csrFromRowsSteps(rows, cols));
}

/** csrFromRows as resumable steps: it yields after each row (see util/cooperative). */
export function* csrFromRowsSteps(rows: ReadonlyArray<ReadonlyMap<number, number>>, cols: number): Steps<CsrMatrix> {
  let nnz = 0;
  for (const row of rows) for (const v of row.values()) if (v !== 0) nnz++;
  const rowPtr = new Int32Array(rows.length + 1);
  const colIdx = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  let at = 0;
  // i < rows.length: rowPtr[i] is there (it has rows.length + 1)
  for (const [i, row] of rows.entries()) {
    const cells = [...row].filter(([, v]) => v !== 0).sort((a, b) => a[0] - b[0]);
    for (const [c, v] of cells) {
      if (!Number.isInteger(c) || c < 0 || c >= cols) throw new RangeError(`column ${c} outside 0..${cols - 1} in row ${i}`);
      if (at > rowPtr[i]! && colIdx[at - 1] === c) throw new RangeError(`duplicate column ${c} in row ${i}`);
      colIdx[at] = c;
      values[at] = v;
      at++;
    }
    rowPtr[i + 1] = at;
    yield;
  }
  return { rows: rows.length, cols, rowPtr, colIdx, values };
}

/** X·B for a dense B (X.cols × l), giving X.rows × l. */
export function csrMultiplyDense(x: CsrMatrix, b: DenseMatrix): DenseMatrix {
  return runSync(csrMultiplyDenseSteps(x, b));
}

export function* csrMultiplyDenseSteps(x: CsrMatrix, b: DenseMatrix): Steps<DenseMatrix> {
  if (b.rows !== x.cols) throw new RangeError(`shape mismatch: ${x.rows}x${x.cols} · ${b.rows}x${b.cols}`);
  const out = denseZeros(x.rows, b.cols);
  yield* inRowBlocks(x, (from, to) => multiplyRows(x, b, out, from, to));
  return out;
}

function multiplyRows(x: CsrMatrix, b: DenseMatrix, out: DenseMatrix, from: number, to: number): void {
  const l = b.cols;
  const o = out.data;
  const bd = b.data;
  // i < to ≤ rows, p an entry of row i, c < l: bRow indexes a row of b (column < cols = b.rows), oRow one of out.
  for (let i = from; i < to; i++) {
    const oRow = i * l;
    for (let p = x.rowPtr[i]!; p < x.rowPtr[i + 1]!; p++) {
      const v = x.values[p]!;
      const bRow = x.colIdx[p]! * l;
      for (let c = 0; c < l; c++) o[oRow + c]! += v * bd[bRow + c]!;
    }
  }
}

/** Xᵀ·Y for a dense Y (X.rows × l), giving X.cols × l, without forming Xᵀ. */
export function csrTransposeMultiplyDense(x: CsrMatrix, y: DenseMatrix): DenseMatrix {
  return runSync(csrTransposeMultiplyDenseSteps(x, y));
}

export function* csrTransposeMultiplyDenseSteps(x: CsrMatrix, y: DenseMatrix): Steps<DenseMatrix> {
  if (y.rows !== x.rows) throw new RangeError(`shape mismatch: (${x.rows}x${x.cols})ᵀ · ${y.rows}x${y.cols}`);
  const out = denseZeros(x.cols, y.cols);
  yield* inRowBlocks(x, (from, to) => transposeMultiplyRows(x, y, out, from, to));
  return out;
}

function transposeMultiplyRows(x: CsrMatrix, y: DenseMatrix, out: DenseMatrix, from: number, to: number): void {
  const l = y.cols;
  const o = out.data;
  const yd = y.data;
  // i < to ≤ rows = y.rows, p an entry of row i, c < l: oRow indexes a row of out (column < cols = out.rows).
  for (let i = from; i < to; i++) {
    const yRow = i * l;
    for (let p = x.rowPtr[i]!; p < x.rowPtr[i + 1]!; p++) {
      const v = x.values[p]!;
      const oRow = x.colIdx[p]! * l;
      for (let c = 0; c < l; c++) o[oRow + c]! += v * yd[yRow + c]!;
    }
  }
}

/** The same matrix, dense (for tests and small inputs). */
export function csrToDense(x: CsrMatrix): DenseMatrix {
  const out = denseZeros(x.rows, x.cols);
  // i < rows, p an entry of row i
  for (let i = 0; i < x.rows; i++) {
    for (let p = x.rowPtr[i]!; p < x.rowPtr[i + 1]!; p++) out.data[i * x.cols + x.colIdx[p]!] = x.values[p]!;
  }
  return out;
}

/** Squared Frobenius norm: the sum of all squared entries (= the sum of all squared singular values). */
export function csrFrobeniusSquared(x: CsrMatrix): number {
  let s = 0;
  for (const v of x.values) s += v * v;
  return s;
}

/** Xᵀ as its own CSR matrix (a counting sort by column; keeps column order within rows). */
export function csrTranspose(x: CsrMatrix): CsrMatrix {
  return runSync(csrTransposeSteps(x));
}

/** csrTranspose as resumable steps: it yields between blocks of rows (see util/cooperative). */
export function* csrTransposeSteps(x: CsrMatrix): Steps<CsrMatrix> {
  const rowPtr = new Int32Array(x.cols + 1);
  // Columns < cols index rowPtr (cols + 1) and next (cols); p < nnz; i < rows; at < nnz (counting sort).
  for (let p = 0; p < x.colIdx.length; p++) rowPtr[x.colIdx[p]! + 1]!++;
  for (let c = 0; c < x.cols; c++) rowPtr[c + 1]! += rowPtr[c]!;
  const next = rowPtr.slice(0, x.cols);
  const colIdx = new Int32Array(x.colIdx.length);
  const values = new Float64Array(x.values.length);
  for (let i = 0; i < x.rows; i++) {
    for (let p = x.rowPtr[i]!; p < x.rowPtr[i + 1]!; p++) {
      const at = next[x.colIdx[p]!]!++;
      colIdx[at] = i;
      values[at] = x.values[p]!;
    }
    if ((i & 255) === 255) yield;
  }
  return { rows: x.cols, cols: x.rows, rowPtr, colIdx, values };
}
