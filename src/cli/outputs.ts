import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { writeFileAtomic } from '../core/util/atomic-write';
import { InputError } from '../core/util/diagnostics';

/** A file a command will write, checked before the work starts (`checkOutputs`) and written atomically. */
export interface Output {
  /** The flag that asked for it, for messages. */
  flag: string;
  /** As given (or derived from what was given), for messages. */
  path: string;
  /** False for a name Ranklab derived (out.<config>.txt): an existing file of that name needs --force. */
  named: boolean;
}

/**
 * Every output is checked before anything runs, so a typo in a path never costs the whole evaluation:
 * its folder exists and is a folder; it is not a folder itself; it is not an input of the workspace (judgments,
 * configs, corpus, ranklab.json, principals, the runs being compared) whatever the path looks like (symlinks and
 * `..` resolved); two outputs do not share a file; a file the user did not name is not replaced without --force.
 */
export function checkOutputs(outputs: readonly Output[], opts: { inputs: readonly string[]; force: boolean }): void {
  const inputs = new Set(opts.inputs.map(canonical));
  const seen = new Map<string, Output>();
  for (const o of outputs) {
    const abs = resolve(o.path);
    if (/[\\/]$/.test(o.path) || isFolder(abs))
      throw new InputError('is a folder; expected a file name', [], { file: o.path, key: o.flag });
    const parent = dirname(abs);
    if (!existsSync(parent))
      throw new InputError(`folder not found, so ${o.flag} cannot be written`, [], {
        file: dirname(o.path),
        key: o.flag,
        hint: 'create it first',
      });
    if (!isFolder(parent))
      throw new InputError(`is not a folder, so ${o.flag} cannot be written under it`, [], { file: dirname(o.path), key: o.flag });
    const real = canonical(abs);
    if (inputs.has(real))
      throw new InputError('is an input of this command or workspace; it is never overwritten', [], {
        file: o.path,
        key: o.flag,
        hint: 'write the output elsewhere',
      });
    const other = seen.get(real);
    if (other) throw new InputError(`is named by both ${other.flag} and ${o.flag}`, [], { file: o.path, key: o.flag });
    seen.set(real, o);
    if (!o.named && !opts.force && existsSync(abs)) {
      throw new InputError(`exists and was not named by you (derived from ${o.flag}); it is not overwritten`, [], {
        file: o.path,
        key: o.flag,
        hint: 'pass --force to replace it',
      });
    }
  }
}

/** Writes a checked output so that a reader sees the old or the new file, never half of one. */
export function writeOutput(o: Output, text: string): void {
  writeFileAtomic(resolve(o.path), text);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The real path (symlinks resolved) of an existing file, else the absolute path of its real folder + name. */
function canonical(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return resolve(realpathSync(dirname(abs)), abs.slice(dirname(abs).length + 1));
    } catch {
      return abs;
    }
  }
}
