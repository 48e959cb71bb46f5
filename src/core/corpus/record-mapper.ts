import { nearMissKeys } from '../util/near-miss';
import type { AclFieldNames, CorpusSettings } from './settings';
import { DEFAULT_BODY_FIELDS, DEFAULT_ID_FIELDS, DEFAULT_TITLE_FIELD, accessFieldNames, mappedRecordKeys } from './settings';

/** A problem with one field of a record; the reader turns it into a Diagnostic at the record's line. */
export interface FieldProblem {
  field: string;
  message: string;
  /** Default 'warning' (the value is ignored); 'error' when the document is hidden because of it. */
  severity?: 'error';
  /** The key the problem is about, when the diagnostic should name it (a misspelled access key). */
  key?: string;
}

export interface MappedRecord {
  id?: string;
  title: string;
  body: string;
  fields: Record<string, string>;
  meta: Record<string, unknown>;
  vector?: number[];
  problems: FieldProblem[];
  /** Source keys of access fields that are present but invalid: the document is visible to nobody. */
  invalidAcl: string[];
  /**
   * The configured field names (settings.fields id, title, body, text) and access fields this record has: a
   * mapping no record has is reported (for access fields, an error: see session's access checks).
   */
  seen?: string[];
}

export interface MapOptions {
  /** Take the body from the record (JSON/JSONL); Markdown and HTML have their body elsewhere. */
  takeBody: boolean;
}

/** Reads a possibly dotted field: a literal key wins, else "a.b" walks into nested objects. */
export function getField(record: Record<string, unknown>, name: string): unknown {
  if (Object.prototype.hasOwnProperty.call(record, name)) return record[name];
  if (!name.includes('.')) return undefined;
  let cur: unknown = record;
  for (const part of name.split('.')) {
    if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function firstPresent(record: Record<string, unknown>, names: string[]): { name: string; value: unknown } | undefined {
  for (const name of names) {
    const value = getField(record, name);
    if (value !== undefined && value !== null && value !== '') return { name, value };
  }
  return undefined;
}

function withDefaults(configured: string | undefined, defaults: string[]): string[] {
  return configured === undefined ? defaults : [configured, ...defaults.filter((d) => d !== configured)];
}

/** Text from a string, number or list of strings; anything else is a problem. */
function toText(value: unknown, field: string, problems: FieldProblem[]): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) return value.join('\n');
  problems.push({ field, message: `field "${field}" should be text, found ${describe(value)}; ignored` });
  return '';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Maps one JSON record or front-matter object onto the parts of a Document. */
export function mapRecord(record: Record<string, unknown>, settings: CorpusSettings, options: MapOptions): MappedRecord {
  const f = settings.fields;
  const problems: FieldProblem[] = [];
  const consumed = new Set<string>();
  const out: MappedRecord = { title: '', body: '', fields: {}, meta: {}, problems, invalidAcl: [] };
  out.seen = [f.id, f.title, options.takeBody ? f.body : undefined, ...f.text].filter((name): name is string => {
    if (name === undefined) return false;
    const v = getField(record, name);
    return v !== undefined && v !== null && v !== '';
  });

  // A configured name is tried first, then the conventional names, so one mapping can serve
  // JSONL records (sku_id) and Markdown front matter (id) in the same corpus.
  const idHit = firstPresent(record, withDefaults(f.id, DEFAULT_ID_FIELDS));
  if (idHit) {
    consumed.add(idHit.name);
    if (typeof idHit.value === 'string' || typeof idHit.value === 'number') {
      const id = String(idHit.value).trim();
      if (id) out.id = id;
    } else {
      problems.push({
        field: idHit.name,
        message: `id field "${idHit.name}" should be a string or number, found ${describe(idHit.value)}`,
      });
    }
  }
  const titleHit = firstPresent(record, withDefaults(f.title, [DEFAULT_TITLE_FIELD]));
  if (titleHit) {
    consumed.add(titleHit.name);
    out.title = toText(titleHit.value, titleHit.name, problems).trim();
  }

  if (options.takeBody) {
    const bodyHit = firstPresent(record, withDefaults(f.body, DEFAULT_BODY_FIELDS));
    if (bodyHit) {
      consumed.add(bodyHit.name);
      out.body = toText(bodyHit.value, bodyHit.name, problems);
    }
  }

  for (const name of f.text) {
    consumed.add(name);
    const text = toText(getField(record, name), name, problems);
    if (text) out.fields[name] = text;
  }

  const vectorValue = getField(record, f.vector);
  consumed.add(f.vector);
  if (vectorValue !== undefined && vectorValue !== null) {
    if (Array.isArray(vectorValue) && vectorValue.length > 0 && vectorValue.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      out.vector = vectorValue as number[];
    } else {
      problems.push({ field: f.vector, message: `vector field "${f.vector}" should be a non-empty list of finite numbers; ignored` });
    }
  }

  out.invalidAcl = mapAcl(record, settings.aclFields, out.meta, problems, consumed);
  const access = accessFieldNames(settings);
  for (const name of access) {
    if (getField(record, name) !== undefined) out.seen.push(name);
  }
  // A misspelled access key would leave the document without that field, so missingAcl or a laxer part of the
  // rule would decide it: it fails closed instead, like an invalid value.
  for (const miss of nearMissKeys(record, access, mappedRecordKeys(settings))) {
    out.invalidAcl.push(miss.key);
    problems.push({
      field: miss.key,
      key: miss.key,
      severity: 'error',
      message: `looks like the access field "${miss.name}" misspelled; did you mean "${miss.name}"? The document is visible to nobody until it is fixed (or map the key in ranklab.json "acl.fields" / "corpus.fields")`,
    });
  }

  const metaKeys = f.meta ?? Object.keys(record).filter((k) => !consumed.has(k));
  // The fields the access rule reads are kept whatever `fields.meta` says: dropping one would change who may see the document.
  for (const key of new Set([...metaKeys, ...settings.aclRuleFields])) {
    // meta.tenant/groups/public are reserved for the normalised ACL values above.
    if ((ACL_META_KEYS as readonly string[]).includes(key)) continue;
    const value = getField(record, key);
    if (value !== undefined) out.meta[key] = value;
  }
  return out;
}

const ACL_META_KEYS = ['tenant', 'groups', 'public'] as const;

/**
 * Normalises the ACL fields into meta.tenant (string), meta.groups (string[]), meta.public (boolean).
 * A field that is present but invalid (null, empty, a list for tenant, objects or blanks in groups, "maybe"
 * for public...) is not dropped: it is returned, and the document is then visible to nobody (fails closed).
 */
function mapAcl(
  record: Record<string, unknown>,
  names: AclFieldNames,
  meta: Record<string, unknown>,
  problems: FieldProblem[],
  consumed: Set<string>,
): string[] {
  const invalid: string[] = [];
  const check = <T>(key: keyof AclFieldNames, normalise: (v: unknown) => T | undefined, expected: string): void => {
    const name = names[key];
    consumed.add(name);
    const value = getField(record, name);
    if (value === undefined) return;
    const normalised = normalise(value);
    if (normalised !== undefined) {
      meta[key] = normalised;
      return;
    }
    invalid.push(name);
    const json = JSON.stringify(value);
    const found = value === null ? 'null' : `${describe(value)} ${json.length > 60 ? `${json.slice(0, 59)}…` : json}`;
    problems.push({
      field: name,
      severity: 'error',
      message: `${key} field "${name}" should be ${expected}, found ${found}; the document is visible to nobody until it is fixed`,
    });
  };
  check('tenant', toTenant, 'a non-empty string');
  check('groups', toGroups, 'a list of group names (or a comma-separated string)');
  check('public', toBoolean, 'true or false');
  return invalid;
}

function toTenant(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Group names from a list of strings/numbers or a comma-separated string; undefined if any entry is blank or not a name. */
function toGroups(value: unknown): string[] | undefined {
  const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
  if (!items) return undefined;
  const out: string[] = [];
  for (const g of items) {
    const name = typeof g === 'string' ? g.trim() : typeof g === 'number' && Number.isFinite(g) ? String(g) : '';
    if (name === '') return undefined;
    out.push(name);
  }
  return out;
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (s === 'true' || s === 'yes' || s === '1') return true;
    if (s === 'false' || s === 'no' || s === '0') return false;
  }
  return undefined;
}

/** Makes YAML values JSON-safe (dates become ISO strings) so a snapshot round-trips through JSON unchanged. */
export function toJsonSafe(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map(toJsonSafe);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined && typeof v !== 'function') out[k] = toJsonSafe(v);
    return out;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}
