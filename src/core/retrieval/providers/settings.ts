import { InputError } from '../../util/diagnostics';

/** Checks shared by the provider configs; errors name the setting, e.g. `vector.embedder.batchSize`. */

/** A whole-number setting: `fallback` when absent; a positive (or, with `allowZero`, non-negative) integer otherwise. */
export function positiveInt(value: unknown, fallback: number, setting: string, allowZero = false): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw new InputError(`${setting} must be a ${allowZero ? 'non-negative' : 'positive'} integer (got ${JSON.stringify(value)}).`);
  }
  return value;
}

/** A setting with a few allowed words: the first one when absent, else one of them. */
export function oneOf<T extends string>(value: T | undefined, allowed: readonly [T, ...T[]], setting: string): T {
  const chosen = value ?? allowed[0];
  if (allowed.includes(chosen)) return chosen;
  const quoted = allowed.map((a) => JSON.stringify(a));
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
  throw new InputError(`${setting} must be ${list} (got ${JSON.stringify(value)}).`);
}
