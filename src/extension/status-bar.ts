/** Status bar: the candidate run's primary metric and its change against the baseline; click opens the dashboard. */
import * as vscode from 'vscode';
import type { RanklabController } from './controller';
import type { SessionManager } from './sessions';
import { affectsSettings } from './settings';

export function createStatusBar(controller: RanklabController, sessions?: SessionManager): vscode.Disposable {
  const item = vscode.window.createStatusBarItem('ranklab.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Ranklab';
  item.command = 'ranklab.openDashboard';
  const update = () => {
    if (!controller.settings.statusBarEnabled) {
      item.hide();
      return;
    }
    const busy = sessions?.busy;
    if (busy) {
      // Indexing / evaluating state while the session works.
      item.text = `$(sync~spin) Ranklab: ${busy}`;
      item.tooltip = `Ranklab is ${busy}`;
      item.show();
      return;
    }
    const model = controller.model();
    const metric = model.primaryMetric;
    const cand = model.runs.find((r) => r.id === model.candidateRunId) ?? model.runs.find((r) => r.id === model.baselineRunId);
    const base = model.runs.find((r) => r.id === model.baselineRunId);
    if (!cand || !metric) {
      item.text = '$(beaker) Ranklab';
      item.tooltip = `Ranklab: no saved runs in ${model.runsFolder}. Click to open the dashboard.`;
    } else {
      const v = cand.metrics[metric.spec];
      const b = base && base !== cand ? base.metrics[metric.spec] : undefined;
      const delta = typeof v === 'number' && typeof b === 'number' ? v - b : undefined;
      const deltaText = delta === undefined ? '' : ` (${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(3)})`;
      item.text = `$(beaker) ${metric.spec} ${typeof v === 'number' ? v.toFixed(3) : '–'}${deltaText}`;
      const md = new vscode.MarkdownString();
      md.appendText(`Ranklab — ${cand.config} (${cand.id})\n${metric.label}: ${typeof v === 'number' ? v.toFixed(4) : 'n/a'}`);
      if (base && base !== cand) md.appendText(`\nBaseline ${base.config} (${base.id}): ${typeof b === 'number' ? b.toFixed(4) : 'n/a'}`);
      item.tooltip = md;
    }
    item.show();
  };
  // Defer the first read so activation stays cheap.
  const timer = setTimeout(update, 0);
  const sub = controller.onDidChange(update);
  const busySub = sessions?.onDidChangeState(update);
  const cfg = vscode.workspace.onDidChangeConfiguration((e) => affectsSettings(e, 'statusBar.enabled') && update());
  return vscode.Disposable.from(item, sub, cfg, { dispose: () => clearTimeout(timer) }, ...(busySub ? [busySub] : []));
}
