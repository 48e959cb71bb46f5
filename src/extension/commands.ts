/**
 * Command handlers. Thin: pick inputs in the UI, call the core (or the run store), show results.
 * Every command accepts its inputs as arguments too, so tests and other commands can call it without UI.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { checkAccessControl } from './acl';
import type { LiveEvaluator } from './live';
import type { RanklabDiagnostics } from './diagnostics';
import type { Run } from '../core/run/types';
import { formatTrecRun } from '../core/run/trec-run';
import { InputError } from '../core/util/diagnostics';
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

export function registerCommands(context: vscode.ExtensionContext, controller: RanklabController, live?: LiveEvaluator, diagnostics?: RanklabDiagnostics): vscode.Disposable[] {
  const log = controller.log;
  const reg = (id: string, fn: (...args: any[]) => unknown) =>
    vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        log.error(`${id} failed: ${(e as Error)?.stack ?? e}`);
        void vscode.window.showErrorMessage(`Ranklab: ${toastMessage(e)}`);
        return undefined;
      }
    });

  const pickRun = async (placeHolder: string, runId?: string): Promise<StoredRun | undefined> => {
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
    const picked = await vscode.window.showQuickPick(
      [...runs].reverse().map((r) => ({ label: r.run.provenance.config, description: r.id, detail: r.run.provenance.createdAt, run: r })),
      { placeHolder },
    );
    return picked?.run;
  };

  const needFolder = (): vscode.WorkspaceFolder => {
    const folder = controller.folder;
    if (!folder || folder.uri.scheme !== 'file' || !controller.sessions) throw new InputError('open a local folder containing ranklab.json');
    return folder;
  };
  const runIdOf = (file: string | undefined) => (file ? path.basename(file).replace(/\.json$/, '') : undefined);
  /** The `*.rank.json` a command is about: its argument, else the active editor's file. */
  const configUri = (arg: unknown): vscode.Uri | undefined => {
    if (arg instanceof vscode.Uri) return arg;
    const active = vscode.window.activeTextEditor?.document.uri;
    return typeof arg !== 'string' && active?.fsPath.endsWith('.rank.json') ? active : undefined;
  };

  return [
    reg('ranklab.openDashboard', () => {
      DashboardPanel.show(context, controller);
      return true;
    }),
    reg('ranklab.runEvaluation', async (only?: string[]) => {
      const saved = await runEvaluation(controller, Array.isArray(only) ? only : undefined);
      DashboardPanel.show(context, controller);
      return saved;
    }),
    // Internal (CodeLens "Run"): evaluate one config against the baseline now.
    reg('ranklab.evaluateConfig', async (uri?: vscode.Uri) => {
      const target = configUri(uri);
      if (!target || !live) throw new InputError('open a *.rank.json to evaluate it');
      const state = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `Ranklab: evaluating ${path.basename(target.fsPath)}` },
        () => live.evaluate(target.fsPath, needFolder()),
      );
      controller.invalidate();
      if (state.status !== 'done') throw new InputError(`${path.basename(target.fsPath)}: ${state.error ?? state.status}`);
      return { candidateRunId: runIdOf(state.result?.candidate.path), baselineRunId: runIdOf(state.result?.baseline?.path) };
    }),
    reg('ranklab.compareWithBaseline', async (arg?: string | vscode.Uri) => {
      const target = configUri(arg);
      if (target && live) {
        // A config: evaluate it and the baseline (saved runs reused when unchanged), then show the core's comparison.
        const state = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Ranklab: comparing ${path.basename(target.fsPath)} with the baseline` },
          () => live.evaluate(target.fsPath, needFolder()),
        );
        if (state.status !== 'done' || !state.result) throw new InputError(`${path.basename(target.fsPath)}: ${state.error ?? state.status}`);
        controller.invalidate();
        const candidateRunId = runIdOf(state.result.candidate.path);
        const baselineRunId = runIdOf(state.result.baseline?.path) ?? controller.baselineRunId;
        controller.candidateRunId = candidateRunId;
        DashboardPanel.show(context, controller, { candidateRunId, baselineRunId });
        return candidateRunId;
      }
      const candidateRunId = typeof arg === 'string' ? arg : undefined;
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
      const text = fmt === 'trec' ? formatTrecRun(toRun(r), r.run.provenance.config) : JSON.stringify(r.run, null, 2) + '\n';
      await vscode.workspace.fs.writeFile(dest, Buffer.from(text, 'utf8'));
      log.info(`exported run ${r.id} as ${fmt} to ${dest.fsPath}`);
      return dest.toString();
    }),
    reg('ranklab.rebuildIndex', async () => {
      const folder = needFolder();
      return vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Ranklab: rebuilding the index', cancellable: false },
        (progress) =>
          controller.sessions!.exclusive(folder, 'indexing', async (old) => {
            // Cached index files go (lexical, vector, LSA); embeddings stay: they depend on the model, not on the index.
            const cacheDir = old.workspace.cacheDir;
            if (existsSync(cacheDir)) {
              for (const name of readdirSync(cacheDir)) if (name !== 'embeddings') rmSync(path.join(cacheDir, name), { recursive: true, force: true });
            }
            old.dropEngines();
            controller.sessions!.reset(folder);
            const session = controller.sessions!.session(folder);
            progress.report({ message: 'reading the corpus' });
            const docs = session.corpus().docs.length;
            const configs = session.configEntries().filter((e) => e.config);
            const built: string[] = [];
            for (const [i, e] of configs.entries()) {
              progress.report({ message: `${e.name} (${i + 1}/${configs.length})`, increment: 100 / configs.length });
              try {
                await session.engine(e.config!);
                built.push(e.name);
              } catch (err) {
                log.warn(`rebuild: ${e.name}: ${(err as Error).message}`);
              }
            }
            log.info(`rebuilt indexes of ${built.length}/${configs.length} configs over ${docs} documents`);
            void vscode.window.setStatusBarMessage(`Ranklab: index rebuilt (${docs} documents, ${built.length} configs)`, 5000);
            return { docs, configs: built };
          }),
      );
    }),
    reg('ranklab.checkAccessControl', async () => {
      const r = await checkAccessControl(controller, diagnostics);
      DashboardPanel.show(context, controller);
      return r ? { violations: r.violations.length, checked: r.checked } : undefined;
    }),
    reg('ranklab.searchAsPrincipal', async (queryArg?: string, principalArg?: string, configArg?: string) => {
      const folder = needFolder();
      const session = controller.sessions!.session(folder);
      const text = queryArg ?? (await vscode.window.showInputBox({ prompt: 'Ranklab: search as a principal', placeHolder: 'query text' }));
      if (!text) return undefined;
      let principal = principalArg;
      if (principal === undefined) {
        let names: string[] = [];
        try {
          names = session.principals().map((p) => p.name);
        } catch (e) {
          log.warn(`no principals: ${(e as Error).message}`);
        }
        const picked = await vscode.window.showQuickPick(
          [{ label: '$(globe) no principal', description: 'search the whole corpus', name: '' }, ...names.map((n) => ({ label: n, description: '', name: n }))],
          { placeHolder: 'Search as…' },
        );
        if (!picked) return undefined;
        principal = picked.name;
      }
      const config = session.resolveConfig(configArg ?? (configUri(undefined) ? configUri(undefined)!.fsPath : undefined));
      const r = await controller.sessions!.exclusive(folder, 'searching', () => session.search(config, text, { principal: principal || undefined }));
      const items = r.docs.map((d, i) => ({ label: `${i + 1}. ${d.title ?? d.id}`, description: d.score.toFixed(3), detail: d.id, docId: d.id }));
      if (queryArg !== undefined) return r.docs.map((d) => ({ id: d.id, title: d.title, score: d.score }));
      const picked = await vscode.window.showQuickPick(items, {
        placeHolder: `${r.total} match(es) for "${text}" as ${principal || 'anyone'} with ${config.name} (${r.latencyMs.total.toFixed(1)} ms)`,
        matchOnDetail: true,
      });
      if (picked) await vscode.commands.executeCommand('ranklab.openDocument', picked.docId);
      return picked?.docId;
    }),
    // Internal: used by the dashboard (not in the palette).
    reg('ranklab.openDocument', async (docId: string) => {
      // Documents open where the corpus read them from (Document.source: path and, for records, the line).
      const source = typeof docId === 'string' ? controller.documentSource(docId) : undefined;
      const abs = source ? controller.resolveInside(source.path) : typeof docId === 'string' ? controller.resolveInside(docId) : undefined;
      if (abs && existsSync(abs)) {
        const line = Math.max(0, (source?.line ?? 1) - 1);
        await vscode.window.showTextDocument(vscode.Uri.file(abs), { preview: true, selection: new vscode.Range(line, 0, line, 0) });
        return true;
      }
      void vscode.window.showInformationMessage(`Ranklab: document "${docId}" has no file of that name in the workspace.`);
      return false;
    }),
    reg('ranklab.openQuery', async (qid: string) => {
      let at: { file: string; line: number } | undefined;
      try {
        const session = controller.session();
        const loc = session?.judgments().queryLocations?.get(qid);
        if (session && loc) at = { file: path.resolve(session.root, loc.file), line: loc.line };
      } catch {
        at = undefined;
      }
      if (at && existsSync(at.file)) {
        const pos = new vscode.Position(Math.max(0, at.line - 1), 0);
        await vscode.window.showTextDocument(vscode.Uri.file(at.file), { selection: new vscode.Range(pos, pos), preview: true });
        return true;
      }
      // Fallback without a session: find the query id in the judgment files (a text search; the core's judgment locations replace this later).
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

/**
 * What a toast shows of an error: the message's first line only (never a stack); for an error that is not the
 * user's (a bug), a pointer to the output channel, where the stack is.
 */
export function toastMessage(e: unknown): string {
  const message = (e instanceof Error ? e.message : String(e)).split('\n')[0].trim() || 'unexpected error';
  return e instanceof InputError ? message : `${message} (details in the Ranklab output)`;
}

function toRun(r: StoredRun): Run {
  return new Map(r.run.queries.map((q) => [q.qid, q.docs]));
}
