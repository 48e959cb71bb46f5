import { type Hash, createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import MiniSearch, { type AsPlainObject, type Options } from 'minisearch';
import { writeFileAtomicChunks } from '../util/atomic-write';
import { ContentHashMismatch } from '../util/content-hash';
import { readHead } from '../util/text-file';
import { fileLines } from '../util/text-lines';

/**
 * The lexical index cache as JSON Lines: a header line, a line with MiniSearch's document tables, then one line
 * per term. Written and read line by line, because MiniSearch's toJSON as one string (the format before) hits
 * V8's ~512 MB string limit on large corpora, and then no cache was written at all (issue 32). The file's sha256
 * is kept in the meta file beside it (index-cache.ts) and checked as the file is read. A file in the older format
 * is not read: it is a miss, rebuilt and overwritten.
 */
const HEADER = '{"format":"ranklab-lexical-lines@1"}';

/** Writes the cache file; returns its sha256. */
export function writeLexicalCacheFile<T>(path: string, miniSearch: MiniSearch<T>): string {
  return writeFileAtomicChunks(path, lexicalCacheChunks(miniSearch));
}

/** MiniSearch 7's private tables, read as its toJSON reads them (a test checks the two agree). */
interface MiniSearchTables {
  _documentCount: number;
  _nextId: number;
  _documentIds: Map<number, unknown>;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _storedFields: Map<number, unknown>;
  _dirtCount: number;
  _index: Iterable<[string, Map<number, Map<number, number>>]>;
}

/**
 * What toJSON() gives, one term at a time: toJSON itself builds the whole index as plain objects first, a second
 * copy of the index in the heap (on a 50k corpus that copy, not the index, is what ran out of memory).
 */
function* lexicalCacheChunks<T>(miniSearch: MiniSearch<T>): Generator<string, void, void> {
  const m = miniSearch as unknown as MiniSearchTables;
  yield `${HEADER}\n`;
  const tables: Omit<AsPlainObject, 'index'> = {
    documentCount: m._documentCount,
    nextId: m._nextId,
    documentIds: Object.fromEntries(m._documentIds),
    fieldIds: m._fieldIds,
    fieldLength: Object.fromEntries(m._fieldLength),
    averageFieldLength: m._avgFieldLength,
    storedFields: Object.fromEntries(m._storedFields),
    dirtCount: m._dirtCount,
    serializationVersion: 2,
  };
  yield `${JSON.stringify(tables)}\n`;
  for (const [term, fieldIndex] of m._index) {
    const data: Record<string, Record<string, number>> = {};
    for (const [fieldId, freqs] of fieldIndex) data[fieldId] = Object.fromEntries(freqs);
    yield `${JSON.stringify([term, data])}\n`;
  }
}

/** A cache file in a format this version does not read (one JSON value, as toJSON wrote it before). */
export class OlderLexicalCacheFormat extends Error {
  constructor() {
    super('it is in an older format');
  }
}

/**
 * The plain object MiniSearch.loadJS takes, its `index` a lazy iterable over the file's term lines (loadJS and
 * loadJSAsync only iterate it), so the file's content is never all in the heap beside the index being loaded.
 * The bytes are hashed as they are read: when the last line has been taken and their sha256 is not `sha256`,
 * iterating throws ContentHashMismatch (the index loaded so far must then be dropped). Throws on a file that is
 * not one (the caller rebuilds; content-hash.ts sha256OfFile tells whether it was changed).
 */
export function readLexicalCacheFile(path: string, sha256: string): AsPlainObject {
  // the header is checked on the first bytes only: an older file is one line of the whole index
  if (!readHead(path).toString('utf8').startsWith(`${HEADER}\n`)) throw new OlderLexicalCacheFormat();
  const hash = createHash('sha256');
  const lines = fileLines(path, undefined, hash);
  try {
    lines.next(); // the header
    const tables = lines.next();
    if (tables.done) throw new Error(`${path}: cut short`);
    const js = JSON.parse(tables.value.text) as AsPlainObject;
    js.index = termLines(lines, hash, sha256) as unknown as AsPlainObject['index'];
    return js;
  } catch (e) {
    lines.return(); // closes the file
    throw e;
  }
}

function* termLines(
  lines: Generator<{ text: string }, void, void>,
  hash: Hash,
  expected: string,
): Generator<AsPlainObject['index'][number], void, void> {
  // for-of closes the file when the loop ends early (a broken line, or the loader stopping)
  for (const { text } of { [Symbol.iterator]: () => lines }) if (text !== '') yield JSON.parse(text);
  const actual = hash.digest('hex');
  if (actual !== expected) throw new ContentHashMismatch(expected, actual);
}

/** Cache files up to this size are loaded in one go; larger ones with loadJSAsync, which pauses between batches. */
const SYNC_LOAD_MAX_BYTES = 8 * 1024 * 1024;

export function loadsInOneGo(path: string): boolean {
  return statSync(path).size <= SYNC_LOAD_MAX_BYTES;
}

export type { AsPlainObject, Options };
