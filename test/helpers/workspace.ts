import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const EXAMPLE_DIR = resolve(__dirname, '../../examples/food-search');

/** A private copy of the example workspace, so tests may write caches, runs and edits without touching the repo. */
export function copyOfExample(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'ranklab-example-')), 'food-search');
  cpSync(EXAMPLE_DIR, dir, { recursive: true, filter: (src) => !src.includes('/.ranklab') });
  return dir;
}

export function tempDir(prefix = 'ranklab-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
