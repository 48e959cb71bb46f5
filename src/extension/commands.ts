/**
 * Command handlers. Thin: pick inputs in the UI, call the core (or the run store), show results.
 * Every command accepts its inputs as arguments too, so tests and other commands can call it without UI.
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import type { Run } from '../core/run/types';
import { formatTrecRun } from '../core/run/trec-run';
import type { RanklabController } from './controller';
import { DashboardPanel } from './dashboard/panel';
import { runEvaluation } from './evaluate';
import type { StoredRun } from './runStore';

export const COMMAND_IDS = [
  'ranklab.runEvaluation',
  'ranklab.compareWithBaseline',
  'ranklab.checkAccessControl',
  'ranklab.openDashboard',
  'ranklab.rebuildIndex',
  'ranklab.setBaseline',
  'ranklab.exportRun',
  'ranklab.searchAsPrincipal',
] as const;

export type ExportFormat = 'trec' | 'json';

export function registerCommands(context: vscode.ExtensionContext, controller: RanklabController): vscode.Disposable[] {
  const log = controller.log;
  const reg = (id: string, fn: (...args: any[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        log.error(`${id} failed: ${(e as Error).stack ?? e}`);
        void vscode.window.showErrorMessage(`Ranklab: ${(e as Error).message}`);
        return undefined;
      }
    });

  const pickRun = async (placeHolder: string, runId?: string): Promise<StoredRun | undefined> => {
    if (runId) {
      const r = controller.findRun(runId);
      if (!r) throw new Error(`no saved run "${runId}" in ${controller.runsFolder}`);
      return r;
    }
    const runs = controller.runs().runs;
    if (runs.length === 0) {
      void vscode.window.showInformationMessage(`Ranklab: no saved runs in ${controller.runsFolder} yet.`);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      [...runs].reverse().map((r) => ({ label: r.run.provenance.config, description: r.id, detail: r.run.provenance.createdAt, run: r })),
      { placeHolder },
    );
    return picked?.run;
  };

  const notYet = (what: string) => {
    const msg = `Ranklab: ${what} needs the evaluation engine, which this build does not include yet. Saved runs in ${controller.runsFolder} are shown in the dashboard.`;
    log.warn(msg);
    void vscode.window.showWarningMessage(msg);
  };

  return [
    reg('ranklab.openDashboard', () => {
      DashboardPanel.show(context, controller);
      return true;
    }),
    reg('ranklab.runEvaluation', async () => {
      const saved = await runEvaluation(controller);
      DashboardPanel.show(context, controller);
      return saved;
    }),
    reg('ranklab.compareWithBaseline', async (candidateRunId?: string) => {
      const cand = await pickRun('Run to compare with the baseline', candidateRunId);
      if (!cand) return undefined;
      controller.candidateRunId = cand.id;
      DashboardPanel.show(context, controller, { candidateRunId: cand.id, baselineRunId: controller.baselineRunId });
      return cand.id;
    }),
    reg('ranklab.setBaseline', async (runId?: string) => {
      const r = await pickRun('Run to use as the baseline', runId);
      if (!r) return undefined;
      await controller.setBaseline(r.id);
      void vscode.window.setStatusBarMessage(`Ranklab: baseline is now ${r.run.provenance.config} (${r.id})`, 4000);
      return r.id;
    }),
    reg('ranklab.exportRun', async (runId?: string, format?: ExportFormat, target?: vscode.Uri) => {
      const r = await pickRun('Run to export', runId);
      if (!r) return undefined;
      const fmt =
        format ??
        (
          await vscode.window.showQuickPick(
            [
              { label: 'TREC run', description: 'qid Q0 docid rank score tag', fmt: 'trec' as const },
              { label: 'JSON', description: 'the saved run as is (ranklab-run@1)', fmt: 'json' as const },
            ],
            { placeHolder: 'Export format' },
          )
        )?.fmt;
      if (!fmt) return undefined;
      const ext = fmt === 'trec' ? 'trec' : 'json';
      const dest =
        target ??
        (await vscode.window.showSaveDialog({
          defaultUri: vscode.Uri.joinPath(controller.folder?.uri ?? vscode.Uri.file('/'), `${r.id}.${ext}`),
          filters: fmt === 'trec' ? { 'TREC run': ['trec', 'txt', 'run'] } : { JSON: ['json'] },
        }));
      if (!dest) return undefined;
      const text = fmt === 'trec' ? formatTrecRun(toRun(r), trecTag(r.run.provenance.config)) : JSON.stringify(r.run, null, 2) + '\n';
      await vscode.workspace.fs.writeFile(dest, Buffer.from(text, 'utf8'));
      log.info(`exported run ${r.id} as ${fmt} to ${dest.fsPath}`);
      return dest.toString();
    }),
    reg('ranklab.rebuildIndex', () => notYet('Rebuild Index')),
    reg('ranklab.checkAccessControl', () => notYet('Check Access Control')),
    reg('ranklab.searchAsPrincipal', () => notYet('Search as Principal')),
    // Internal: used by the dashboard (not in the palette).
    reg('ranklab.openDocument', async (docId: string) => {
      const abs = typeof docId === 'string' ? controller.resolveInside(docId) : undefined;
      if (abs && existsSync(abs)) {
        await vscode.window.showTextDocument(vscode.Uri.file(abs), { preview: true });
        return true;
      }
      void vscode.window.showInformationMessage(`Ranklab: document "${docId}" has no file of that name in the workspace.`);
      return false;
    }),
    reg('ranklab.openQuery', async (qid: string) => {
      // Find the query id in the judgment files (a text search; the core's judgment locations replace this later).
      const hits = await vscode.workspace.findFiles('**/{judgments,qrels}/**', '**/node_modules/**', 50);
      for (const uri of hits) {
        const doc = await vscode.workspace.openTextDocument(uri);
        const text = doc.getText();
        const at = [`"${qid}"`, `\n${qid}\t`, `\n${qid} `].map((s) => text.indexOf(s)).filter((i) => i >= 0).sort((a, b) => a - b)[0];
        if (at !== undefined) {
          const pos = doc.positionAt(at + (text[at] === '\n' ? 1 : 0));
          await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos), preview: true });
          return true;
        }
      }
      void vscode.window.showInformationMessage(`Ranklab: query "${qid}" not found in judgments/ or qrels/.`);
      return false;
    }),
  ];
}

function toRun(r: StoredRun): Run {
  return new Map(r.run.queries.map((q) => [q.qid, q.docs]));
}

/** TREC tags are one whitespace-free token. */
function trecTag(config: string): string {
  return config.replace(/\s+/g, '_') || 'ranklab';
}
