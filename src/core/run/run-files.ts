/**
 * The names of saved-run files: the one place that knows them. A run's id is its file name without the extension;
 * runs are written as `<id>.json.gz` (gzipped JSON, `ranklab-run@4`), and `<id>.json` files (`@1`–`@3`, the `@3` ones
 * gzipped too) are still runs everywhere: listed, loaded, compared, pinned and pruned.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The extension of the runs written now. */
export const RUN_FILE_EXTENSION = '.json.gz';
const EXTENSIONS = [RUN_FILE_EXTENSION, '.json'] as const;

/** Glob of the run files in a folder (file watchers). */
export const RUN_FILE_GLOB = '*.{json,json.gz}';

/** Whether a file name (not a path) is a saved run's. */
export function isRunFile(name: string): boolean {
  return runIdOfFile(name) !== undefined;
}

/** The run id of a file name (without folder), or undefined when it is not a run file's name. */
export function runIdOfFile(name: string): string | undefined {
  if (name.startsWith('.')) return undefined; // the index, pins, temporary files
  const ext = EXTENSIONS.find((e) => name.endsWith(e) && name.length > e.length);
  return ext && name.slice(0, -ext.length);
}

/** The file name a new run with this id is written to. */
export function runFileName(id: string): string {
  return id + RUN_FILE_EXTENSION;
}

/** The file of the saved run `id` in `dir` (a plain id, no folder), or undefined when there is none. */
export function existingRunFile(dir: string, id: string): string | undefined {
  if (/[\\/]/.test(id) || !isRunFile(runFileName(id))) return undefined;
  const path = runFilePath(dir, id);
  return existsSync(path) ? path : undefined;
}

/** The path of the run `id` in `dir`: its `.json.gz` file, or its older `.json` one when only that exists. */
export function runFilePath(dir: string, id: string): string {
  const current = join(dir, runFileName(id));
  const older = join(dir, `${id}.json`);
  return !existsSync(current) && existsSync(older) ? older : current;
}
