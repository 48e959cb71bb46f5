/** Commands that evaluate: every config (Run Evaluation), one config (Evaluate This Config, the CodeLens "Run"), and Rebuild Index. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { InputError } from '../../core/util/diagnostics';
import type { RanklabContext } from '../context';
import { runEvaluation as evaluateAll } from '../evaluate';
import { configUri, needFolder, runIdOf } from './common';

/** Evaluates the configs named in `only` (all when absent), saves the runs and shows the dashboard. */
export const runEvaluation = (ctx: RanklabContext) => async (only?: string[]) => {
  const saved = await evaluateAll(ctx.controller, Array.isArray(only) ? only : undefined);
  ctx.dashboard.show();
  return saved;
};

/** Evaluates one config against the baseline now; returns the ids of the two runs. */
export const evaluateConfig = (ctx: RanklabContext) => async (uri?: vscode.Uri) => {
  const target = configUri(uri);
  if (!target) throw new InputError('open a *.rank.json to evaluate it');
  const state = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Ranklab: evaluating ${path.basename(target.fsPath)}` },
    () => ctx.live.evaluate(target.fsPath, needFolder(ctx)),
  );
  ctx.controller.invalidate();
  if (state.status !== 'done') throw new InputError(`${path.basename(target.fsPath)}: ${state.error ?? state.status}`);
  return { candidateRunId: runIdOf(state.result?.candidate.path), baselineRunId: runIdOf(state.result?.baseline?.path) };
};

/** Deletes the cached indexes (the core's clearIndexCaches), reopens the session and builds every config's index again. */
export const rebuildIndex = (ctx: RanklabContext) => async () => {
  const { log, sessions } = ctx;
  const folder = needFolder(ctx);
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Ranklab: rebuilding the index', cancellable: false },
    (progress) =>
      sessions.exclusive(folder, 'indexing', async (old) => {
        const removed = old.clearIndexCaches();
        log.info(`rebuild: deleted cached ${removed.join(', ') || 'nothing'}`);
        sessions.reset(folder);
        const session = sessions.session(folder);
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
};
