// The Tune view in a real VS Code, on a copy of examples/food-search (the repo copy is never touched): open
// configs/title-boost-3.rank.json → palette "Ranklab: Tune Config…" → the sliders and the figures of the config's own
// settings → move the title boost's slider (input events on the range element) → once both stages of the move are in
// (its figures, then its statistics) the headline, the verdict, the metrics table and the per-query Δ chart have
// changed → "Apply to config" → the file on disk holds the new value and still parses → screenshots tune-*.png in a
// dark and a light theme.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, copyWorkspace, log, makeRunDir, withVSCode, visibleWebview } from './driver.mjs';

const runDir = makeRunDir('tune');
const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);
const file = path.join(workspace, 'configs/title-boost-3.rank.json');

await withVSCode({ name: 'tune', runDir, workspace, extensionDevelopmentPath: REPO }, async (vs) => {
  const page = vs.page;
  const { visible: wv, textOf } = visibleWebview(page, 90000);

  // 1. Open the config, then the Tune view from the palette (on the active editor's config).
  await page.locator('.part.statusbar').waitFor({ timeout: 60000 });
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input.input');
  await input.waitFor({ state: 'visible' });
  await input.fill('title-boost-3.rank.json');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'title-boost-3.rank.json' }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: 'title-boost-3.rank.json' }).waitFor();
  await vs.runCommand('Ranklab: Tune Config…');

  // 2. The sliders (min/max from the core), the fixed settings, the figures of the config's own settings.
  const slider = () => wv().locator('input[type="range"][data-path="lexical.fields.title"]');
  await slider().waitFor({ timeout: 90000 });
  assert.equal(await slider().inputValue(), '3');
  assert.ok((await wv().locator('input[type="range"]').count()) >= 5, 'boosts, k1, b, d, depth');
  assert.match(await textOf('#fixed summary', /not offered as sliders/), /setting/);
  // Both stages of the first move in (its statistics come after its figures).
  await textOf('#status', /computed in \d+ ms, statistics in \d+ ms/);
  const headline0 = await textOf('#headline', /vs \S+ 0\.\d{4}/);
  const verdict0 = await textOf('#verdict', /\S+ — /);
  const metrics0 = await wv().locator('#metrics tbody').textContent();
  const deltas0 = await wv().locator('#deltas').getAttribute('data-deltas');
  log('own settings:', headline0, '|', verdict0);
  await vs.screenshot('tune-dark');

  // 3. Move the title boost to 0 (body only): input events on the range element, as a drag makes them.
  await slider().evaluate((el) => {
    for (const v of ['2', '1', '0.5', '0']) {
      el.value = v;
      el.dispatchEvent(new Event('input', { bubbles: true }));
    }
  });
  assert.equal(await wv().locator('input[type="number"][data-path="lexical.fields.title"]').inputValue(), '0');
  await textOf('#status', /computed in \d+ ms, statistics in \d+ ms/);
  const headline1 = await textOf('#headline', new RegExp(`^(?!${headline0.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$)`));
  const verdict1 = await textOf('#verdict', /\S+ — /);
  const metrics1 = await wv().locator('#metrics tbody').textContent();
  const deltas1 = await wv().locator('#deltas').getAttribute('data-deltas');
  log('title 0:', headline1, '|', verdict1);
  assert.notEqual(headline1, headline0, 'the headline changed');
  assert.notEqual(verdict1, verdict0, 'the verdict changed');
  assert.notEqual(metrics1, metrics0, 'the metrics table changed');
  assert.notEqual(deltas1, deltas0, 'the per-query Δ chart changed');
  await vs.screenshot('tune-moved-dark');

  // 4. Apply to config: the file on disk holds the new value and still parses; the other settings are as they were.
  const before = JSON.parse(fs.readFileSync(file, 'utf8'));
  await wv().locator('#apply').click();
  await textOf('#written', /applied to .*title-boost-3\.rank\.json/);
  const after = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(after.lexical.fields.title, 0);
  assert.deepEqual({ ...after, lexical: { ...after.lexical, fields: { ...after.lexical.fields, title: 3 } } }, before);

  // 5. Light theme: the view follows (colours from --vscode-* variables).
  await vs.setColorTheme('Light Modern');
  const bodyClass = () => wv().locator('body').getAttribute('class');
  for (let i = 0; i < 100 && !/vscode-light/.test(await bodyClass()); i++) await page.waitForTimeout(200);
  assert.match(await bodyClass(), /vscode-light/);
  await vs.screenshot('tune-light');
});
