import { existsSync } from 'node:fs';
import { type Diagnostic, InputError } from '../util/diagnostics';
import { nearMissKeys } from '../util/near-miss';
import { readUserText } from '../util/text-file';
import { JsonSyntaxError, type JsonLocations, lineOfPointer, parseJsonWithLocations } from '../util/json-source';
import type { Principal } from './policy';

/** An entry of the principals file that was not used: it has an error (reported at `line`), so it was never checked. */
export interface SkippedPrincipal {
  name?: string;
  line: number;
  reason: string;
}

/**
 * Reads `principals.json`: `[{"name": "...", "tenant": "...", "groups": ["..."]}]` (or `{"principals": [...]}`),
 * JSON with comments like every JSON file here. Bad entries are reported at their line and skipped (and listed in
 * `skipped`); a file that cannot be used at all throws an InputError naming it. `display` names the file in
 * messages. `accessKeys` are the attributes access decisions read (tenant, groups and those the rule names): an
 * entry with a key that nearly spells one (`group`, `Tenant`) is an error and skipped, never a principal without it.
 */
export function readPrincipals(
  path: string,
  display = path,
  accessKeys: readonly string[] = ['tenant', 'groups'],
): {
  principals: Principal[];
  diagnostics: Diagnostic[];
  skipped: SkippedPrincipal[];
  lines: Map<string, number>;
  attributes: Set<string>;
} {
  if (!existsSync(path)) throw new InputError('principals file not found', [], { file: display });
  const text = readUserText(path, display);
  if (text.trim() === '') throw new InputError('file is empty; expected a list of principals', [], { file: display });
  let data: unknown;
  let locations: JsonLocations;
  try {
    ({ value: data, locations } = parseJsonWithLocations(text, { comments: true, duplicateKeys: 'error' }));
  } catch (e) {
    if (e instanceof JsonSyntaxError)
      throw new InputError(`invalid JSON: ${e.reason} (column ${e.column})`, [], { file: display, line: e.line });
    throw e;
  }
  const wrapped = !Array.isArray(data);
  const items = wrapped ? (data as { principals?: unknown })?.principals : data;
  if (!Array.isArray(items)) {
    throw new InputError('expected a list of principals [{"name", "tenant", "groups"}] (or {"principals": [...]})', [], {
      file: display,
      line: lineOfPointer(locations, wrapped && data && typeof data === 'object' ? '/principals' : ''),
    });
  }
  const diagnostics: Diagnostic[] = [];
  const principals: Principal[] = [];
  const skipped: SkippedPrincipal[] = [];
  const lines = new Map<string, number>();
  // Every key of every entry, skipped ones too: an attribute the rule reads that no entry has is the rule's typo.
  const attributes = new Set<string>();
  items.forEach((item, index) => {
    const pointer = `${wrapped ? '/principals' : ''}/${index}`;
    const line = lineOfPointer(locations, pointer);
    const p = item as Record<string, unknown>;
    if (p && typeof p === 'object' && !Array.isArray(p)) for (const k of Object.keys(p)) attributes.add(k);
    const name = p && typeof p === 'object' && typeof p.name === 'string' && p.name !== '' ? p.name : undefined;
    const skip = (reason: string, message = `principal "${name}": ${reason}; skipped`, at = line, key?: string): void => {
      diagnostics.push({ file: display, line: at, severity: 'error', message, ...(key ? { key } : {}) });
      skipped.push({ ...(name ? { name } : {}), line: at, reason });
    };
    if (!p || typeof p !== 'object' || Array.isArray(p) || name === undefined)
      return skip('no "name"', `principal #${index + 1} has no "name"; skipped`);
    const misses = nearMissKeys(p, accessKeys, new Set(['name']));
    const miss = misses[0];
    if (miss) {
      const { key, name: meant } = miss;
      const reason = `"${key}" looks like the access attribute "${meant}" misspelled; did you mean "${meant}"? (the principal would be checked without it)`;
      return skip(reason, undefined, lineOfPointer(locations, `${pointer}/${key}`), key);
    }
    const groups = p.groups === undefined ? [] : p.groups;
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string')) return skip('"groups" must be a list of strings');
    if (p.tenant !== undefined && typeof p.tenant !== 'string') return skip('"tenant" must be a string');
    if (lines.has(p.name as string))
      return skip('declared twice (the first is used)', `principal "${name}" is declared twice; the first is used`);
    lines.set(name, line);
    principals.push({ ...p, name, tenant: p.tenant as string | undefined, groups: groups as string[] });
  });
  return { principals, diagnostics, skipped, lines, attributes };
}

export function findPrincipal(principals: Principal[], name: string, source: string, skipped: readonly SkippedPrincipal[] = []): Principal {
  const p = principals.find((x) => x.name === name);
  if (p) return p;
  const bad = skipped.find((s) => s.name === name);
  if (bad)
    throw new InputError(`principal "${name}" cannot be used: ${bad.reason}`, [], {
      file: source,
      line: bad.line,
      key: '--as',
      hint: 'fix its entry in the principals file',
    });
  throw new InputError(`unknown principal "${name}"`, [], {
    file: source,
    key: '--as',
    hint: `declared: ${principals.map((x) => x.name).join(', ') || 'none'}`,
  });
}
