/**
 * CodeLens on the first line of a `*.rank.json`: the headline metric with its change against the
 * baseline, the second metric, and Run · Compare · Tune… · Open dashboard. Opening a config whose figures are
 * not known yet starts its evaluation in the background (trusted workspaces only).
 */
import * as vscode from 'vscode';
import type { ConfigState, LiveEvaluator } from './live';
import { type EarlySource, lensFiguresOf } from './logic/against-baseline';
import { headline } from './logic/findings';

/** Which path gave the figures shown (the tooltip says it): the tune cache, or the full evaluation. */
export function answeredBy(state: ConfigState): string {
  const from = (source: EarlySource) =>
    source === 'tuner' ? 'the tune cache (cached BM25 scores recombined, no search)' : 'the search, before its run was saved';
  if (state.status === 'evaluating' && state.early)
    return `answered from ${from(state.early.source)} in ${state.early.ms.toFixed(0)} ms; the full evaluation is finishing`;
  const r = state.result;
  if (!r) return '';
  if (r.early?.matched) return `answered from ${from(r.early.source)} in ${r.early.ms.toFixed(0)} ms, confirmed by the full evaluation`;
  return r.candidate.reused ? 'answered by the full evaluation (saved run reused)' : 'answered by the full evaluation (searched)';
}

export class ConfigCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly live: LiveEvaluator,
    private readonly folderOf: (uri: vscode.Uri) => vscode.WorkspaceFolder | undefined,
  ) {
    this.sub = live.onDidChange(() => this.changed.fire());
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const folder = this.folderOf(doc.uri);
    if (!folder || doc.uri.scheme !== 'file') return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const state = this.live.states.get(doc.uri.fsPath);
    if (!state) {
      if (vscode.workspace.isTrusted) void this.live.evaluate(doc.uri.fsPath, folder);
      return [new vscode.CodeLens(top, { title: '$(sync~spin) Ranklab: evaluating…', command: '' })];
    }
    const lenses: vscode.CodeLens[] = [];
    const r = state.result;
    // The edit's own figures from the tune cache while the full evaluation runs: no spinner, they are final.
    const early = state.status === 'evaluating' ? state.early?.figures : undefined;
    const f = early ?? (r && lensFiguresOf(r));
    if (state.status === 'invalid') {
      lenses.push(
        new vscode.CodeLens(top, { title: 'Ranklab: this config has errors (see Problems)', command: 'workbench.actions.view.problems' }),
      );
    } else if (f) {
      const prefix = early ? '' : state.status === 'evaluating' ? '$(sync~spin) ' : state.status === 'error' ? '$(warning) ' : '';
      const failed = f.gates.filter((g) => !g.passed).length;
      const title = prefix + headline(f.specs, f.candidate, f.baseline) + (failed ? ` · $(error) ${failed} gate(s) failed` : '');
      lenses.push(
        new vscode.CodeLens(top, {
          title,
          command: 'ranklab.openDashboard',
          tooltip: state.error ?? `${f.name}: ${f.candidate[f.specs[0]]} — ${answeredBy(state)}`,
        }),
      );
    } else if (state.status === 'evaluating') {
      lenses.push(new vscode.CodeLens(top, { title: '$(sync~spin) Ranklab: evaluating…', command: '' }));
    } else {
      lenses.push(new vscode.CodeLens(top, { title: `$(warning) Ranklab: ${state.error ?? 'not evaluated'}`, command: '' }));
    }
    lenses.push(
      new vscode.CodeLens(top, {
        title: 'Run',
        command: 'ranklab.evaluateConfig',
        arguments: [doc.uri],
        tooltip: 'Evaluate this config now',
      }),
      new vscode.CodeLens(top, {
        title: 'Compare',
        command: 'ranklab.compareWithBaseline',
        arguments: [doc.uri],
        tooltip: 'Compare this config with the baseline in the dashboard',
      }),
      new vscode.CodeLens(top, {
        title: 'Tune…',
        command: 'ranklab.tuneConfig',
        arguments: [doc.uri],
        tooltip: 'Move this config’s boosts and BM25 settings as sliders, with the verdict against the baseline at each move',
      }),
      new vscode.CodeLens(top, { title: 'Open dashboard', command: 'ranklab.openDashboard' }),
    );
    return lenses;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
