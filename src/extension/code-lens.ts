/**
 * CodeLens on the first line of a `*.rank.json`: the headline metric with its change against the
 * baseline, the second metric, and Run · Compare · Tune… · Open dashboard. Opening a config whose figures are
 * not known yet starts its evaluation in the background (trusted workspaces only).
 */
import * as vscode from 'vscode';
import type { LiveEvaluator } from './live';
import { headline } from './logic/findings';

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
    if (state.status === 'invalid') {
      lenses.push(
        new vscode.CodeLens(top, { title: 'Ranklab: this config has errors (see Problems)', command: 'workbench.actions.view.problems' }),
      );
    } else if (r) {
      const prefix = state.status === 'evaluating' ? '$(sync~spin) ' : state.status === 'error' ? '$(warning) ' : '';
      const failed = r.gates.filter((g) => !g.passed).length;
      const title =
        prefix +
        headline(r.specs, r.candidate.evaluation.means, r.baseline?.evaluation.means) +
        (failed ? ` · $(error) ${failed} gate(s) failed` : '');
      lenses.push(
        new vscode.CodeLens(top, {
          title,
          command: 'ranklab.openDashboard',
          tooltip: state.error ?? `${r.name}: ${r.candidate.evaluation.means[r.specs[0]]}`,
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
