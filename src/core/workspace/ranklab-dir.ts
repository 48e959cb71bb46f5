import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * Why the state folder cannot be used, before anything is computed into it: a path on the way (the folder
 * itself, its cache/ or runs/, or a folder above) that exists but is not a folder. Undefined when usable.
 */
export function stateDirProblem(ws: Pick<Workspace, 'cacheDir' | 'runsDir'>): { path: string; message: string } | undefined {
  for (const dir of [ws.cacheDir, ws.runsDir]) {
    for (let p = dir; ; p = dirname(p)) {
      let isDir: boolean | undefined;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        isDir = undefined; // missing: created later
      }
      if (isDir === false) return { path: p, message: 'is a file, but Ranklab keeps its caches and runs in a folder there' };
      if (isDir || dirname(p) === p) break;
    }
  }
  return undefined;
}
