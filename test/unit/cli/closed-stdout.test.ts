// A reader that stops early (`ranklab gate … | head -1`) closes stdout's pipe: the CLI must not die with an
// unhandled EPIPE stack, and its exit code must still be the command's (a failed gate stays 1 under pipefail).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const REPO = join(__dirname, '../../..');
const EXAMPLE = join(REPO, 'examples/food-search');

/** Runs the CLI from source with stdout's read end closed before the CLI can write anything. */
function runWithClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'src/cli/main.ts'), ...args], {
    cwd: REPO,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

test('a closed stdout keeps the exit code of a failing gate and prints no EPIPE stack', async () => {
  const { code, stderr } = await runWithClosedStdout(['gate', '--workspace', EXAMPLE, '--candidate', 'regressing']);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled|internal error/, stderr);
  assert.equal(code, 1, stderr);
});

test('a closed stdout ends a passing command with 0 and no stack', async () => {
  const { code, stderr } = await runWithClosedStdout(['--help']);
  assert.doesNotMatch(stderr, /EPIPE|Unhandled/, stderr);
  assert.equal(code, 0, stderr);
});
