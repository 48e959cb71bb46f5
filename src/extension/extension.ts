/**
 * Ranklab extension entry. Activation only wires things up (channel, status bar, commands, serializer);
 * runs are read lazily on first use.
 */
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { RanklabController } from './controller';
import { DashboardPanel } from './dashboard/panel';
import { createStatusBar } from './statusBar';

export interface RanklabApi {
  /** Milliseconds spent in activate(). */
  readonly activationMs: number;
  readonly controller: RanklabController;
}

export function activate(context: vscode.ExtensionContext): RanklabApi {
  const t0 = performance.now();
  const log = vscode.window.createOutputChannel('Ranklab', { log: true });
  const controller = new RanklabController(context, log);
  context.subscriptions.push(
    log,
    controller,
    ...registerCommands(context, controller),
    DashboardPanel.registerSerializer(context, controller),
    createStatusBar(controller),
    { dispose: () => DashboardPanel.current?.dispose() },
  );
  const activationMs = performance.now() - t0;
  log.info(`Ranklab ${context.extension.packageJSON.version} activated in ${activationMs.toFixed(1)} ms (trusted: ${vscode.workspace.isTrusted})`);
  return { activationMs, controller };
}

export function deactivate(): void {}
