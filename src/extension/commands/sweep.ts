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

const ONE_SETTING = 'Sweep this one setting';
const TWO_SETTINGS = 'Add a second setting (heatmap)…';

export const sweepParameter = (ctx: RanklabContext) => async (arg?: SweepRequest | vscode.Uri) => {
  const request: SweepRequest = arg && !(arg instanceof vscode.Uri) && typeof arg === 'object' ? arg : {};
  const file = request.config ?? configUri(arg instanceof vscode.Uri ? arg : undefined)?.fsPath;
  if (!file) throw new InputError('open a *.rank.json to sweep one of its settings');
  const text = readFileSync(file, 'utf8');
  const raw = parseJsonWithLocations(text, { comments: true }).value;
  const fields = Object.keys((raw as { lexical?: { fields?: object } }).lexical?.fields ?? {});
  let variations: Variation[];
  if (request.vary?.length) {
    variations = request.vary.map((v) => parseVary(v, fields));
  } else {
    const settings = numericSettings(raw);
    if (settings.length === 0)
      throw new InputError('this config writes no numeric setting a sweep can vary (e.g. lexical.fields.title)', [], { file });
    const editor = vscode.window.activeTextEditor;
    const underCursor =
      editor?.document.uri.fsPath === file
        ? settingAt(editor.document.getText(), editor.document.offsetAt(editor.selection.active), raw)
        : undefined;
    const pickSetting = async (placeHolder: string, except?: string) =>
      (
        await vscode.window.showQuickPick(
          settings.filter((s) => s.path !== except).map((s) => ({ label: s.path, description: `now ${s.value}` })),
          { placeHolder },
        )
      )?.label;
    const first = underCursor ?? (await pickSetting('Setting to sweep'));
    if (!first) return undefined;
    const firstVary = await askRange(first, settings, fields);
    if (!firstVary) return undefined;
    variations = [firstVary];
    // A second setting turns the curve into a heatmap (every pair of values).
    if (settings.length > 1) {
      const more = await vscode.window.showQuickPick(
        [
          { label: ONE_SETTING, description: `a curve over ${first}` },
          { label: TWO_SETTINGS, description: 'every pair of values of two settings' },
        ],
        { placeHolder: `Sweep ${first} alone, or against a second setting?` },
      );
      if (!more) return undefined;
      if (more.label === TWO_SETTINGS) {
        const second = await pickSetting(`Second setting (the heatmap's columns; rows are ${first})`, first);
        if (!second) return undefined;
        const secondVary = await askRange(second, settings, fields);
        if (!secondVary) return undefined;
        variations.push(secondVary);
      }
    }
  }
  return ctx.sweep.sweep(file, variations);
};

/** The values of one setting, typed as FROM..TO:STEP or a list (checked as the CLI's --vary checks them); undefined when dismissed. */
async function askRange(path: string, settings: { path: string; value: number }[], fields: string[]): Promise<Variation | undefined> {
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
  return range === undefined ? undefined : parseVary(`${path}=${range}`, fields);
}
