/** Helpers shared by several commands: the workspace folder, the config a command is about, picking a saved run. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { runIdOfFile } from '../../core/run/run-files';
import { InputError } from '../../core/util/diagnostics';
import type { RanklabContext } from '../context';
import type { RanklabSession } from '../../core/session/session';
import { runLabel } from '../dashboard/runs';
import type { StoredRun } from '../run-store';

/** The Ranklab workspace folder; throws when there is no local one. */
export function needFolder(ctx: RanklabContext): vscode.WorkspaceFolder {
  const folder = ctx.controller.folder;
  if (!folder || folder.uri.scheme !== 'file') throw new InputError('open a local folder containing ranklab.json');
  return folder;
}

/** The `*.rank.json` a command is about: its argument, else the active editor's file (unless a run id was passed). */
export function configUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  return typeof arg !== 'string' && active?.fsPath.endsWith('.rank.json') ? active : undefined;
}

/** A saved run's id from its file path (`.json.gz`, or an older `.json`: run-files.ts). */
export function runIdOf(file: string | undefined): string | undefined {
  return file ? runIdOfFile(path.basename(file)) : undefined;
}

/**
 * The run with id `runId`, else one the user picks from the saved runs (undefined when they cancel or there is none).
 * Runs are listed as "config · principal · time · headline metric"; typing filters on all of it and on the id.
 */
export async function pickRun(ctx: RanklabContext, placeHolder: string, runId?: string): Promise<StoredRun | undefined> {
  const { controller } = ctx;
  if (runId) {
    const r = controller.findRun(runId);
    if (!r) throw new InputError(`no saved run "${runId}" in ${controller.runsFolder}`);
    return r;
  }
  const runs = controller.runs().runs;
  if (runs.length === 0) {
    void vscode.window.showInformationMessage(`Ranklab: no saved runs in ${controller.runsFolder} yet.`);
    return undefined;
  }
  const headline = controller.settings.primaryMetric;
  const picked = await vscode.window.showQuickPick(
    [...runs].reverse().map((r) => ({
      label: runLabel(r, headline ?? r.summary.metricSpecs[0]),
      description: r.id,
      detail: r.summary.provenance.createdAt,
      run: r,
    })),
    { placeHolder, matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.run;
}

/**
 * A principal of the workspace's principals file, picked by the user: null for none (every document: the first
 * item, picked by Enter), undefined when they cancel. Without a principals file there is nothing to pick: null.
 */
export async function pickPrincipal(
  ctx: RanklabContext,
  session: RanklabSession,
  placeHolder: string,
  noneDescription: string,
): Promise<string | null | undefined> {
  let names: string[] = [];
  try {
    if (!session.principalsFile()) return null;
    names = session.principals().map((p) => p.name);
  } catch (e) {
    ctx.log.warn(`no principals: ${(e as Error).message}`);
  }
  if (names.length === 0) return null;
  const picked = await vscode.window.showQuickPick(
    [
      { label: '$(globe) No principal', description: noneDescription, name: null as string | null },
      ...names.map((n) => ({ label: `$(person) ${n}`, description: '', name: n as string | null })),
    ],
    { placeHolder },
  );
  return picked ? picked.name : undefined;
}
