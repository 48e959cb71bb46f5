/**
 * Numbers as C's strtod reads them (C locale), which is what trec_eval's atof does with a run's score
 * column: an optional sign, then a decimal number ("12", "1.5", ".5", "5.", "1e-3"), a hexadecimal one
 * ("0x10" = 16, "0x1.8p1" = 3), "inf"/"infinity" or "nan"/"nan(chars)", in any case. strtod reads the longest
 * such prefix; `length` says how much of the text that was (0: no number at all, where atof gives 0).
 * JavaScript's Number() differs: it reads "0b11" and "0o7" (strtod: "0"), refuses "-0x10", "0x1p3" and "inf".
 */
export function parseCNumber(text: string): { value: number; length: number } {
  let i = 0;
  let sign = 1;
  if (text[0] === '+' || text[0] === '-') {
    sign = text[0] === '-' ? -1 : 1;
    i = 1;
  }
  const rest = text.slice(i);
  const lower = rest.toLowerCase();
  if (lower.startsWith('inf')) return { value: sign * Infinity, length: i + (lower.startsWith('infinity') ? 8 : 3) };
  if (lower.startsWith('nan')) {
    const paren = /^\([0-9A-Za-z_]*\)/.exec(rest.slice(3));
    return { value: NaN, length: i + 3 + (paren ? paren[0].length : 0) };
  }
  const hex = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?(?:[pP]([+-]?[0-9]+))?/.exec(rest);
  if (hex && (hex[1] || hex[2])) {
    const whole = hex[1];
    const fraction = hex[2] ?? '';
    // The binary exponent counts only when it has digits; the regex then did not take the 'p' either.
    const exponent = hex[3] === undefined ? 0 : Number(hex[3]);
    const mantissa = Number(BigInt(`0x${whole}${fraction}`)); // rounded once to 53 bits
    return { value: sign * scaleByPowerOfTwo(mantissa, exponent - 4 * fraction.length), length: i + hex[0].length };
  }
  const decimal = /^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(rest);
  if (decimal) return { value: sign * Number(decimal[0]), length: i + decimal[0].length };
  return { value: 0, length: 0 };
}

/** x * 2^e without overflowing or underflowing on the way (x * 2 ** e alone can for |e| > 1023). */
function scaleByPowerOfTwo(x: number, e: number): number {
  let v = x;
  let k = e;
  while (k > 1000 && v !== 0 && Number.isFinite(v)) {
    v *= 2 ** 1000;
    k -= 1000;
  }
  while (k < -1000 && v !== 0) {
    v *= 2 ** -1000;
    k += 1000;
  }
  return v * 2 ** k;
}
