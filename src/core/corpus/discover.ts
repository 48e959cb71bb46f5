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
