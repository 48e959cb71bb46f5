/**
 * Ranklab extension entry. Activation only wires things up (output channel, session manager, controller, live
 * evaluation, diagnostics, Testing view, CodeLens, the panel table's controllers and serializers, the command table,
 * status bar);
 * the workspace is read lazily on first use. Everything that computes is in src/core; see docs/design.md.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ConfigCodeLensProvider } from './code-lens';
import { COMMAND_LIST, registerCommands } from './commands';
import type { RanklabContext } from './context';
import { RanklabController } from './controller';
import { RanklabDiagnostics } from './diagnostics';
import { LiveEvaluator } from './live';
import { SessionManager } from './sessions';
import { createStatusBar } from './status-bar';
import { RanklabTests } from './testing';
import { PANEL_LIST, type PanelControllers, type PanelId } from './webviews/panels';
import { createPanels } from './webviews/register';

interface RanklabParts {
  /** Milliseconds spent in activate(). */
  readonly activationMs: number;
  readonly controller: RanklabController;
  readonly sessions: SessionManager;
  readonly live: LiveEvaluator;
  readonly diagnostics: RanklabDiagnostics;
  readonly tests: RanklabTests;
  /** The command table's ids, each marked internal or not (tests compare them with package.json). */
  readonly commands: { id: string; internal: boolean }[];
}

/** The parts, and per panel of the table the controller of that panel while it is open (tests read what it posted). */
export type RanklabApi = RanklabParts & { readonly [K in PanelId]: () => PanelControllers[K] | undefined };

/** Fails to compile when a panel's id is also the name of a part of the API. */
export type PanelIdsNameNoApiPart<K extends never = Extract<PanelId, keyof RanklabParts>> = K;

// Async only to import the panels' controllers (one bundle: a few microtasks); every part is built before it resolves.
export async function activate(context: vscode.ExtensionContext): Promise<RanklabApi> {
  const t0 = performance.now();
  const log = vscode.window.createOutputChannel('Ranklab', { log: true });
  // The worker's bundle sits beside this one (dist/worker.js; scripts/build.mjs), in the repository and in a .vsix.
  const sessions = new SessionManager(log, path.join(__dirname, 'worker.js'));
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
  const panels = await createPanels(context.extensionUri, { controller, sessions });
  const ctx: RanklabContext = { extension: context, log, controller, sessions, live, diagnostics, ...panels.controllers };

  const refreshWorkspaceDiagnostics = () => {
    const session = controller.session();
    if (session) diagnostics.refreshWorkspace(session);
    // Completes the walkthrough's first step (package.json contributes.walkthroughs) once a workspace is open.
    if (session) void vscode.commands.executeCommand('setContext', 'ranklab.workspaceOpen', true);
  };
  context.subscriptions.push(
    log,
    sessions,
    controller,
    live,
    diagnostics,
    tests,
    codeLens,
    ...panels.disposables,
    vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/*.rank.json' }, codeLens),
    live.onDidChange((state) => {
      diagnostics.setConfig(state, state.status === 'done' ? controller.session() : undefined);
      if (state.status === 'done') {
        refreshWorkspaceDiagnostics();
        if (state.result && !state.result.candidate.reused) controller.invalidate();
      }
    }),
    live.onDidSaveRun(({ path, summary }) => controller.learnRun(path, summary)),
    sessions.onDidChangeInputs(({ kinds }) => {
      refreshWorkspaceDiagnostics();
      // New grades (the judging view, or an edit): the dashboard's comparison and judged@k are figured again.
      if (kinds.has('judgments')) controller.invalidate();
    }),
    ...registerCommands(ctx),
    createStatusBar(controller, sessions),
  );
  // Judgment-file diagnostics show up without waiting for an evaluation (after activation, off its path).
  if (vscode.workspace.isTrusted) setTimeout(refreshWorkspaceDiagnostics, 500);
  const activationMs = performance.now() - t0;
  log.info(
    `Ranklab ${(context.extension.packageJSON as { version: string }).version} activated in ${activationMs.toFixed(1)} ms (trusted: ${vscode.workspace.isTrusted})`,
  );
  console.log(`RANKLAB-ACTIVATED ${activationMs.toFixed(1)} ms`);
  const commands = COMMAND_LIST.map(({ id, internal }) => ({ id, internal }));
  const open = Object.fromEntries(PANEL_LIST.map(({ id }) => [id, () => panels.open(id)])) as {
    [K in PanelId]: () => PanelControllers[K] | undefined;
  };
  return { activationMs, controller, sessions, live, diagnostics, tests, commands, ...open };
}

export function deactivate(): void {}
