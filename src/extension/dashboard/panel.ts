/**
 * The dashboard panel's controller: its protocol (src/protocol/dashboard.ts) answered from the controller's model.
 * Its row in the panel table (../webviews/panels.ts) gives its page and the generic host (CSP, handshake,
 * serializer). The app is webview/dashboard/main.ts.
 */
import * as vscode from 'vscode';
import type { DashboardMessages, DashboardModel } from '../../protocol/dashboard';
import type { HostFor, PanelDeps, PanelHost } from '../webviews/view';

type Focus = DashboardMessages['notifications']['focusRuns'];

export class DashboardPanel implements vscode.Disposable {
  private readonly host: PanelHost<DashboardMessages>;
  /** A comparison asked for by a command; sent again after the next `ready` until the app has asked for it. */
  private pendingFocus: Focus | undefined;
  /** The last model posted to the webview (init / runsUpdated / getDashboard); tests read it. */
  lastPostedModel: DashboardModel | undefined;
  private readonly subscription: vscode.Disposable;
  private readonly log: vscode.LogOutputChannel;

  constructor({ controller }: PanelDeps, hostFor: HostFor<DashboardMessages>) {
    this.host = hostFor({
      ready: () => {
        const focus = this.pendingFocus;
        // The page first, from the run index alone (no run file read); then the verdict from the statistics when they
        // come first (runs' cached per-query values); then the comparison in full.
        const quick = controller.model(focus ?? {}, { note: 'Comparing the runs…', comparing: true });
        this.lastPostedModel = quick;
        this.host.notify('init', { model: quick });
        this.send(
          () => controller.dashboardModel(focus ?? {}, (first) => this.post(first)),
          () => focus && this.host.notify('focusRuns', focus),
        );
      },
      requests: {
        getDashboard: async (params) => {
          if (this.pendingFocus && params.candidateRunId === this.pendingFocus.candidateRunId) this.pendingFocus = undefined;
          // The comparison on screen is the user's pick: the status bar follows it.
          controller.select(params);
          // The statistics as soon as they are known (the app shows them if this pair is still its pick), then the answer.
          const model = await controller.dashboardModel(params, (first) => this.post(first));
          this.lastPostedModel = model;
          return model;
        },
        getQueryDetail: (params) => controller.queryDetail(params.qid, params),
        getMatrix: (params) => controller.matrix(params.baselineRunId, params.candidateRunIds),
        explainDocument: (params) => controller.explainDocument(params.qid, params.docId, params),
      },
      commands: {
        openDocument: (p) => vscode.commands.executeCommand('ranklab.openDocument', p.docId, p.runId),
        openQuery: (p) => vscode.commands.executeCommand('ranklab.openQuery', p.qid),
        setBaseline: (p) => controller.setBaseline(p.runId),
        runEvaluation: () => vscode.commands.executeCommand('ranklab.runEvaluation'),
        checkAccessControl: () => vscode.commands.executeCommand('ranklab.checkAccessControl'),
        judge: (p) => {
          const configs = [p.baselineRunId, p.candidateRunId]
            .map((id) => controller.findRun(id)?.summary.provenance.config)
            .filter((c): c is string => !!c);
          return vscode.commands.executeCommand('ranklab.judgeUnjudged', { qid: p.qid, docId: p.docId, configs: [...new Set(configs)] });
        },
      },
    });
    this.subscription = controller.onDidChange(() => {
      if (this.host.isReady) this.send(() => controller.dashboardModel({}, (first) => this.post(first)));
    });
    this.log = controller.log;
  }

  get isOpen(): boolean {
    return this.host.isOpen;
  }

  /** The app has said `ready` since the panel opened. */
  get isReady(): boolean {
    return this.host.isReady;
  }

  /** Opens or reveals the dashboard; `focus` asks it to show that comparison. */
  show(focus?: Focus): void {
    if (!this.host.isOpen) {
      this.pendingFocus = undefined;
      this.lastPostedModel = undefined;
    }
    this.host.show();
    if (focus) {
      // A hidden panel's webview reloads on reveal and may miss this message: it is sent again after its next `ready`.
      this.pendingFocus = focus;
      this.host.notify('focusRuns', focus);
    }
  }

  private post(model: DashboardModel): void {
    this.lastPostedModel = model;
    this.host.notify('runsUpdated', { model });
  }

  /** Builds the model (the comparison takes a moment) and posts it; a failure is logged, the panel keeps its state. */
  private send(build: () => Promise<DashboardModel>, then?: () => void): void {
    build().then(
      (model) => {
        this.post(model);
        then?.();
      },
      (e: unknown) => this.log.error(`dashboard model: ${(e as Error)?.stack ?? String(e)}`),
    );
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
