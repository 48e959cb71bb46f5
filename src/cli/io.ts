import { formatDiagnostic, type Diagnostic } from '../core/util/diagnostics';

/** Where a command writes: results to stdout, diagnostics and progress to stderr (so JSON on stdout stays clean). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

/**
 * Set when stdout's reader has gone (`ranklab score --per-query … | head`): the rest of the output is dropped and the
 * command still runs to its end, so its exit code (a failed gate's 1) is not lost behind a crash or a forced exit 0.
 */
let stdoutClosed = false;

/** Takes stdout's EPIPE as "nobody reads any more" instead of an unhandled 'error' event and a stack trace. */
export function quietOnClosedStdout(): void {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    stdoutClosed = true;
  });
}

export const processIo: Io = {
  out: (t) => {
    if (!stdoutClosed) process.stdout.write(t);
  },
  err: (t) => process.stderr.write(t),
};

export function reportDiagnostics(io: Io, diagnostics: readonly Diagnostic[], max = 50): void {
  for (const d of diagnostics.slice(0, max)) io.err(formatDiagnostic(d) + '\n');
  if (diagnostics.length > max) io.err(`… and ${diagnostics.length - max} more problems\n`);
}
