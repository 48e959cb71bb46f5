/**
 * Ranklab extension entry. Activation only wires things up (channel, session manager, status bar, commands,
 * CodeLens, diagnostics, Testing view, serializer); the workspace is read lazily on first use.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConfigCodeLensProvider } from './codeLens';
import { registerCommands } from './commands';
import { RanklabController } from './controller';
import { DashboardPanel } from './dashboard/panel';
import { RanklabDiagnostics } from './diagnostics';
import { LiveEvaluator } from './live';
import { SessionManager } from './sessions';
import { createStatusBar } from './statusBar';
import { RanklabTests } from './testing';

export interface RanklabApi {
  /** Milliseconds spent in activate(). */
  readonly activationMs: number;
  readonly controller: RanklabController;
  readonly sessions: SessionManager;
  readonly live: LiveEvaluator;
  readonly diagnostics: RanklabDiagnostics;
  readonly tests: RanklabTests;
  /** The open dashboard panel, if any (tests read what was posted to the webview). */
  dashboard(): DashboardPanel | undefined;
}

export function activate(context: vscode.ExtensionContext): RanklabApi {
  const t0 = performance.now();
  const log = vscode.window.createOutputChannel('Ranklab', { log: true });
  const sessions = new SessionManager(log);
  const controller = new RanklabController(context, log, sessions);
  /** The workspace folder a file belongs to, when that folder is the Ranklab workspace. */
  const folderOf = (uri: vscode.Uri): vscode.WorkspaceFolder | undefined => {
    const folder = controller.folder;
    if (!folder || uri.scheme !== 'file' || folder.uri.scheme !== 'file') return undefined;
    return uri.fsPath.startsWith(folder.uri.fsPath + path.sep) ? folder : undefined;
  };
  const live = new LiveEvaluator(sessions, folderOf);
  const diagnostics = new RanklabDiagnostics(log);
  const tests = new RanklabTests(sessions, live, () => controller.folder);
  const codeLens = new ConfigCodeLensProvider(live, folderOf);

  const refreshWorkspaceDiagnostics = () => {
    const session = controller.session();
    if (session) diagnostics.refreshWorkspace(session);
  };
  context.subscriptions.push(
    log,
    sessions,
    controller,
    live,
    diagnostics,
    tests,
    codeLens,
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/*.rank.json' }, codeLens),
    live.onDidChange((state) => {
      diagnostics.setConfig(state, state.status === 'done' ? controller.session() : undefined);
      if (state.status === 'done') {
        refreshWorkspaceDiagnostics();
        if (state.result && !state.result.candidate.reused) controller.invalidate();
      }
    }),
    sessions.onDidChangeInputs(() => refreshWorkspaceDiagnostics()),
    ...registerCommands(context, controller, live, diagnostics),
    DashboardPanel.registerSerializer(context, controller),
    createStatusBar(controller, sessions),
    { dispose: () => DashboardPanel.current?.dispose() },
  );
  // Judgment-file diagnostics show up without waiting for an evaluation (after activation, off its path).
  if (vscode.workspace.isTrusted) setTimeout(refreshWorkspaceDiagnostics, 500);
  const activationMs = performance.now() - t0;
  log.info(`Ranklab ${context.extension.packageJSON.version} activated in ${activationMs.toFixed(1)} ms (trusted: ${vscode.workspace.isTrusted})`);
  console.log(`RANKLAB-ACTIVATED ${activationMs.toFixed(1)} ms`);
  return { activationMs, controller, sessions, live, diagnostics, tests, dashboard: () => DashboardPanel.current };
}

export function deactivate(): void {}
