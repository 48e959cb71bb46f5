import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../..');
const SCRIPT = join(REPO, 'test', 'python', 'crosscheck.py');
/** Where .ci/run installs test/python/requirements.txt (git-ignored). */
export const VENV_PYTHON = join(REPO, '.venv-test', 'bin', 'python');

/**
 * The Python that has the cross-check packages (scipy, ir_measures): $RANKLAB_PYTHON, else .venv-test/.
 * Without one the cross-check tests are skipped with `skip` as the visible reason, unless
 * RANKLAB_REQUIRE_CROSSCHECK=1 (set by .ci/run), where a missing package is a failure.
 */
export function crosscheckPython(): { python?: string; versions?: Record<string, string>; skip?: string } {
  const python = process.env.RANKLAB_PYTHON || VENV_PYTHON;
  const setup = 'python3 -m venv .venv-test && .venv-test/bin/pip install -r test/python/requirements.txt (or set RANKLAB_PYTHON)';
  let reason: string;
  if (process.env.RANKLAB_PYTHON === undefined && !existsSync(python)) {
    reason = `no ${python}`;
  } else {
    const r = spawnSync(python, [SCRIPT, 'versions'], { encoding: 'utf8' });
    if (r.status === 0) return { python, versions: JSON.parse(r.stdout) };
    reason = `${python} cannot import the packages (${r.error ? r.error.message : r.stderr.trim().split('\n').pop()})`;
  }
  if (process.env.RANKLAB_REQUIRE_CROSSCHECK === '1')
    throw new Error(`Python cross-check required (RANKLAB_REQUIRE_CROSSCHECK=1) but ${reason}; set it up: ${setup}`);
  const skip = `Python cross-check skipped: ${reason}; to run it: ${setup}`;
  process.stderr.write(`${skip}\n`);
  return { skip };
}

/** Sends one request to test/python/crosscheck.py and returns its JSON answer. */
export function crosscheck<T>(python: string, request: unknown): T {
  const r = spawnSync(python, [SCRIPT], { input: JSON.stringify(request), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`crosscheck.py failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}
