import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Workspace } from './load';

/**
 * Creates the state folder (root/.ranklab, or wherever cacheDir/runsDir were moved) with its cache and
 * runs folders, and a `.gitignore` containing `*` so our caches never end up in the user's repository.
 * An existing .gitignore is left alone.
 */
export function ensureRanklabDir(ws: Pick<Workspace, 'root' | 'cacheDir' | 'runsDir'>): string {
  const dir = dirname(ws.cacheDir);
  mkdirSync(ws.cacheDir, { recursive: true });
  mkdirSync(ws.runsDir, { recursive: true });
  const ignore = join(dir, '.gitignore');
  if (!existsSync(ignore)) {
    try {
      writeFileSync(ignore, '*\n', { flag: 'wx' }); // wx: never overwrite one written meanwhile
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return dir;
}
