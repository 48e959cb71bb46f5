import type { Split } from './types';

/** Result of checking one field of a JSON record: a value, or the message explaining why it is unusable. */
export type FieldResult<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): FieldResult<T> => ({ ok: true, value });
const bad = (message: string): FieldResult<never> => ({ ok: false, message });

/** Ids may be strings or integers in JSON (`"id": 7` is read as "7"); absent gives undefined. */
export function idField(record: Record<string, unknown>, names: string[]): FieldResult<string | undefined> {
  for (const name of names) {
    if (!(name in record)) continue;
    const v = record[name];
    if (typeof v === 'string' && v.trim() !== '') return ok(v.trim());
    if (typeof v === 'number' && Number.isInteger(v)) return ok(String(v));
    return bad(`"${name}" must be a non-empty string, got ${describe(v)}`);
  }
  return ok(undefined);
}

export function textField(record: Record<string, unknown>, names: string[]): FieldResult<string> {
  for (const name of names) {
    if (!(name in record)) continue;
    const v = record[name];
    if (typeof v !== 'string') return bad(`"${name}" must be a string, got ${describe(v)}`);
    if (v.trim() === '') return bad(`"${name}" is empty`);
    return ok(v.trim());
  }
  return bad(`missing "${names[0]}"`);
}

export function tagsField(record: Record<string, unknown>): FieldResult<string[]> {
  const v = record['tags'];
  if (v === undefined || v === null) return ok([]);
  if (!Array.isArray(v) || v.some((t) => typeof t !== 'string')) {
    return bad(`"tags" must be an array of strings, got ${describe(v)}`);
  }
  return ok([...new Set(v as string[])]);
}

export function splitField(record: Record<string, unknown>): FieldResult<Split | undefined> {
  const v = record['split'];
  if (v === undefined || v === null) return ok(undefined);
  if (v === 'tune' || v === 'holdout') return ok(v);
  return bad(`"split" must be "tune" or "holdout", got ${describe(v)}`);
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}
