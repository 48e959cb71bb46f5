import { formatDiagnostic, type Diagnostic } from '../core/util/diagnostics';

/** Where a command writes: results to stdout, diagnostics and progress to stderr (so JSON on stdout stays clean). */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
};

export function reportDiagnostics(io: Io, diagnostics: readonly Diagnostic[], max = 50): void {
  for (const d of diagnostics.slice(0, max)) io.err(formatDiagnostic(d) + '\n');
  if (diagnostics.length > max) io.err(`… and ${diagnostics.length - max} more problems\n`);
}
