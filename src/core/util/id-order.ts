/**
 * Compares two ids in the order of their UTF-8 bytes, which is code point order: trec_eval's strcmp, and the
 * order docs/formats.md promises for ties. JavaScript's `<` compares UTF-16 code units instead, which puts an
 * id from the supplementary planes (a surrogate pair, U+D800–U+DFFF units) BELOW one in U+E000–U+FFFF, where
 * bytes put it above: the one place the two orders differ. Every tie broken by id goes through here.
 */
export function compareIdBytes(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Both at or above U+D800 and exactly one a surrogate: the surrogate's code point is above U+FFFF.
    if (x >= 0xd800 && y >= 0xd800 && x <= 0xdfff !== y <= 0xdfff) return x <= 0xdfff ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}
