// The editor answers while a long evaluation runs (issue 10 "Off the extension host"). The evaluation runs in the
// Ranklab worker thread, so the extension host is free: palette → Run Evaluation on a slow workspace (30,000
// generated documents, 6,000 queries, two configs) → while its progress notification counts queries, palette →
// Open Dashboard → the dashboard's page is drawn by the extension host's answer → only then is the evaluation
// looked at again: still running (notification still counting, no run of the second config saved). The order of
// the events is asserted, never a time. Then Cancel; the output channel shows the work ran in the worker.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, log, makeRunDir, withVSCode } from './driver.mjs';
import { runFiles, slowWorkspace, startEvaluation } from './slow-workspace.mjs';

const QUERIES = 6000;
const runDir = makeRunDir('responsive');
const workspace = slowWorkspace(runDir, { queries: QUERIES });

/** The "Ranklab" output channel's log file of this session. */
function outputLog() {
  const found = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'Ranklab.log') found.push(p);
    }
  };
  walk(path.join(runDir, 'user-data/logs'));
  return found.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

await withVSCode(
  { name: 'responsive', runDir, workspace, extensionDevelopmentPath: REPO },
  async (vs) => {
    fs.rmSync(path.join(workspace, '.ranklab'), { recursive: true, force: true });
    const page = vs.page;
    // 1. The evaluation is under way: its notification counts queries.
    const counting = new RegExp(`(baseline|title-boost-3): (\\d+)/${QUERIES} queries \\(config ([12]) of 2\\)`);
    const { toast, text: before, textOf: toastText } = await startEvaluation(vs, counting);
    assert.match(before, counting);
    log('evaluation running:', before);

    // 2. A command answered by the extension host meanwhile: Open Dashboard draws its page from the host's answer.
    await vs.runCommand('Ranklab: Open Dashboard');
    const shown = await vs.webviewText('#app', /No saved runs yet|baseline|title-boost-3/, { timeoutMs: 120000 });
    log('dashboard answered:', shown.slice(0, 120));

    // 3. Only now is the evaluation looked at: it has not ended (the dashboard's answer came first).
    const after = await toastText();
    log('evaluation after the dashboard answered:', after);
    assert.match(after, counting, 'the evaluation notification is still counting queries');
    assert.ok(runFiles(workspace).length < 2, `the evaluation had not finished: ${runFiles(workspace).join(', ')}`);
    const [, , doneBefore, stepBefore] = before.match(counting);
    const [, , doneAfter, stepAfter] = after.match(counting);
    assert.ok(
      Number(stepAfter) > Number(stepBefore) || Number(doneAfter) >= Number(doneBefore),
      'progress went on while the dashboard opened',
    );

    // 4. Cancel; the work ran in the worker thread (its log lines come through the output channel marked "worker:").
    await toast.locator('.notification-list-item-buttons-container .monaco-button', { hasText: 'Cancel' }).click();
    await page
      .locator('.notifications-toasts .notification-toast', { hasText: 'evaluation cancelled' })
      .first()
      .waitFor({ timeout: 60000 });
    const channel = outputLog();
    assert.match(channel, /worker: /, "the output channel shows the worker's log lines");
    assert.doesNotMatch(
      channel,
      /Ranklab worker (stopped|was terminated)/,
      'the worker stopped by itself (cooperative cancel), it was not terminated',
    );
    await vs.screenshot('responsive-dashboard-during-evaluation');
    fs.writeFileSync(path.join(runDir, 'ok'), 'ok\n');
    log('responsive e2e: ASSERTIONS OK');
  },
  { retries: 1 },
);
