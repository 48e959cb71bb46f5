/**
 * What a failed command shows in its error notification. No `vscode` import (unit-tested in plain Node).
 * The full error with its stack goes to the "Ranklab" output channel; the notification never shows a stack.
 */
import { InputError } from '../../core/util/diagnostics';

const STACK_FRAME = /^\s*at\s/;

export function commandErrorMessage(e: unknown): string {
  // Unusable input: the message names the file (and line) and says what is wrong; shown as it is.
  if (e instanceof InputError) return `Ranklab: ${e.message}`;
  const message = e instanceof Error ? e.message : String(e);
  const text = message
    .split('\n')
    .filter((line) => !STACK_FRAME.test(line))
    .join('\n')
    .trim();
  return `Ranklab: ${text || (e instanceof Error ? e.name : 'unknown error')}`;
}
