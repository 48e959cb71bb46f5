import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RanklabApi } from '../../../src/extension/extension';

const EXT_ID = 'ranklab.ranklab';

interface PackageJson {
  contributes: { commands: { command: string }[]; menus: { commandPalette: { command: string; when?: string }[] } };
}

async function api(): Promise<RanklabApi> {
  const e = vscode.extensions.getExtension<RanklabApi>(EXT_ID);
  assert.ok(e, `extension ${EXT_ID} not found`);
  return e.activate();
}

suite('Ranklab command table', () => {
  test('the table and package.json contributes.commands agree; internal commands are exactly those hidden from the palette', async () => {
    const { commands } = await api();
    const pkg: PackageJson = vscode.extensions.getExtension(EXT_ID)!.packageJSON;
    const contributed = pkg.contributes.commands.map((c) => c.command).sort();
    const table = commands.map((c) => c.id).sort();
    assert.ok(table.length > 0);
    for (const id of contributed) assert.ok(table.includes(id), `${id} is contributed but not in the command table`);
    for (const c of commands)
      assert.ok(c.internal || contributed.includes(c.id), `${c.id} is in the table but neither contributed nor internal`);
    const hidden = pkg.contributes.menus.commandPalette
      .filter((m) => m.when === 'false')
      .map((m) => m.command)
      .sort();
    const internalContributed = commands
      .filter((c) => c.internal && contributed.includes(c.id))
      .map((c) => c.id)
      .sort();
    assert.deepEqual(internalContributed, hidden);
  });

  test('VS Code knows every command of the table, and no other ranklab.* command', async () => {
    const { commands } = await api();
    const registered = (await vscode.commands.getCommands(true)).filter((id) => id.startsWith('ranklab.')).sort();
    assert.deepEqual(registered, commands.map((c) => c.id).sort());
  });

  test('a failing command resolves to undefined (the wrapper reports it) instead of rejecting', async () => {
    await api();
    const target = vscode.Uri.file(path.join(os.tmpdir(), 'ranklab-never-written.json'));
    const r = await vscode.commands.executeCommand('ranklab.exportRun', 'no-such-run', 'json', target);
    assert.equal(r, undefined);
  });
});

suite('Create Workspace', () => {
  test('with a folder and no confirmation: writes ranklab.json and the starter configs, opens ranklab.json; never overwrites', async () => {
    await api();
    const fs = await import('node:fs');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ranklab-create-'));
    fs.writeFileSync(
      path.join(dir, 'items.jsonl'),
      '{"doc_id": "a", "headline": "espresso", "content": "a short espresso"}\n{"doc_id": "b", "headline": "filter", "content": "filter coffee"}\n',
    );
    const r = await vscode.commands.executeCommand<{ written: string[]; plan: { corpus: { fields: Record<string, string> } } }>(
      'ranklab.createWorkspace',
      vscode.Uri.file(dir),
      { confirm: false },
    );
    assert.ok(r, 'the command returned its result');
    assert.ok(r.written.includes('ranklab.json') && r.written.includes('configs/baseline.rank.json'));
    assert.deepEqual(r.plan.corpus.fields, { id: 'doc_id', title: 'headline', body: 'content' });
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, path.join(dir, 'ranklab.json'));
    const before = fs.readFileSync(path.join(dir, 'ranklab.json'), 'utf8');
    const again = await vscode.commands.executeCommand('ranklab.createWorkspace', vscode.Uri.file(dir), { confirm: false });
    assert.equal(again, undefined, 'an existing ranklab.json is reported, not overwritten');
    assert.equal(fs.readFileSync(path.join(dir, 'ranklab.json'), 'utf8'), before);
  });
});
