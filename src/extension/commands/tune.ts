/** "Ranklab: Tune Config…" (and the CodeLens "Tune…"): opens the Tune view (src/extension/tune/) on a *.rank.json. */
import * as vscode from 'vscode';
import type { RanklabContext } from '../context';
import { configUri, needFolder } from './common';

/** The config: the argument (a Uri or a path), else the active editor's, else one picked from the workspace. */
export const tuneConfig = (ctx: RanklabContext) => async (arg?: vscode.Uri | string) => {
  const folder = needFolder(ctx);
  let file = typeof arg === 'string' ? arg : configUri(arg)?.fsPath;
  if (!file) {
    const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*.rank.json'), '**/node_modules/**');
    const pick = await vscode.window.showQuickPick(
      found.map((uri) => ({ label: vscode.workspace.asRelativePath(uri), uri })).sort((a, b) => a.label.localeCompare(b.label)),
      { placeHolder: 'Config to tune' },
    );
    if (!pick) return undefined;
    file = pick.uri.fsPath;
  }
  return ctx.tune.open(file);
};
