/**
 * Status bar: the comparison the user picked (dashboard pickers, Compare with Baseline; else the defaults) — the
 * candidate's primary metric and its change against the baseline, both runs named with their principal. Runs made
 * as different principals show no change (their difference mixes access with ranking). Click opens the dashboard.
 */
import * as vscode from 'vscode';
import type { RanklabController } from './controller';
import { principalOf, principalText, runLabel } from './dashboard/runs';
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
    const { baseline, candidate, allowMixed } = controller.resolve();
    const cand = candidate ?? baseline;
    const metric = controller.settings.primaryMetric ?? cand?.summary.metricSpecs[0];
    if (!cand || !metric) {
      item.text = '$(beaker) Ranklab';
      item.tooltip = `Ranklab: no saved runs in ${controller.runsFolder}. Click to open the dashboard.`;
      item.show();
      return;
    }
    const base = baseline && baseline !== cand ? baseline : undefined;
    const v = cand.summary.metrics[metric];
    const name = `${cand.summary.provenance.config}${principalOf(cand) === null ? '' : ` ${principalText(principalOf(cand))}`}`;
    const value = `${metric} ${typeof v === 'number' ? v.toFixed(3) : '–'}`;
    const md = new vscode.MarkdownString();
    md.appendText(`Ranklab — candidate ${runLabel(cand, metric)}\n`);
    if (base) md.appendText(`baseline ${runLabel(base, metric)}\n`);
    const mixed = base !== undefined && principalOf(base) !== principalOf(cand);
    if (mixed && !allowMixed) {
      item.text = `$(warning) ${name}: ${value} · not compared`;
      md.appendText(
        `\nNot compared: the runs were made as different principals (${principalText(principalOf(base))} vs ${principalText(principalOf(cand))}), so their difference would mix access with ranking.`,
      );
    } else {
      const b = base?.summary.metrics[metric];
      const delta = typeof v === 'number' && typeof b === 'number' ? v - b : undefined;
      const deltaText = delta === undefined ? '' : ` (${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(3)})`;
      item.text = `$(beaker) ${name}: ${value}${deltaText}${mixed ? ' · MIXED PRINCIPALS' : ''}`;
      if (delta !== undefined)
        md.appendText(
          `\n${metric} change of the means: ${delta >= 0 ? '+' : '−'}${Math.abs(delta).toFixed(4)}. Open the dashboard for its confidence interval and significance.`,
        );
    }
    item.tooltip = md;
    item.show();
  };
  // Defer the first read so activation stays cheap.
  const timer = setTimeout(update, 0);
  const sub = controller.onDidChange(update);
  const picked = controller.onDidChangeSelection(update);
  const busySub = sessions?.onDidChangeState(update);
  const cfg = vscode.workspace.onDidChangeConfiguration((e) => affectsSettings(e, 'statusBar.enabled') && update());
  return vscode.Disposable.from(item, sub, picked, cfg, { dispose: () => clearTimeout(timer) }, ...(busySub ? [busySub] : []));
}
