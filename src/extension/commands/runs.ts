/** Commands on saved runs: set the baseline, export a run (TREC or JSON). */
import * as vscode from 'vscode';
import type { Run } from '../../core/run/types';
import { formatTrecRun } from '../../core/run/trec-run';
import { expandedRunJson } from '../../core/run/run-format';
import type { RanklabContext } from '../context';
import type { StoredRun } from '../run-store';
import { pickRun } from './common';

export type ExportFormat = 'trec' | 'json';

export const setBaseline = (ctx: RanklabContext) => async (runId?: string) => {
  const r = await pickRun(ctx, 'Run to use as the baseline', runId);
  if (!r) return undefined;
  await ctx.controller.setBaseline(r.id);
  void vscode.window.setStatusBarMessage(`Ranklab: baseline is now ${r.summary.provenance.config} (${r.id})`, 4000);
  return r.id;
};

/** Writes a run as a TREC run file or as the saved JSON; run, format and target are asked for when not passed. */
export const exportRun = (ctx: RanklabContext) => async (runId?: string, format?: ExportFormat, target?: vscode.Uri) => {
  const r = await pickRun(ctx, 'Run to export', runId);
  if (!r) return undefined;
  const fmt =
    format ??
    (
      await vscode.window.showQuickPick(
        [
          { label: 'TREC run', description: 'qid Q0 docid rank score tag', fmt: 'trec' as const },
          { label: 'JSON', description: 'the whole run, expanded (ranklab-run@1: one object per ranked document)', fmt: 'json' as const },
        ],
        { placeHolder: 'Export format' },
      )
    )?.fmt;
  if (!fmt) return undefined;
  const ext = fmt === 'trec' ? 'trec' : 'json';
  const dest =
    target ??
    (await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(ctx.controller.folder?.uri ?? vscode.Uri.file('/'), `${r.id}.${ext}`),
      filters: fmt === 'trec' ? { 'TREC run': ['trec', 'txt', 'run'] } : { JSON: ['json'] },
    }));
  if (!dest) return undefined;
  const text = fmt === 'trec' ? formatTrecRun(toRun(r), r.summary.provenance.config) : expandedRunJson(r.run);
  await vscode.workspace.fs.writeFile(dest, Buffer.from(text, 'utf8'));
  ctx.log.info(`exported run ${r.id} as ${fmt} to ${dest.fsPath}`);
  return dest.toString();
};

function toRun(r: StoredRun): Run {
  return new Map(r.run.queries.map((q) => [q.qid, q.docs]));
}
