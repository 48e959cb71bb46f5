// End to end on the example workspace (examples/food-search, copied to the run dir first; the repo copy is
// never touched): "Ranklab: Run Evaluation" from the palette → the dashboard webview (metrics table, the
// core comparison with CIs, per-query side-by-side lists with grades, charts; a listed document expanded with
// Enter into its explanation under both configs, folded with Space; a changed query beyond the 20th opened: a
// reason on each of its moved documents, as `ranklab compare` gives it) → edit
// configs/title-boost-3.rank.json in the editor so that it regresses, save → the gate warning appears in
// the Problems panel → screenshots of the dashboard in dark and light themes to test-results/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, copyWorkspace, log, makeRunDir, withVSCode } from './driver.mjs';

const runDir = makeRunDir('food');
const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);
fs.rmSync(path.join(workspace, '.ranklab'), { recursive: true, force: true });
const REGRESSING =
  '{ "description": "title and body 0.1, every term required: fails the gates", "lexical": { "fields": { "title": 0.1, "body": 0.1 }, "combineWith": "AND", "depth": 100 }, "pageSize": 10 }\n';

// Typed text goes in verbatim: no auto-closed brackets, no auto-indent.
const settings = {
  'editor.autoClosingBrackets': 'never',
  'editor.autoClosingQuotes': 'never',
  'editor.autoIndent': 'none',
  'editor.formatOnType': false,
  'editor.formatOnPaste': false,
};

await withVSCode(
  { name: 'food', runDir, workspace, extensionDevelopmentPath: REPO, settings },
  async (vs) => {
    fs.rmSync(path.join(workspace, '.ranklab'), { recursive: true, force: true });
    fs.copyFileSync(
      path.join(REPO, 'examples/food-search/configs/title-boost-3.rank.json'),
      path.join(workspace, 'configs/title-boost-3.rank.json'),
    );
    const page = vs.page;
    await vs.runCommand('Ranklab: Run Evaluation');
    // Run Evaluation asks which principal to evaluate as: "No principal" (every document) first, the default.
    const principalRow = page.locator('.quick-input-list .monaco-list-row', { hasText: 'No principal' }).first();
    await principalRow.waitFor({ timeout: 30000 });
    assert.match(await page.locator('.quick-input-list').textContent(), /No principal[\s\S]*ayu/);
    await page.keyboard.press('Enter');
    const wv = vs.webview();

    // 1. Every offline config evaluated; the reranker config cannot load its model offline and is reported, not fatal.
    const metrics = await vs.webviewText('#metrics-table', /title-boost-3[\s\S]*vector|vector[\s\S]*title-boost-3/, { timeoutMs: 120000 });
    log('metrics table:', metrics.replace(/\s+/g, ' ').slice(0, 400));
    for (const c of ['baseline', 'title-boost-3', 'hybrid-rrf', 'regressing', 'pre-filter', 'post-filter'])
      assert.match(metrics, new RegExp(c));
    const runs = fs.readdirSync(path.join(workspace, '.ranklab/runs'));
    assert.ok(runs.length >= 7, `saved runs: ${runs.join(', ')}`);
    assert.ok(
      fs.readFileSync(path.join(REPO, 'examples/food-search/configs/title-boost-3.rank.json'), 'utf8').includes('"title": 3'),
      'repo copy untouched',
    );

    // 2. The core comparison of baseline vs the newest other run: CI and Holm-adjusted p per metric, slices, splits.
    const comparison = await vs.webviewText('#comparison', /95% CI/);
    assert.match(comparison, /Comparison in full: .+ vs baseline \(94 queries\)/);
    assert.match(comparison, /ndcg@10/);
    assert.match(comparison, /Holm–Bonferroni/);
    assert.equal((await wv.locator('#slices-table tbody tr').count()) > 3, true, 'slices listed');
    assert.match(await vs.webviewText('#splits-table', /holdout/), /tune[\s\S]*holdout/);
    // Moved documents carry the core's one-line reason (both runs' configs are the workspace's, unchanged).
    assert.match(await vs.webviewText('#moved', /Why/), /rank \d+→\d+|entered at rank|fell out at/);
    assert.equal(await wv.locator('canvas#chart-slices').count(), 1);
    assert.equal(await wv.locator('canvas#chart-latency').count(), 1);
    assert.equal(await wv.locator('canvas#chart-query-delta').count(), 1);
    assert.match(await vs.webviewText('#acl', /Access control/), /not available|Not checked/);

    // 3. Per-query diff: the worst query is selected; its two result lists side by side with grades or "unjudged".
    assert.match(await vs.webviewText('#pq-count', /quer/), /^94 queries/);
    const alive = await wv.locator('#per-query-table .vt-row[data-qid]').count();
    assert.ok(alive > 0 && alive < 94, `the table is windowed: ${alive} of 94 rows in the DOM`);
    const detail = await vs.webviewText('#query-detail', /Baseline[\s\S]*Candidate/);
    assert.equal(await wv.locator('#query-detail .side-by-side .docs').count(), 2);
    assert.match(detail, /Grade/);
    // Titles come from the real run just evaluated (not a fixture): every listed document of the example has one.
    const titles = await wv.locator('#query-detail .doc-title').allTextContents();
    const docRows = await wv.locator('#query-detail tr[data-doc]').count();
    log('titles:', titles.slice(0, 3).join(' | '));
    assert.ok(
      docRows >= 10 && titles.length === docRows && titles.every((t) => t.trim().length > 0),
      `${titles.length} titles for ${docRows} listed documents`,
    );
    log('query detail head:', detail.replace(/\s+/g, ' ').slice(0, 200));

    // 3b. Expanding a document (keyboard: Enter on its row) shows its explanation under both configs, computed in the
    // worker: the baseline's BM25 parts table (field, term, tf, idf, norm, contribution) and the one-line reason.
    const row = wv.locator('#query-detail .docs[data-side="baseline"] tr.doc-row').first();
    const docId = await row.getAttribute('data-doc');
    await row.focus();
    await page.keyboard.press('Enter');
    assert.equal(await row.getAttribute('aria-expanded'), 'true');
    const explained = wv.locator(`#query-detail tr.explain-row[data-explains="${docId}"]`).first();
    await explained.locator('.explain-side').first().waitFor({ timeout: 60000 });
    const text = (await explained.textContent()) ?? '';
    log('explanation:', text.replace(/\s+/g, ' ').slice(0, 300));
    assert.match(text, /Reason: .*(rank \d+→\d+|rank \d+ unchanged|entered at rank|fell out at|not ranked by either)/);
    assert.equal(await explained.locator('.explain-side[data-side="baseline"]').count(), 1);
    assert.equal(await explained.locator('.explain-side[data-side="candidate"]').count(), 1);
    const head = await explained.locator('.explain-side[data-side="baseline"] table.lexical-parts thead').first().textContent();
    assert.match(head, /field.*term.*tf.*idf.*norm.*contribution/);
    assert.ok((await explained.locator('.explain-side[data-side="baseline"] table.lexical-parts tbody tr').count()) > 0);
    await vs.screenshot('food-explain-dark');
    // Space on the row folds it again.
    await row.focus();
    await page.keyboard.press(' ');
    assert.equal(await wv.locator('#query-detail tr.explain-row').count(), 0);
    assert.equal(await row.getAttribute('aria-expanded'), 'false');

    await vs.screenshot('food-dashboard-dark');

    // 3c. A changed query beyond the first screenful (the comparison explains its first 20 changed queries' moved
    // documents; "Documents that moved" lists those): opening it in the per-query table asks the worker for its own
    // reasons, and each of its moved documents shows the reason `ranklab compare` gives for it.
    const candidateName = (await vs.webviewText('#comparison', /Comparison in full: .+ vs baseline/)).match(
      /Comparison in full: (.+?) vs baseline/,
    )[1];
    const compared = spawnSync(
      process.execPath,
      [
        path.join(REPO, 'dist/cli.js'),
        'compare',
        '--baseline',
        'baseline',
        '--candidate',
        candidateName,
        '--format',
        'json',
        '--workspace',
        workspace,
      ],
      { encoding: 'utf8', maxBuffer: 1 << 28 },
    );
    assert.equal(compared.status, 0, compared.stderr);
    const listed = new Set(
      await wv.locator('#moved details.moved-query summary').evaluateAll((els) => els.map((e) => e.textContent.split(' ')[0])),
    );
    const late = JSON.parse(compared.stdout)
      .queryDeltas.slice(20)
      .find((q) => q.moved.length > 0 && !listed.has(q.qid));
    assert.ok(late, `${candidateName} vs baseline has a changed query with moved documents beyond the first 20`);
    log(`query beyond the first screenful: ${late.qid} (${late.moved.length} moved)`);
    await wv.locator('#pq-text').fill(late.qid);
    await wv.locator(`#per-query-table .vt-row[data-qid="${late.qid}"]`).click();
    await vs.webviewText('#query-detail h2', new RegExp(`Query ${late.qid}\\b`));
    await wv.locator('#query-detail .doc-reason').first().waitFor({ timeout: 60000 });
    for (const m of late.moved) {
      const shown = await wv.locator(`#query-detail tr[data-doc="${m.id}"] .doc-reason`).allTextContents();
      assert.ok(shown.length > 0, `${m.id}: a reason on its row`);
      for (const t of shown) assert.equal(t, `Why it moved: ${m.reason}`);
    }
    await vs.screenshot('food-late-query-reasons-dark');
    await wv.locator('#pq-text').fill('');

    // 4. Edit title-boost-3 in the editor so that it regresses, save: the gate warning appears in Problems.
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible' });
    await input.fill('title-boost-3.rank.json');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'title-boost-3.rank.json' }).first().waitFor();
    await page.keyboard.press('Enter');
    const editor = page.locator('.editor-instance .monaco-editor').first();
    await editor.waitFor();
    await page.locator('.tab.active', { hasText: 'title-boost-3.rank.json' }).waitFor();
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(REGRESSING);
    // Whatever the editor added after the cursor (an auto-closed brace) goes.
    await page.keyboard.press('Control+Shift+End');
    await page.keyboard.press('Delete');
    await page.keyboard.press('Control+S');
    const problem = await vs.waitForProblem(/regresses the baseline beyond the gate/, { timeoutMs: 60000 });
    log('problem:', problem);
    assert.match(problem, /ndcg@10/);
    assert.match(problem, /worst queries: q\d+/);
    const saved = fs.readFileSync(path.join(workspace, 'configs/title-boost-3.rank.json'), 'utf8');
    assert.match(saved, /"title": 0\.1/);

    // 5. The CodeLens above the config shows the same drop against the baseline (it redraws shortly after).
    const drop = problem.match(/dropped (\d\.\d{3})/)[1];
    let lens = '';
    for (let i = 0; i < 60 && !lens.includes(`▼${drop} vs baseline`); i++) {
      lens =
        (await page
          .locator('.codelens-decoration')
          .first()
          .textContent({ timeout: 30000 })
          .catch(() => '')) ?? '';
      await page.waitForTimeout(500);
    }
    log('codelens:', lens);
    assert.match(lens, new RegExp(`^nDCG@10 \\d\\.\\d{3} ▼${drop} vs baseline · MRR@10 \\d\\.\\d{3}`));

    // 6. Screenshots of the dashboard, light theme.
    await vs.runCommand('View: Hide Panel', { timeoutMs: 8000 }).catch(() => log('could not hide the panel'));
    await vs.runCommand('Ranklab: Open Dashboard');
    await vs.webviewText('#metrics-table', /title-boost-3/);
    await vs.setColorTheme('Light Modern');
    const frame = await vs.webviewFrame();
    for (let i = 0; i < 100 && !/vscode-light/.test(await frame.evaluate(() => document.body.className)); i++)
      await page.waitForTimeout(200);
    await vs.webviewText('#comparison', /95% CI/);
    await page.waitForTimeout(500);
    await vs.screenshot('food-dashboard-light');
    assert.doesNotMatch(vs.consoleLines.join('\n'), /Refused to (execute|load|apply)[^\n]*/i, 'no CSP violation');
    fs.writeFileSync(path.join(runDir, 'ok'), 'ok\n');
    log('food-search e2e: ASSERTIONS OK');
  },
  { retries: 1 },
);
