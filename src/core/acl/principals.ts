import { existsSync, readFileSync } from 'node:fs';
import { type Diagnostic, InputError } from '../util/diagnostics';
import { decodeText } from '../util/text-file';
import { type JsonLocations, lineOfPointer, parseJsonWithLocations } from '../util/json-source';
import type { Principal } from './policy';

/** Reads `principals.json`: `[{"name": "...", "tenant": "...", "groups": ["..."]}]`. Bad entries are reported and skipped. */
export function readPrincipals(path: string): { principals: Principal[]; diagnostics: Diagnostic[] } {
  if (!existsSync(path)) throw new InputError(`${path}: principals file not found`);
  const text = decodeText(readFileSync(path));
  let data: unknown;
  let locations: JsonLocations;
  try {
    ({ value: data, locations } = parseJsonWithLocations(text));
  } catch (e) {
    throw new InputError(`${path}: invalid JSON: ${(e as Error).message}`);
  }
  const wrapped = !Array.isArray(data);
  const items = wrapped ? (data as { principals?: unknown })?.principals : data;
  if (!Array.isArray(items)) throw new InputError(`${path}: expected a list of principals`);
  const diagnostics: Diagnostic[] = [];
  const principals: Principal[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const line = lineOfPointer(locations, `${wrapped ? '/principals' : ''}/${index}`);
    const p = item as Record<string, unknown>;
    if (!p || typeof p !== 'object' || typeof p.name !== 'string' || p.name === '') {
      diagnostics.push({ file: path, line, severity: 'error', message: `principal #${index + 1} has no "name"; skipped` });
      return;
    }
    const groups = p.groups === undefined ? [] : p.groups;
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string')) {
      diagnostics.push({ file: path, line, severity: 'error', message: `principal "${p.name}": "groups" must be a list of strings; skipped` });
      return;
    }
    if (p.tenant !== undefined && typeof p.tenant !== 'string') {
      diagnostics.push({ file: path, line, severity: 'error', message: `principal "${p.name}": "tenant" must be a string; skipped` });
      return;
    }
    if (seen.has(p.name)) {
      diagnostics.push({ file: path, line, severity: 'error', message: `principal "${p.name}" is declared twice; the first is used` });
      return;
    }
    seen.add(p.name);
    principals.push({ ...p, name: p.name, tenant: p.tenant as string | undefined, groups: groups as string[] });
  });
  return { principals, diagnostics };
}

export function findPrincipal(principals: Principal[], name: string, source: string): Principal {
  const p = principals.find((x) => x.name === name);
  if (!p) throw new InputError(`unknown principal "${name}" (declared in ${source}: ${principals.map((x) => x.name).join(', ') || 'none'})`);
  return p;
}
