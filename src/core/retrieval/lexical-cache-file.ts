import { statSync } from 'node:fs';
import MiniSearch, { type AsPlainObject, type Options } from 'minisearch';
import { writeFileAtomicChunks } from '../util/atomic-write';
import { readHead } from '../util/text-file';
import { fileLines } from '../util/text-lines';

/**
 * The lexical index cache as JSON Lines: a header line, a line with MiniSearch's document tables, then one line
 * per term. Written and read line by line, because MiniSearch's toJSON as one string (the format before) hits
 * V8's ~512 MB string limit on large corpora, and then no cache was written at all (issue 32). A file in the
 * older format is not read: it is a miss, rebuilt and overwritten.
 */
const HEADER = '{"format":"ranklab-lexical-lines@1"}';

export function writeLexicalCacheFile<T>(path: string, miniSearch: MiniSearch<T>): void {
  writeFileAtomicChunks(path, lexicalCacheChunks(miniSearch));
}

function* lexicalCacheChunks<T>(miniSearch: MiniSearch<T>): Generator<string, void, void> {
  const { index, ...tables } = miniSearch.toJSON();
  yield `${HEADER}\n`;
  yield `${JSON.stringify(tables)}\n`;
  for (const entry of index) yield `${JSON.stringify(entry)}\n`;
}

/** True when `path` starts like a file `writeLexicalCacheFile` wrote (an older cache is then not parsed at all). */
export function isLexicalCacheFile(path: string): boolean {
  return readHead(path).toString('utf8').startsWith(HEADER);
}

/** The plain object MiniSearch.loadJS takes; throws on a file that is not one (the caller rebuilds). */
export function readLexicalCacheFile(path: string): AsPlainObject {
  const lines = fileLines(path);
  const header = lines.next();
  if (header.done || header.value.text !== HEADER) throw new Error(`${path}: not a lexical cache file`);
  const tables = lines.next();
  if (tables.done) throw new Error(`${path}: cut short`);
  const js = JSON.parse(tables.value.text) as AsPlainObject;
  js.index = [];
  for (const { text } of { [Symbol.iterator]: () => lines }) if (text !== '') js.index.push(JSON.parse(text));
  return js;
}

/** Cache files up to this size are loaded in one go; larger ones with loadJSAsync, which pauses between batches. */
const SYNC_LOAD_MAX_BYTES = 8 * 1024 * 1024;

export function loadsInOneGo(path: string): boolean {
  return statSync(path).size <= SYNC_LOAD_MAX_BYTES;
}

export type { AsPlainObject, Options };
