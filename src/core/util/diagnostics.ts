/** A problem found in a user file. Readers collect these and keep going: one bad line never hides the rest. */
export interface Diagnostic {
  /** Path as given by the user (or relative to the workspace). */
  file: string;
  /** 1-based line number; 0 when the problem concerns the whole file. */
  line: number;
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** The setting, field or flag the problem is about ("gates.min.ndcg@10", "--max-queries"), when there is one. */
  key?: string;
  /** What to do about it, when that is not obvious from the message. */
  hint?: string;
}

/** `file:line: severity: key: message (hint)`, the one format every problem is printed in. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line > 0 ? `${d.file}:${d.line}` : d.file;
  return `${where ? `${where}: ` : ''}${d.severity}: ${d.key ? `${d.key}: ` : ''}${d.message}${d.hint ? ` (${d.hint})` : ''}`;
}

/** Where an unusable input is, as far as it is known. */
export interface InputLocation {
  file?: string;
  /** 1-based; 0 or absent when the problem concerns the whole file. */
  line?: number;
  key?: string;
  hint?: string;
}

/**
 * Thrown for every failure a user can cause (a missing or unusable file, a bad flag, a setting that cannot
 * work): the CLI prints it as `file:line: error: key: reason (hint)` and exits 2. Anything else that escapes
 * is a bug (exit 3 with the stack). `message` carries the location too (`file:line: key: reason (hint)`), so
 * a caller that only shows the message (a toast) still says where; `diagnostics` are related problems.
 */
export class InputError extends Error {
  /** What is wrong, without the location. */
  readonly reason: string;
  readonly file?: string;
  readonly line?: number;
  readonly key?: string;
  readonly hint?: string;

  constructor(
    reason: string,
    readonly diagnostics: Diagnostic[] = [],
    where: InputLocation = {},
  ) {
    super(locate(reason, where));
    this.name = 'InputError';
    this.reason = reason;
    if (where.file) this.file = where.file;
    if (where.line) this.line = where.line;
    if (where.key) this.key = where.key;
    if (where.hint) this.hint = where.hint;
  }

  /** The error as a diagnostic (file '' when it concerns no file). */
  toDiagnostic(): Diagnostic {
    const d: Diagnostic = { file: this.file ?? '', line: this.line ?? 0, severity: 'error', message: this.reason };
    if (this.key) d.key = this.key;
    if (this.hint) d.hint = this.hint;
    return d;
  }
}

function locate(reason: string, where: InputLocation): string {
  const file = where.file ? (where.line ? `${where.file}:${where.line}: ` : `${where.file}: `) : '';
  return `${file}${where.key ? `${where.key}: ` : ''}${reason}${where.hint ? ` (${where.hint})` : ''}`;
}

/** An InputError at a diagnostic's place, carrying it. */
export function errorAt(d: Diagnostic, diagnostics: Diagnostic[] = []): InputError {
  return new InputError(d.message, diagnostics, { file: d.file, line: d.line, key: d.key, hint: d.hint });
}

/** "1 problem (1 error)", "3 problems (2 errors, 1 warning)". */
export function countProblems(diagnostics: readonly Diagnostic[]): string {
  const n = (severity: Diagnostic['severity']) => diagnostics.filter((d) => d.severity === severity).length;
  const parts = [plural(n('error'), 'error'), plural(n('warning'), 'warning'), plural(n('info'), 'note')].filter(
    (p) => !p.startsWith('0 '),
  );
  return `${plural(diagnostics.length, 'problem')} (${parts.join(', ')})`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
