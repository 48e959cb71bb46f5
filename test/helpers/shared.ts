// The real IR collections (adi, cacm, cisi, cranfield, lisa, med: BEIR layout, a BM25 run and trec_eval's output on
// it) that the cross-checks read, from the folder RANKLAB_COLLECTIONS names (e.g. ../shared/collections; .ci/run
// sets it). The only place the variable is read. Unset, those tests are skipped with COLLECTIONS_SKIP's line, and
// nothing else in the tests needs a folder beside the clone (models: tiny-models.ts; data: synthetic-collection.ts).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const COLLECTIONS = ['adi', 'cacm', 'cisi', 'cranfield', 'lisa', 'med'];

const given = process.env.RANKLAB_COLLECTIONS;
export const COLLECTIONS_DIR: string | undefined = given ? resolve(given) : undefined;

/** The `skip` option of a test that reads a real collection: false when the folder is there, else what to set. */
export const COLLECTIONS_SKIP: string | false = !COLLECTIONS_DIR
  ? 'set RANKLAB_COLLECTIONS=…/collections to run the cross-checks against real IR collections'
  : !existsSync(COLLECTIONS_DIR)
    ? `RANKLAB_COLLECTIONS=${given}: no such folder (${COLLECTIONS_DIR})`
    : false;

/** A real collection's folder, or a file in it; for tests skipped under COLLECTIONS_SKIP only. */
export function collectionPath(name: string, ...file: string[]): string {
  if (COLLECTIONS_SKIP) throw new Error(COLLECTIONS_SKIP);
  return join(COLLECTIONS_DIR!, name, ...file);
}
