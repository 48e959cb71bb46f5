import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { NumberedLine } from './text-file';

/**
 * Reading a text file line by line in chunks, for record files too large for one string (V8 caps a string
 * at about 512 MB: issue 32). The rules are those of `decodeText` + `splitLines`: UTF-8, a BOM stripped,
 * LF, CRLF and lone-CR line ends, no extra line after a final newline. One difference: `splitLines` takes
 * a file as lone-CR only when it has no LF anywhere; a stream cannot look ahead, so here the first line end
 * decides (a file that starts with lone CRs and later has LFs is split on CR).
 */

/** 1 MiB: big enough that per-chunk costs vanish, small enough to stay out of the way of the heap. */
export const DEFAULT_CHUNK_BYTES = 1 << 20;

/** Synchronous, so that a reader driven by util/cooperative steps can pause between lines. */
export function* fileLines(path: string, chunkBytes = DEFAULT_CHUNK_BYTES): Generator<NumberedLine, void, void> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(chunkBytes);
    const splitter = new LineSplitter();
    for (;;) {
      const n = readSync(fd, buf, 0, chunkBytes, null);
      if (n === 0) break;
      yield* splitter.push(buf.subarray(0, n));
    }
    yield* splitter.end();
  } finally {
    closeSync(fd);
  }
}

/** Turns chunks of bytes into numbered lines; a character or a line end cut between chunks is joined. */
export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private carry = '';
  private line = 0;
  private started = false;
  /** Decided by the first line end: '\n' (LF and CRLF files) or '\r' (old Mac files). */
  private sep: '\n' | '\r' | undefined;

  *push(chunk: Buffer): Generator<NumberedLine, void, void> {
    let s = this.decoder.write(chunk);
    if (!this.started && s.length > 0) {
      this.started = true;
      if (s.charCodeAt(0) === 0xfeff) s = s.slice(1);
    }
    yield* this.take(this.carry + s, false);
  }

  *end(): Generator<NumberedLine, void, void> {
    yield* this.take(this.carry + this.decoder.end(), true);
  }

  private *take(s: string, last: boolean): Generator<NumberedLine, void, void> {
    this.sep ??= lineEnd(s, last);
    if (this.sep === undefined) {
      // no line end yet (or a CR at the very end, which may be the first half of a CRLF)
      if (last && s !== '') yield { line: ++this.line, text: s };
      else this.carry = s;
      return;
    }
    const cut = s.lastIndexOf(this.sep);
    const whole = cut < 0 ? '' : s.slice(0, cut);
    this.carry = cut < 0 ? s : s.slice(cut + 1);
    if (cut >= 0) for (const text of whole.split(this.sep)) yield { line: ++this.line, text: this.trim(text) };
    if (last && this.carry !== '') {
      yield { line: ++this.line, text: this.trim(this.carry) };
      this.carry = '';
    }
  }

  private trim(text: string): string {
    return this.sep === '\n' && text.endsWith('\r') ? text.slice(0, -1) : text;
  }
}

function lineEnd(s: string, last: boolean): '\n' | '\r' | undefined {
  const lf = s.indexOf('\n');
  const cr = s.indexOf('\r');
  if (cr < 0) return lf < 0 ? undefined : '\n';
  if (lf >= 0 && lf < cr) return '\n';
  if (cr + 1 < s.length) return s.charCodeAt(cr + 1) === 10 ? '\n' : '\r';
  return last ? '\r' : undefined;
}
