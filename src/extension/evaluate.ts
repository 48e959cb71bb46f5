/**
 * "Run Evaluation": every usable config of the workspace, evaluated in the Ranklab worker (a worker thread with its
 * own warm core session; `worker/main.ts`) so the editor stays responsive, under a cancellable progress
 * notification. Cancel aborts the request: the worker's AbortSignal stops the core at its next pause (at most
 * ~50 ms away in every phase), and a worker that does not stop in time is terminated. The notification shows the
 * core's progress reports: "baseline: 40/94 queries (config 2 of 3)". A cancelled config saves nothing (runs are
 * written whole, atomically, after the last query); the configs before it stay saved. Runs are saved under
 * .ranklab/runs; a config that cannot run is reported and the others still run. With a principal, every config
 * runs as that principal (its runs are named `<config>@<principal>-<time>`).
 */
import * as vscode from 'vscode';
import type { WorkProgress } from '../core/util/cooperative';
import type { RanklabController } from './controller';
import { type ConfigStep, cancelledText, progressPercent, progressText } from './logic/progress';

/** What Run Evaluation did: the runs saved and, when the user cancelled, the config that was stopped (not saved). */
export interface EvaluationOutcome {
  saved: string[];
  cancelled: boolean;
  stopped?: string;
}

/** Progress reports at most this often (plus every phase change): the notification needs no more. */
const REPORT_EVERY_MS = 100;

/** A `withProgress` reporter fed with the core's work reports: throttled, and its bar only moves forward. */
export function workReporter(progress: vscode.Progress<{ message?: string; increment?: number }>): (step: ConfigStep, p: WorkProgress) => void {
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

export async function runEvaluation(controller: RanklabController, only?: string[], principal?: string): Promise<EvaluationOutcome> {
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
    { location: vscode.ProgressLocation.Notification, title: `Ranklab: evaluating${principal ? ` as ${principal}` : ''}`, cancellable: true },
    async (progress, token) => {
      const sub = token.onCancellationRequested(() => {
        log.info('evaluation: cancel requested');
        abort.abort(new DOMException('cancelled', 'AbortError'));
      });
      const report = workReporter(progress);
      try {
        const r = await sessions.inWorker(folder, 'evaluating', 'evaluate', { only, principal }, {
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
        });
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
