/**
 * What a command or view of the editor layer may use: the parts `activate()` builds once, and each webview panel's
 * controller under its id in the panel table (webviews/panels.ts: `ctx.dashboard`, `ctx.judging`, `ctx.sweep`, `ctx.tune`).
 * Commands are factories `(ctx) => handler` over it (src/extension/commands/), so each one names what it needs and
 * nothing is global.
 */
import type * as vscode from 'vscode';
import type { RanklabController } from './controller';
import type { RanklabDiagnostics } from './diagnostics';
import type { LiveEvaluator } from './live';
import type { SessionManager } from './sessions';
import type { PanelControllers, PanelId } from './webviews/panels';

export interface RanklabParts {
  readonly extension: vscode.ExtensionContext;
  /** The "Ranklab" output channel. */
  readonly log: vscode.LogOutputChannel;
  readonly controller: RanklabController;
  readonly sessions: SessionManager;
  readonly live: LiveEvaluator;
  readonly diagnostics: RanklabDiagnostics;
}

export type RanklabContext = RanklabParts & PanelControllers;

/** Fails to compile when a panel's id is also the name of a part (its controller would hide the part). */
export type PanelIdsNameNoPart<K extends never = Extract<PanelId, keyof RanklabParts>> = K;
