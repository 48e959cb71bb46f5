import { createHash } from 'node:crypto';
import { writeFileAtomicBytes } from '../util/atomic-write';
import { ByteReader, type ByteSource, bufferSource, withFileSource } from '../util/byte-reader';
import { ContentHashMismatch } from '../util/content-hash';
import type { Document } from './document';
import type { CorpusSnapshot, SnapshotFile } from './load';
import { DocBatchWriter, readDocBatch } from './snapshot-docs';

/**
 * The corpus snapshot on disk, binary: a magic line naming the format, then sections (u32 LE kind, u32 LE byte
 * length, the bytes): the header (JSON: the settings key, and the corpus fingerprint of these files when known:
 * `CorpusSnapshot.assembled`), and per file one FILE section (JSON: its stat,
 * diagnostics, fields seen and number of documents) followed by its documents in batches (snapshot-docs.ts); last
 * a fixed-size trailer: a marker, the number of files and the sha256 of every byte before the trailer. Written and
 * read in chunks, hashed as the bytes go by, so its size is not bounded by V8's ~512 MB string limit (issue 32).
 * The snapshot holds the documents of unchanged files, so one edited after it was written would put documents in
 * the corpus that no file has: a hash that does not match, a file cut short (no trailer) and the older formats
 * (JSON Lines `ranklab-corpus-snapshot@2`, and the single JSON value before it) are not used; every corpus file is
 * then read again.
 */
const FORMAT = 'ranklab-corpus-snapshot@3';
const MAGIC = Buffer.from(`${FORMAT}\n`, 'latin1');
const HEAD = 1;
const FILE = 2;
const DOCS = 3;
const SECTION_HEAD_BYTES = 8;
const END_MARK = Buffer.from('RLSNPEND', 'latin1');
/** The marker, the number of files (u32 LE), 4 bytes zero (checked), the sha256 of every byte before the trailer. */
const TRAILER_BYTES = END_MARK.length + 8 + 32;
/**
 * UTF-16 units of document strings per batch. The text of a batch is one string, over V8's 128 KiB so that it is
 * made in the large-object space (never copied by the young generation's collector), and under Node's ~1 MB from
 * which a decoded string is external: at 2 Mi units the external strings of a 1M-document corpus made V8 run a full
 * collection every ~40 MB (18 of them, 2.9 s, against 7 with this size).
 */
const BATCH_UNITS = 256 << 10;

type FileHead = {
  path: string;
  mtimeMs: number;
  size: number;
  diagnostics: SnapshotFile['diagnostics'];
  fieldsSeen: string[];
  docs: number;
};

function section(kind: number, bytes: Buffer): Buffer[] {
  const head = Buffer.alloc(SECTION_HEAD_BYTES);
  head.writeUInt32LE(kind, 0);
  head.writeUInt32LE(bytes.length, 4);
  return [head, bytes];
}

const jsonBytes = (v: unknown) => Buffer.from(JSON.stringify(v), 'utf8');

/** The bytes before the trailer. */
function* contentChunks(snapshot: CorpusSnapshot): Generator<Buffer, void, void> {
  yield MAGIC;
  yield* section(HEAD, jsonBytes({ settingsKey: snapshot.settingsKey, assembled: snapshot.assembled }));
  for (const [path, f] of snapshot.files) {
    const head: FileHead = {
      path,
      mtimeMs: f.mtimeMs,
      size: f.size,
      diagnostics: f.diagnostics,
      fieldsSeen: f.fieldsSeen,
      docs: f.docs.length,
    };
    yield* section(FILE, jsonBytes(head));
    const batch = new DocBatchWriter(path);
    for (const doc of f.docs) {
      batch.add(doc);
      if (batch.units >= BATCH_UNITS) yield* section(DOCS, batch.take());
    }
    if (batch.docs > 0) yield* section(DOCS, batch.take());
  }
}

/** Every chunk, hashed as it goes, then the trailer with that hash. */
function* snapshotChunks(snapshot: CorpusSnapshot): Generator<Buffer, void, void> {
  const hash = createHash('sha256');
  for (const chunk of contentChunks(snapshot)) {
    hash.update(chunk);
    yield chunk;
  }
  const trailer = Buffer.alloc(TRAILER_BYTES);
  END_MARK.copy(trailer, 0);
  trailer.writeUInt32LE(snapshot.files.size, END_MARK.length);
  hash.digest().copy(trailer, END_MARK.length + 8);
  yield trailer;
}

/** The bytes of a snapshot file (small corpora, tests); files are written with `writeSnapshotFile`. */
export function serializeSnapshot(snapshot: CorpusSnapshot): Buffer {
  return Buffer.concat([...snapshotChunks(snapshot)]);
}

/** Writes the snapshot atomically, in chunks; throws what the file system throws. */
export function writeSnapshotFile(path: string, snapshot: CorpusSnapshot): void {
  writeFileAtomicBytes(path, snapshotChunks(snapshot));
}

/**
 * Reads a snapshot file; undefined when it is not one that can be used (then the corpus is read from scratch).
 * `log` is told why when the file is one of this format that was changed or cut short after it was written.
 */
export function readSnapshotFile(path: string, log?: (message: string) => void): CorpusSnapshot | undefined {
  return withFileSource(path, (source) => readSnapshot(source, log));
}

/** `readSnapshotFile` of a snapshot's bytes (`serializeSnapshot`). */
export function parseSnapshot(bytes: Uint8Array, log?: (message: string) => void): CorpusSnapshot | undefined {
  return readSnapshot(bufferSource(bytes), log);
}

function readAt(source: ByteSource, position: number, length: number): Buffer {
  const out = Buffer.alloc(Math.max(0, Math.min(length, source.size - position)));
  let got = 0;
  while (got < out.length) {
    const n = source.read(out, got, out.length - got, position + got);
    if (n <= 0) break;
    got += n;
  }
  return out.subarray(0, got);
}

/** Every byte before the trailer is hashed (even past a broken section) and checked before the snapshot is used. */
function readSnapshot(source: ByteSource, log?: (message: string) => void): CorpusSnapshot | undefined {
  if (!readAt(source, 0, MAGIC.length).equals(MAGIC)) return undefined; // an older format (or none): not read further
  const notReused = (why: string) => {
    log?.(`corpus snapshot not reused: ${why}; every file is read again`);
    return undefined;
  };
  const end = source.size - TRAILER_BYTES;
  const trailer = end >= MAGIC.length ? readAt(source, end, TRAILER_BYTES) : Buffer.alloc(0);
  if (trailer.length !== TRAILER_BYTES || !trailer.subarray(0, END_MARK.length).equals(END_MARK))
    return notReused('it ends before its trailer (cut short after it was written)');
  const hash = createHash('sha256');
  const reader = new ByteReader(source, 0, end, (bytes) => hash.update(bytes));
  const parsed = parseSections(reader);
  reader.drain();
  const expected = trailer.subarray(END_MARK.length + 8).toString('hex');
  const actual = hash.digest('hex');
  if (actual !== expected) return notReused(new ContentHashMismatch(expected, actual).message);
  const files = trailer.readUInt32LE(END_MARK.length);
  const zero = trailer.readUInt32LE(END_MARK.length + 4);
  return parsed && files === parsed.files.size && zero === 0 ? parsed : undefined;
}

/** The snapshot the sections make, or undefined when anything is not as written (it never throws). */
function parseSections(reader: ByteReader): CorpusSnapshot | undefined {
  try {
    reader.take(MAGIC.length);
    const headSection = nextSection(reader);
    if (headSection?.kind !== HEAD) return undefined;
    const head = JSON.parse(headSection.bytes.toString('utf8')) as { settingsKey?: unknown; assembled?: { fingerprint?: unknown } };
    if (typeof head?.settingsKey !== 'string') return undefined;
    const fingerprint = head.assembled?.fingerprint;
    const files = new Map<string, SnapshotFile>();
    for (let s = nextSection(reader); s; s = nextSection(reader)) {
      if (s.kind !== FILE) return undefined;
      const f = JSON.parse(s.bytes.toString('utf8')) as FileHead;
      if (
        typeof f?.path !== 'string' ||
        typeof f.mtimeMs !== 'number' ||
        typeof f.size !== 'number' ||
        !Number.isInteger(f.docs) ||
        f.docs < 0 ||
        files.has(f.path)
      )
        return undefined;
      const docs: Document[] = [];
      while (docs.length < f.docs) {
        const batch = nextSection(reader);
        if (batch?.kind !== DOCS) return undefined;
        readDocBatch(batch.bytes, f.path, docs);
      }
      if (docs.length !== f.docs) return undefined;
      files.set(f.path, {
        mtimeMs: f.mtimeMs,
        size: f.size,
        docs,
        diagnostics: Array.isArray(f.diagnostics) ? f.diagnostics : [],
        fieldsSeen: Array.isArray(f.fieldsSeen) ? f.fieldsSeen : [],
      });
    }
    if (reader.remaining !== 0) return undefined;
    const snapshot: CorpusSnapshot = { settingsKey: head.settingsKey, files };
    if (typeof fingerprint === 'string') snapshot.assembled = { fingerprint };
    return snapshot;
  } catch {
    return undefined;
  }
}

/** The next section (its bytes valid until the next call); undefined at the end; throws when it is cut. */
function nextSection(reader: ByteReader): { kind: number; bytes: Buffer } | undefined {
  if (reader.remaining === 0) return undefined;
  const head = reader.take(SECTION_HEAD_BYTES);
  if (!head) throw new Error('section head cut');
  const kind = head.readUInt32LE(0);
  const bytes = reader.take(head.readUInt32LE(4));
  if (!bytes) throw new Error('section cut');
  return { kind, bytes };
}
