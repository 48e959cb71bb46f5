/**
 * "Run Evaluation": every usable config of the workspace through the core session (kept warm per folder),
 * under a cancellable progress notification (Cancel aborts an AbortSignal; the core stops at its next pause,
 * at most ~50 ms away in every phase: corpus loading, index builds, LSA training, the query loop). The
 * notification shows the core's progress reports: "baseline: 40/94 queries (config 2 of 3)". A cancelled config
 * saves nothing (runs are written whole, atomically, after the last query); the configs before it stay saved.
 * Runs are saved under .ranklab/runs; a config that cannot run is reported and the others still run. With a
 * principal, every config runs as that principal (its runs are named `<config>@<principal>-<time>`).
 */
import * as vscode from 'vscode';
import { parseMetricList } from '../core/metrics/spec';
import { evaluateConfig } from '../core/session/evaluate';
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

export async function runEvaluation(controller: RanklabController, only?: string[], principal?: string): Promise<EvaluationOutcome> {
  const folder = controller.folder;
  if (!folder || folder.uri.scheme !== 'file' || !controller.sessions) throw new Error('open a local folder containing ranklab.json');
  const log = controller.log;
  const saved: string[] = [];
  const failed: string[] = [];
  const abort = new AbortController();
  let stopped: string | undefined;
  let total = 0;
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Ranklab: evaluating${principal ? ` as ${principal}` : ''}`, cancellable: true },
    async (progress, token) => {
      const sub = token.onCancellationRequested(() => {
        log.info('evaluation: cancel requested');
        abort.abort();
      });
      // The notification's bar only moves forward: `increment` is the difference to what it shows.
      let shown = 0;
      let last = { key: '', at: 0 };
      const report = (step: ConfigStep, p: WorkProgress) => {
        const key = `${p.phase}\0${p.label}`;
        const now = Date.now();
        if (key === last.key && now - last.at < REPORT_EVERY_MS && p.done < p.total) return;
        last = { key, at: now };
        const pct = progressPercent(step, p);
        progress.report({ message: progressText(p, step), increment: Math.max(0, pct - shown) });
        shown = Math.max(shown, pct);
      };
      try {
        await controller.sessions!.exclusive(folder, 'evaluating', async (session) => {
          const settings = session.workspace.settings;
          const specs = parseMetricList(settings.metrics);
          const metricOptions = { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold, ...(settings.judgedOnly && { judgedOnly: true }) };
          const entries = session.configEntries().filter((e) => !only || only.includes(e.name) || (e.file && only.includes(e.file)));
          for (const e of entries) if (!e.config) log.warn(`skipping ${e.file ?? e.name}: not a usable config`);
          const configs = entries.filter((e) => e.config).map((e) => e.config!);
          if (configs.length === 0) throw new Error('no usable ranking config in the workspace');
          total = configs.length;
          for (const [index, config] of configs.entries()) {
            if (abort.signal.aborted) {
              stopped ??= config.name;
              break;
            }
            const step = { index, count: configs.length };
            const t0 = Date.now();
            try {
              // Every phase (corpus, index builds, the query loop) from the core's cooperative work reports.
              const r = await evaluateConfig(session, config, {
                specs, metricOptions, principal, save: true, signal: abort.signal,
                onWork: (p) => report(step, p),
                onProgress: (done, all) => report(step, { phase: 'queries', label: config.name, done, total: all }),
              });
              for (const note of r.notes) log.warn(`${config.name}: ${note}`);
              log.info(`evaluated ${config.name} in ${Date.now() - t0} ms${r.path ? ` -> ${r.path}` : ''}`);
              if (r.path) saved.push(r.path);
            } catch (e) {
              if (abort.signal.aborted) {
                stopped = config.name;
                break;
              }
              failed.push(`${config.name}: ${(e as Error).message}`);
              log.error(`${config.name} could not run: ${(e as Error).message}`);
            }
          }
        });
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
