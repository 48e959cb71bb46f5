/** Commands that show the dashboard: open it, and compare a config or a saved run with the baseline in it. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { InputError } from '../../core/util/diagnostics';
import type { RanklabContext } from '../context';
import { configUri, needFolder, pickRun, runIdOf } from './common';

export const openDashboard = (ctx: RanklabContext) => () => {
  // Listed afresh (the folder stat'ed, only new files read): a run written while VS Code's file watcher was still
  // starting (a CLI eval in the terminal as the editor opened) sends no event and would otherwise stay unlisted.
  ctx.controller.invalidate();
  ctx.dashboard.show();
  return true;
};

/**
 * With a config (argument or active editor): evaluate it and the baseline (saved runs reused when unchanged), then
 * show the core's comparison. With a run id, or nothing: compare that run (or one the user picks) with the baseline.
 */
export const compareWithBaseline = (ctx: RanklabContext) => async (arg?: string | vscode.Uri) => {
  const { controller, dashboard, live } = ctx;
  const target = configUri(arg);
  if (target) {
    const state = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Ranklab: comparing ${path.basename(target.fsPath)} with the baseline` },
      () => live.evaluate(target.fsPath, needFolder(ctx)),
    );
    if (state.status !== 'done' || !state.result) throw new InputError(`${path.basename(target.fsPath)}: ${state.error ?? state.status}`);
    const candidateRunId = runIdOf(state.result.candidate.path);
    const baselineRunId = runIdOf(state.result.baseline?.path) ?? controller.baselineRunId;
    // The pick first: the dashboard's refresh on invalidate() then computes this pair, not the previous one.
    controller.select({ candidateRunId, baselineRunId });
    controller.invalidate();
    dashboard.show({ candidateRunId, baselineRunId });
    return candidateRunId;
  }
  const cand = await pickRun(ctx, 'Run to compare with the baseline', typeof arg === 'string' ? arg : undefined);
  if (!cand) return undefined;
  const baselineRunId = controller.selection.baselineRunId ?? controller.baselineRunId;
  controller.select({ candidateRunId: cand.id, baselineRunId });
  dashboard.show({ candidateRunId: cand.id, baselineRunId });
  return cand.id;
};
