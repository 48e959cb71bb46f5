import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { InputError } from './diagnostics';

/** One line of a text file, with its 1-based number. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** Decodes a user text file: strips a UTF-8 BOM, accepts LF, CRLF and lone CR line ends. */
export function decodeText(buf: Buffer | string): string {
  const s = typeof buf === 'string' ? buf : buf.toString('utf8');
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

export function splitLines(text: string): NumberedLine[] {
  // Splitting on a plain string is several times faster than a regex on multi-megabyte runs.
  const parts = text.includes('\n') ? text.split('\n') : text.split('\r');
  // i < parts.length
  if (text.includes('\r')) for (let i = 0; i < parts.length; i++) if (parts[i]!.endsWith('\r')) parts[i] = parts[i]!.slice(0, -1);
  // A trailing newline yields one empty last element that is not a line of the file.
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((t, i) => ({ line: i + 1, text: t }));
}

export function readLines(path: string): NumberedLine[] {
  return splitLines(decodeText(readFileSync(path)));
}

/** Splits a line on runs of spaces and tabs (faster than a regex split for the millions of lines of a run). */
export function splitColumns(line: string): string[] {
  const cols: string[] = [];
  let start = -1;
  for (let i = 0; i <= line.length; i++) {
    const c = i < line.length ? line.charCodeAt(i) : 32;
    const blank = c === 32 || c === 9;
    if (blank) {
      if (start >= 0) cols.push(line.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  return cols;
}

// ---- ids are bytes: lines that are not UTF-8 -------------------------------------------------------

/**
 * Where the bytes [start, end) of `b` stop being UTF-8 (an offset from `start`), or -1 when they all are.
 * Overlong forms, surrogates and code points above U+10FFFF are not UTF-8 (as in the WHATWG decoder).
 */
export function invalidUtf8At(b: Uint8Array, start = 0, end = b.length): number {
  // start ≤ i < end ≤ b.length, and a sequence is read only once i + n < end.
  for (let i = start; i < end; ) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= end) return i - start;
    // The second byte's range is narrower after E0 (overlong), ED (surrogates), F0 (overlong), F4 (> U+10FFFF).
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    if (b[i + 1]! < lo || b[i + 1]! > hi) return i - start;
    for (let k = 2; k <= n; k++) if ((b[i + k]! & 0xc0) !== 0x80) return i - start;
    i += n + 1;
  }
  return -1;
}

/** A line of a file whose bytes are not UTF-8: its number (as splitLines numbers it) and the bad byte. */
export interface InvalidUtf8Line {
  line: number;
  /** 1-based byte offset in the line of the first byte that is not UTF-8, and that byte. */
  column: number;
  byte: number;
}

/**
 * The lines of a file that are not UTF-8. Decoding would turn each bad byte into U+FFFD, so two different ids
 * ("caf\xE9", "caf\xE8") would read as the same string: readers refuse these lines instead. One native check
 * for a file that is all UTF-8 (nearly every file).
 */
export function invalidUtf8Lines(buf: Buffer): InvalidUtf8Line[] {
  if (isUtf8(buf)) return [];
  const out: InvalidUtf8Line[] = [];
  // Lines are numbered as splitLines numbers them: at \n, or at CR in a file without any \n.
  const eol = buf.includes(10) ? 10 : 13;
  for (let start = 0, line = 1; start < buf.length; line++) {
    let end = buf.indexOf(eol, start);
    if (end < 0) end = buf.length;
    const at = invalidUtf8At(buf, start, end);
    if (at >= 0) out.push({ line, column: at + 1, byte: buf[start + at]! }); // at < end - start
    start = end + 1;
  }
  return out;
}

/** "byte 0xE9 at column 4 is not UTF-8". */
export function describeInvalidUtf8(bad: { column: number; byte: number }): string {
  return `byte 0x${bad.byte.toString(16).toUpperCase().padStart(2, '0')} at column ${bad.column} is not UTF-8`;
}

// ---- user files: found, a file, text -------------------------------------------------------------

const SNIFF_BYTES = 8192;
/** Above this share of undecodable characters in the first 8 KB, a file is taken as binary. */
const MAX_INVALID_UTF8_SHARE = 0.1;

/** Why a file looks binary (judged on its first 8 KB), or undefined when it looks like text. */
export function binaryReason(buf: Buffer): string | undefined {
  const sample = buf.subarray(0, SNIFF_BYTES);
  if (sample.includes(0)) return 'contains NUL bytes';
  if (sample.length === 0) return undefined;
  // Do not count a multi-byte character cut at the sample's end.
  let end = sample.length;
  if (buf.length > SNIFF_BYTES) {
    let k = end - 1; // 0 ≤ k < sample.length where read
    while (k >= 0 && end - k <= 3 && (sample[k]! & 0xc0) === 0x80) k--;
    if (k >= 0 && sample[k]! >= 0xc0) end = k;
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

/** The first bytes of a file, enough for `binaryReason` (which then judges it as a whole file would be). */
export function readHead(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    // one byte more than is judged, so that binaryReason knows the file goes on (a character cut at the end)
    const head = Buffer.alloc(SNIFF_BYTES + 1);
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a text file the user named (judgments, configs, settings, principals, gates), decoded. Throws an
 * InputError naming `display` when it is missing, a folder, unreadable or binary. May return ''.
 */
export function readUserText(path: string, display = path): string {
  return readUserTextChecked(path, display).text;
}

/** readUserText, with the lines that are not UTF-8 (for readers of ids, which must not decode them). */
export function readUserTextChecked(path: string, display = path): { text: string; invalidUtf8: InvalidUtf8Line[] } {
  const buf = readUserFile(path, display);
  const binary = binaryReason(buf);
  if (binary) throw new InputError(`file ${binary}; it looks binary, expected text`, [], { file: display });
  return { text: decodeText(buf), invalidUtf8: invalidUtf8Lines(buf) };
}

/**
 * The checks of `readUserText` on the first few kilobytes only, for inputs another reader streams in full
 * (a TREC run of millions of lines).
 */
export function checkUserTextFile(path: string, display = path): void {
  statUserFile(path, display);
  let head: Buffer;
  try {
    head = readHead(path);
  } catch (e) {
    throw cannotRead(e, display);
  }
  const binary = binaryReason(head);
  if (binary) throw new InputError(`file ${binary}; it looks binary, expected text`, [], { file: display });
}

function readUserFile(path: string, display: string): Buffer {
  statUserFile(path, display);
  try {
    return readFileSync(path);
  } catch (e) {
    throw cannotRead(e, display);
  }
}

function statUserFile(path: string, display: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new InputError('file not found', [], { file: display });
    throw cannotRead(e, display);
  }
  if (isDir) throw new InputError('is a folder, expected a file', [], { file: display });
}

function cannotRead(e: unknown, display: string): InputError {
  return new InputError(`cannot read file (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, [], { file: display });
}
