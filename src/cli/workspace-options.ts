import { RanklabSession } from '../core/session/session';
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
  });
  reportDiagnostics(io, session.diagnostics.filter((d) => d.severity !== 'info'));
  return session;
}

/** Stops long work cleanly on Ctrl-C: the current query finishes, nothing half-written is left. */
export function interruptSignal(io: Io): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const onSigint = () => {
    io.err('\ninterrupted: stopping after the current query\n');
    controller.abort(new Error('interrupted'));
  };
  process.once('SIGINT', onSigint);
  return { signal: controller.signal, dispose: () => process.off('SIGINT', onSigint) };
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
