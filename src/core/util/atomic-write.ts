import { chmodSync, closeSync, linkSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * Writes a file so that readers see either the old or the new content, never a half-written one: the data goes to
 * a temporary file beside it, which is then renamed over it. A file it replaces keeps its permissions. If writing
 * fails the temporary file is removed and the old file is untouched; a crash in between leaves the old file whole.
 */
export function writeFileAtomic(path: string, data: string | Buffer): void {
  replaceAtomic(path, (tmp) => writeFileSync(tmp, data));
}

/** Bytes gathered before one write: few system calls, little memory. */
const WRITE_BATCH_CHARS = 1 << 20;

/**
 * `writeFileAtomic` of the concatenation of `chunks`, written as they come: for caches too large for one string
 * (V8 caps a string at about 512 MB; issue 32). An exception from `chunks` leaves the old file as it was.
 * Returns the sha256 of the bytes written (the content hash a cache keeps beside it).
 */
export function writeFileAtomicChunks(path: string, chunks: Iterable<string>): string {
  const hash = createHash('sha256');
  replaceAtomic(path, (tmp) => {
    const fd = openSync(tmp, 'w');
    try {
      let pending: string[] = [];
      let size = 0;
      const flush = () => {
        if (pending.length) writeSync(fd, pending.join(''));
        pending = [];
        size = 0;
      };
      for (const chunk of chunks) {
        pending.push(chunk);
        hash.update(chunk);
        size += chunk.length;
        if (size >= WRITE_BATCH_CHARS) flush();
      }
      flush();
    } finally {
      closeSync(fd);
    }
  });
  return hash.digest('hex');
}

/**
 * `writeFileAtomic` of the concatenation of byte chunks, written as they come (binary caches larger than one Buffer
 * may be). Returns the sha256 of the bytes written.
 */
export function writeFileAtomicBytes(path: string, chunks: Iterable<Uint8Array>): string {
  const hash = createHash('sha256');
  replaceAtomic(path, (tmp) => {
    const fd = openSync(tmp, 'w');
    try {
      for (const chunk of chunks) {
        hash.update(chunk);
        for (let at = 0; at < chunk.byteLength; ) at += writeSync(fd, chunk, at, chunk.byteLength - at);
      }
    } finally {
      closeSync(fd);
    }
  });
  return hash.digest('hex');
}

function replaceAtomic(path: string, write: (tmp: string) => void): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tempPathBeside(path);
  let mode: number | undefined;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    mode = undefined; // a new file
  }
  try {
    write(tmp);
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * A temporary file name beside `path`, unique to this process AND thread: the extension host and its worker thread
 * share one pid and may write the same cache file in the same millisecond.
 */
export function tempPathBeside(path: string): string {
  return `${path}.${process.pid}-${threadId}.${Date.now()}.tmp`;
}

/**
 * Creates a file that must not exist yet, atomically: the data is written beside it, then hard-linked into place,
 * which fails if a file of that name appeared meanwhile (never overwritten). Returns false when the file exists.
 */
export function createFileAtomic(path: string, data: string | Buffer): boolean {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = tempPathBeside(path);
  try {
    writeFileSync(tmp, data, { flag: 'wx' });
    linkSync(tmp, path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    rmSync(tmp, { force: true });
  }
}
