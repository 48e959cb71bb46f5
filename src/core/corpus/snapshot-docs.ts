import type { Document } from './document';

/**
 * A batch of documents of one file in the binary corpus snapshot. Why binary: at 1M documents, parsing one JSON
 * line per document was most of a 44 s warm start, nearly all of it the garbage collector copying every title and
 * body string out of the young generation. Here a batch's strings sit in two runs of text, decoded in one call
 * each (one large string, outside the young generation), and every document string is a slice of them.
 *
 * Layout (u32 little-endian): docs, tableWords, narrowBytes, wideBytes, jsonBytes; then the table (tableWords
 * u32); the narrow text (every string whose characters are all below U+0100, one byte each: latin1); the wide
 * text (the others, UTF-16LE: any string, lone surrogates included, comes back exactly); the JSON text (UTF-8).
 * Per document the table holds `flags | fieldCount << 8`, then, unless WHOLE, id, title, body and hash (each a
 * string: its length in UTF-16 units, with WIDE set when it is in the wide text), the source path when PATH (else
 * it is the file's path), the source line when LINE, name and value of every field, and the byte length of the
 * JSON of {meta, vector, invalidAcl} when EXTRA (meta when it has a key, the others when present). A document of
 * any other shape (a field value that is not a string, a key Ranklab does not know...) is one JSON text (WHOLE),
 * as the JSON Lines format kept every document.
 */

const LINE = 1;
const PATH = 2;
const EXTRA = 4;
const WHOLE = 8;
const WIDE = 0x80000000;
const HEAD_WORDS = 5;
const DOC_KEYS = new Set(['id', 'title', 'body', 'fields', 'meta', 'source', 'hash', 'vector', 'invalidAcl']);
/** A UTF-16 unit above latin1 (surrogates included: no `u` flag). */
const WIDE_CHAR = /[\u0100-\uffff]/;

export class DocBatchWriter {
  private table: number[] = [];
  private narrow: string[] = [];
  private wide: string[] = [];
  private json: string[] = [];
  /** UTF-16 units of strings in the batch: when to start the next one. */
  units = 0;
  docs = 0;

  constructor(private readonly filePath: string) {}

  add(doc: Document): void {
    this.docs++;
    const fields = doc.fields as Record<string, unknown>;
    const names = fastShape(doc) ? Object.keys(fields) : undefined;
    if (!names || names.length >= 1 << 24) {
      this.table.push(WHOLE);
      this.addJson(JSON.stringify(doc));
      return;
    }
    const line = doc.source.line;
    const extra: Record<string, unknown> = {};
    if (hasKey(doc.meta)) extra.meta = doc.meta;
    if (doc.vector !== undefined) extra.vector = doc.vector;
    if (doc.invalidAcl !== undefined) extra.invalidAcl = doc.invalidAcl;
    const hasExtra = hasKey(extra);
    const samePath = doc.source.path === this.filePath;
    this.table.push((line !== undefined ? LINE : 0) | (samePath ? 0 : PATH) | (hasExtra ? EXTRA : 0) | (names.length << 8));
    this.addString(doc.id);
    this.addString(doc.title);
    this.addString(doc.body);
    this.addString(doc.hash);
    if (!samePath) this.addString(doc.source.path);
    if (line !== undefined) this.table.push(line);
    for (const name of names) {
      this.addString(name);
      this.addString(fields[name] as string);
    }
    if (hasExtra) this.addJson(JSON.stringify(extra));
  }

  /** The batch's bytes; the writer is then empty. */
  take(): Buffer {
    const table = Buffer.from(Uint32Array.from(this.table).buffer);
    if (!LITTLE_ENDIAN) table.swap32();
    const narrow = Buffer.from(this.narrow.join(''), 'latin1');
    const wide = Buffer.from(this.wide.join(''), 'utf16le');
    const json = Buffer.from(this.json.join(''), 'utf8');
    const head = Buffer.alloc(HEAD_WORDS * 4);
    [this.docs, this.table.length, narrow.length, wide.length, json.length].forEach((v, i) => head.writeUInt32LE(v, i * 4));
    this.table = [];
    this.narrow = [];
    this.wide = [];
    this.json = [];
    this.units = this.docs = 0;
    return Buffer.concat([head, table, narrow, wide, json]);
  }

  private addString(s: string): void {
    this.units += s.length;
    if (WIDE_CHAR.test(s)) {
      this.wide.push(s);
      this.table.push((s.length | WIDE) >>> 0);
    } else {
      this.narrow.push(s);
      this.table.push(s.length);
    }
  }

  private addJson(text: string): void {
    const bytes = Buffer.byteLength(text);
    this.json.push(text);
    this.units += text.length;
    this.table.push(bytes);
  }
}

const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Whether the document has the shape the table holds (else it is kept as JSON). */
function fastShape(doc: Document): boolean {
  for (const key in doc) if (!DOC_KEYS.has(key)) return false;
  const { fields, meta, source } = doc as Partial<Document>;
  if (typeof doc.id !== 'string' || typeof doc.title !== 'string' || typeof doc.body !== 'string' || typeof doc.hash !== 'string')
    return false;
  if (!isPlainObject(fields) || !isPlainObject(meta) || !isPlainObject(source) || typeof source.path !== 'string') return false;
  for (const key in source) if (key !== 'path' && key !== 'line') return false;
  const line = source.line;
  if (line !== undefined && !(Number.isInteger(line) && line >= 0 && line < 2 ** 32)) return false;
  if ('line' in source && line === undefined) return false;
  for (const key in fields) if (key === '__proto__' || typeof fields[key] !== 'string') return false;
  return true;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function hasKey(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/** A batch that is not as written: the snapshot is not used. */
export class BrokenBatch extends Error {}

/** Appends the documents of one batch (`bytes`, from `DocBatchWriter.take`) to `into`; throws BrokenBatch. */
export function readDocBatch(bytes: Buffer, filePath: string, into: Document[]): void {
  if (bytes.length < HEAD_WORDS * 4) throw new BrokenBatch('batch too short');
  const u32 = (at: number) => bytes.readUInt32LE(at);
  const [docs, words, narrowBytes, wideBytes, jsonBytes] = [0, 1, 2, 3, 4].map((i) => u32(i * 4)) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const tableAt = HEAD_WORDS * 4;
  const narrowAt = tableAt + words * 4;
  const wideAt = narrowAt + narrowBytes;
  const jsonAt = wideAt + wideBytes;
  if (jsonAt + jsonBytes !== bytes.length || wideBytes % 2 !== 0) throw new BrokenBatch('batch sizes do not add up');
  const narrow = bytes.toString('latin1', narrowAt, wideAt);
  const wide = bytes.toString('utf16le', wideAt, jsonAt);
  let t = 0;
  let n = 0;
  let w = 0;
  let j = jsonAt;
  const word = (): number => {
    if (t >= words) throw new BrokenBatch('table too short');
    return u32(tableAt + 4 * t++);
  };
  /** The next string: a slice of the batch's text, or (`own`) a string of its own, for the short strings compared and hashed often. */
  const str = (own = false): string => {
    const v = word();
    const len = v & ~WIDE;
    if (v & WIDE) {
      if (w + len > wide.length) throw new BrokenBatch('wide text too short');
      return own ? bytes.toString('utf16le', wideAt + 2 * w, wideAt + 2 * (w += len)) : wide.slice(w, (w += len));
    }
    if (n + len > narrow.length) throw new BrokenBatch('narrow text too short');
    return own ? bytes.toString('latin1', narrowAt + n, narrowAt + (n += len)) : narrow.slice(n, (n += len));
  };
  const json = (): Record<string, unknown> => {
    const len = word();
    if (j + len > bytes.length) throw new BrokenBatch('JSON text too short');
    const v = JSON.parse(bytes.toString('utf8', j, (j += len))) as unknown;
    if (!isPlainObject(v)) throw new BrokenBatch('not a JSON object');
    return v;
  };
  for (let k = 0; k < docs; k++) {
    const flags = word();
    if (flags & WHOLE) {
      into.push(json() as unknown as Document);
      continue;
    }
    const id = str(true);
    const title = str();
    const body = str();
    const hash = str(true);
    const source: Document['source'] = { path: flags & PATH ? str() : filePath };
    if (flags & LINE) source.line = word();
    const fields: Record<string, string> = {};
    for (let f = flags >>> 8; f > 0; f--) {
      const name = str();
      if (name === '__proto__') throw new BrokenBatch('a field named __proto__ is kept as JSON');
      fields[name] = str();
    }
    const extra = flags & EXTRA ? json() : undefined;
    const doc: Document = { id, title, body, fields, meta: (extra?.meta as Document['meta']) ?? {}, source, hash };
    if (extra && 'vector' in extra) doc.vector = extra.vector as number[];
    if (extra && 'invalidAcl' in extra) doc.invalidAcl = extra.invalidAcl as string[];
    into.push(doc);
  }
  if (t !== words || n !== narrow.length || w !== wide.length || j !== bytes.length) throw new BrokenBatch('batch has bytes left over');
}
