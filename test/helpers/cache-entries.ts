// A comparison-cache entry's JSON as a person (or a broken tool) would edit it: the text inside, and the entry written
// back with its stored hash kept (an edit) or without any (an entry from a Ranklab before hashes).
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';

/** The entry's JSON text (an entry is a gzip file). */
export function entryText(path: string): string {
  return gunzipSync(readFileSync(path)).toString('utf8');
}

/** Writes `text` as the entry's content, its gzip header (and the hash stored there) kept as it was. */
export function editEntry(path: string, text: string): void {
  const old = readFileSync(path);
  const headerEnd = old.indexOf(0, 10) + 1; // the fixed header, then the comment up to its NUL
  writeFileSync(path, Buffer.concat([old.subarray(0, headerEnd), gzipSync(text).subarray(10)]));
}

/** Writes `text` as the entry, plain gzip with no hash (as before entries were sealed). */
export function writeUnsealedEntry(path: string, text: string): void {
  writeFileSync(path, gzipSync(text));
}
