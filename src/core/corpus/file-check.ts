/** Checks that run before a file is decoded: size and binary content. */

const SNIFF_BYTES = 8192;
/** Above this share of undecodable characters in the first 8 KB, a file is taken as binary. */
const MAX_INVALID_UTF8_SHARE = 0.1;

/** Why a file looks binary, or undefined when it looks like text. */
export function binaryReason(buf: Buffer): string | undefined {
  const sample = buf.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return 'contains NUL bytes';
  if (sample.length === 0) return undefined;
  // Do not count a multi-byte character cut at the sample's end.
  let end = sample.length;
  if (buf.length > SNIFF_BYTES) {
    let k = end - 1;
    while (k >= 0 && end - k <= 3 && (sample[k] & 0xc0) === 0x80) k--;
    if (k >= 0 && sample[k] >= 0xc0) end = k;
  }
  const text = sample.subarray(0, end).toString('utf8');
  let replacements = 0;
  for (let k = 0; k < text.length; k++) if (text.charCodeAt(k) === 0xfffd) replacements++;
  const literal = countLiteralReplacementChars(sample.subarray(0, end));
  const invalid = replacements - literal;
  if (invalid > 0 && invalid / Math.max(1, text.length) > MAX_INVALID_UTF8_SHARE) {
    return `is not UTF-8 text (${Math.round((100 * invalid) / text.length)}% undecodable characters)`;
  }
  return undefined;
}

/** U+FFFD written on purpose in the file (bytes EF BF BD) is not a decoding failure. */
function countLiteralReplacementChars(buf: Buffer): number {
  let n = 0;
  for (let k = buf.indexOf(0xef); k >= 0 && k + 2 < buf.length; k = buf.indexOf(0xef, k + 1)) {
    if (buf[k + 1] === 0xbf && buf[k + 2] === 0xbd) n++;
  }
  return n;
}
