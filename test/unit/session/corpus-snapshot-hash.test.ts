// The corpus snapshot (binary, hashed as it is streamed) through a session: reused when untouched; a document
// edited on disk is caught by the hash, logged, and every corpus file is read again (the edit never reaches
// the corpus). Uses the bundled example workspace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';

function open(ws: string, state: string): { session: RanklabSession; log: string[] } {
  const log: string[] = [];
  return { session: RanklabSession.open(ws, { stateDir: state, log: (m) => log.push(m) }), log };
}

const readCount = (log: string[]) => Number(/corpus: \d+ documents from \d+ files \((\d+) read/.exec(log.join('\n'))?.[1]);

test('an edited line of the corpus snapshot is caught by its content hash: logged, every file read again, the edit not used', () => {
  const ws = copyOfExample();
  const state = tempDir();
  const first = open(ws, state);
  const docs = first.session.corpus().docs;
  const files = readCount(first.log);
  assert.ok(files > 0);

  const again = open(ws, state);
  assert.deepEqual(again.session.corpus().docs, docs);
  assert.equal(readCount(again.log), 0, 'untouched: every file comes from the snapshot (the control)');

  const path = join(again.session.workspace.cacheDir, 'corpus-snapshot.json');
  const bytes = readFileSync(path);
  // the snapshot keeps a title as its latin1 bytes: one letter of it changed
  const at = bytes.indexOf(Buffer.from(docs[0].title, 'latin1'));
  assert.ok(docs[0].title && at >= 0);
  const changed = Buffer.from(bytes);
  changed[at] = changed[at] === 0x58 ? 0x59 : 0x58;
  writeFileSync(path, changed);

  const edited = open(ws, state);
  assert.deepEqual(edited.session.corpus().docs, docs, "the corpus is the files' own");
  assert.equal(readCount(edited.log), files, 'every file read again');
  assert.match(edited.log.join('\n'), /corpus snapshot not reused: its content hash does not match/);
  assert.deepEqual(readFileSync(path), bytes, 'the snapshot is written again, as it was before the edit');
});

test('an unchanged corpus does not rewrite its snapshot; a corpus file touched on disk does', () => {
  const ws = copyOfExample();
  const state = tempDir();
  const first = open(ws, state);
  first.session.corpus();
  const path = join(first.session.workspace.cacheDir, 'corpus-snapshot.json');
  const written = statSync(path);

  const again = open(ws, state);
  again.session.corpus();
  assert.equal(readCount(again.log), 0, 'every file from the snapshot');
  const after = statSync(path);
  // Written files are replaced atomically (a new inode): the same inode and mtime mean it was not written.
  assert.deepEqual([after.ino, after.mtimeMs], [written.ino, written.mtimeMs], 'not rewritten');

  const corpusFile = join(ws, again.session.corpus().docs[0].source.path);
  const later = new Date(Date.now() + 60_000);
  utimesSync(corpusFile, later, later);
  const touched = open(ws, state);
  touched.session.corpus();
  assert.equal(readCount(touched.log), 1, 'the touched file is read again');
  assert.notEqual(statSync(path).ino, written.ino, 'the snapshot is written again (its entry has the new mtime)');
});
