/**
 * Hosts the dashboard webview: strict CSP with a nonce, scripts only from dist/ via asWebviewUri,
 * typed messages (src/protocol.ts), and a serializer so the panel survives a window reload.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import {
  DASHBOARD_VIEW_TYPE,
  type DashboardState,
  type HostToWebview,
  type NotificationMap,
  type NotificationName,
  type RequestMessage,
  isWebviewToHost,
  PROTOCOL_VERSION,
} from '../../protocol';
import type { RanklabController } from '../controller';

export class DashboardPanel implements vscode.Disposable {
  static current: DashboardPanel | undefined;
  private ready = false;
  private pendingFocus: NotificationMap['focusRuns'] | undefined;
  /** The last model posted to the webview (init / runsUpdated); tests read it. */
  lastPostedModel: import('../../protocol').DashboardModel | undefined;
  get isReady(): boolean {
    return this.ready;
  }
  private readonly disposables: vscode.Disposable[] = [];

  static show(context: vscode.ExtensionContext, controller: RanklabController, focus?: NotificationMap['focusRuns']): DashboardPanel {
    if (DashboardPanel.current) {
      DashboardPanel.current.panel.reveal(undefined, false);
    } else {
      const panel = vscode.window.createWebviewPanel(DASHBOARD_VIEW_TYPE, 'Ranklab Dashboard', vscode.ViewColumn.Active, options(context));
      DashboardPanel.current = new DashboardPanel(panel, context, controller);
    }
    if (focus) {
      // A hidden panel's webview reloads on reveal and may miss this message: it is sent again after its next `ready`.
      DashboardPanel.current.pendingFocus = focus;
      DashboardPanel.current.notify('focusRuns', focus);
    }
    return DashboardPanel.current;
  }

  static registerSerializer(context: vscode.ExtensionContext, controller: RanklabController): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(DASHBOARD_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: DashboardState | undefined) {
        controller.log.info(`restoring dashboard (state: ${state ? 'yes' : 'none'})`);
        panel.webview.options = options(context);
        DashboardPanel.current?.dispose();
        DashboardPanel.current = new DashboardPanel(panel, context, controller);
      },
    });
  }

  private constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly context: vscode.ExtensionContext,
    private readonly controller: RanklabController,
  ) {
    panel.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'ranklab.svg');
    panel.webview.html = this.html();
    this.disposables.push(
      panel.onDidDispose(() => this.dispose()),
      panel.webview.onDidReceiveMessage((m) => this.receive(m)),
      controller.onDidChange(() => {
        if (this.ready) this.notify('runsUpdated', { model: controller.dashboardModel() });
      }),
    );
  }

  notify<N extends NotificationName>(name: N, params: NotificationMap[N]): void {
    if (name === 'init' || name === 'runsUpdated') this.lastPostedModel = (params as NotificationMap['init']).model;
    void this.post({ type: 'notification', name, params } as HostToWebview);
  }

  private post(m: HostToWebview): Thenable<boolean> {
    return this.panel.webview.postMessage(m);
  }

  private async receive(m: unknown): Promise<void> {
    if (!isWebviewToHost(m)) {
      this.controller.log.warn(`dashboard: ignored malformed message ${JSON.stringify(m)?.slice(0, 200)}`);
      return;
    }
    switch (m.type) {
      case 'ready':
        if (m.protocol !== PROTOCOL_VERSION) this.controller.log.warn(`dashboard protocol ${m.protocol} != ${PROTOCOL_VERSION}`);
        this.ready = true;
        this.notify('init', { model: this.controller.dashboardModel(this.pendingFocus ?? {}) });
        if (this.pendingFocus) this.notify('focusRuns', this.pendingFocus);
        return;
      case 'request':
        return this.answer(m);
      case 'command':
        switch (m.command) {
          case 'openDocument':
            await vscode.commands.executeCommand('ranklab.openDocument', m.params.docId, m.params.runId);
            return;
          case 'openQuery':
            await vscode.commands.executeCommand('ranklab.openQuery', m.params.qid);
            return;
          case 'setBaseline':
            await this.controller.setBaseline(m.params.runId);
            return;
          case 'runEvaluation':
            await vscode.commands.executeCommand('ranklab.runEvaluation');
            return;
          case 'checkAccessControl':
            await vscode.commands.executeCommand('ranklab.checkAccessControl');
            return;
        }
    }
  }

  private async answer(m: RequestMessage): Promise<void> {
    try {
      switch (m.method) {
        case 'getDashboard':
          if (this.pendingFocus && m.params.candidateRunId === this.pendingFocus.candidateRunId) this.pendingFocus = undefined;
          this.lastPostedModel = this.controller.dashboardModel(m.params);
          await this.post({ type: 'response', requestId: m.requestId, ok: true, result: this.lastPostedModel });
          return;
        case 'getQueryDetail':
          await this.post({ type: 'response', requestId: m.requestId, ok: true, result: this.controller.queryDetail(m.params.qid, m.params) });
          return;
      }
    } catch (e) {
      this.controller.log.error(`dashboard request ${m.method} failed: ${(e as Error).stack ?? e}`);
      await this.post({ type: 'response', requestId: m.requestId, ok: false, error: (e as Error).message });
    }
  }

  private html(): string {
    const webview = this.panel.webview;
    const nonce = randomBytes(16).toString('base64');
    const script = webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'webview.js'));
    const css = webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'media', 'dashboard.css'));
    // No inline script or style; Chart.js draws on <canvas> and sets sizes through the CSSOM (allowed).
    const csp = [
      "default-src 'none'",
      `img-src ${webview.cspSource} data:`,
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `script-src 'nonce-${nonce}'`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${css}">
<title>Ranklab Dashboard</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="muted">Loading runs…</p></main>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>`;
  }

  dispose(): void {
    if (DashboardPanel.current === this) DashboardPanel.current = undefined;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

function options(context: vscode.ExtensionContext): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(context.extensionUri, 'dist'), vscode.Uri.joinPath(context.extensionUri, 'media')],
  };
}
