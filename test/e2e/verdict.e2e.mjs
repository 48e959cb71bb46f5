// The dashboard's first screen on REAL runs: a hostile copy of examples/food-search (a document title with U+202E
// and markup, a 20,000-character query) is evaluated with the CLI before VS Code starts (baseline, title-boost-3,
// regressing, pre-filter, and title-boost-3 as principal "ayu"), then in a real VS Code: the verdict for a no-change
// pair and for a significant drop, the N-way matrix, the refusal of a mixed-principal pair, the hostile text shown
// literally, isolated and clipped, and screenshots in the four default themes (test-results/verdict-*.png).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, copyWorkspace, log, makeRunDir, withVSCode } from './driver.mjs';

const runDir = makeRunDir('verdict');
const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);
fs.rmSync(path.join(workspace, '.ranklab'), { recursive: true, force: true });

// Hostile data, added to the copy: a title that would reverse the row without isolation and carries markup, and a
// query of 20,000 characters that judges that document.
const HOSTILE_TITLE = 'Kopi \u202Egnp.exe <img src=x onerror=alert(3)> <b>Gayo</b>';
const LONG_QUERY = `kopi gayo ${'panjang '.repeat(2500)}`.slice(0, 20000);
fs.appendFileSync(
  path.join(workspace, 'data/products.jsonl'),
  `${JSON.stringify({
    id: 'hostile-rlo',
    title: HOSTILE_TITLE,
    sku: 'HX-1',
    text: 'Kopi gayo, a hostile title for the dashboard test.',
    tags: ['product'],
    lang: 'en',
    tenant: 'warung-kopi',
    groups: [],
    public: true,
  })}\n`,
);
const judgmentsFile = path.join(workspace, 'judgments/golden.json');
const golden = JSON.parse(fs.readFileSync(judgmentsFile, 'utf8'));
golden.push({ id: 'q-hostile', query: LONG_QUERY, judgments: { 'hostile-rlo': 3, 'origin-gayo': 1 }, tags: ['hostile'], split: 'tune' });
fs.writeFileSync(judgmentsFile, JSON.stringify(golden, null, 2));

const cli = (args) => {
  const r = spawnSync(process.execPath, [path.join(REPO, 'dist/cli.js'), ...args, '--workspace', workspace], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  assert.equal(r.status, 0, `ranklab ${args.join(' ')}: ${r.stderr}`);
};
cli(['eval', '--config', 'baseline', '--config', 'title-boost-3', '--config', 'regressing', '--config', 'pre-filter']);
cli(['eval', '--config', 'title-boost-3', '--as', 'ayu']);
// The query classes of regressing vs baseline as the CLI reports them (the saved runs reused), for the dashboard's section.
const compared = spawnSync(
  process.execPath,
  [
    path.join(REPO, 'dist/cli.js'),
    'compare',
    '--baseline',
    'baseline',
    '--candidate',
    'regressing',
    '--split',
    'all',
    '--format',
    'json',
    '--workspace',
    workspace,
  ],
  { encoding: 'utf8', maxBuffer: 1 << 28 },
);
assert.equal(compared.status, 0, `ranklab compare: ${compared.stderr}`);
const cliClasses = JSON.parse(compared.stdout).stageRecall;
log('runs:', fs.readdirSync(path.join(workspace, '.ranklab/runs')).join(', '));

await withVSCode(
  { name: 'verdict', runDir, workspace, extensionDevelopmentPath: REPO },
  async (vs) => {
    vs.dialogs.length = 0;
    await vs.runCommand('Ranklab: Open Dashboard');
    const wv = vs.webview();
    /** Picks a run in a picker by typing words of its label, as a user would. */
    const pick = async (which, words) => {
      const input = wv.locator(`#pick-${which}-input`);
      await input.click();
      await input.fill(words);
      await wv.locator(`#pick-${which}-list li[data-run]`).first().waitFor({ timeout: 10000 });
      await input.press('Enter');
    };
    /** The Ranklab status bar item once its text matches `re` (it follows the comparison picked). */
    const statusBar = async (re) => {
      const item = vs.page.locator('.part.statusbar .statusbar-item', { hasText: re }).first();
      await item.waitFor({ timeout: 30000 });
      return ((await item.textContent()) ?? '').trim();
    };

    // 1. No change: title-boost-3 vs baseline, both unrestricted.
    await pick('baseline', 'baseline unrestricted');
    await pick('candidate', 'title-boost-3 unrestricted');
    const same = await vs.webviewText('#verdict-headline', /title-boost-3:/);
    log('verdict (no change):', same);
    assert.match(same, /^● title-boost-3: no significant change · (\d+)\/\1 gates pass$/);
    const mde = await vs.webviewText('#verdict-mde', /queries/);
    assert.match(
      mde,
      /With 95 queries, changes smaller than ±0\.\d{4} in ndcg@10 cannot be told from noise .*about [\d,]+ queries would be needed to detect ±0\.01/,
    );
    assert.match(await vs.webviewText('#verdict', /Δ = candidate − baseline/), /p \(Holm\)/, 'the symbols are explained in the verdict');
    await vs.screenshot('verdict-dark');
    log('status bar (title-boost-3 picked):', await statusBar(/title-boost-3: ndcg@10 \d\.\d{3} \([+−]\d\.\d{3}\)/));

    // 2. Hostile text in the real run: the 20,000-character query does not widen the page; the title is literal
    //    (its U+202E shown as a marker), bidi-isolated, and no element is created from it.
    await wv.locator('#pq-text').fill('q-hostile');
    await wv.locator('#per-query-table .vt-row[data-qid="q-hostile"]').click();
    await vs.webviewText('#query-detail h2', /q-hostile/);
    const title = wv.locator('#query-detail .doc-title', { hasText: 'gnp.exe' }).first();
    // The override is shown as a marker (src/core/util/visible-text.ts), never drawn: the title reads in stored order.
    assert.equal(await title.textContent(), HOSTILE_TITLE.replace('\u202E', '⟨U+202E⟩'));
    assert.ok(!(await title.textContent()).includes('\u202E'), 'no raw U+202E in the page');
    assert.equal(await title.evaluate((el) => getComputedStyle(el).unicodeBidi), 'isolate', 'the title is bidi-isolated (dir="auto")');
    assert.equal(
      await wv.locator('#query-detail img, #query-detail script, #query-detail b').count(),
      0,
      'no element created from corpus text',
    );
    const widths = await (await vs.webviewFrame()).evaluate(() => ({
      page: document.documentElement.scrollWidth,
      view: window.innerWidth,
    }));
    log('page width with the 20,000-character query:', JSON.stringify(widths));
    assert.ok(widths.page <= widths.view + 1, `the page stays as wide as the window (${widths.page} > ${widths.view})`);
    // The Δ column stays visible beside the detail panel.
    const delta = await wv.locator('#per-query-table .vt-head [data-key="delta"]').boundingBox();
    const detail = await wv.locator('#query-detail').boundingBox();
    assert.ok(
      delta && detail && delta.width > 0 && delta.x + delta.width <= detail.x + 1,
      `Δ header ${JSON.stringify(delta)} left of the detail ${JSON.stringify(detail)}`,
    );
    await vs.screenshot('verdict-hostile-dark');
    // Its explanation (expanded by a click on the row) is text too: the query's terms and the steps' notes create no
    // element, and the 20,000-character query's parts table scrolls inside its box instead of widening the page.
    await title.click();
    const explanation = wv.locator('#query-detail tr.explain-row[data-explains="hostile-rlo"]').first();
    await explanation.locator('.explain-side').first().waitFor({ timeout: 60000 });
    log('hostile explanation:', ((await explanation.textContent()) ?? '').replace(/\s+/g, ' ').slice(0, 300));
    assert.match(await explanation.textContent(), /Reason: /);
    assert.equal(
      await wv.locator('#query-detail img, #query-detail script, #query-detail b').count(),
      0,
      'no element created from the explanation',
    );
    const after = await (await vs.webviewFrame()).evaluate(() => ({ page: document.documentElement.scrollWidth, view: window.innerWidth }));
    assert.ok(
      after.page <= after.view + 1,
      `the page stays as wide as the window with the explanation open (${after.page} > ${after.view})`,
    );
    await vs.screenshot('verdict-hostile-explain-dark');
    await title.click();
    await wv.locator('#pq-text').fill('');

    // 3. Significant drop: regressing vs baseline.
    await pick('candidate', 'regressing');
    const drop = await vs.webviewText('#verdict-headline', /regressing:/);
    log('verdict (drop):', drop);
    // The status bar follows the comparison picked in the dashboard (issue 19 item 5).
    log('status bar (regressing picked):', await statusBar(/regressing: ndcg@10 \d\.\d{3} \(−\d\.\d{3}\)/));
    assert.equal(
      await vs.page.locator('.part.statusbar .statusbar-item', { hasText: /title-boost-3: ndcg@10/ }).count(),
      0,
      'the status bar no longer shows the previous candidate',
    );
    assert.match(drop, /^▼ regressing: significant drop on (\d+ metrics|ndcg@10) · \d+ of \d+ gates fail$/);
    assert.match(await vs.webviewText('#verdict-worst-slice', /\S/), /−0\.\d{4}/);
    // Where relevant documents are lost: the same class counts and changed queries as `ranklab compare`; a changed
    // query opens its detail.
    await vs.webviewText('#classes', /Class changed/);
    for (const side of ['baseline', 'candidate']) {
      const cells = await wv.locator(`#classes-table tr[data-side="${side}"] td`).allTextContents();
      log(`classes (${side}):`, cells.join(' '));
      assert.deepEqual(
        cells.map(Number),
        ['hit', 'ranking-miss', 'retrieval-miss', 'no-relevant'].map((c) => cliClasses[side].counts[c]),
        `${side} class counts`,
      );
    }
    assert.ok(cliClasses.changed.length > 0, "regressing changes some query's class");
    // The first 20 are listed, the heading counts them all.
    assert.deepEqual(
      await wv.locator('#classes-changed li').evaluateAll((els) => els.map((e) => e.dataset.qid)),
      cliClasses.changed.slice(0, 20).map((c) => c.qid),
    );
    assert.match(await vs.webviewText('#classes h3', /Class changed/), new RegExp(`^Class changed \\(${cliClasses.changed.length}\\)$`));
    await wv.locator('#classes').scrollIntoViewIfNeeded();
    await vs.screenshot('verdict-classes-dark');
    const changedQid = cliClasses.changed[0].qid;
    await wv.locator(`#classes-changed li[data-qid="${changedQid}"] button`).click();
    await vs.webviewText('#query-detail h2', new RegExp(`\\b${changedQid}\\b`));

    // 4. The N-way matrix: every other config's newest unrestricted run against the baseline, one Holm correction.
    const matrix = await vs.webviewText('#matrix-table', /regressing[\s\S]*|title-boost-3/, { timeoutMs: 60000 });
    const rows = await wv.locator('#matrix-table tbody tr').allTextContents();
    log('matrix rows:', rows.map((r) => r.slice(0, 120)).join(' || '));
    for (const c of ['title-boost-3', 'regressing', 'pre-filter'])
      assert.ok(
        rows.some((r) => r.startsWith(c)),
        `${c} in the matrix: ${matrix.slice(0, 200)}`,
      );
    assert.ok(!rows.some((r) => /as ayu/.test(r)), 'a run made as another principal is left out of the matrix');
    assert.match(
      rows.find((r) => r.startsWith('regressing')),
      /▼/,
      'regressing has significant drops',
    );
    assert.match(await vs.webviewText('#matrix', /Holm/), /one Holm–Bonferroni correction over the whole matrix/);
    await wv.locator('#matrix').scrollIntoViewIfNeeded();
    await vs.screenshot('verdict-matrix-dark');

    // 5. Mixed principals: title-boost-3 as ayu vs the unrestricted baseline is refused with the core's message.
    await pick('candidate', 'title-boost-3 ayu');
    const refused = await vs.webviewText('#verdict.refused', /different principals/);
    log('refusal:', refused.replace(/\s+/g, ' ').slice(0, 300));
    assert.match(
      refused,
      /baseline "baseline" was run without a principal \(every document\), candidate "title-boost-3" as principal "ayu"/,
    );
    assert.equal(await wv.locator('#verdict-lines').count(), 0, 'no figures for a refused pair');
    await vs.screenshot('verdict-refused-dark');
    // The explicit mode: compared anyway, labelled MIXED PRINCIPALS, and back.
    await wv.locator('#allow-mixed').click();
    assert.match(await vs.webviewText('#verdict .mixed-banner', /MIXED PRINCIPALS/), /baseline unrestricted, candidate as ayu/);
    assert.equal(await wv.locator('#verdict-lines').count(), 1);
    await wv.locator('#disallow-mixed').click();
    await vs.webviewText('#verdict.refused', /different principals/);

    // 6. The first screen in the other three default themes.
    await pick('candidate', 'title-boost-3 unrestricted');
    await vs.webviewText('#verdict-headline', /title-boost-3:/);
    const frame = await vs.webviewFrame();
    for (const [theme, cls, name] of [
      ['Light Modern', /vscode-light/, 'verdict-light'],
      ['Dark High Contrast', /vscode-high-contrast(?!-light)/, 'verdict-hc-dark'],
      ['Light High Contrast', /vscode-high-contrast-light/, 'verdict-hc-light'],
    ]) {
      await vs.setColorTheme(theme);
      for (let i = 0; i < 100 && !cls.test(await frame.evaluate(() => document.body.className)); i++) await vs.page.waitForTimeout(200);
      assert.match(await frame.evaluate(() => document.body.className), cls);
      await vs.page.waitForTimeout(500);
      await vs.screenshot(name);
    }

    assert.doesNotMatch(vs.consoleLines.join('\n'), /Refused to (execute|load|apply)[^\n]*/i, 'no CSP violation');
    assert.deepEqual(vs.dialogCalls, [], 'no alert() called from corpus text');
    fs.writeFileSync(path.join(runDir, 'ok'), 'ok\n');
    log('verdict e2e: ASSERTIONS OK');
  },
  { retries: 1 },
);
