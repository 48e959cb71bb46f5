/**
 * IEEE 754 half precision (binary16) for float16 vector storage. Node 20 has no Float16Array or
 * Math.f16round, so the conversions are here; the SIMD kernel widens halves itself (exact-scan.wat).
 */

/** Largest finite half: values beyond it are stored as ±65504 rather than infinity. */
export const HALF_MAX = 65504;

/** The half nearest to x (ties to even), as its 16 bits; NaN becomes 0, overflow saturates at ±HALF_MAX. */
export function toHalfBits(x: number): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (Number.isNaN(a)) return 0;
  if (a >= 2 ** -14) {
    let e = Math.floor(Math.log2(a));
    // log2 may round across a power of two: settle e so that 2^e <= a < 2^(e+1)
    if (2 ** e > a) e--;
    else if (2 ** (e + 1) <= a) e++;
    let mantissa = roundHalfEven((a / 2 ** e - 1) * 1024); // exact: a / 2^e is a power-of-two scaling
    if (mantissa === 1024) {
      mantissa = 0;
      e++;
    }
    if (e > 15) return sign | 0x7bff;
    return sign | ((e + 15) << 10) | mantissa;
  }
  // subnormal (or rounds up to the smallest normal, 0x400, which the same bits express)
  return sign | roundHalfEven(a * 2 ** 24);
}

function roundHalfEven(r: number): number {
  const f = Math.floor(r);
  const d = r - f;
  return d > 0.5 || (d === 0.5 && f % 2 === 1) ? f + 1 : f;
}

/** The value of a half given as its 16 bits. */
export function halfValue(bits: number): number {
  const exponent = (bits >> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  const magnitude =
    exponent === 0 ? mantissa * 2 ** -24 : exponent === 31 ? (mantissa ? NaN : Infinity) : (1 + mantissa / 1024) * 2 ** (exponent - 15);
  return bits & 0x8000 ? -magnitude : magnitude;
}

let table: Float32Array | undefined;

/** Every half's value, indexed by its bits (256 KB, built on first use): the JS kernels' decoder. */
export function halfTable(): Float32Array {
  if (!table) {
    table = new Float32Array(65536);
    for (let h = 0; h < 65536; h++) table[h] = halfValue(h);
  }
  return table;
}
