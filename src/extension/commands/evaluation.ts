/** Commands that evaluate: every config (Run Evaluation), one config (Evaluate This Config, the CodeLens "Run"), and Rebuild Index. */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { InputError } from '../../core/util/diagnostics';
import type { RanklabContext } from '../context';
import { principalOf } from '../dashboard/runs';
import { runEvaluation as evaluateAll, workReporter } from '../evaluate';
import { configUri, needFolder, pickPrincipal, runIdOf } from './common';

/**
 * Evaluates the configs named in `only` (all when absent) as `principal` (null: none, every document; undefined:
 * the user picks, "No principal" first), saves the runs and shows the dashboard on them: the new run of the
 * baseline config (when it was evaluated) against the newest other new run.
 */
export const runEvaluation = (ctx: RanklabContext) => async (only?: string[], principal?: string | null) => {
  const folder = needFolder(ctx);
  const as = principal === undefined ? await pickPrincipal(ctx, ctx.sessions.session(folder), 'Evaluate as… (a principal sees only the documents they may see)', 'unrestricted: every document (the default)') : principal;
  if (as === undefined) return undefined;
  const { saved, cancelled } = await evaluateAll(ctx.controller, Array.isArray(only) ? only : undefined, as ?? undefined);
  // Cancelled: the user stopped it; the message says what was saved, no dashboard opens on top of it.
  if (cancelled) return saved;
  const ids = saved.map((p) => runIdOf(p)!);
  const baselineConfig = ctx.sessions.session(folder).workspace.baselineName;
  // The baseline: its new run, else its newest run made as the same principal (comparable), else the default.
  const ofBaseline = ctx.controller.runs().runs.filter((r) => r.summary.provenance.config === baselineConfig && principalOf(r) === as);
  const baselineRunId = ids.find((id) => ctx.controller.findRun(id)?.summary.provenance.config === baselineConfig) ?? ofBaseline[ofBaseline.length - 1]?.id;
  const candidateRunId = [...ids].reverse().find((id) => id !== baselineRunId);
  if (ids.length) ctx.controller.select({ baselineRunId, candidateRunId });
  ctx.dashboard.show(ids.length ? { baselineRunId, candidateRunId } : undefined);
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

/**
 * Deletes the cached indexes and builds every config's index again from a fresh read of the corpus, in the worker
 * (the core's clearIndexCaches, then each engine), under a cancellable progress notification; the host's session
 * is reopened so it reads the new indexes.
 */
export const rebuildIndex = (ctx: RanklabContext) => async () => {
  const { log, sessions } = ctx;
  const folder = needFolder(ctx);
  const r = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Ranklab: rebuilding the index', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort(new DOMException('cancelled', 'AbortError')));
      const report = workReporter(progress);
      try {
        return await sessions.inWorker(folder, 'indexing', 'rebuildIndex', {}, { signal: abort.signal, onProgress: (p) => report(p.step, p.work) });
      } finally {
        sub.dispose();
        sessions.reset(folder);
      }
    },
  );
  log.info(`rebuild: deleted cached ${r.removed.join(', ') || 'nothing'}`);
  for (const f of r.failed) log.warn(`rebuild: ${f.config}: ${f.message}`);
  log.info(`rebuilt indexes of ${r.configs.length}/${r.configs.length + r.failed.length} configs over ${r.docs} documents`);
  void vscode.window.setStatusBarMessage(`Ranklab: index rebuilt (${r.docs} documents, ${r.configs.length} configs)`, 5000);
  return { docs: r.docs, configs: r.configs };
};
