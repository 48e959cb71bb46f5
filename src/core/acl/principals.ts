import { existsSync } from 'node:fs';
import { type Diagnostic, InputError } from '../util/diagnostics';
import { readUserText } from '../util/text-file';
import { JsonSyntaxError, type JsonLocations, lineOfPointer, parseJsonWithLocations } from '../util/json-source';
import type { Principal } from './policy';

/**
 * Reads `principals.json`: `[{"name": "...", "tenant": "...", "groups": ["..."]}]` (or `{"principals": [...]}`),
 * JSON with comments like every JSON file here. Bad entries are reported at their line and skipped; a file
 * that cannot be used at all throws an InputError naming it. `display` names the file in messages.
 */
export function readPrincipals(path: string, display = path): { principals: Principal[]; diagnostics: Diagnostic[] } {
  if (!existsSync(path)) throw new InputError('principals file not found', [], { file: display });
  const text = readUserText(path, display);
  if (text.trim() === '') throw new InputError('file is empty; expected a list of principals', [], { file: display });
  let data: unknown;
  let locations: JsonLocations;
  try {
    ({ value: data, locations } = parseJsonWithLocations(text, { comments: true, duplicateKeys: 'error' }));
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw new InputError(`invalid JSON: ${e.reason} (column ${e.column})`, [], { file: display, line: e.line });
    throw e;
  }
  const wrapped = !Array.isArray(data);
  const items = wrapped ? (data as { principals?: unknown })?.principals : data;
  if (!Array.isArray(items)) {
    throw new InputError('expected a list of principals [{"name", "tenant", "groups"}] (or {"principals": [...]})', [], { file: display, line: lineOfPointer(locations, wrapped && data && typeof data === 'object' ? '/principals' : '') });
  }
  const diagnostics: Diagnostic[] = [];
  const principals: Principal[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const line = lineOfPointer(locations, `${wrapped ? '/principals' : ''}/${index}`);
    const p = item as Record<string, unknown>;
    if (!p || typeof p !== 'object' || typeof p.name !== 'string' || p.name === '') {
      diagnostics.push({ file: display, line, severity: 'error', message: `principal #${index + 1} has no "name"; skipped` });
      return;
    }
    const groups = p.groups === undefined ? [] : p.groups;
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string')) {
      diagnostics.push({ file: display, line, severity: 'error', message: `principal "${p.name}": "groups" must be a list of strings; skipped` });
      return;
    }
    if (p.tenant !== undefined && typeof p.tenant !== 'string') {
      diagnostics.push({ file: display, line, severity: 'error', message: `principal "${p.name}": "tenant" must be a string; skipped` });
      return;
    }
    if (seen.has(p.name)) {
      diagnostics.push({ file: display, line, severity: 'error', message: `principal "${p.name}" is declared twice; the first is used` });
      return;
    }
    seen.add(p.name);
    principals.push({ ...p, name: p.name, tenant: p.tenant as string | undefined, groups: groups as string[] });
  });
  return { principals, diagnostics };
}

export function findPrincipal(principals: Principal[], name: string, source: string): Principal {
  const p = principals.find((x) => x.name === name);
  if (!p) throw new InputError(`unknown principal "${name}"`, [], { file: source, key: '--as', hint: `declared: ${principals.map((x) => x.name).join(', ') || 'none'}` });
  return p;
}
