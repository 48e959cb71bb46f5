// The panel table (src/extension/webviews/panels.ts) against the files it names: each row's app, style sheets and
// icon exist, every webview app has a row (else the build would leave it out), view types are unique, and
// package.json activates the extension for exactly the table's panels (a panel restored after a reload needs it).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { PANEL_LIST } from '../../../src/extension/webviews/panels';
import { requiredFiles } from '../../../scripts/vscode/vsix-files';
import { REPO_DIR } from '../../helpers/cli';

test('each row names an app, style sheets and an icon that exist, and a view type of its own', () => {
  for (const p of PANEL_LIST) {
    assert.ok(existsSync(join(REPO_DIR, 'webview', p.app, 'main.ts')), `${p.id}: webview/${p.app}/main.ts`);
    for (const m of [...p.styles, ...(p.icon ? [p.icon] : [])]) assert.ok(existsSync(join(REPO_DIR, 'media', m)), `${p.id}: media/${m}`);
    assert.equal(p.protocol.viewType, `ranklab.${p.id}`, `${p.id}: view type`);
  }
  assert.equal(new Set(PANEL_LIST.map((p) => p.protocol.viewType)).size, PANEL_LIST.length, 'view types are unique');
});

test("every webview app has its row (the build bundles the table's apps only)", () => {
  const apps = readdirSync(join(REPO_DIR, 'webview'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(REPO_DIR, 'webview', d.name, 'main.ts')))
    .map((d) => d.name);
  const rows = new Set(PANEL_LIST.map((p) => p.app));
  assert.deepEqual(
    apps.filter((a) => !rows.has(a)),
    [],
    'apps without a row in PANELS',
  );
});

test("package.json activates on exactly the table's panels", () => {
  const pkg = JSON.parse(readFileSync(join(REPO_DIR, 'package.json'), 'utf8')) as { activationEvents: string[] };
  const declared = pkg.activationEvents.filter((e) => e.startsWith('onWebviewPanel:')).sort();
  assert.deepEqual(declared, PANEL_LIST.map((p) => `onWebviewPanel:${p.protocol.viewType}`).sort());
});

test("the .vsix must hold each panel's script, style sheets and icon", () => {
  const required = requiredFiles(REPO_DIR);
  for (const p of PANEL_LIST) {
    for (const f of [`dist/webviews/${p.app}.js`, ...p.styles.map((s) => `media/${s}`), ...(p.icon ? [`media/${p.icon}`] : [])]) {
      assert.ok(required.includes(f), `${p.id}: ${f} required`);
    }
  }
});
