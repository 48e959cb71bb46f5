import { type Diagnostic, InputError, countProblems, plural } from '../core/util/diagnostics';
import { type Io, reportDiagnostics } from './io';

/**
 * The problems of a command's inputs, printed on stderr once per input ("judgments: 3 problems (2 errors,
 * 1 warning)" and then each with file:line), however many times the input is used. With --strict, any error
 * among them stops the command before the work starts (`stopIfStrict`).
 */
export class InputReport {
  private readonly printed = new Set<string>();
  private errors = 0;

  constructor(
    private readonly io: Io,
    readonly strict: boolean,
  ) {}

  /** Prints the problems of one input (info lines left out), unless that input was reported already. */
  add(input: string, diagnostics: readonly Diagnostic[]): void {
    if (this.printed.has(input)) return;
    this.printed.add(input);
    // In file and line order (stable: problems of one line keep theirs), as an editor lists them.
    const shown = diagnostics
      .filter((d) => d.severity !== 'info')
      .map((d, i) => ({ d, i }))
      .sort((a, b) => (a.d.file < b.d.file ? -1 : a.d.file > b.d.file ? 1 : a.d.line - b.d.line || a.i - b.i))
      .map((x) => x.d);
    if (shown.length === 0) return;
    this.errors += shown.filter((d) => d.severity === 'error').length;
    this.io.err(`${input}: ${countProblems(shown)}\n`);
    reportDiagnostics(this.io, shown);
  }

  /** A line about the inputs that is no problem of a file (e.g. how many documents acl.missingAcl decided). */
  note(text: string): void {
    this.io.err(`${text}\n`);
  }

  /** Under --strict, an error anywhere in the inputs is exit 2, before anything is run or written. */
  stopIfStrict(): void {
    if (this.strict && this.errors > 0) {
      throw new InputError(`${plural(this.errors, 'error')} in the inputs (listed above); nothing was run`, [], { key: '--strict' });
    }
  }
}
