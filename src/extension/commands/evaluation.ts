/**
 * Commands that evaluate: every config (Run Evaluation), one config (Evaluate This Config, the CodeLens "Run"), and Rebuild Index.
 *
 * "Run Evaluation": every usable config of the workspace, evaluated in the Ranklab worker (a worker thread with its
 * own warm core session; `worker/main.ts`) so the editor stays responsive, under a cancellable progress
 * notification. Cancel aborts the request: the worker's AbortSignal stops the core at its next pause (at most
 * ~50 ms away in every phase), and a worker that does not stop in time is terminated. The notification shows the
 * core's progress reports: "baseline: 40/94 queries (config 2 of 3)". A cancelled config saves nothing (runs are
 * written whole, atomically, after the last query); the configs before it stay saved. Runs are saved under
 * .ranklab/runs; a config that cannot run is reported and the others still run. With a principal, every config
 * runs as that principal (its runs are named `<config>@<principal>-<time>`).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkProgress } from '../../core/util/cooperative';
import { InputError } from '../../core/util/diagnostics';
import type { RanklabContext } from '../context';
import type { RanklabController } from '../controller';
import { principalOf } from '../dashboard/runs';
import { type ConfigStep, cancelledText, progressPercent, progressText } from '../logic/progress';
import { configUri, needFolder, pickPrincipal, runIdOf } from './common';

/** What Run Evaluation did: the runs saved and, when the user cancelled, the config that was stopped (not saved). */
interface EvaluationOutcome {
  saved: string[];
  cancelled: boolean;
  stopped?: string;
}

/**
 * Evaluates the configs named in `only` (all when absent) as `principal` (null: none, every document; undefined:
 * the user picks, "No principal" first), saves the runs and shows the dashboard on them: the new run of the
 * baseline config (when it was evaluated) against the newest other new run.
 */
export const runEvaluation = (ctx: RanklabContext) => async (only?: string[], principal?: string | null) => {
  const folder = needFolder(ctx);
  const as =
    principal === undefined
      ? await pickPrincipal(
          ctx,
          ctx.sessions.session(folder),
          'Evaluate as… (a principal sees only the documents they may see)',
          'unrestricted: every document (the default)',
        )
      : principal;
  if (as === undefined) return undefined;
  const { saved, cancelled } = await evaluateInWorker(ctx.controller, Array.isArray(only) ? only : undefined, as ?? undefined);
  // Cancelled: the user stopped it; the message says what was saved, no dashboard opens on top of it.
  if (cancelled) return saved;
  const ids = saved.map((p) => runIdOf(p)!);
  const baselineConfig = ctx.sessions.session(folder).workspace.baselineName;
  // The baseline: its new run, else its newest run made as the same principal (comparable), else the default.
  const ofBaseline = ctx.controller.runs().runs.filter((r) => r.summary.provenance.config === baselineConfig && principalOf(r) === as);
  const baselineRunId =
    ids.find((id) => ctx.controller.findRun(id)?.summary.provenance.config === baselineConfig) ?? ofBaseline[ofBaseline.length - 1]?.id;
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
        return await sessions.inWorker(
          folder,
          'indexing',
          'rebuildIndex',
          {},
          { signal: abort.signal, onProgress: (p) => report(p.step, p.work) },
        );
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

/** Progress reports at most this often (plus every phase change): the notification needs no more. */
const REPORT_EVERY_MS = 100;

/** A `withProgress` reporter fed with the core's work reports: throttled, and its bar only moves forward. */
function workReporter(progress: vscode.Progress<{ message?: string; increment?: number }>): (step: ConfigStep, p: WorkProgress) => void {
  let shown = 0;
  let last = { key: '', at: 0 };
  return (step, p) => {
    const key = `${p.phase}\0${p.label}`;
    const now = Date.now();
    if (key === last.key && now - last.at < REPORT_EVERY_MS && p.done < p.total) return;
    last = { key, at: now };
    const pct = progressPercent(step, p);
    progress.report({ message: progressText(p, step), increment: Math.max(0, pct - shown) });
    shown = Math.max(shown, pct);
  };
}

/** The worker's evaluation (core action evaluateConfigs) under a cancellable progress notification. */
async function evaluateInWorker(controller: RanklabController, only?: string[], principal?: string): Promise<EvaluationOutcome> {
  const folder = controller.folder;
  if (!folder || folder.uri.scheme !== 'file' || !controller.sessions) throw new Error('open a local folder containing ranklab.json');
  const sessions = controller.sessions;
  const log = controller.log;
  // What the worker reported as it went: kept here too, so a worker stopped by force still gets a true message.
  const saved: string[] = [];
  const failed: string[] = [];
  const abort = new AbortController();
  let current: string | undefined;
  let total = 0;
  let stopped: string | undefined;
  await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `Ranklab: evaluating${principal ? ` as ${principal}` : ''}`,
      cancellable: true,
    },
    async (progress, token) => {
      const sub = token.onCancellationRequested(() => {
        log.info('evaluation: cancel requested');
        abort.abort(new DOMException('cancelled', 'AbortError'));
      });
      const report = workReporter(progress);
      try {
        const r = await sessions.inWorker(
          folder,
          'evaluating',
          'evaluate',
          { only, principal },
          {
            signal: abort.signal,
            onProgress: (p) => {
              if (p.type === 'work') {
                total = p.step.count;
                current = p.work.label ?? current;
                report(p.step, p.work);
              } else if (p.type === 'saved') {
                for (const note of p.notes) log.warn(`${p.config}: ${note}`);
                log.info(`evaluated ${p.config} in ${p.ms} ms${p.path ? ` -> ${p.path}` : ''}`);
                if (p.path) saved.push(p.path);
              } else if (p.type === 'failed') {
                failed.push(`${p.config}: ${p.message}`);
                log.error(`${p.config} could not run: ${p.message}`);
              } else log.warn(`skipping ${p.config}: not a usable config`);
            },
          },
        );
        total = r.total;
        stopped = r.stopped;
      } catch (e) {
        if (!abort.signal.aborted) throw e;
        stopped = current; // stopped by force: the config it was on when the worker was terminated
      } finally {
        sub.dispose();
      }
    },
  );
  controller.invalidate();
  if (abort.signal.aborted) {
    const msg = cancelledText(saved.length, total, stopped);
    log.info(msg);
    void vscode.window.showInformationMessage(msg);
  }
  if (failed.length) void vscode.window.showWarningMessage(`Ranklab: ${failed.length} config(s) could not run: ${failed.join('; ')}`);
  return { saved, cancelled: abort.signal.aborted, stopped };
}
