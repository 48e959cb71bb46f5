// "Ranklab: Sweep Parameter" in a real VS Code, on a copy of examples/food-search (the repo copy is never touched):
// open configs/baseline.rank.json → palette "Ranklab: Sweep Parameter" → pick lexical.fields.title → accept a
// range → the sweep view shows the best combination and the curve (tune, holdout, CI band) → clicking a point
// shows its per-query diff against BASE → "Save as config" writes baseline-sweep-1.rank.json (a new file) →
// screenshots sweep-*.png in test-results/. Then two settings through the quick picks (title, "Add a second setting
// (heatmap)…", body): the heatmap's cells against `ranklab sweep --format json`, a cell's diff, saved as a config.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, copyWorkspace, log, makeRunDir, withVSCode, visibleWebview } from './driver.mjs';

const runDir = makeRunDir('sweep');
const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);
const cli = (args) => {
  const r = spawnSync(process.execPath, [path.join(REPO, 'dist/cli.js'), ...args, '--workspace', workspace], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
};

await withVSCode({ name: 'sweep', runDir, workspace, extensionDevelopmentPath: REPO }, async (vs) => {
  fs.rmSync(path.join(workspace, '.ranklab'), { recursive: true, force: true });
  const page = vs.page;
  const { visible: wv, textOf } = visibleWebview(page, 90000);

  const quickInput = page.locator('.quick-input-widget input.input');
  /** Waits for a quick pick row with this text, moves to it with the arrow keys and takes it with Enter (no mouse). */
  const pickItem = async (text) => {
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: text }).first().waitFor({ timeout: 30000 });
    for (let i = 0; i < 50; i++) {
      const focused =
        (await page
          .locator('.quick-input-list .monaco-list-row.focused')
          .first()
          .textContent()
          .catch(() => '')) ?? '';
      if (focused.includes(text)) return page.keyboard.press('Enter');
      await page.keyboard.press('ArrowDown');
    }
    throw new Error(`quick pick: no row "${text}" reached with the keyboard`);
  };
  /** Replaces the input box's proposed value with `value` and accepts it. */
  const typeRange = async (value) => {
    await quickInput.waitFor({ state: 'visible' });
    await quickInput.fill(value);
    await page.keyboard.press('Enter');
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
  // One setting or two: the first item (this one setting) is taken with Enter.
  await pickItem('Sweep this one setting');

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

  // 5. Two settings from the palette → the heatmap: one cell per pair, each the tune score the CLI's sweep gives.
  // BASE back in front (the sweep view took the focus); its cursor is still on line 1.
  await page.locator('.tab', { hasText: 'baseline.rank.json' }).first().click();
  await page.locator('.tab.active', { hasText: 'baseline.rank.json' }).waitFor();
  await vs.runCommand('Ranklab: Sweep Parameter');
  await pickItem('lexical.fields.title');
  await typeRange('1,3');
  await pickItem('Add a second setting (heatmap)');
  await pickItem('lexical.fields.body');
  await typeRange('0.5,1,2');
  await textOf('#best', /Best on tune: lexical\.fields\.title=\S+, lexical\.fields\.body=/);
  const cells = wv().locator('#heatmap td[data-index]');
  await cells.first().waitFor({ timeout: 60000 });
  assert.equal(await cells.count(), 2 * 3, 'one cell per pair of values');
  const objective = (await textOf('h1', /^Sweep of baseline on \S+$/)).replace('Sweep of baseline on ', '');
  const sweep = JSON.parse(
    cli([
      'sweep',
      '--config',
      'baseline',
      '--objective',
      objective,
      '--vary',
      'lexical.fields.title=1,3',
      '--vary',
      'lexical.fields.body=0.5,1,2',
      '--top',
      '6',
      '--format',
      'json',
    ]),
  );
  assert.equal(sweep.results.length, 6);
  const rowValues = await wv().locator('#heatmap tbody th').allTextContents();
  const colValues = (await wv().locator('#heatmap thead th').allTextContents()).slice(1);
  assert.deepEqual(rowValues, ['1', '3']);
  assert.deepEqual(colValues, ['0.5', '1', '2']);
  for (const [r, title] of rowValues.entries()) {
    const shown = await wv()
      .locator(`#heatmap tbody tr:nth-child(${r + 1}) td`)
      .allTextContents();
    const expected = colValues.map((body) =>
      sweep.results
        .find((x) => x.values['lexical.fields.title'] === Number(title) && x.values['lexical.fields.body'] === Number(body))
        .tune.toFixed(4),
    );
    assert.deepEqual(shown, expected, `title=${title}: the tune scores of the CLI's sweep`);
  }
  // A cell → its per-query diff against BASE; "Save as config" writes that pair.
  const cell = wv().locator('#heatmap tbody tr:nth-child(2) td:nth-child(2)'); // title=3, body=0.5
  await cell.click();
  const cellTitle = await textOf('#detail-title', /lexical\.fields\.title=3.*lexical\.fields\.body=0\.5/);
  log('heatmap cell:', cellTitle);
  assert.ok((await wv().locator('#diff tbody tr').count()) > 0, 'title 3, body 0.5 changes some queries');
  await vs.screenshot('sweep-heatmap-dark');
  await wv().locator('#save-config').click();
  await textOf('#save-status', /saved .*baseline-sweep-2\.rank\.json/);
  const pair = JSON.parse(fs.readFileSync(path.join(workspace, 'configs/baseline-sweep-2.rank.json'), 'utf8'));
  assert.deepEqual(pair.lexical.fields, { title: 3, body: 0.5 });
  await vs.screenshot('sweep-heatmap-saved-dark');
  // The cells are reachable by keyboard too: focus one (title=1, body=2), Enter.
  await wv().locator('#heatmap tbody tr:nth-child(1) td:nth-child(4)').focus();
  await page.keyboard.press('Enter');
  await textOf('#detail-title', /lexical\.fields\.title=1, lexical\.fields\.body=2$/);
});
