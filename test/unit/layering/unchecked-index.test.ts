/**
 * The noUncheckedIndexedAccess ratchet (scripts/lint/unchecked-index.mjs, run by `npm run lint`) does fail: the script
 * is run, as `npm run lint` runs it, over a small tree with an unchecked indexed read in a covered folder, then over
 * one where the only such read is in a folder not covered yet.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { COVERED } from '../../../scripts/lint/unchecked-index.mjs';
import { REPO_DIR } from '../../helpers/cli';

const SCRIPT = join(REPO_DIR, 'scripts/lint/unchecked-index.mjs');
// A folder of the scratch tree only: the real ones are all on their way into COVERED.
const UNCOVERED = 'src/not-covered/';

/** Writes `files` (path -> source) with a tsconfig for src/ and webview/ into a fresh folder, runs the ratchet there. */
function ratchet(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-unchecked-'));
  try {
    const tsconfig = JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'ES2022', lib: ['ES2022'], types: [] } });
    for (const [path, text] of Object.entries({ 'src/tsconfig.json': tsconfig, 'webview/tsconfig.json': tsconfig, ...files })) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const r = spawnSync(process.execPath, [SCRIPT], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// An indexed read used as if it were always there: the error the option adds.
const unchecked = 'export function first(xs: string[]): string {\n  return xs[0];\n}\n';
const checked = "export function first(xs: string[]): string {\n  return xs[0] ?? '';\n}\n";

test('the covered list names folders of this tree, and leaves the one this test treats as not covered out', () => {
  assert.ok(COVERED.length > 0);
  for (const dir of COVERED) assert.match(dir, /^(src|webview)\/.*\/$|^webview\/$/, dir);
  assert.ok(!COVERED.some((dir) => UNCOVERED.startsWith(dir)), `${UNCOVERED} is covered now: pick another folder for this test`);
});

test('an unchecked indexed read in a covered folder fails, naming file:line; one elsewhere is only counted', () => {
  const covered = `${COVERED[0]}scratch.ts`;
  const r = ratchet({ [covered]: unchecked, [`${UNCOVERED}other.ts`]: unchecked, 'webview/ok.ts': checked });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`^${covered}:2:3 TS2322 `, 'm'));
  assert.doesNotMatch(r.stderr, /other\.ts/);
  assert.match(r.stdout, /: 1 in the \d+ covered folders; 1 left elsewhere in 1 files/);
});

test('a tree whose covered folders are clean passes, and still counts what is left elsewhere', () => {
  const r = ratchet({ [`${COVERED[0]}scratch.ts`]: checked, [`${UNCOVERED}other.ts`]: unchecked, 'webview/ok.ts': checked });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(r.stderr, '');
  assert.match(r.stdout, /: 0 in the \d+ covered folders; 1 left elsewhere in 1 files/);
});

test('a broken check (here: tsc finds no input in webview/) fails instead of passing', () => {
  const r = ratchet({ [`${COVERED[0]}scratch.ts`]: checked });
  assert.notEqual(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stderr, /tsc -p webview failed:[\s\S]*TS18003/);
});

test('a covered webview file is checked under the webview project too', (t) => {
  const web = COVERED.find((dir) => dir.startsWith('webview/'));
  if (!web) return t.skip('no folder of webview/ is covered yet');
  const r = ratchet({ [`${web}scratch.ts`]: unchecked, 'src/ok.ts': checked });
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`^${web}scratch\\.ts:2:3 `, 'm'));
});
