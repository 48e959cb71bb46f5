import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Reading a binary file front to back in large chunks, for caches larger than one Buffer or string may be (issue
 * 32): each byte is read once, handed to `onRead` as read (a content hash), and then taken in pieces of any size.
 */

/** 4 MiB: per-read costs vanish, and a piece of a few MiB (a batch of documents) needs no second buffer. */
export const READ_CHUNK_BYTES = 4 << 20;

/** Where the bytes come from: a file (by descriptor) or bytes already in memory (tests, small caches). */
export interface ByteSource {
  size: number;
  /** Copies up to `length` bytes at `position` into `into` at `offset`; returns how many. */
  read(into: Buffer, offset: number, length: number, position: number): number;
}

export function bufferSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.byteLength,
    read(into, offset, length, position) {
      const piece = bytes.subarray(position, Math.min(bytes.byteLength, position + length));
      into.set(piece, offset);
      return piece.byteLength;
    },
  };
}

/** Calls `use` with the file as a source; the file is closed afterwards. */
export function withFileSource<T>(path: string, use: (source: ByteSource) => T): T {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    return use({ size, read: (into, offset, length, position) => readSync(fd, into, offset, length, position) });
  } finally {
    closeSync(fd);
  }
}

/** The bytes of `source` in [start, end), taken in order. */
export class ByteReader {
  private buf: Buffer;
  /** The bytes not yet taken are buf[lo, hi); the next read starts at file position `next`. */
  private lo = 0;
  private hi = 0;
  private next: number;

  constructor(
    private readonly source: ByteSource,
    start: number,
    private readonly end: number,
    private readonly onRead?: (bytes: Buffer) => void,
    chunkBytes = READ_CHUNK_BYTES,
  ) {
    this.next = start;
    this.buf = Buffer.allocUnsafe(Math.max(1, Math.min(chunkBytes, end - start)));
  }

  /** Bytes not yet taken. */
  get remaining(): number {
    return this.hi - this.lo + (this.end - this.next);
  }

  /** The next `n` bytes, valid until the next call; undefined (nothing taken) when fewer remain. */
  take(n: number): Buffer | undefined {
    if (n > this.remaining) return undefined;
    if (this.hi - this.lo < n) this.fill(n);
    const piece = this.buf.subarray(this.lo, this.lo + n);
    this.lo += n;
    return piece;
  }

  /** Reads what remains without taking it (so that `onRead` sees every byte). */
  drain(): void {
    while (this.next < this.end) {
      this.lo = this.hi = 0;
      this.readInto(this.buf.length);
    }
    this.lo = this.hi = 0;
  }

  /** Makes buf[lo, lo + n) hold the next n bytes: the untaken bytes moved to the front, then read up to a full buffer. */
  private fill(n: number): void {
    if (n > this.buf.length) {
      const bigger = Buffer.allocUnsafe(n);
      this.buf.copy(bigger, 0, this.lo, this.hi);
      this.buf = bigger;
    } else {
      this.buf.copyWithin(0, this.lo, this.hi);
    }
    this.hi -= this.lo;
    this.lo = 0;
    while (this.hi < n) this.readInto(this.buf.length);
  }

  private readInto(limit: number): void {
    const want = Math.min(limit - this.hi, this.end - this.next);
    const got = this.source.read(this.buf, this.hi, want, this.next);
    if (got <= 0) throw new Error('the file became shorter while it was read');
    this.onRead?.(this.buf.subarray(this.hi, this.hi + got));
    this.hi += got;
    this.next += got;
  }
}
