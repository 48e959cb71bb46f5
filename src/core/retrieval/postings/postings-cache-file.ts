import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { endianness } from 'node:os';
import { writeFileAtomicBytes } from '../../util/atomic-write';
import { Postings } from './postings';
import { FrontCodedVocabulary, VOCABULARY_BLOCK, type VocabularyParts } from './vocabulary';

/**
 * The cache of a postings-only lexical index (issue 32: without it every start at a million documents rebuilt it):
 * binary, because the index is typed arrays (a JSON text of them would pass V8's string limit), written and read in
 * slices, never as one Buffer. Layout: MAGIC, a u32 header length, the header (JSON: format, corpus fingerprint,
 * counts, average lengths), the sections (`sections` order: the typed arrays as they are in memory, the ids as byte
 * lengths + UTF-8, the front-coded vocabulary's three arrays as they are in memory: nothing to rebuild), then the sha256
 * of everything before it. Format 2: format 1 stored MiniSearch's radix tree node by node (refused now, and rebuilt).
 * Read back, a file whose header, size or sha256 is not what was written is refused (PostingsCacheRefused).
 */
const MAGIC = Buffer.from('RKLPOST1', 'latin1');
const FORMAT = 'ranklab-postings@2';
/** Bytes per write or read: big enough for few system calls, small beside the index. */
const SLICE = 16 * 1024 * 1024;
const HASH_BYTES = 32;
const MAX_HEADER = 1 << 20;
/** An id slot with no document (a removed number; never in a freshly built index). */
const NO_ID = 0xffffffff;

interface Header {
  format: string;
  endianness: string;
  corpus: string;
  fieldCount: number;
  documentCount: number;
  docSpace: number;
  terms: number;
  postings: number;
  avgLength: number[];
  idBytes: number;
  /** The vocabulary's front-coded bytes (its blocks and term numbers follow from `terms`), and its code unit width. */
  vocabularyBytes: number;
  wide: boolean;
}

/** A cache file that is not (exactly) what was written, or not for this corpus: its reason, for the note. */
export class PostingsCacheRefused extends Error {}

/** Section sizes in elements, with their element type, in file order. */
function sections(h: Header): Array<{ name: string; length: number; make: (n: number) => Int32Array | Uint32Array | Uint8Array }> {
  const lists = h.terms * h.fieldCount;
  const i32 = (n: number) => new Int32Array(n);
  const u32 = (n: number) => new Uint32Array(n);
  const u8 = (n: number) => new Uint8Array(n);
  return [
    { name: 'start', length: lists, make: i32 },
    { name: 'end', length: lists, make: i32 },
    { name: 'maxTf', length: lists, make: i32 },
    { name: 'minLength', length: lists, make: i32 },
    { name: 'docs', length: h.postings, make: i32 },
    { name: 'tfs', length: h.postings, make: u32 },
    ...Array.from({ length: h.fieldCount }, (_, f) => ({ name: `lengths${f}`, length: h.docSpace, make: i32 })),
    { name: 'idLengths', length: h.docSpace, make: u32 },
    { name: 'idBytes', length: h.idBytes, make: u8 },
    { name: 'vocabularyBytes', length: h.vocabularyBytes, make: u8 },
    { name: 'vocabularyBlocks', length: Math.ceil(h.terms / VOCABULARY_BLOCK), make: u32 },
    { name: 'termNumbers', length: h.terms, make: i32 },
  ];
}

const bytesOf = (h: Header) => sections(h).reduce((s, x) => s + x.length * (x.name.endsWith('Bytes') ? 1 : 4), 0);

/** Writes `postings` (of the corpus `corpus`) to `path` atomically; throws when it cannot (the caller reports it). */
export function writePostingsCacheFile(path: string, postings: Postings, corpus: string): void {
  if (!(postings.vocabulary instanceof FrontCodedVocabulary))
    throw new Error('internal: only postings built without MiniSearch are cached this way');
  const vocabulary = postings.vocabulary.toParts();
  const ids = postings.ids;
  const header: Header = {
    format: FORMAT,
    endianness: endianness(),
    corpus,
    fieldCount: postings.fieldCount,
    documentCount: postings.documentCount,
    docSpace: postings.docSpace,
    terms: postings.vocabulary.size,
    postings: postings.docs.length,
    avgLength: postings.avgLength,
    idBytes: ids.reduce((s, id) => s + (id === undefined ? 0 : Buffer.byteLength(id)), 0),
    vocabularyBytes: vocabulary.bytes.length,
    wide: vocabulary.wide,
  };
  writeFileAtomicBytes(path, withHash(chunks(header, postings, vocabulary)));
}

function* chunks(header: Header, p: Postings, vocabulary: VocabularyParts): Generator<Uint8Array, void, void> {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const size = Buffer.alloc(4);
  size.writeUInt32LE(json.length);
  yield MAGIC;
  yield size;
  yield json;
  for (const a of [p.start, p.end, p.maxTf, p.minLength, p.docs, p.tfs, ...p.lengths]) yield* slices(a);
  yield* strings(p.ids);
  for (const a of [vocabulary.bytes, vocabulary.blocks, vocabulary.numbers]) yield* slices(a);
}

/** A typed array's bytes, in slices (views: nothing copied). */
function* slices(a: Int32Array | Uint32Array | Uint8Array): Generator<Uint8Array, void, void> {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  for (let at = 0; at < bytes.length; at += SLICE) yield bytes.subarray(at, Math.min(bytes.length, at + SLICE));
}

/** Byte lengths (NO_ID for undefined), then the UTF-8, both in batches. */
function* strings(xs: ReadonlyArray<string | undefined>): Generator<Uint8Array, void, void> {
  const BATCH = 1 << 16;
  for (let i = 0; i < xs.length; i += BATCH) {
    const batch = xs.slice(i, i + BATCH);
    yield new Uint8Array(Uint32Array.from(batch, (s) => (s === undefined ? NO_ID : Buffer.byteLength(s))).buffer);
  }
  for (let i = 0; i < xs.length; i += BATCH) yield Buffer.from(xs.slice(i, i + BATCH).join(''), 'utf8');
}

function* withHash(parts: Iterable<Uint8Array>): Generator<Uint8Array, void, void> {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(part);
    yield part;
  }
  yield hash.digest();
}

/** What a cache file will take once read, known from its header before anything else is: see readPostingsCacheFile. */
export interface PostingsCacheShape {
  documentCount: number;
  terms: number;
  postings: number;
  /** The typed arrays' bytes (the file's sections). */
  arrayBytes: number;
}

/**
 * The postings `writePostingsCacheFile` wrote, for the corpus `corpus`; undefined when there is no file. Throws
 * PostingsCacheRefused (with the reason) for a file of another format or corpus, cut short, or whose bytes are not
 * the ones written (checksum), never returning what it holds then. `beforeLoad` sees the file's shape once its
 * header is checked and before anything is allocated (a load too large for the heap throws there, not in V8).
 */
export function readPostingsCacheFile(
  path: string,
  corpus: string,
  beforeLoad: (shape: PostingsCacheShape) => void = () => {},
): Postings | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  try {
    const size = fstatSync(fd).size;
    const hash = createHash('sha256');
    const read = (into: Uint8Array, at: number): void => {
      for (let done = 0; done < into.length; ) {
        const n = readSync(fd, into, done, Math.min(SLICE, into.length - done), at + done);
        if (n === 0) throw new PostingsCacheRefused('it is cut short');
        done += n;
      }
    };
    const head = Buffer.alloc(MAGIC.length + 4);
    if (size < head.length + HASH_BYTES) throw new PostingsCacheRefused(`it is cut short (${size} bytes)`);
    read(head, 0);
    if (!head.subarray(0, MAGIC.length).equals(MAGIC)) throw new PostingsCacheRefused('it is not a postings cache file');
    const headerLength = head.readUInt32LE(MAGIC.length);
    if (headerLength > MAX_HEADER || head.length + headerLength > size) throw new PostingsCacheRefused('its header is damaged');
    const json = Buffer.alloc(headerLength);
    read(json, head.length);
    hash.update(head).update(json);
    const header = parseHeader(json);
    if (header.format !== FORMAT) throw new PostingsCacheRefused(`it is in another format (${header.format})`);
    if (header.endianness !== endianness()) throw new PostingsCacheRefused('it was written on a machine of other byte order');
    const expected = head.length + headerLength + bytesOf(header) + HASH_BYTES;
    if (size !== expected) throw new PostingsCacheRefused(`its size is ${size} bytes, ${expected} expected (cut short or altered)`);
    if (header.corpus !== corpus) throw new PostingsCacheRefused('it holds another version of the corpus');
    beforeLoad({ documentCount: header.documentCount, terms: header.terms, postings: header.postings, arrayBytes: bytesOf(header) });
    let at = head.length + headerLength;
    const arrays = sections(header).map((s) => {
      const a = s.make(s.length);
      const bytes = new Uint8Array(a.buffer);
      for (let o = 0; o < bytes.length; o += SLICE) {
        const slice = bytes.subarray(o, Math.min(bytes.length, o + SLICE));
        read(slice, at + o);
        hash.update(slice);
      }
      at += bytes.length;
      return a;
    });
    const stored = Buffer.alloc(HASH_BYTES);
    read(stored, at);
    if (!hash.digest().equals(stored))
      throw new PostingsCacheRefused('its checksum does not match its content (altered after it was written)');
    return assemble(header, arrays);
  } finally {
    closeSync(fd);
  }
}

function parseHeader(json: Buffer): Header {
  let h: Header;
  try {
    h = JSON.parse(json.toString('utf8')) as Header;
  } catch {
    throw new PostingsCacheRefused('its header is damaged');
  }
  // Another format's header has other fields: said as such, before they are checked.
  if (typeof h?.format === 'string' && h.format !== FORMAT) throw new PostingsCacheRefused(`it is in another format (${h.format})`);
  const counts = [h?.fieldCount, h?.documentCount, h?.docSpace, h?.terms, h?.postings, h?.idBytes, h?.vocabularyBytes];
  const valid =
    typeof h === 'object' &&
    typeof h.format === 'string' &&
    typeof h.corpus === 'string' &&
    typeof h.wide === 'boolean' &&
    counts.every((n) => Number.isSafeInteger(n) && n >= 0) &&
    Array.isArray(h.avgLength) &&
    h.avgLength.length === h.fieldCount;
  if (!valid) throw new PostingsCacheRefused('its header is damaged');
  return h;
}

function assemble(h: Header, arrays: Array<Int32Array | Uint32Array | Uint8Array>): Postings {
  const [start, end, maxTf, minLength, docs, tfs] = arrays as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Uint32Array];
  const lengths = arrays.slice(6, 6 + h.fieldCount) as Int32Array[];
  const [idLengths, idBytes, vocabularyBytes, blocks, numbers] = arrays.slice(6 + h.fieldCount) as [
    Uint32Array,
    Uint8Array,
    Uint8Array,
    Uint32Array,
    Int32Array,
  ];
  const ids = decodeStrings(idLengths, idBytes);
  let vocabulary: FrontCodedVocabulary;
  try {
    vocabulary = new FrontCodedVocabulary({ bytes: vocabularyBytes, blocks, numbers, wide: h.wide });
  } catch (e) {
    throw new PostingsCacheRefused(`its vocabulary is damaged (${(e as Error).message})`);
  }
  return new Postings({
    fieldCount: h.fieldCount,
    termNumbers: vocabulary,
    vocabulary,
    start,
    end,
    maxTf,
    minLength,
    docs,
    tfs,
    lengths,
    avgLength: h.avgLength,
    ids,
    documentCount: h.documentCount,
    docSpace: h.docSpace,
  });
}

function decodeStrings(lengths: Uint32Array, bytes: Uint8Array): Array<string | undefined> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<string | undefined>(lengths.length);
  let at = 0;
  for (let i = 0; i < lengths.length; i++) {
    const n = lengths[i]!; // i < length
    if (n === NO_ID) continue;
    if (at + n > buf.length) throw new PostingsCacheRefused('its strings are damaged');
    out[i] = buf.toString('utf8', at, at + n);
    at += n;
  }
  return out;
}
