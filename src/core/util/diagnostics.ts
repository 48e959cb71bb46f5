/** A problem found in a user file. Readers collect these and keep going: one bad line never hides the rest. */
export interface Diagnostic {
  /** Path as given by the user (or relative to the workspace). */
  file: string;
  /** 1-based line number; 0 when the problem concerns the whole file. */
  line: number;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}` : d.file;
  return `${where}: ${d.severity}: ${d.message}`;
}

/** Thrown when an input cannot be used at all (missing file, empty file, nothing valid). CLI maps it to exit code 2. */
export class InputError extends Error {
  constructor(message: string, readonly diagnostics: Diagnostic[] = []) {
    super(message);
    this.name = 'InputError';
  }
}
