// A comparison-cache entry's JSON as a person (or a broken tool) would edit it: the text inside, and the entry written
// back with its old hash kept (an edit) or without any (an entry from a Ranklab before hashes).
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';

const HEAD = /^ranklab-sha256:[0-9a-f]{64}\n/;

/** The entry's JSON text. */
export function entryText(path: string): string {
  const bytes = readFileSync(path);
  const head = bytes.toString('latin1', 0, 80).match(HEAD)?.[0];
  if (!head) throw new Error(`${path}: not a sealed cache entry`);
  return gunzipSync(bytes.subarray(head.length)).toString('utf8');
}

/** Writes `text` as the entry's content, its stored hash kept as it was. */
export function editEntry(path: string, text: string): void {
  const head = readFileSync(path).toString('latin1', 0, 80).match(HEAD)![0];
  writeFileSync(path, Buffer.concat([Buffer.from(head, 'latin1'), gzipSync(text)]));
}

/** Writes `text` as the entry, gzipped with no hash before it (as before entries were sealed). */
export function writeUnsealedEntry(path: string, text: string): void {
  writeFileSync(path, gzipSync(text));
}
