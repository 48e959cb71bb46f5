// Judging in a real VS Code, on a copy of examples/food-search (the repo copy is never touched) with one added
// document whose title and text hold <script> and onerror= markup:
// the dashboard shows judged@10 → palette "Ranklab: Judge Unjudged Documents" → three pairs graded with the keys
// 3, 0, 2 → judgments/golden.json changed on disk (those three judgments added, every other judgment as it was)
// → the dashboard's judged@10 rose → the dashboard's "judge" action on the malicious document of q01 opens the
// judging view at that pair, which shows its markup as text (no element, no alert) → help (?) → screenshots.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, copyWorkspace, log, makeRunDir, withVSCode, visibleWebview } from './driver.mjs';

const runDir = makeRunDir('judging');
const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);
const EVIL_TITLE = 'Kopi gayo <script>alert(1)</script> tasting';
const EVIL_TEXT = 'Kopi gayo notes <img src=x onerror=alert(2)> from the gayo highlands: kopi gayo is bright.';
const goldenPath = path.join(workspace, 'judgments/golden.json');

function prepare() {
  fs.rmSync(path.join(workspace, '.ranklab'), { recursive: true, force: true });
  fs.writeFileSync(
    path.join(workspace, 'corpus/brewing/zz-evil.md'),
    `---\nid: evil-gayo\ntitle: "${EVIL_TITLE}"\ntags: [brewing]\npublic: true\n---\n\n${EVIL_TEXT}\n`,
  );
  fs.copyFileSync(path.join(REPO, 'examples/food-search/judgments/golden.json'), goldenPath);
  // Saved runs of the two configs the dashboard compares (what "Run Evaluation" would leave).
  execFileSync(
    process.execPath,
    [path.join(REPO, 'dist/cli.js'), 'eval', '--workspace', workspace, '--config', 'baseline', '--config', 'title-boost-3'],
    { stdio: 'pipe' },
  );
}

/** qid → doc → grade of a golden set. */
const gradesOf = (text) => Object.fromEntries(JSON.parse(text).map((item) => [item.id, { ...item.judgments }]));

await withVSCode(
  { name: 'judging', runDir, workspace, extensionDevelopmentPath: REPO },
  async (vs) => {
    prepare();
    const original = fs.readFileSync(goldenPath, 'utf8');
    const page = vs.page;
    const { visible, textOf } = visibleWebview(page);
    const judgedOnDashboard = async () => {
      const t = await textOf('#comparison', /judged@10: [^—]*— baseline \d\.\d{3}, candidate \d\.\d{3}/);
      const m = t.match(/judged@10: [^—]*— baseline (\d\.\d{3}), candidate (\d\.\d{3})/);
      return { baseline: Number(m[1]), candidate: Number(m[2]) };
    };

    // 1. The dashboard compares the two saved runs; judged@10 as it is.
    await vs.runCommand('Ranklab: Open Dashboard');
    await textOf('#comparison', /Comparison in full: title-boost-3 vs baseline/);
    const before = await judgedOnDashboard();
    log('judged@10 before:', before);

    // 2. Palette → the judging view on the pool of the dashboard's two configs.
    await vs.runCommand('Ranklab: Judge Unjudged Documents');
    const pool = await textOf('#pool', /Pool: the top 10 of baseline, title-boost-3/);
    assert.match(pool, /grades go to judgments\/golden\.json/);
    assert.match(await textOf('#progress', /\d+ graded/), /^0 \/ \d+ graded/);
    await vs.screenshot('judging-view-dark');

    // 3. Grade three pairs with the keyboard: 3, 0, 2. Each key waits for the next pair before the next key.
    const graded = [];
    await visible().locator('#query-text').click(); // focus inside the webview
    for (const key of ['3', '0', '2']) {
      const qid = (await textOf('#query h2', /Query q\d+/)).match(/q\d+/)[0];
      const docId = (await textOf('#doc-id', /\S/)).trim();
      graded.push({ qid, docId, grade: Number(key) });
      await page.keyboard.press(key);
      await textOf(
        '#status',
        new RegExp(`${qid} ${docId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: graded ${key} in judgments/golden\\.json`),
      );
      log(`graded ${qid} ${docId} ${key}`);
    }
    assert.match(await textOf('#progress', /^3 \//), /^3 \/ \d+ graded/);

    // 4. On disk: exactly those three judgments were added; every other one is as it was.
    const now = fs.readFileSync(goldenPath, 'utf8');
    const expected = gradesOf(original);
    for (const g of graded) expected[g.qid][g.docId] = g.grade;
    assert.deepEqual(gradesOf(now), expected);
    const oldLines = original.split('\n');
    const newLines = now.split('\n');
    assert.equal(newLines.length, oldLines.length + 3, 'three lines added');
    const kept = oldLines.filter((l) => newLines.includes(l) || newLines.includes(`${l},`)).length;
    assert.equal(kept, oldLines.length, 'every old line is still there (a neighbour may have gained its comma)');

    // 5. The dashboard's judged@10 rose (the judgments file watcher reloads them and the comparison is figured again).
    await vs.runCommand('Ranklab: Open Dashboard');
    let after = await judgedOnDashboard();
    for (let i = 0; i < 60 && after.baseline <= before.baseline && after.candidate <= before.candidate; i++) {
      await page.waitForTimeout(500);
      after = await judgedOnDashboard();
    }
    log('judged@10 after:', after);
    assert.ok(
      after.baseline > before.baseline || after.candidate > before.candidate,
      `judged@10 ${JSON.stringify(before)} → ${JSON.stringify(after)}`,
    );
    await vs.screenshot('judging-dashboard-after');

    // 6. The dashboard's "judge" action on q01's malicious, unjudged document opens the judging view at that pair.
    await visible().locator('#pq-text').fill('q01'); // the table is windowed: filter to the query first
    await visible().locator('#per-query-table .vt-row[data-qid="q01"]').click();
    await textOf('#query-detail h2', /Query q01/);
    const judge = visible().locator('#query-detail button.judge-action[data-doc-id="evil-gayo"]').first();
    await judge.waitFor({ timeout: 30000 });
    await judge.scrollIntoViewIfNeeded();
    await vs.screenshot('judging-dashboard-judge-action');
    await judge.click();
    const docTitle = await textOf('#doc-title', /script/);
    assert.equal(docTitle, EVIL_TITLE, 'the title is shown as its characters');
    assert.match(await textOf('#passage', /onerror/), /<img src=x onerror=alert\(2\)>/);
    assert.equal(await visible().locator('#document script').count(), 0, 'no <script> element from corpus text');
    assert.equal(await visible().locator('#document img').count(), 0, 'no <img> element from corpus text');
    assert.ok((await visible().locator('#doc-title mark').count()) >= 2, 'the query terms kopi and gayo are marked');
    assert.match(await textOf('#doc-id', /evil/), /evil-gayo/);
    await page.waitForTimeout(1500); // time for a (wrongly) injected handler to fire
    assert.deepEqual(vs.dialogs, [], 'no dialog from corpus text');
    assert.deepEqual(vs.dialogCalls, [], 'no alert() called from corpus text');

    // 7. Help with ?, screenshots dark and light.
    await visible().locator('#query-text').click();
    await page.keyboard.press('?');
    await textOf('#help', /Highly relevant/);
    assert.equal(await visible().locator('#help.hidden').count(), 0, 'help shown');
    await vs.screenshot('judging-malicious-dark');
    await vs.setColorTheme('Light Modern');
    await page.waitForTimeout(800);
    await vs.screenshot('judging-malicious-light');
    assert.doesNotMatch(vs.consoleLines.join('\n'), /Refused to (execute|load|apply)[^\n]*/i, 'no CSP violation');
    assert.ok(fs.readFileSync(path.join(REPO, 'examples/food-search/judgments/golden.json'), 'utf8') === original, 'repo copy untouched');
    fs.writeFileSync(path.join(runDir, 'ok'), 'ok\n');
    log('judging e2e: ASSERTIONS OK');
  },
  { retries: 1 },
);
