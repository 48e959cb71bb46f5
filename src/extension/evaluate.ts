/** "Run Evaluation": every usable config of the workspace through the core session facade; runs are saved under .ranklab/runs. */
import * as vscode from 'vscode';
import { parseMetricList } from '../core/metrics/spec';
import { evaluateConfig } from '../core/session/evaluate';
import { RanklabSession } from '../core/session/session';
import type { RanklabController } from './controller';

export async function runEvaluation(controller: RanklabController): Promise<string[]> {
  const folder = controller.folder;
  if (!folder || folder.uri.scheme !== 'file') throw new Error('open a local folder containing ranklab.json');
  const log = controller.log;
  const saved: string[] = [];
  await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Ranklab: evaluating', cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const trusted = vscode.workspace.isTrusted;
        const session = RanklabSession.open(folder.uri.fsPath, { allowNetwork: trusted, allowModelLoading: trusted, log: (m) => log.info(m) });
        const settings = session.workspace.settings;
        const specs = parseMetricList(settings.metrics);
        const metricOptions = { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold };
        const entries = session.configEntries();
        for (const e of entries) if (!e.config) log.warn(`skipping ${e.file ?? e.name}: not a usable config`);
        const configs = entries.filter((e) => e.config).map((e) => e.config!);
        if (configs.length === 0) throw new Error('no usable ranking config in the workspace');
        for (const [i, config] of configs.entries()) {
          if (abort.signal.aborted) break;
          progress.report({ message: `${config.name} (${i + 1}/${configs.length})` });
          const t0 = Date.now();
          const r = await evaluateConfig(session, config, { specs, metricOptions, save: true, signal: abort.signal });
          for (const note of r.notes) log.warn(`${config.name}: ${note}`);
          log.info(`evaluated ${config.name} in ${Date.now() - t0} ms${r.path ? ` -> ${r.path}` : ''}`);
          if (r.path) saved.push(r.path);
        }
      } finally {
        sub.dispose();
      }
    },
  );
  controller.invalidate();
  return saved;
}
