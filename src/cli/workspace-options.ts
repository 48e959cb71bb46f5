import { RanklabSession } from '../core/session/session';
import type { WorkProgress } from '../core/util/cooperative';
import type { Options } from './args';
import type { Io } from './io';
import { reportDiagnostics } from './io';

/** Options of every command that works on a workspace. */
export const WORKSPACE_OPTIONS = {
  workspace: { type: 'string', short: 'w' },
  principals: { type: 'string' },
  'state-dir': { type: 'string' },
  verbose: { type: 'boolean', short: 'v' },
} as const satisfies Options;

export function openSession(values: { workspace?: string; principals?: string; verbose?: boolean; 'state-dir'?: string }, io: Io): RanklabSession {
  const session = RanklabSession.open(values.workspace ?? '.', {
    principalsFile: values.principals,
    stateDir: values['state-dir'],
    log: values.verbose ? (m) => io.err(`[ranklab] ${m}\n`) : undefined,
    onProgress: progressLines(io),
  });
  reportDiagnostics(io, session.diagnostics.filter((d) => d.severity !== 'info'));
  return session;
}

/**
 * With RANKLAB_PROGRESS set, one machine-readable line on stderr when a long phase starts and at each of its
 * pauses (at most every 50 ms): `ranklab-progress {"phase":"queries","label":"baseline","done":120,"total":1000}`.
 */
function progressLines(io: Io): ((p: WorkProgress) => void) | undefined {
  if (!process.env.RANKLAB_PROGRESS) return undefined;
  return (p) => io.err(`ranklab-progress ${JSON.stringify(p)}\n`);
}

/**
 * Ctrl-C (SIGINT) stops long work cleanly: the core notices at its next pause (long steps pause every ~50 ms),
 * saves nothing half-done, and the command says what finished and exits 130. The handler then steps aside, so
 * a second Ctrl-C has its default effect: the process ends at once.
 */
export function interruptSignal(io: Io): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = () => {
    process.off('SIGINT', onSigint);
    io.err('\ninterrupted: stopping (Ctrl-C again to quit at once)\n');
    controller.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
}

/** Exit code of a command stopped by Ctrl-C (128 + SIGINT), as shells report it. */
export const INTERRUPTED = 130;

/** The report of an interrupted command: what completed (with details) and what did not. */
export function reportInterrupted(io: Io, what: string, completed: string[], notFinished: string[]): number {
  io.err(`interrupted: ${completed.length} of ${completed.length + notFinished.length} ${what} completed${completed.length ? `: ${completed.join('; ')}` : ''}\n`);
  if (notFinished.length) io.err(`not completed: ${notFinished.join(', ')}\n`);
  return INTERRUPTED;
}

/** A one-line progress indicator on stderr, only when stderr is a terminal (so CI logs stay clean). */
export function progressReporter(io: Io, label: string): (done: number, total: number) => void {
  if (!process.stderr.isTTY) return () => {};
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done !== total && now - last < 100) return;
    last = now;
    io.err(`\r${label}: ${done}/${total} queries${done === total ? '\n' : ''}`);
  };
}
