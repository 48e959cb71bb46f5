import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import * as vscode from 'vscode';
import type { RanklabApi } from '../../../src/extension/extension';

const EXT_ID = 'ranklab.ranklab';
const PALETTE_COMMANDS = [
  'ranklab.runEvaluation',
  'ranklab.compareWithBaseline',
  'ranklab.checkAccessControl',
  'ranklab.openDashboard',
  'ranklab.rebuildIndex',
  'ranklab.setBaseline',
  'ranklab.exportRun',
  'ranklab.searchAsPrincipal',
];

function ext(): vscode.Extension<RanklabApi> {
  const e = vscode.extensions.getExtension<RanklabApi>(EXT_ID);
  assert.ok(e, `extension ${EXT_ID} not found`);
  return e;
}

async function api(): Promise<RanklabApi> {
  return ext().activate();
}

suite('Ranklab extension', () => {
  test('activates in a workspace with ranklab.json and reports its activation time', async () => {
    const a = await api();
    assert.equal(ext().isActive, true);
    assert.equal(typeof a.activationMs, 'number');
    console.log(`RANKLAB-ACTIVATION-MS ${a.activationMs.toFixed(1)}`);
    // Activation is declared for the workspace marker and the dashboard serializer.
    const events: string[] = ext().packageJSON.activationEvents;
    assert.ok(events.includes('workspaceContains:ranklab.json'));
  });

  test('registers every Ranklab command, each titled in the "Ranklab" category', async () => {
    await api();
    const all = new Set(await vscode.commands.getCommands(true));
    for (const id of PALETTE_COMMANDS) assert.ok(all.has(id), `command ${id} not registered`);
    const contributed: { command: string; category?: string }[] = ext().packageJSON.contributes.commands;
    for (const id of PALETTE_COMMANDS) assert.equal(contributed.find((c) => c.command === id)?.category, 'Ranklab', id);
  });

  test('contributes JSON validation for ranklab.json and *.rank.json, pointing at shipped schemas', () => {
    const jv: { fileMatch: string; url: string }[] = ext().packageJSON.contributes.jsonValidation;
    const byMatch = new Map(jv.map((j) => [j.fileMatch, j.url]));
    assert.equal(byMatch.get('ranklab.json'), './schemas/ranklab.schema.json');
    assert.equal(byMatch.get('*.rank.json'), './schemas/rank.schema.json');
    for (const url of byMatch.values()) {
      const file = path.join(ext().extensionPath, url);
      assert.ok(fs.existsSync(file), `${file} missing`);
      JSON.parse(fs.readFileSync(file, 'utf8'));
    }
  });

  test('the JSON language service applies the contributed schema (a diagnostic appears for a bad ranklab.json)', async () => {
    const root = vscode.workspace.workspaceFolders![0].uri;
    const dir = vscode.Uri.joinPath(root, 'broken');
    const file = vscode.Uri.joinPath(dir, 'ranklab.json');
    await vscode.workspace.fs.writeFile(file, Buffer.from('{\n  "metrics": 5\n}\n'));
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const diags = await waitForDiagnostics(file, 60000);
    console.log(`schema diagnostics: ${diags.map((d) => `${d.range.start.line + 1}: ${d.message}`).join(' | ')}`);
    assert.ok(
      diags.some((d) => d.range.start.line === 1 && /array/i.test(d.message)),
      'expected "Incorrect type. Expected array" on line 2',
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('reads the saved runs: baseline from ranklab.json, candidate = newest other run, queries by delta', async () => {
    const { controller } = await api();
    const model = controller.model();
    assert.deepEqual(
      model.runs.map((r) => r.id),
      ['2025-11-01-baseline', '2025-11-02-title-boost'],
    );
    assert.equal(model.baselineRunId, '2025-11-01-baseline');
    assert.equal(model.candidateRunId, '2025-11-02-title-boost');
    assert.equal(model.primaryMetric?.label.startsWith('nDCG@10, gain 2^rel−1'), true);
    assert.deepEqual(
      model.perQuery.map((q) => q.qid),
      ['q2', 'q3', 'q1'],
    );
    assert.deepEqual(model.problems, []);
  });

  test('Set as Baseline switches the comparison and the choice is kept', async () => {
    const { controller } = await api();
    try {
      const id = await vscode.commands.executeCommand<string>('ranklab.setBaseline', '2025-11-02-title-boost');
      assert.equal(id, '2025-11-02-title-boost');
      const model = controller.model();
      assert.equal(model.baselineRunId, '2025-11-02-title-boost');
      assert.equal(model.candidateRunId, '2025-11-01-baseline');
      assert.deepEqual(
        model.perQuery.map((q) => q.qid),
        ['q1', 'q3', 'q2'],
      );
    } finally {
      await vscode.commands.executeCommand('ranklab.setBaseline', '2025-11-01-baseline');
    }
  });

  test('a dashboard model names the runs its comparison was computed on, even when another pair is picked meanwhile', async () => {
    const { controller } = await api();
    const first = { baselineRunId: '2025-11-01-baseline', candidateRunId: '2025-11-02-title-boost' };
    try {
      controller.select(first);
      const pending = controller.dashboardModel();
      // Picked while the first comparison is being computed (as Compare with Baseline and the run pickers do).
      controller.select({ baselineRunId: first.candidateRunId, candidateRunId: first.baselineRunId });
      const model = await pending;
      assert.equal(model.candidateRunId, first.candidateRunId);
      assert.equal(model.baselineRunId, first.baselineRunId);
      assert.deepEqual(model.comparison?.runIds, { baseline: first.baselineRunId, candidate: first.candidateRunId });
      assert.equal(model.comparison?.candidate, 'title-boost');
    } finally {
      controller.select({});
    }
  });

  test('Export Run writes a TREC run (qid Q0 docid rank score tag) and the JSON as saved', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ranklab-export-'));
    const trec = vscode.Uri.file(path.join(dir, 'run.trec'));
    await vscode.commands.executeCommand('ranklab.exportRun', '2025-11-02-title-boost', 'trec', trec);
    const lines = fs.readFileSync(trec.fsPath, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 6);
    assert.equal(lines[0], 'q1 Q0 corpus/tomato-soup.md 1 7.9 title-boost');
    assert.equal(lines[2], 'q2 Q0 corpus/evil.md 1 9.5 title-boost');
    const json = vscode.Uri.file(path.join(dir, 'run.json'));
    await vscode.commands.executeCommand('ranklab.exportRun', '2025-11-01-baseline', 'json', json);
    const saved = JSON.parse(fs.readFileSync(json.fsPath, 'utf8'));
    assert.equal(saved.format, 'ranklab-run@1');
    assert.equal(saved.provenance.config, 'baseline');
  });

  test('Open Dashboard opens the webview panel', async () => {
    await vscode.commands.executeCommand('ranklab.openDashboard');
    // The tab model is updated asynchronously from the workbench: poll briefly.
    let tabs: vscode.Tab[] = [];
    for (let i = 0; i < 100; i++) {
      tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
      if (tabs.some((t) => t.label === 'Ranklab Dashboard')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const panel = tabs.find((t) => t.label === 'Ranklab Dashboard');
    assert.ok(panel, `no dashboard tab among [${tabs.map((t) => t.label).join(', ')}]`);
    assert.ok(panel.input instanceof vscode.TabInputWebview, 'the dashboard tab is a webview');
  });

  // Last: it adds runs to the workspace copy.
  test('Run Evaluation evaluates every config through the core and saves the runs the dashboard reads', async () => {
    const { controller } = await api();
    // null = no principal (every document): the command then does not ask (the food e2e test answers the question).
    const saved = await vscode.commands.executeCommand<string[]>('ranklab.runEvaluation', undefined, null);
    assert.ok(Array.isArray(saved), 'runEvaluation returned no list (it failed; see the Ranklab log)');
    assert.equal(saved.length, 2, `expected one run per config, got ${JSON.stringify(saved)}`);
    for (const f of saved) assert.ok(fs.existsSync(f), f);
    const model = controller.model();
    assert.equal(model.runs.length, 4);
    assert.deepEqual([...new Set(model.runs.map((r) => r.config))].sort(), ['baseline', 'title-boost']);
    const fresh = model.runs.filter((r) => !r.id.startsWith('2025-'));
    assert.equal(fresh.length, 2);
    for (const r of fresh) assert.equal(r.queryCount, 3);
    assert.ok(
      fresh.every((r) => r.principal === null && / · unrestricted · /.test(r.label)),
      'labelled unrestricted',
    );

    // As a principal: the run records it and its label says so.
    const asChef = await vscode.commands.executeCommand<string[]>('ranklab.runEvaluation', ['baseline'], 'chef');
    assert.equal(asChef.length, 1);
    assert.equal(JSON.parse(zlib.gunzipSync(fs.readFileSync(asChef[0])).toString('utf8')).principal, 'chef'); // saved runs are gzipped JSON
    const chefRun = controller.model().runs.find((r) => path.basename(asChef[0]) === `${r.id}.json.gz`);
    assert.equal(chefRun?.principal, 'chef');
    assert.match(chefRun!.label, /^baseline · as chef · /);
  });
});

function waitForDiagnostics(uri: vscode.Uri, timeoutMs: number): Promise<readonly vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const existing = vscode.languages.getDiagnostics(uri);
    if (existing.length) return resolve(existing);
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`no diagnostics for ${uri.fsPath} within ${timeoutMs} ms`));
    }, timeoutMs);
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (!e.uris.some((u) => u.toString() === uri.toString())) return;
      const d = vscode.languages.getDiagnostics(uri);
      if (d.length) {
        clearTimeout(timer);
        sub.dispose();
        resolve(d);
      }
    });
  });
}
