// "Ranklab: Sweep Parameter" in a real VS Code, on a copy of examples/food-search (the repo copy is never touched):
// open configs/baseline.rank.json → palette "Ranklab: Sweep Parameter" → pick lexical.fields.title → accept a
// range → the sweep view shows the best combination and the curve (tune, holdout, CI band) → clicking a point
// shows its per-query diff against BASE → "Save as config" writes baseline-sweep-1.rank.json (a new file) →
// screenshots sweep-*.png in test-results/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, copyWorkspace, log, makeRunDir, withVSCode } from './driver.mjs';

const runDir = makeRunDir('sweep');
const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);

await withVSCode({ name: 'sweep', runDir, workspace, extensionDevelopmentPath: REPO }, async (vs) => {
  fs.rmSync(path.join(workspace, '.ranklab'), { recursive: true, force: true });
  const page = vs.page;
  const wv = () => page.frameLocator('iframe.webview.ready >> visible=true').frameLocator('#active-frame');
  const textOf = async (selector, re, timeoutMs = 90000) => {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = (await wv().locator(selector).first().textContent({ timeout: 2000 }).catch(() => '')) ?? '';
      if (re.test(last)) return last;
      await page.waitForTimeout(300);
    }
    throw new Error(`${selector}: ${JSON.stringify(last.slice(0, 300))} never matched ${re}`);
  };

  // 1. Open BASE in the editor.
  await page.locator('.part.statusbar').waitFor({ timeout: 60000 });
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible' });
  await input.fill('baseline.rank.json');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'baseline.rank.json' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: 'baseline.rank.json' }).waitFor();

  // 2. Palette → pick the setting (the cursor is on line 1, no setting) → accept the proposed range.
  await vs.runCommand('Ranklab: Sweep Parameter');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'lexical.fields.title' }).first();
  await row.waitFor({ timeout: 30000 });
  await row.click();
  await page.locator('.quick-input-widget input.input').waitFor({ state: 'visible' });
  const range = await page.locator('.quick-input-widget input.input').inputValue();
  log('proposed range:', range);
  assert.match(range, /^0\.\.2:0\.2$/);
  await page.keyboard.press('Enter');

  // 3. The sweep view: best combination, the curve, one button per point.
  const best = await textOf('#best', /Best on tune: lexical\.fields\.title=/);
  log('best:', best);
  assert.match(await textOf('#split', /71 tune \/ 23 holdout queries/), /BASE scores 0\.\d{4} tune/);
  assert.equal(await wv().locator('#curve').count(), 1, 'the curve is drawn');
  const points = await wv().locator('#points button').count();
  assert.equal(points, 11, 'one point per value of 0..2:0.2');
  await vs.screenshot('sweep-curve-dark');

  // 4. A point → its per-query diff against BASE; save it as a config.
  await wv().locator('#points button[data-index="9"]').click();
  const title = await textOf('#detail-title', /lexical\.fields\.title=/);
  log('detail:', title);
  const rows = await wv().locator('#diff tbody tr').count();
  log('changed queries:', rows);
  await wv().locator('#save-config').click();
  await textOf('#save-status', /saved .*baseline-sweep-1\.rank\.json/);
  const saved = JSON.parse(fs.readFileSync(path.join(workspace, 'configs/baseline-sweep-1.rank.json'), 'utf8'));
  assert.equal(saved.lexical.fields.title, Number(title.match(/title=([\d.]+)/)[1]));
  await vs.screenshot('sweep-detail-dark');
});
