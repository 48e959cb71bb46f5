import type { AclFieldNames, CorpusSettings } from './settings';
import { DEFAULT_BODY_FIELDS, DEFAULT_ID_FIELDS, DEFAULT_TITLE_FIELD } from './settings';

/** A problem with one field of a record; the reader turns it into a Diagnostic at the record's line. */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface MappedRecord {
  id?: string;
  title: string;
  body: string;
  fields: Record<string, string>;
  meta: Record<string, unknown>;
  vector?: number[];
  problems: FieldProblem[];
  /** The configured field names (settings.fields id, title, body, text) this record has: unused mappings are reported. */
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
  const out: MappedRecord = { title: '', body: '', fields: {}, meta: {}, problems };
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
      problems.push({ field: idHit.name, message: `id field "${idHit.name}" should be a string or number, found ${describe(idHit.value)}` });
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

  mapAcl(record, settings.aclFields, out.meta, problems, consumed);

  const metaKeys = f.meta ?? Object.keys(record).filter((k) => !consumed.has(k));
  for (const key of metaKeys) {
    // meta.tenant/groups/public are reserved for the normalised ACL values above.
    if (key === 'tenant' || key === 'groups' || key === 'public') continue;
    const value = getField(record, key);
    if (value !== undefined) out.meta[key] = value;
  }
  return out;
}

/** Normalises the ACL fields into meta.tenant (string), meta.groups (string[]), meta.public (boolean). */
function mapAcl(
  record: Record<string, unknown>,
  names: AclFieldNames,
  meta: Record<string, unknown>,
  problems: FieldProblem[],
  consumed: Set<string>,
): void {
  const tenant = getField(record, names.tenant);
  consumed.add(names.tenant);
  if (tenant !== undefined && tenant !== null) {
    if ((typeof tenant === 'string' && tenant.trim() !== '') || typeof tenant === 'number') meta.tenant = String(tenant).trim();
    else problems.push({ field: names.tenant, message: `tenant field "${names.tenant}" should be a non-empty string, found ${describe(tenant)}; ignored` });
  }

  const groups = getField(record, names.groups);
  consumed.add(names.groups);
  if (groups !== undefined && groups !== null) {
    if (typeof groups === 'string') {
      meta.groups = groups.split(',').map((g) => g.trim()).filter((g) => g !== '');
    } else if (Array.isArray(groups) && groups.every((g) => typeof g === 'string' || typeof g === 'number')) {
      meta.groups = groups.map((g) => String(g).trim()).filter((g) => g !== '');
    } else {
      problems.push({ field: names.groups, message: `groups field "${names.groups}" should be a list of strings, found ${describe(groups)}; ignored` });
    }
  }

  const pub = getField(record, names.public);
  consumed.add(names.public);
  if (pub !== undefined && pub !== null) {
    const b = toBoolean(pub);
    if (b === undefined) problems.push({ field: names.public, message: `public field "${names.public}" should be true or false, found ${JSON.stringify(pub)}; ignored` });
    else meta.public = b;
  }
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
