// The Testing view on a BEIR folder in a real VS Code (issue 19 item 8): a generated folder with only corpus.jsonl,
// queries.jsonl and qrels/test.tsv (no ranklab.json, no configs) → "Test: Run All Tests" → every query test passes
// under the built-in BM25 config (as Run Evaluation does there), and the access-control item is shown as skipped
// with its reason instead of being absent. Results are read from the Testing view's tree, as a user sees them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { log, makeRunDir, withVSCode, REPO } from './driver.mjs';

const runDir = makeRunDir('beir');
const workspace = path.join(runDir, 'ws', 'tiny-beir');
fs.mkdirSync(path.join(workspace, 'qrels'), { recursive: true });
const TOPICS = ['bread', 'soup', 'curry', 'salad', 'pasta', 'cake'];
const docs = TOPICS.flatMap((t, i) => [
  { _id: `d${i}a`, title: `${t} recipe`, text: `how to make ${t} at home with ${t} basics` },
  { _id: `d${i}b`, title: `${t} history`, text: `the history of ${t} in many countries` },
]);
fs.writeFileSync(path.join(workspace, 'corpus.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n') + '\n');
const queries = TOPICS.slice(0, 4).map((t, i) => ({ _id: `q${i}`, text: `${t} recipe` }));
fs.writeFileSync(path.join(workspace, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
fs.writeFileSync(
  path.join(workspace, 'qrels', 'test.tsv'),
  ['query-id\tcorpus-id\tscore', ...queries.map((q, i) => `${q._id}\td${i}a\t2`)].join('\n') + '\n',
);

await withVSCode(
  { name: 'beir', runDir, workspace, extensionDevelopmentPath: REPO },
  async (vs) => {
    const page = vs.page;
    // The test tree is built when the Testing view first resolves it: open the view, then run everything.
    await vs.runCommand('View: Show Testing');
    const rows = page.locator('.test-explorer .monaco-list-row');
    await rows.first().waitFor({ timeout: 60000 });
    await vs.runCommand('Test: Run All Tests');

    // Expand the whole tree (judgment file → split → queries; Access control → its item).
    const labels = async () =>
      (await rows.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent ?? ''))).map((s) => s.trim());
    const deadline = Date.now() + 180000;
    let seen = [];
    // A row's accessible name is "<label or id> (<state>)…", e.g. "q0 (Passed), in 0.3ms".
    const rowOf = (q) => seen.find((s) => s.startsWith(`${q._id} (`) || s.startsWith(`${q.text} (`));
    for (;;) {
      const collapsed = page.locator('.test-explorer .monaco-list-row[aria-expanded="false"]');
      if (await collapsed.count()) {
        await collapsed
          .first()
          .locator('.monaco-tl-twistie')
          .click()
          .catch(() => {});
        await page.waitForTimeout(300);
        continue;
      }
      seen = await labels();
      const queryRows = queries.map(rowOf);
      if (queryRows.every((r) => r && /passed/i.test(r)) && seen.some((s) => /no principals/i.test(s))) break;
      if (Date.now() > deadline) break;
      await page.waitForTimeout(1000);
    }
    log('Testing view rows:', JSON.stringify(seen));
    await vs.screenshot('testing-beir');
    for (const q of queries) {
      const row = rowOf(q);
      assert.ok(row, `a test for ${q._id} "${q.text}" is listed: ${JSON.stringify(seen)}`);
      assert.match(row, /passed/i, `${q._id} passes under the built-in config: ${row}`);
      assert.doesNotMatch(row, /no ranking config/i);
    }
    const acl = seen.find((s) => /no principals/i.test(s));
    assert.ok(acl, `the access-control item is shown with the reason it cannot run: ${JSON.stringify(seen)}`);
    assert.match(acl, /skipped/i, acl);
    fs.writeFileSync(path.join(runDir, 'ok'), 'ok\n');
    log('testing-beir e2e: ASSERTIONS OK');
  },
  { retries: 1 },
);
