/**
 * What a failed command shows in its error notification. No `vscode` import (unit-tested in plain Node).
 * The full error with its stack goes to the "Ranklab" output channel; the notification shows only the first line
 * of the message (an InputError's names the file, line and key), never a stack.
 */
import { InputError } from '../../core/util/diagnostics';

const STACK_FRAME = /^\s*at\s/;

export function commandErrorMessage(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const first = message
    .split('\n')
    .find((line) => line.trim() !== '' && !STACK_FRAME.test(line))
    ?.trim();
  // Unusable input: the message names the file (and line) and says what is wrong; shown as it is.
  if (e instanceof InputError) return `Ranklab: ${first ?? e.name}`;
  return `Ranklab: ${first || (e instanceof Error ? e.name : 'unknown error')}`;
}
