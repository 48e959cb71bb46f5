/**
 * The dashboard panel: its protocol (src/protocol/dashboard.ts) answered from the controller's model, hosted by
 * the generic WebviewPanelHost (CSP, handshake, serializer). The app is webview/dashboard/main.ts.
 */
import * as vscode from 'vscode';
import { type DashboardMessages, type DashboardModel, dashboardProtocol } from '../../protocol/dashboard';
import type { RanklabController } from '../controller';
import { type PanelView, WebviewPanelHost } from '../webviews/host';

type Focus = DashboardMessages['notifications']['focusRuns'];

const VIEW: PanelView<DashboardMessages> = {
  protocol: dashboardProtocol,
  title: 'Ranklab Dashboard',
  app: 'dashboard',
  styles: ['base.css', 'dashboard.css'],
  icon: 'ranklab.svg',
  loading: 'Loading runs…',
};

export class DashboardPanel implements vscode.Disposable {
  private readonly host: WebviewPanelHost<DashboardMessages>;
  /** A comparison asked for by a command; sent again after the next `ready` until the app has asked for it. */
  private pendingFocus: Focus | undefined;
  /** The last model posted to the webview (init / runsUpdated / getDashboard); tests read it. */
  lastPostedModel: DashboardModel | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(extensionUri: vscode.Uri, controller: RanklabController) {
    this.host = new WebviewPanelHost(extensionUri, controller.log, VIEW, {
      ready: () => {
        this.postModel('init', controller.dashboardModel(this.pendingFocus ?? {}));
        if (this.pendingFocus) this.host.notify('focusRuns', this.pendingFocus);
      },
      requests: {
        getDashboard: (params) => {
          if (this.pendingFocus && params.candidateRunId === this.pendingFocus.candidateRunId) this.pendingFocus = undefined;
          this.lastPostedModel = controller.dashboardModel(params);
          return this.lastPostedModel;
        },
        getQueryDetail: (params) => controller.queryDetail(params.qid, params),
      },
      commands: {
        openDocument: (p) => vscode.commands.executeCommand('ranklab.openDocument', p.docId, p.runId),
        openQuery: (p) => vscode.commands.executeCommand('ranklab.openQuery', p.qid),
        setBaseline: (p) => controller.setBaseline(p.runId),
        runEvaluation: () => vscode.commands.executeCommand('ranklab.runEvaluation'),
        checkAccessControl: () => vscode.commands.executeCommand('ranklab.checkAccessControl'),
        judge: (p) => {
          const configs = [p.baselineRunId, p.candidateRunId].map((id) => controller.findRun(id)?.run.provenance.config).filter((c): c is string => !!c);
          return vscode.commands.executeCommand('ranklab.judgeUnjudged', { qid: p.qid, docId: p.docId, configs: [...new Set(configs)] });
        },
      },
    });
    this.subscription = controller.onDidChange(() => {
      if (this.host.isReady) this.postModel('runsUpdated', controller.dashboardModel());
    });
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

  registerSerializer(): vscode.Disposable {
    return this.host.registerSerializer();
  }

  private postModel(name: 'init' | 'runsUpdated', model: DashboardModel): void {
    this.lastPostedModel = model;
    this.host.notify(name, { model });
  }

  dispose(): void {
    this.subscription.dispose();
    this.host.dispose();
  }
}
