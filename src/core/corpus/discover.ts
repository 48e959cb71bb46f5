import { posix, win32 } from 'node:path';
import { globSync } from 'tinyglobby';
import { ALWAYS_EXCLUDED, type CorpusSettings } from './settings';

/** Corpus files matched by the settings' globs: paths relative to `root`, POSIX slashes, sorted (code-point order). */
export function listCorpusFiles(root: string, settings: Pick<CorpusSettings, 'include' | 'exclude'>): string[] {
  if (settings.include.length === 0) return [];
  const files = globSync(settings.include, {
    cwd: root,
    ignore: [...settings.exclude, ...ALWAYS_EXCLUDED],
    onlyFiles: true,
    dot: false,
    expandDirectories: false,
  });
  return [...new Set(files.map((f) => f.replace(/\\/g, '/')))].sort(compareStrings);
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * True when a glob can match files outside the folder it is relative to: an absolute pattern ("/x", "C:/x")
 * or one that still has a ".." segment after normalisation ("../x", "a/../../x", "{..,a}/x").
 * Conservative: a ".." inside braces is refused even where every alternative would stay inside.
 */
export function globLeavesRoot(pattern: string): boolean {
  if (posix.isAbsolute(pattern) || win32.isAbsolute(pattern)) return true;
  return posix
    .normalize(pattern.replace(/\\/g, '/'))
    .split(/[/{},()|]/)
    .some((segment) => segment === '..');
}
