/** "Ranklab: Sweep Parameter": vary one or two numeric settings of a *.rank.json and show the curve (src/extension/sweep/). */
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { parseVary, type Variation } from '../../core/tuning/parameters';
import { InputError } from '../../core/util/diagnostics';
import { parseJsonWithLocations } from '../../core/util/json-source';
import type { RanklabContext } from '../context';
import { defaultRange, numericSettings, settingAt } from '../sweep/model';
import { configUri } from './common';

/** What the command may be given (tests pass all of it; the UI asks for what is missing). */
export interface SweepRequest {
  /** The config file (default: the active editor's). */
  config?: string;
  /** `--vary` specs, e.g. `lexical.fields.title=1..5:0.5` (default: the setting under the cursor, else one picked, and a range typed). */
  vary?: string[];
}

export const sweepParameter = (ctx: RanklabContext) => async (arg?: SweepRequest | vscode.Uri) => {
  const request: SweepRequest = arg && !(arg instanceof vscode.Uri) && typeof arg === 'object' ? arg : {};
  const file = request.config ?? configUri(arg instanceof vscode.Uri ? arg : undefined)?.fsPath;
  if (!file) throw new InputError('open a *.rank.json to sweep one of its settings');
  const text = readFileSync(file, 'utf8');
  const raw = parseJsonWithLocations(text, { comments: true }).value;
  const fields = Object.keys(((raw as { lexical?: { fields?: object } }).lexical?.fields) ?? {});
  let variations: Variation[];
  if (request.vary?.length) {
    variations = request.vary.map((v) => parseVary(v, fields));
  } else {
    const settings = numericSettings(raw);
    if (settings.length === 0) throw new InputError('this config writes no numeric setting a sweep can vary (e.g. lexical.fields.title)', [], { file });
    const editor = vscode.window.activeTextEditor;
    const underCursor = editor?.document.uri.fsPath === file ? settingAt(editor.document.getText(), editor.document.offsetAt(editor.selection.active), raw) : undefined;
    const path = underCursor ?? (await vscode.window.showQuickPick(settings.map((s) => ({ label: s.path, description: `now ${s.value}` })), { placeHolder: 'Setting to sweep' }))?.label;
    if (!path) return undefined;
    const value = settings.find((s) => s.path === path)!.value;
    const range = await vscode.window.showInputBox({
      prompt: `Values of ${path}: FROM..TO:STEP or V1,V2,...`,
      value: defaultRange(path, value),
      validateInput: (v) => {
        try {
          parseVary(`${path}=${v}`, fields);
          return undefined;
        } catch (e) {
          return (e as Error).message;
        }
      },
    });
    if (range === undefined) return undefined;
    variations = [parseVary(`${path}=${range}`, fields)];
  }
  return ctx.sweep.sweep(file, variations);
};
