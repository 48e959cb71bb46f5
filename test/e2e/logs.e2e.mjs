// From a query log to graded, scored queries in a real VS Code (issue 30), on a copy of examples/food-search (the
// repo copy is never touched):
// a generated JSONL log with planted e-mail addresses, a robot and duplicates → `ranklab queries sample` (CLI) →
// its report counts the removals → the sample added to ranklab.json's judgments (beside a golden set cut to q01, so
// the pool's deciding pairs are q01's few and the sample's pairs come next) → palette "Ranklab: Sample Queries
// from a Log" through its dialogs (the simple file dialog, input box, quick pick) writes the same bytes as the CLI
// on the same inputs → palette "Ranklab: Judge Unjudged Documents" offers the sampled queries' pairs → three graded
// by keyboard → they are in the sample's file → `ranklab eval` (CLI) scores those queries → no planted e-mail in
// any file written (the workspace, its saved runs unzipped, the outputs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REPO, copyWorkspace, log, makeRunDir, withVSCode, visibleWebview } from './driver.mjs';

const runDir = makeRunDir('logs');
const workspace = copyWorkspace(path.join(REPO, 'examples/food-search'), runDir);
const CLI = path.join(REPO, 'dist/cli.js');
const logPath = path.join(runDir, 'searches.jsonl');
const sampledPath = path.join(workspace, 'judgments/sampled.json');
const goldenPath = path.join(workspace, 'judgments/golden.json');
const EMAILS = ['ana.lee@example.org', 'budi.santoso@mail.example.com'];
const BOT_QUERY = 'klepon crawler probe';
// Distinct clean queries with their traffic; each is logged in two casings, so duplicates are merged.
const CLEAN = { 'banana bread': 6, 'martabak manis': 4, 'soto betawi': 3, 'es cendol': 2, 'rosemary focaccia': 1 };

const cli = (...args) => execFileSync(process.execPath, [CLI, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

function writeLog() {
  const lines = [];
  const t0 = Date.parse('2026-11-02T08:00:00Z');
  const add = (query, extra = {}) =>
    lines.push(
      JSON.stringify({ query, timestamp: new Date(t0 + 60000 * lines.length).toISOString(), session: `s${lines.length}`, ...extra }),
    );
  for (const [q, count] of Object.entries(CLEAN)) for (let k = 0; k < count; k++) add(k % 2 ? q.toUpperCase() : q);
  add(`banana bread ${EMAILS[0]}`);
  add(`send the recipe to ${EMAILS[1]}`);
  for (let k = 0; k < 3; k++) add(BOT_QUERY, { session: 'bot-1', user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' });
  fs.writeFileSync(logPath, lines.join('\n') + '\n');
}

/** The sample (CLI), then the workspace's judgments: the sample beside a golden set of q01 alone. */
function prepare() {
  fs.rmSync(path.join(workspace, '.ranklab'), { recursive: true, force: true });
  // As the repo has them (a retry starts over).
  for (const f of [sampledPath, path.join(workspace, 'judgments/sampled-editor.json')]) fs.rmSync(f, { force: true });
  for (const f of ['judgments/golden.json', 'ranklab.json'])
    fs.copyFileSync(path.join(REPO, 'examples/food-search', f), path.join(workspace, f));
  writeLog();
  const judged = new Set(JSON.parse(fs.readFileSync(goldenPath, 'utf8')).map((q) => q.query.toLowerCase()));
  const report = JSON.parse(
    cli(
      'queries',
      'sample',
      '--log',
      logPath,
      '--n',
      '3',
      '--scheme',
      'uniform',
      '--exclude',
      workspace,
      '--out',
      sampledPath,
      '--format',
      'json',
    ),
  );
  log(
    'queries sample:',
    JSON.stringify({ personal: report.personal, bots: report.bots, excluded: report.excluded, strata: report.strata }),
  );
  assert.equal(report.personal.email, EMAILS.length, 'each planted e-mail line removed and counted');
  assert.equal(report.bots.agent, 3, "the robot's lines removed by its user agent");
  const expectedExcluded = Object.entries(CLEAN)
    .filter(([q]) => judged.has(q))
    .reduce((s, [, c]) => s + c, 0);
  assert.equal(report.excluded, expectedExcluded, 'the queries the workspace already judges are left out');
  const sample = JSON.parse(fs.readFileSync(sampledPath, 'utf8'));
  assert.equal(sample.length, 3);
  for (const item of sample) {
    assert.ok(Object.hasOwn(CLEAN, item.query) && !judged.has(item.query), `sampled "${item.query}" is a clean, unjudged query of the log`);
    assert.match(item.id, /^log-[0-9a-f]{10}$/);
    assert.equal(item.judgments, undefined, 'no grades yet');
  }
  // The golden set cut to q01 (pooling needs one judged query; its deciding pairs come first, then the sample's).
  const golden = JSON.parse(fs.readFileSync(goldenPath, 'utf8'));
  fs.writeFileSync(
    goldenPath,
    JSON.stringify(
      golden.filter((q) => q.id === 'q01'),
      null,
      2,
    ) + '\n',
  );
  const settingsPath = path.join(workspace, 'ranklab.json');
  const settings = JSON.parse(fs.readFileSync(settingsPath, 'utf8'));
  settings.judgments = ['judgments/sampled.json', 'judgments/golden.json'];
  fs.writeFileSync(settingsPath, JSON.stringify(settings, null, 2) + '\n');
  return sample;
}

/** Every file under `dir` as text (gzip unzipped). */
function* filesUnder(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(p);
    else if (e.isFile())
      yield { file: p, text: (p.endsWith('.gz') ? gunzipSync(fs.readFileSync(p)) : fs.readFileSync(p)).toString('utf8') };
  }
}

await withVSCode(
  { name: 'logs', runDir, workspace, extensionDevelopmentPath: REPO },
  async (vs) => {
    const sample = prepare();
    const sampleIds = new Set(sample.map((q) => q.id));
    const page = vs.page;
    const quickInput = page.locator('.quick-input-widget input.input');

    // 1. The editor command through its dialogs writes what the CLI writes for the same inputs (the workspace's
    //    judgments, now the sample and q01, left out).
    const editorOut = path.join(workspace, 'judgments/sampled-editor.json');
    const cliOut = path.join(runDir, 'sampled-cli.json');
    cli('queries', 'sample', '--log', logPath, '--n', '2', '--scheme', 'pps', '--exclude', workspace, '--out', cliOut);
    await vs.runCommand('Ranklab: Sample Queries from a Log');
    // Each dialog of the chain reuses the quick-input widget, and under load the next one opens while the last is
    // still closing: wait for the dialog's own state (its default value, its prompt) before typing, never only for
    // "the widget is visible" (seen: the log path typed into the closing palette, the target into the scheme pick).
    const dialogState = () => {
      const widget = document.querySelector('.quick-input-widget');
      const input = widget?.querySelector('input.input');
      return {
        visible: !!widget && widget.style.display !== 'none',
        value: input?.value ?? '',
        placeholder: input?.placeholder ?? '',
        text: widget?.textContent ?? '',
      };
    };
    const waitForDialog = async (what, ready) => {
      try {
        await page.waitForFunction(`(${ready})((${dialogState})())`, undefined, { timeout: 20000 });
      } catch (e) {
        await vs.screenshot(`logs-waiting-for-${what}`);
        throw new Error(
          `the ${what} dialog did not show its own state (${JSON.stringify(await page.evaluate(dialogState))}): ${e.message}`,
          { cause: e },
        );
      }
    };
    // `next` is the following dialog's state: the simple file dialog can still be loading its first folder when the
    // path is typed and then put that folder back (seen: Enter accepted the folder, the dialog stayed open), so the
    // value is checked before Enter and, while the same dialog still shows, typed again (at most three times).
    const typeInto = async (text, what, ready, next) => {
      await waitForDialog(what, ready);
      for (let attempt = 1; ; attempt++) {
        await quickInput.fill(text);
        await page.waitForTimeout(300); // the simple file dialog validates the path as it is typed
        const typed = await quickInput.inputValue();
        if (typed === text) {
          await page.keyboard.press('Enter');
          if (!next) break;
          const moved = await page.waitForFunction(`(${next})((${dialogState})())`, undefined, { timeout: 10000 }).then(
            () => true,
            () => false,
          );
          if (moved) break;
        }
        const state = await page.evaluate(dialogState);
        if (attempt === 3 || !(await page.evaluate(`(${ready})((${dialogState})())`)))
          throw new Error(`the ${what} dialog did not take ${JSON.stringify(text)} (attempt ${attempt}: ${JSON.stringify(state)})`);
        log(`${what}: the dialog shows ${JSON.stringify(state.value)} after typing; typing again`);
      }
      log(`${what}: ${text}`);
    };
    const nDialog = (d) => d.visible && d.text.includes('How many queries') && d.value === '50';
    // The open dialog starts at the workspace folder (a path; the palette's value starts with ">").
    await typeInto(logPath, 'log file', (d) => d.visible && d.value.startsWith('/') && !d.text.includes('How many queries'), nDialog);
    await typeInto('2', 'N', nDialog);
    await typeInto('pps', 'scheme', (d) => d.visible && d.placeholder === 'Sampling scheme' && d.text.includes('pps'));
    // The save dialog shows its default path (else the target would be typed into the closing scheme pick, and the
    // default sampled.json accepted).
    await typeInto(editorOut, 'target', (d) => d.visible && /judgments[\\/]sampled\.json$/.test(d.value));
    await page
      .locator('.notifications-toasts', { hasText: /sampled \d+ queries into judgments[\\/]sampled-editor\.json/ })
      .waitFor({ timeout: 30000 });
    assert.equal(fs.readFileSync(editorOut, 'utf8'), fs.readFileSync(cliOut, 'utf8'), 'the editor command and the CLI give the same bytes');
    await vs.screenshot('logs-sampled-notification');

    // 2. The judging view offers the sampled queries' pairs (after q01's deciding ones, skipped with s).
    const { visible, textOf } = visibleWebview(page);
    await vs.runCommand('Ranklab: Judge Unjudged Documents');
    await textOf('#pool', /Pool: the top 10 of/);
    await visible().locator('#query-text').click(); // focus inside the webview
    // The heading is "Query <id>" then the split (no space between in its text).
    const pairNow = async () => ({
      qid: (await textOf('#query h2', /Query (log-[0-9a-f]{10}|q\d+)/)).match(/Query (log-[0-9a-f]{10}|q\d+)/)[1],
      docId: (await textOf('#doc-id', /\S/)).trim(),
    });
    let pair = await pairNow();
    for (let skipped = 0; !sampleIds.has(pair.qid); skipped++) {
      assert.equal(pair.qid, 'q01', 'only q01 (the one judged query) comes before the sample');
      assert.ok(skipped < 60, 'a sampled query within 60 pairs');
      await page.keyboard.press('s');
      const before = pair;
      for (let i = 0; i < 100 && pair.qid === before.qid && pair.docId === before.docId; i++) pair = await pairNow();
    }
    await vs.screenshot('logs-judging-sampled-query');

    // 3. Three of the sample's pairs graded by keyboard; the grades land in the sample's file.
    const graded = [];
    for (const key of ['3', '1', '2']) {
      pair = await pairNow();
      assert.ok(sampleIds.has(pair.qid), `${pair.qid} is a sampled query`);
      graded.push({ ...pair, grade: Number(key) });
      await page.keyboard.press(key);
      await textOf(
        '#status',
        new RegExp(`${pair.qid} ${pair.docId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: graded ${key} in judgments/sampled\\.json`),
      );
      log(`graded ${pair.qid} ${pair.docId} ${key}`);
    }
    const onDisk = Object.fromEntries(JSON.parse(fs.readFileSync(sampledPath, 'utf8')).map((q) => [q.id, q.judgments ?? {}]));
    for (const g of graded) assert.equal(onDisk[g.qid][g.docId], g.grade, `${g.qid} ${g.docId} graded on disk`);

    // 4. eval scores the sampled queries that now have grades.
    const evalJson = JSON.parse(cli('eval', '--workspace', workspace, '--config', 'baseline', '--per-query', '--format', 'json'));
    const perQuery = evalJson.runs[0].perQuery;
    for (const qid of new Set(graded.map((g) => g.qid)))
      assert.ok(perQuery[qid] && Number.isFinite(perQuery[qid]['ndcg@10']), `eval scores ${qid}: ${JSON.stringify(perQuery[qid])}`);
    fs.writeFileSync(path.join(runDir, 'eval.json'), JSON.stringify(evalJson, null, 2));

    // 5. No planted e-mail reached a file written: the workspace (its runs unzipped) and the outputs.
    let scanned = 0;
    for (const { file, text } of [
      ...filesUnder(workspace),
      ...[cliOut, path.join(runDir, 'eval.json')].map((f) => ({ file: f, text: fs.readFileSync(f, 'utf8') })),
    ]) {
      scanned++;
      for (const email of EMAILS) assert.ok(!text.includes(email), `${email} in ${file}`);
      assert.ok(!text.includes(BOT_QUERY), `the robot's query in ${file}`);
    }
    log(`scanned ${scanned} files: no planted e-mail, no robot query`);
    assert.ok(
      fs.readFileSync(path.join(REPO, 'examples/food-search/ranklab.json'), 'utf8').includes('"judgments": ["judgments/golden.json"]'),
      'repo copy untouched',
    );
    fs.writeFileSync(path.join(runDir, 'ok'), 'ok\n');
    log('logs e2e: ASSERTIONS OK');
  },
  { retries: 1 },
);
