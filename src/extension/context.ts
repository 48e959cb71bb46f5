/**
 * What a command or view of the editor layer may use: the parts `activate()` builds once. Commands are factories
 * `(ctx) => handler` over it (src/extension/commands/), so each one names what it needs and nothing is global.
 */
import type * as vscode from 'vscode';
import type { RanklabController } from './controller';
import type { DashboardPanel } from './dashboard/panel';
import type { RanklabDiagnostics } from './diagnostics';
import type { JudgingPanel } from './judging/panel';
import type { LiveEvaluator } from './live';
import type { SessionManager } from './sessions';
import type { SweepPanel } from './sweep/panel';

export interface RanklabContext {
  readonly extension: vscode.ExtensionContext;
  /** The "Ranklab" output channel. */
  readonly log: vscode.LogOutputChannel;
  readonly controller: RanklabController;
  readonly sessions: SessionManager;
  readonly live: LiveEvaluator;
  readonly diagnostics: RanklabDiagnostics;
  readonly dashboard: DashboardPanel;
  readonly judging: JudgingPanel;
  readonly sweep: SweepPanel;
}
