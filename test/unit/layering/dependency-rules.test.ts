/**
 * The layering rules of .dependency-cruiser.cjs (run as `npm run lint:deps` in `npm test`) do fail on a violation:
 * dependency-cruiser is run, as that script runs it, over a small tree that breaks one rule per file pair, then over
 * one that keeps them all.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { REPO_DIR } from '../../helpers/cli';

const DEPCRUISE = join(REPO_DIR, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = join(REPO_DIR, '.dependency-cruiser.cjs');

/** Writes `files` (path -> source) into a fresh folder with a tsconfig, runs the rules over src/ and webview/. */
function cruise(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-layers-'));
  try {
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }),
    );
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const r = spawnSync(process.execPath, [DEPCRUISE, 'src', 'webview', '--config', CONFIG], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const leaf = 'export const x = 1;\n';

test('each layering rule fails on a file that breaks it, naming the rule and both files', () => {
  const r = cruise({
    // a low floor importing a higher one (acl is below session), type-only imports included
    'src/core/acl/rule.ts': "import type { View } from '../session/view';\nexport type V = View;\n",
    'src/core/session/view.ts': 'export interface View { id: string }\n',
    // a floor importing the use-case floor on top (an action is called by the faces, never by the core below it)
    'src/core/report/summary.ts': "import { act } from '../actions/act';\nexport const s = act;\n",
    'src/core/actions/act.ts': "import { view } from '../session/view';\nexport const act = view;\n",
    // vscode outside src/extension
    'src/core/util/editor.ts': "import * as vscode from 'vscode';\nexport const v = vscode;\n",
    // a folder of src/core without a floor
    'src/core/misc/thing.ts': "import { x } from '../util/leaf';\nexport const y = x;\n",
    'src/core/util/leaf.ts': leaf,
    // ... and an import into such a folder
    'src/core/util/uses-misc.ts': "import { y } from '../misc/thing';\nexport const z = y;\n",
    // the core importing the CLI, the extension importing the CLI, a protocol importing the core
    'src/core/report/print.ts': "import { out } from '../../cli/io';\nexport const p = out;\n",
    'src/cli/io.ts': 'export const out = 1;\n',
    'src/extension/run.ts': "import { out } from '../cli/io';\nexport const r = out;\n",
    'src/protocol/base.ts': "import { x } from '../core/util/leaf';\nexport const b = x;\n",
    // files that import each other
    'src/core/run/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
    'src/core/run/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    // the CLI importing the extension
    'src/cli/main.ts': "import { x } from '../extension/wiring';\nexport const y = x;\n",
    'src/extension/wiring.ts': leaf,
    // a vscode-free module of the extension (VSCODE_FREE) importing vscode, or a module of the extension that does
    'src/extension/dashboard/model.ts': "import * as vscode from 'vscode';\nexport const m = vscode;\n",
    'src/extension/judging/model.ts': "import { x } from '../wiring';\nexport const j = x;\n",
    // a webview app importing the core, and another app
    'webview/one/main.ts': "import { x } from '../../src/core/util/leaf';\nimport { z } from '../two/main';\nexport const y = x + z;\n",
    'webview/two/main.ts': 'export const z = 2;\n',
  });
  assert.notEqual(r.code, 0, r.out);
  const expected: [rule: string, from: string, to: string][] = [
    ['core-acl-imports-down', 'src/core/acl/rule.ts', 'src/core/session/view.ts'],
    ['core-report-imports-down', 'src/core/report/summary.ts', 'src/core/actions/act.ts'],
    ['vscode-only-in-extension', 'src/core/util/editor.ts', 'vscode'],
    ['core-folder-has-a-floor', 'src/core/misc/thing.ts', 'src/core/util/leaf.ts'],
    ['core-folder-has-a-floor-too', 'src/core/util/uses-misc.ts', 'src/core/misc/thing.ts'],
    ['core-imports-only-core', 'src/core/report/print.ts', 'src/cli/io.ts'],
    ['extension-never-imports-cli', 'src/extension/run.ts', 'src/cli/io.ts'],
    ['protocol-imports-only-protocol', 'src/protocol/base.ts', 'src/core/util/leaf.ts'],
    ['cli-never-imports-extension', 'src/cli/main.ts', 'src/extension/wiring.ts'],
    ['webview-imports-only-protocol', 'webview/one/main.ts', 'src/core/util/leaf.ts'],
    ['webview-app-imports-only-its-own-files', 'webview/one/main.ts', 'webview/two/main.ts'],
    ['extension-vscode-free-stays-so', 'src/extension/dashboard/model.ts', 'vscode'],
    ['extension-vscode-free-imports-vscode-free', 'src/extension/judging/model.ts', 'src/extension/wiring.ts'],
  ];
  for (const [rule, from, to] of expected) {
    assert.ok(r.out.includes(`error ${rule}: ${from} → ${to}`), `expected "${rule}: ${from} → ${to}" in:\n${r.out}`);
  }
  // a cycle is printed as the path round it, one file a line
  assert.match(r.out, /error no-circular: src\/core\/run\/a\.ts →\s+src\/core\/run\/b\.ts →\s+src\/core\/run\/a\.ts/);
});

test('a tree whose imports all go down passes', () => {
  const r = cruise({
    'src/core/util/leaf.ts': leaf,
    'src/core/acl/rule.ts': "import { x } from '../util/leaf';\nexport const rule = x;\n",
    'src/core/session/view.ts': "import { rule } from '../acl/rule';\nexport const view = rule;\n",
    'src/core/actions/act.ts': "import { view } from '../session/view';\nexport const act = view;\n",
    'src/cli/main.ts':
      "import { view } from '../core/session/view';\nimport { act } from '../core/actions/act';\nexport const y = [view, act];\n",
    'src/extension/wiring.ts':
      "import * as vscode from 'vscode';\nimport { view } from '../core/session/view';\nimport type { Msg } from '../protocol/base';\nexport const w: [unknown, number, Msg?] = [vscode, view];\n",
    'src/protocol/base.ts': 'export interface Msg { type: string }\n',
    // vscode-free modules: types from any module of the extension are fine (the real settings.ts shows it for
    // vscode's, which resolves only with node_modules), values from the vscode-free ones only; the panel table
    // imports its controllers dynamically (only the activated extension runs that import)
    'src/extension/settings.ts': 'export const s = 1;\n',
    'src/extension/sweep/model.ts':
      "import type { w } from '../wiring';\nimport { s } from '../settings';\nexport const m: [number, typeof w?] = [s];\n",
    'src/extension/sweep/panel.ts': "import * as vscode from 'vscode';\nimport { m } from './model';\nexport const p = [vscode, m];\n",
    'src/extension/webviews/panels.ts': "export const load = async () => (await import('../sweep/panel')).p;\n",
    'webview/ipc.ts': "import type { Msg } from '../src/protocol/base';\nexport const send = (m: Msg) => m;\n",
    'webview/one/main.ts': "import { send } from '../ipc';\nimport { part } from './part';\nexport const y = send({ type: part });\n",
    'webview/one/part.ts': "export const part = 'p';\n",
  });
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /no dependency violations found/);
});
