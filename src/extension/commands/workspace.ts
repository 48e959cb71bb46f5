/** "Create Workspace": `ranklab init` in the editor, over the same core functions (src/core/workspace/init.ts). */
import * as vscode from 'vscode';
import { formatInit } from '../../core/report/init';
import { planWorkspace, writeWorkspace, type WorkspacePlan, type WriteResult } from '../../core/workspace/init';
import type { RanklabContext } from '../context';

export interface CreateWorkspaceOptions {
  /** Ask before writing, showing the mapping found (default true; tests pass false). */
  confirm?: boolean;
}

/**
 * Looks at `folder` (else the open local folder, else one the user picks), shows the field mapping and judgments
 * found, writes ranklab.json and the starter configs (never over a file) and opens ranklab.json.
 * Returns what was written, or undefined when the user cancels.
 */
export const createWorkspace =
  (ctx: RanklabContext) =>
  async (folder?: vscode.Uri, options: CreateWorkspaceOptions = {}): Promise<(WriteResult & { plan: WorkspacePlan }) | undefined> => {
    const dir = folder ?? (await pickFolder(ctx));
    if (!dir) return undefined;
    const plan = planWorkspace(dir.fsPath); // InputError (ranklab.json exists, nothing to search): shown by the wrapper
    if (options.confirm !== false) {
      const choice = await vscode.window.showInformationMessage(
        `Create a Ranklab workspace in ${dir.fsPath}?`,
        { modal: true, detail: mappingSummary(plan) },
        'Create',
      );
      if (choice !== 'Create') return undefined;
    }
    const result = writeWorkspace(plan);
    ctx.log.info(formatInit(plan, result, dir.fsPath));
    await vscode.window.showTextDocument(vscode.Uri.joinPath(dir, 'ranklab.json'), { preview: false });
    const opened = vscode.workspace.getWorkspaceFolder(dir);
    if (!opened) {
      void vscode.window
        .showInformationMessage(`Ranklab: workspace created in ${dir.fsPath}. Open that folder to run evaluations.`, 'Open Folder')
        .then((c) => {
          if (c) void vscode.commands.executeCommand('vscode.openFolder', dir);
        });
    }
    return { ...result, plan };
  };

async function pickFolder(ctx: RanklabContext): Promise<vscode.Uri | undefined> {
  const open = ctx.controller.folder;
  if (open?.uri.scheme === 'file') return open.uri;
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Create Ranklab Workspace',
  });
  return picked?.[0];
}

/** The mapping and judgments found, as the confirmation shows them. */
function mappingSummary(plan: WorkspacePlan): string {
  const c = plan.corpus;
  const fields = (['id', 'title', 'body'] as const).map((k) => `${k} ← ${c.fields[k] ?? '(default)'}`).join(', ');
  const acl = Object.entries(c.acl)
    .map(([k, v]) => `${k} ← ${v}`)
    .join(', ');
  return [
    `Documents: ${c.include.join(', ')}`,
    `Fields: ${fields}`,
    ...(acl ? [`Access fields: ${acl}`] : []),
    `Judgments: ${plan.judgments.length ? plan.judgments.map((j) => j.files.join(' + ')).join('; ') : 'none found (add them to ranklab.json before evaluating)'}`,
    ...plan.warnings.map((w) => `⚠ ${w}`),
    '',
    `Writes: ${plan.files
      .filter((f) => !f.exists)
      .map((f) => f.path)
      .join(', ')}`,
  ].join('\n');
}
