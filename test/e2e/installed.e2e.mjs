// What users install is what is tested (issue 27): the .vsix `npm run package` makes (RANKLAB_VSIX: an existing one)
// is installed with `code-server --install-extension` into a clean profile (fresh user-data and extensions dirs,
// the latter outside the repo; no extensionDevelopmentPath) → a copy of examples/food-search → palette
// "Ranklab: Run Evaluation" → runs saved in the copy's .ranklab/runs/ → palette "Ranklab: Open Dashboard" → its
// verdict. Fails on an error notification, and on "Cannot find module" or an activation error in any log of the
// session (extension host, the Ranklab output channel, code-server) or in a notification.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO, copyWorkspace, log, makeRunDir, withVSCode } from './driver.mjs';

const runDir = makeRunDir('installed');
const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);
fs.rmSync(path.join(workspace, '.ranklab'), { recursive: true, force: true });
const CONFIGS = fs
  .readdirSync(path.join(workspace, 'configs'))
  .filter((f) => f.endsWith('.rank.json'))
  .map((f) => f.replace(/\.rank\.json$/, ''));

let vsix = process.env.RANKLAB_VSIX;
if (!vsix) {
  vsix = path.join(runDir, 'ranklab.vsix');
  const made = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/vscode/package.ts', '--out', vsix], {
    cwd: REPO,
    stdio: 'inherit',
  });
  assert.equal(made.status, 0, 'npm run package failed');
}

// Module-loading and activation failures, wherever they are written.
const BROKEN =
  /Cannot find module|MODULE_NOT_FOUND|Activating extension '?ranklab\.ranklab'? failed|ranklab\.ranklab[^\n]*activation failed|Error: The module .*\.node/i;
function sessionLogs() {
  const files = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) files.push(p);
    }
  };
  walk(runDir);
  return files.map((f) => ({ file: path.relative(runDir, f), text: fs.readFileSync(f, 'utf8') }));
}
function assertNoBrokenModule() {
  for (const { file, text } of sessionLogs()) {
    const lines = text.split('\n');
    const at = lines.findIndex((l) => BROKEN.test(l));
    assert.equal(at, -1, `${file}: ${lines.slice(at, at + 2).join(' / ')}`); // the line after names the error
  }
}

await withVSCode({ name: 'installed', runDir, workspace, vsix }, async (vs) => {
  const page = vs.page;
  assert.ok(path.relative(REPO, vs.installedExtension).startsWith('..'), 'the installed extension lives outside the repo');
  for (const f of ['dist/extension.js', 'dist/worker.js', 'node_modules/hnswlib-node/build/Release/addon.node']) {
    assert.ok(fs.existsSync(path.join(vs.installedExtension, f)), `installed extension has ${f}`);
  }
  /** Error notifications showing now (toasts) or kept in the notification center. */
  const notices = async (scope) =>
    page.locator(`${scope} .notification-list-item`).evaluateAll((items) =>
      items.map((el) => ({
        error: !!el.querySelector('.notification-list-item-icon.codicon-error'),
        text: (el.querySelector('.notification-list-item-message')?.textContent ?? '').trim(),
      })),
    );
  const assertNoErrorNotice = async (scope) => {
    for (const n of await notices(scope)) {
      log(`notification: ${n.error ? 'ERROR ' : ''}${n.text}`);
      assert.ok(!n.error, `error notification: ${n.text}`);
      assert.doesNotMatch(n.text, BROKEN);
    }
  };

  // A step that times out (a command that never opens its picker, a dashboard never drawn) most often does because
  // a module failed to load: the logs and notifications are looked at first, so the failure names that cause.
  const diagnosed = async (step) => {
    try {
      return await step();
    } catch (e) {
      assertNoBrokenModule();
      await assertNoErrorNotice('.notifications-toasts');
      throw e;
    }
  };

  await diagnosed(async () => {
    // 1. Run Evaluation from the palette, as principal "No principal" (the default), every config of the example.
    await vs.runCommand('Ranklab: Run Evaluation');
    const principalRow = page.locator('.quick-input-list .monaco-list-row', { hasText: 'No principal' }).first();
    await principalRow.waitFor({ timeout: 60000 });
    await page.keyboard.press('Enter');
    // The evaluation ends with the dashboard showing its runs; the progress notification goes away.
    await vs.webviewText('#metrics-table', /title-boost-3[\s\S]*vector|vector[\s\S]*title-boost-3/, { timeoutMs: 180000 });
    await page
      .locator('.notifications-toasts .notification-toast', { hasText: 'Ranklab: evaluating' })
      .waitFor({ state: 'detached', timeout: 120000 });
    await assertNoErrorNotice('.notifications-toasts');

    // 2. Runs saved in the copy's .ranklab/runs/: one per config that can run offline (the HNSW one needs the addon).
    const runsDir = path.join(workspace, '.ranklab/runs');
    const saved = fs
      .readdirSync(runsDir)
      .filter((f) => /\.json(\.gz)?$/.test(f))
      .map((f) => {
        const bytes = fs.readFileSync(path.join(runsDir, f));
        return JSON.parse((f.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes).toString('utf8'));
      });
    const savedConfigs = new Set(saved.map((r) => r.provenance.config));
    log(`saved runs: ${[...savedConfigs].join(', ')} (configs: ${CONFIGS.join(', ')})`);
    for (const r of saved) assert.match(r.format, /^ranklab-run@\d+$/);
    for (const c of ['baseline', 'title-boost-3', 'vector', 'hybrid-rrf', 'regressing'])
      assert.ok(savedConfigs.has(c), `a run of ${c} was saved`);

    // 3. Open Dashboard from the palette: the verdict of baseline against another saved run.
    await vs.runCommand('View: Close All Editors', { timeoutMs: 8000 }).catch(() => log('could not close the editors'));
    await page
      .locator('iframe.webview.ready')
      .waitFor({ state: 'detached', timeout: 15000 })
      .catch(() => {});
    await vs.runCommand('Ranklab: Open Dashboard');
    const headline = await vs.webviewText('#verdict-headline', /\S+:/, { timeoutMs: 120000 });
    const verdict = await vs.webviewText('#verdict', /\d+ queries/);
    log('verdict:', verdict.replace(/\s+/g, ' ').slice(0, 300));
    const candidate = headline.replace(/^\W+/, '').split(':')[0].trim();
    assert.ok(savedConfigs.has(candidate) && candidate !== 'baseline', `the verdict names a saved candidate run: ${headline}`);
    assert.match(await vs.webviewText('#verdict-gates', /gate/), /gates? (pass|fail)|No gates/);
    assert.match(
      verdict,
      new RegExp(`${saved.find((r) => r.provenance.config === 'baseline').queries.length} queries`),
      'the verdict covers every query of the run',
    );
    await vs.screenshot('installed-dashboard');
  });

  // 4. No error notification in the whole session (the center keeps the ones whose toast went away), nothing
  //    failed to load: the Ranklab output channel says it activated, no log of the session names a missing module.
  await vs.runCommand('Notifications: Show Notifications', { timeoutMs: 15000 });
  await page.locator('.notifications-center').waitFor({ state: 'visible', timeout: 10000 });
  await assertNoErrorNotice('.notifications-center');
  const channel = sessionLogs()
    .filter((l) => /Ranklab\.log$/.test(l.file))
    .map((l) => l.text)
    .join('\n');
  assert.match(channel, /Ranklab [\d.]+ activated in [\d.]+ ms/, 'the Ranklab output channel reports its activation');
  assertNoBrokenModule();
  assert.doesNotMatch(await page.title(), /Extension Development Host/);
  fs.writeFileSync(path.join(runDir, 'ok'), 'ok\n');
  log('installed e2e: ASSERTIONS OK');
});
