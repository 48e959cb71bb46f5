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

const GZIP_COMMENT = 'ranklab-sha256:';
/** A gzip member's fixed header (RFC 1952): magic, CM, FLG, MTIME, XFL, OS. */
const GZIP_HEADER = 10;
const FCOMMENT = 0x10;
const COMMENT_LENGTH = GZIP_COMMENT.length + 64 + 1; // the comment, 64 hex digits, its NUL

/**
 * gzip bytes (as gzipSync writes them: no optional header field) with the sha256 of their compressed data stored in
 * the header's comment field (RFC 1952 FCOMMENT): still a gzip file any tool reads, checked without decompressing.
 * Hashing the compressed bytes rather than the JSON inside hashes a few times less (the dashboard's warm open reads
 * one comparison of 2–3 MB of JSON, ~160 KB gzipped) and still catches any edit: re-compressed text is other bytes.
 */
export function sealGzip(gzip: Uint8Array): Buffer {
  if (gzip[0] !== 0x1f || gzip[1] !== 0x8b || gzip[3] !== 0) throw new Error('internal: sealGzip needs gzip bytes without header fields');
  const header = Buffer.from(gzip.subarray(0, GZIP_HEADER));
  header[3] = FCOMMENT;
  const data = gzip.subarray(GZIP_HEADER);
  return Buffer.concat([header, Buffer.from(`${GZIP_COMMENT}${sha256Hex(data)}\0`, 'latin1'), data]);
}

/**
 * The gzip bytes sealGzip sealed, after checking their hash (the file itself: gunzip it); undefined for content not
 * sealed so (an older entry, plain gzip). Throws ContentHashMismatch when the hash does not match.
 */
export function unsealGzip(content: Buffer): Buffer | undefined {
  if (content[0] !== 0x1f || content[1] !== 0x8b || content[3] !== FCOMMENT) return undefined;
  const comment = content.toString('latin1', GZIP_HEADER, GZIP_HEADER + COMMENT_LENGTH);
  if (!comment.startsWith(GZIP_COMMENT) || comment.length !== COMMENT_LENGTH || !comment.endsWith('\0')) return undefined;
  const expected = comment.slice(GZIP_COMMENT.length, GZIP_COMMENT.length + 64);
  const actual = sha256Hex(content.subarray(GZIP_HEADER + COMMENT_LENGTH));
  if (actual !== expected) throw new ContentHashMismatch(expected, actual);
  return content;
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
