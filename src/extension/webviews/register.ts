/**
 * Builds every panel of the table (./panels.ts) at activation: its controller, over a WebviewPanelHost made from
 * the row (page, CSP, protocol) and the controller's handlers, and its serializer (a panel VS Code kept across a
 * window reload is restored by it). A new panel needs nothing here.
 */
import type * as vscode from 'vscode';
import type { Messages } from '../../protocol/base';
import { WebviewPanelHost } from './host';
import { PANEL_LIST, type PanelControllers, type PanelId } from './panels';
import type { PanelDeps } from './view';

export interface Panels {
  /** Each panel's controller, by id. */
  readonly controllers: PanelControllers;
  /** The controller of a panel that is open now. */
  open<K extends PanelId>(id: K): PanelControllers[K] | undefined;
  /** Hosts, serializers and controllers, to dispose on deactivation. */
  readonly disposables: vscode.Disposable[];
}

export async function createPanels(extensionUri: vscode.Uri, deps: PanelDeps): Promise<Panels> {
  const controllers: Record<string, unknown> = {};
  const hosts = new Map<PanelId, WebviewPanelHost<Messages>>();
  const disposables: vscode.Disposable[] = [];
  // The controllers' modules are in the one bundle (no file is read): importing them is a few microtasks.
  const classes = await Promise.all(PANEL_LIST.map((row) => row.controller()));
  PANEL_LIST.forEach((row, i) => {
    let host: WebviewPanelHost<Messages> | undefined;
    const controller = new classes[i]!(deps, (handlers) => {
      if (host) throw new Error(`panel ${row.id}: its controller asked for a second host`);
      host = new WebviewPanelHost(extensionUri, deps.controller.log, row, handlers);
      return host;
    });
    if (!host) throw new Error(`panel ${row.id}: its controller built no host (it must call the host function in its constructor)`);
    controllers[row.id] = controller;
    hosts.set(row.id, host);
    disposables.push(host, host.registerSerializer());
    if (typeof (controller as Partial<vscode.Disposable>).dispose === 'function') disposables.push(controller as vscode.Disposable);
  });
  return {
    controllers: controllers as PanelControllers,
    open: (id) => (hosts.get(id)?.isOpen ? (controllers as PanelControllers)[id] : undefined),
    disposables,
  };
}
