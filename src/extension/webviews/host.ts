/**
 * Hosts one webview panel of a given view type: creates or reveals it, restores it after a window reload (the
 * serializer), builds its page (CSP + nonce, script from dist/webviews/), and speaks its protocol through a
 * HostEndpoint (ready handshake, typed requests and commands, notifications).
 * Built by ./register.ts from a row of the panel table (./panels.ts) and its controller's handlers; see docs/design.md.
 */
import * as vscode from 'vscode';
import type { Messages, NotificationName } from '../../protocol/base';
import { HostEndpoint, type ViewHandlers } from './endpoint';
import { webviewHtml } from './html';
import type { PanelHost, PanelView } from './view';

export class WebviewPanelHost<M extends Messages> implements PanelHost<M>, vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private endpoint: HostEndpoint<M> | undefined;
  private panelDisposables: vscode.Disposable[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
    readonly view: PanelView<M>,
    private readonly handlers: ViewHandlers<M>,
  ) {}

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** The app has said `ready` since the panel opened. */
  get isReady(): boolean {
    return this.endpoint?.isReady ?? false;
  }

  /** Opens the panel in the active column, or reveals it where it is. */
  show(): void {
    if (this.panel) {
      this.panel.reveal(undefined, false);
      return;
    }
    const panel = vscode.window.createWebviewPanel(this.view.protocol.viewType, this.view.title, vscode.ViewColumn.Active, this.options());
    this.attach(panel);
  }

  /** Restores the panel VS Code kept across a window reload (its webview state is the app's `setState`). */
  registerSerializer(): vscode.Disposable {
    return vscode.window.registerWebviewPanelSerializer(this.view.protocol.viewType, {
      deserializeWebviewPanel: async (panel: vscode.WebviewPanel, state: unknown) => {
        this.log.info(`restoring ${this.view.protocol.viewType} (state: ${state ? 'yes' : 'none'})`);
        panel.webview.options = this.options();
        this.attach(panel);
      },
    });
  }

  /** Posts a notification (lost if the app is not listening: it asks for the state again after its next `ready`). */
  notify<N extends NotificationName<M>>(name: N, params: M['notifications'][N]): void {
    this.endpoint?.notify(name, params);
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist'), vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.close();
    this.panel = panel;
    const webview = panel.webview;
    const media = (name: string) => vscode.Uri.joinPath(this.extensionUri, 'media', name);
    if (this.view.icon) panel.iconPath = media(this.view.icon);
    const endpoint = new HostEndpoint(this.view.protocol, this.handlers, (m) => webview.postMessage(m), this.log);
    this.endpoint = endpoint;
    webview.html = webviewHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webviews', `${this.view.app}.js`)).toString(),
      styleUris: this.view.styles.map((s) => webview.asWebviewUri(media(s)).toString()),
      title: this.view.title,
      loading: this.view.loading,
    });
    this.panelDisposables.push(
      panel.onDidDispose(() => {
        if (this.panel === panel) this.detach();
      }),
      webview.onDidReceiveMessage((m: unknown) => endpoint.receive(m)),
    );
  }

  private detach(): void {
    for (const d of this.panelDisposables.splice(0)) d.dispose();
    this.panel = undefined;
    this.endpoint = undefined;
  }

  /** Closes the panel, if open. */
  close(): void {
    const panel = this.panel;
    this.detach();
    panel?.dispose();
  }

  dispose(): void {
    this.close();
  }
}
