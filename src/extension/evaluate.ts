/**
 * "Run Evaluation": every usable config of the workspace through the core session (kept warm per folder),
 * under a cancellable progress notification (Cancel aborts an AbortSignal; the core stops at its next pause,
 * at most ~50 ms away in every phase: corpus loading, index builds, LSA training, the query loop).
 * Runs are saved under .ranklab/runs; a config that cannot run is reported and the others still run.
 */
import * as vscode from 'vscode';
import { parseMetricList } from '../core/metrics/spec';
import { evaluateConfig } from '../core/session/evaluate';
import type { RanklabController } from './controller';

export async function runEvaluation(controller: RanklabController, only?: string[]): Promise<string[]> {
  const folder = controller.folder;
  if (!folder || folder.uri.scheme !== 'file' || !controller.sessions) throw new Error('open a local folder containing ranklab.json');
  const log = controller.log;
  const saved: string[] = [];
  const failed: string[] = [];
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Ranklab: evaluating', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        await controller.sessions!.exclusive(folder, 'evaluating', async (session) => {
          const settings = session.workspace.settings;
          const specs = parseMetricList(settings.metrics);
          const metricOptions = { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold, ...(settings.judgedOnly && { judgedOnly: true }) };
          const entries = session.configEntries().filter((e) => !only || only.includes(e.name) || (e.file && only.includes(e.file)));
          for (const e of entries) if (!e.config) log.warn(`skipping ${e.file ?? e.name}: not a usable config`);
          const configs = entries.filter((e) => e.config).map((e) => e.config!);
          if (configs.length === 0) throw new Error('no usable ranking config in the workspace');
          const share = 100 / configs.length;
          for (const [i, config] of configs.entries()) {
            if (abort.signal.aborted) break;
            progress.report({ message: `${config.name} (${i + 1}/${configs.length})` });
            const t0 = Date.now();
            let reported = 0;
            try {
              const r = await evaluateConfig(session, config, {
                specs, metricOptions, save: true, signal: abort.signal,
                onProgress: (done, total) => {
                  const pct = (done / total) * share;
                  progress.report({ increment: pct - reported, message: `${config.name} (${i + 1}/${configs.length}): ${done}/${total} queries` });
                  reported = pct;
                },
              });
              for (const note of r.notes) log.warn(`${config.name}: ${note}`);
              log.info(`evaluated ${config.name} in ${Date.now() - t0} ms${r.path ? ` -> ${r.path}` : ''}`);
              if (r.path) saved.push(r.path);
            } catch (e) {
              if (abort.signal.aborted) break;
              failed.push(`${config.name}: ${(e as Error).message}`);
              log.error(`${config.name} could not run: ${(e as Error).message}`);
            }
            progress.report({ increment: share - reported });
          }
        });
      } finally {
        sub.dispose();
      }
    },
  );
  controller.invalidate();
  if (failed.length) void vscode.window.showWarningMessage(`Ranklab: ${failed.length} config(s) could not run: ${failed.join('; ')}`);
  return saved;
}
