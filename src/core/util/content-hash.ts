import { createHash } from 'node:crypto';
import { fileChunks } from './text-lines';

/**
 * Content hashes of the files Ranklab writes for itself (saved runs, caches), checked when they are read back: a
 * file edited by hand, half-restored from a backup or written by a crash is then never taken for Ranklab's own.
 */

/** The full sha256 of some bytes (or of a string's UTF-8), in hex. */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The sha256 of a file's bytes, read in chunks (a file of any size). */
export function sha256OfFile(path: string): string {
  const hash = createHash('sha256');
  for (const chunk of fileChunks(path)) hash.update(chunk);
  return hash.digest('hex');
}

const SEAL_HEAD = '{"sha256":"';
const SEAL_LENGTH = SEAL_HEAD.length + 64 + 2; // the head, 64 hex digits, `",`

/**
 * A JSON object's text with the sha256 of that text as its first member: `{"sha256":"<hex>",` + the rest of the
 * text. The hash covers the text exactly as written (the object without its `sha256` member), so checking it is
 * one hash over bytes already read, with no parse and no re-serialisation.
 */
export function sealJson(text: string): string {
  if (!text.startsWith('{') || text.startsWith('{}')) throw new Error('internal: sealJson needs a non-empty JSON object');
  return `${SEAL_HEAD}${sha256Hex(text)}",${text.slice(1)}`;
}

export type Unsealed = { text: string; sealed: true } | { text: string; sealed: false };

/**
 * The text sealJson sealed, after checking its hash; `sealed: false` (the text unchanged) for a file written
 * before hashes were. Throws when the hash does not match: the content changed after it was written. Given the
 * file's bytes (UTF-8), the hash is taken over them as they are, without decoding first (several times faster
 * than hashing the decoded string of a large run).
 */
export function unsealJson(content: string | Buffer): Unsealed {
  if (typeof content !== 'string') {
    if (!isSealed(content.toString('latin1', 0, SEAL_LENGTH))) return { text: content.toString('utf8'), sealed: false };
    const expected = content.toString('latin1', SEAL_HEAD.length, SEAL_HEAD.length + 64);
    const actual = createHash('sha256').update('{').update(content.subarray(SEAL_LENGTH)).digest('hex');
    if (actual !== expected) throw new ContentHashMismatch(expected, actual);
    return { text: '{' + content.toString('utf8', SEAL_LENGTH), sealed: true };
  }
  if (!isSealed(content)) return { text: content, sealed: false };
  const expected = content.slice(SEAL_HEAD.length, SEAL_HEAD.length + 64);
  const payload = '{' + content.slice(SEAL_LENGTH);
  const actual = sha256Hex(payload);
  if (actual !== expected) throw new ContentHashMismatch(expected, actual);
  return { text: payload, sealed: true };
}

const BYTES_HEAD = 'ranklab-sha256:';
const BYTES_LENGTH = BYTES_HEAD.length + 64 + 1; // the head, 64 hex digits, "\n"

/**
 * Bytes (a compressed cache entry) behind one line holding their sha256: `ranklab-sha256:<hex>\n` + the bytes. Sealing
 * the compressed bytes rather than the JSON inside hashes a few times less (the dashboard's warm open reads one
 * comparison of 2–3 MB of JSON, ~0.4 MB gzipped) and still catches any edit: re-compressed text is other bytes.
 */
export function sealBytes(bytes: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${BYTES_HEAD}${sha256Hex(bytes)}\n`, 'latin1'), bytes]);
}

/**
 * The bytes sealBytes sealed, after checking their hash; undefined for content not sealed so (an older entry).
 * Throws ContentHashMismatch when the hash does not match. A view of `content`, not a copy.
 */
export function unsealBytes(content: Buffer): Buffer | undefined {
  const head = content.toString('latin1', 0, BYTES_LENGTH);
  if (!head.startsWith(BYTES_HEAD) || !head.endsWith('\n') || head.length !== BYTES_LENGTH) return undefined;
  const expected = head.slice(BYTES_HEAD.length, BYTES_HEAD.length + 64);
  const bytes = content.subarray(BYTES_LENGTH);
  const actual = sha256Hex(bytes);
  if (actual !== expected) throw new ContentHashMismatch(expected, actual);
  return bytes;
}

/** Whether a text starts as sealJson's output does (the hash itself is checked by the caller). */
function isSealed(text: string): boolean {
  return text.startsWith(SEAL_HEAD) && text.charAt(SEAL_LENGTH - 2) === '"' && text.charAt(SEAL_LENGTH - 1) === ',';
}

/** A file whose content is not what was written: its sha256 differs from the one stored with it. */
export class ContentHashMismatch extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `its content hash does not match (stored sha256 ${expected.slice(0, 12)}…, content ${actual.slice(0, 12)}…): it was changed after Ranklab wrote it`,
    );
    this.name = 'ContentHashMismatch';
  }
}
