/**
 * Every Ranklab command, as one table keyed by command id (like the CLI's COMMANDS in src/cli/main.ts).
 * Each entry is a factory `(ctx) => handler` in a file grouped by concern; handlers stay thin: pick inputs in the
 * UI, call the core (or the run store), show results. Every command accepts its inputs as arguments too, so tests
 * and other commands call it without UI.
 * A new command: its factory in one of these files, its row here, and its entry in package.json
 * `contributes.commands` (test/integration/suite/commands.test.ts checks that the two agree).
 */
import * as vscode from 'vscode';
import type { RanklabContext } from '../context';
import { checkAccessControl, searchAsPrincipal } from './access';
import { compareWithBaseline, openDashboard } from './dashboard';
import { commandErrorMessage } from './errors';
import { evaluateConfig, rebuildIndex, runEvaluation } from './evaluation';
import { judgeUnjudged } from './judging';
import { openDocument, openQuery } from './navigate';
import { sampleQueries } from './queries';
import { exportRun, setBaseline } from './runs';
import { sweepParameter } from './sweep';
import { tuneConfig } from './tune';
import { createWorkspace } from './workspace';

// Handlers take the arguments VS Code passes (untyped at the boundary); each declares the ones it reads.
type Handler = (...args: never[]) => unknown;

export interface CommandSpec {
  create: (ctx: RanklabContext) => Handler;
  /** Called by Ranklab itself (dashboard, search results), hidden from the Command Palette. */
  internal?: true;
}

export const COMMANDS = {
  'ranklab.createWorkspace': { create: createWorkspace },
  'ranklab.openDashboard': { create: openDashboard },
  'ranklab.runEvaluation': { create: runEvaluation },
  'ranklab.evaluateConfig': { create: evaluateConfig },
  'ranklab.compareWithBaseline': { create: compareWithBaseline },
  'ranklab.setBaseline': { create: setBaseline },
  'ranklab.exportRun': { create: exportRun },
  'ranklab.rebuildIndex': { create: rebuildIndex },
  'ranklab.checkAccessControl': { create: checkAccessControl },
  'ranklab.searchAsPrincipal': { create: searchAsPrincipal },
  'ranklab.judgeUnjudged': { create: judgeUnjudged },
  'ranklab.sampleQueries': { create: sampleQueries },
  'ranklab.sweepParameter': { create: sweepParameter },
  'ranklab.tuneConfig': { create: tuneConfig },
  'ranklab.openDocument': { create: openDocument, internal: true },
  'ranklab.openQuery': { create: openQuery, internal: true },
} satisfies Record<string, CommandSpec>;

export type CommandId = keyof typeof COMMANDS;

/** The table's ids, each marked internal or not. */
export const COMMAND_LIST = Object.entries(COMMANDS as Record<CommandId, CommandSpec>).map(([id, spec]) => ({
  id: id as CommandId,
  create: spec.create,
  internal: spec.internal === true,
}));

/**
 * Registers every command of the table behind one wrapper: a failure is logged with its stack to the "Ranklab"
 * output channel and shown as an error notification without it (commandErrorMessage); the command returns undefined.
 */
export function registerCommands(ctx: RanklabContext): vscode.Disposable[] {
  return COMMAND_LIST.map(({ id, create }) => {
    const handler = create(ctx);
    return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await handler(...(args as never[]));
      } catch (e) {
        ctx.log.error(`${id} failed: ${(e as Error)?.stack ?? String(e)}`);
        void vscode.window.showErrorMessage(commandErrorMessage(e));
        return undefined;
      }
    });
  });
}
