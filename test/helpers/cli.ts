import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const REPO_DIR = resolve(__dirname, '../..');
/** The built binary; RANKLAB_TEST_CLI runs the tests against another build (e.g. an older one, to see them fail there). */
export const CLI = process.env.RANKLAB_TEST_CLI ?? resolve(REPO_DIR, 'dist/cli.js');

/** Runs the bundled `ranklab` binary as a user would (npm test builds it first). */
export function ranklab(args: string[], opts: { cwd?: string; input?: string; nodeArgs?: string[] } = {}) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build`);
  const r = spawnSync(process.execPath, [...(opts.nodeArgs ?? []), CLI, ...args], {
    cwd: opts.cwd ?? REPO_DIR,
    encoding: 'utf8',
    input: opts.input,
    timeout: 600_000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
