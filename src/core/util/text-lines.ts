import { isUtf8 } from 'node:buffer';
import type { Hash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { type InvalidUtf8Line, type NumberedLine, invalidUtf8At } from './text-file';

/**
 * Reading a text file line by line in chunks, for record files too large for one string (V8 caps a string
 * at about 512 MB: issue 32). The rules are those of `decodeText` + `splitLines`: UTF-8, a BOM stripped,
 * LF, CRLF and lone-CR line ends, no extra line after a final newline. One difference: `splitLines` takes
 * a file as lone-CR only when it has no LF anywhere; a stream cannot look ahead, so here the first line end
 * decides (a file that starts with lone CRs and later has LFs is split on CR).
 */

/** 1 MiB: big enough that per-chunk costs vanish, small enough to stay out of the way of the heap. */
export const DEFAULT_CHUNK_BYTES = 1 << 20;

/** A streamed line; `invalidUtf8` when its bytes are not UTF-8 (its text then has U+FFFD for them), as `invalidUtf8Lines` says. */
export interface StreamedLine extends NumberedLine {
  invalidUtf8?: Omit<InvalidUtf8Line, 'line'>;
}

/**
 * Synchronous, so that a reader driven by util/cooperative steps can pause between lines. `hash` is fed every
 * byte read, as read (a cache's content hash, checked once the last line has been taken).
 */
export function* fileLines(path: string, chunkBytes = DEFAULT_CHUNK_BYTES, hash?: Hash): Generator<StreamedLine, void, void> {
  const splitter = new LineSplitter();
  for (const chunk of fileChunks(path, chunkBytes)) {
    hash?.update(chunk);
    yield* splitter.push(chunk);
  }
  yield* splitter.end();
}

/** A file's bytes in chunks of `chunkBytes` (the last shorter); each chunk is valid only until the next is asked for. */
export function* fileChunks(path: string, chunkBytes = DEFAULT_CHUNK_BYTES): Generator<Buffer, void, void> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(chunkBytes);
    for (let n = readSync(fd, buf, 0, chunkBytes, null); n > 0; n = readSync(fd, buf, 0, chunkBytes, null)) yield buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

const LF = 10;
const CR = 13;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Turns chunks of bytes into numbered lines. Lines are cut on bytes (a line end is one ASCII byte, never part
 * of a multi-byte character) and decoded whole, so a character or a line end cut between chunks is joined and a
 * line that is not UTF-8 is found where its bad byte is, whichever chunk it came in.
 */
export class LineSplitter {
  /** Bytes after the last line end, in pieces (a long line is joined once, when its end arrives). */
  private pending: Buffer[] = [];
  private line = 0;
  private started = false;
  /** Decided by the first line end: LF (LF and CRLF files) or CR (old Mac files). */
  private sep: typeof LF | typeof CR | undefined;

  *push(chunk: Buffer): Generator<StreamedLine, void, void> {
    // No line end in it: kept for later (copied: the caller reuses its buffer). A CR kept last may still be
    // the first half of the first line end, which then decides how lines end.
    const kept = this.pending[this.pending.length - 1];
    const noLineEnd =
      this.sep !== undefined
        ? !chunk.includes(this.sep)
        : this.started && !chunk.includes(LF) && !chunk.includes(CR) && kept?.[kept.length - 1] !== CR;
    if (noLineEnd) {
      this.pending.push(Buffer.from(chunk));
      return;
    }
    yield* this.take(this.pending.length ? Buffer.concat([...this.pending, chunk]) : chunk, false);
  }

  *end(): Generator<StreamedLine, void, void> {
    yield* this.take(Buffer.concat(this.pending), true);
  }

  private *take(b: Buffer, last: boolean): Generator<StreamedLine, void, void> {
    this.pending = [];
    if (!this.started) {
      if (!last && b.length < BOM.length && BOM.subarray(0, b.length).equals(b)) {
        this.pending = [Buffer.from(b)]; // perhaps a BOM cut short
        return;
      }
      this.started = true;
      if (b.subarray(0, BOM.length).equals(BOM)) b = b.subarray(BOM.length);
    }
    this.sep ??= lineEnd(b, last);
    const cut = this.sep === undefined ? -1 : b.lastIndexOf(this.sep);
    if (cut >= 0) yield* this.lines(b, cut);
    const rest = b.subarray(cut + 1);
    if (last) {
      if (rest.length) yield* this.lines(Buffer.concat([rest, Buffer.from([this.sep ?? LF])]), rest.length);
    } else if (rest.length) this.pending = [Buffer.from(rest)];
  }

  /** The lines of b[0, end), `end` being a line end. */
  private *lines(b: Buffer, end: number): Generator<StreamedLine, void, void> {
    const sep = this.sep ?? LF;
    if (isUtf8(b.subarray(0, end))) {
      // nearly every file: one decode, one split
      for (const text of b.toString('utf8', 0, end).split(String.fromCharCode(sep))) yield { line: ++this.line, text: this.trim(text) };
      return;
    }
    for (let start = 0; start <= end; ) {
      let stop = b.indexOf(sep, start);
      if (stop < 0 || stop > end) stop = end;
      const at = invalidUtf8At(b, start, stop);
      const line: StreamedLine = { line: ++this.line, text: this.trim(b.toString('utf8', start, stop)) };
      if (at >= 0) line.invalidUtf8 = { column: at + 1, byte: b[start + at]! }; // at < stop - start
      yield line;
      start = stop + 1;
    }
  }

  private trim(text: string): string {
    return this.sep === LF && text.endsWith('\r') ? text.slice(0, -1) : text;
  }
}

function lineEnd(b: Buffer, last: boolean): typeof LF | typeof CR | undefined {
  const lf = b.indexOf(LF);
  const cr = b.indexOf(CR);
  if (cr < 0) return lf < 0 ? undefined : LF;
  if (lf >= 0 && lf < cr) return LF;
  if (cr + 1 < b.length) return b[cr + 1] === LF ? LF : CR;
  return last ? CR : undefined; // a CR at the very end may be the first half of a CRLF
}
