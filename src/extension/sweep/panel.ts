/**
 * The sweep panel's controller: runs the core's sweep (src/core/tuning/sweep.ts) on a config in the Ranklab worker (method
 * `sweep`, worker/main.ts) under a cancellable progress notification, and answers its protocol (src/protocol/sweep.ts);
 * its row in the panel table (../webviews/panels.ts) gives its page and the generic host (CSP, handshake, serializer). What it shows comes from ./model.ts (no vscode);
 * the app is webview/sweep/main.ts.
 */
import * as vscode from 'vscode';
import { parseMetric } from '../../core/metrics';
import type { Variation } from '../../core/tuning/parameters';
import { type SweepResult, bestConfigText } from '../../core/tuning/sweep';
import { writeFileAtomic } from '../../core/util/atomic-write';
import { InputError } from '../../core/util/diagnostics';
import type { SweepMessages, SweepView } from '../../protocol/sweep';
import type { RanklabController } from '../controller';
import type { SessionManager } from '../sessions';
import type { HostFor, PanelDeps, PanelHost } from '../webviews/view';
import { queryDiff, savePathFor, sweepView } from './model';

export class SweepPanel {
  private readonly host: PanelHost<SweepMessages>;
  private readonly controller: RanklabController;
  private readonly sessions: SessionManager;
  private last?: { result: SweepResult; view: SweepView; baseFile: string };

  constructor({ controller, sessions }: PanelDeps, hostFor: HostFor<SweepMessages>) {
    this.controller = controller;
    this.sessions = sessions;
    const last = () => {
      if (!this.last) throw new InputError('no sweep yet: run "Ranklab: Sweep Parameter"');
      return this.last;
    };
    this.host = hostFor({
      ready: () => {
        if (this.last) this.host.notify('show', { view: this.last.view });
      },
      requests: {
        getQueryDiff: (p) => queryDiff(last().result, p.index, this.sessions.session(this.controller.folder!).judgments()),
        saveConfig: (p) => {
          const { result, baseFile } = last();
          const path = savePathFor(baseFile);
          writeFileAtomic(path, bestConfigText(result, p.index));
          controller.log.info(`sweep: saved ${path}`);
          void vscode.window.showInformationMessage(`Ranklab: saved ${vscode.workspace.asRelativePath(path)}`);
          return { path };
        },
      },
      commands: {},
    });
  }

  get isOpen(): boolean {
    return this.host.isOpen;
  }

  /** The view last shown (tests read it). */
  currentView(): SweepView | undefined {
    return this.last?.view;
  }

  /** Sweeps the config in `baseFile` over `variations` on its tune/holdout split, then shows the curve. Undefined when cancelled. */
  async sweep(baseFile: string, variations: Variation[]): Promise<SweepView | undefined> {
    const folder = this.controller.folder;
    if (!folder || folder.uri.scheme !== 'file') throw new InputError('open a local folder containing ranklab.json');
    const abort = new AbortController();
    const objective = parseMetric(this.controller.settings.primaryMetric ?? 'ndcg@10').name;
    // The sweep (hundreds of evaluations, a bootstrap per point) runs in the worker; the editor's thread stays free.
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Ranklab: sweeping', cancellable: true },
      (progress, token) => {
        token.onCancellationRequested(() => abort.abort(new Error('cancelled')));
        return this.sessions
          .inWorker(
            folder,
            'sweeping',
            'sweep',
            { baseFile, variations, objective },
            {
              signal: abort.signal,
              onProgress: ({ done, total, label }) => progress.report({ message: `${done}/${total}: ${label}`, increment: 100 / total }),
            },
          )
          .then((r) => ({ r, objective }))
          .catch((e) => {
            if (abort.signal.aborted) return undefined;
            throw e;
          });
      },
    );
    if (!result) {
      void vscode.window.showInformationMessage('Ranklab: sweep cancelled; nothing was saved.');
      return undefined;
    }
    const view = sweepView(result.r, result.objective);
    for (const w of view.warnings) this.controller.log.warn(`sweep: ${w}`);
    this.last = { result: result.r, view, baseFile };
    this.host.show();
    if (this.host.isReady) this.host.notify('show', { view });
    return view;
  }
}
