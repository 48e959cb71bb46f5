import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { listCorpusFiles } from '../corpus/discover';
import { type CorpusSettings, accessFieldNames, mappedRecordKeys } from '../corpus/settings';
import { parseJsonWithLocations } from '../util/json-source';
import { type Slicer, type Steps, runSliced, runSync } from '../util/cooperative';
import { nearMissKeys } from '../util/near-miss';
import { type NumberedLine, decodeText } from '../util/text-file';
import { fileLines } from '../util/text-lines';
import type { AclPolicy, AclRule, Principal } from './policy';

/**
 * Who may see what, worked out a second time by code that shares nothing with retrieval's access path
 * (not the corpus readers' field mapping, not `maySee`/`evaluateRule`): it parses the corpus files itself,
 * validates the raw access values strictly and evaluates the rule with its own small evaluator. check-acl
 * and the property test compare retrieval with it, so a wrong rule implementation or a lenient field parser
 * shows up as a disagreement instead of agreeing with itself. Semantics (docs/access-control.md):
 * - an access field (tenant, groups, public under their `acl.fields` names) that is present but invalid
 *   (null, empty, a list for tenant, a non-name in groups, "maybe" for public) hides the document from everyone;
 * - so does a key that nearly spells an access field (`Tenant`, `grups`: util/near-miss, the one definition of
 *   "nearly", shared with the corpus readers; which keys are read and how is this file's own);
 * - a document with none of the fields the rule reads follows `missingAcl` (a rule that reads no document
 *   field decides every document);
 * - every other document is decided by the rule; a field it lacks is an absent value.
 * Records that share an id (a corpus error: the corpus keeps one of them) make that id visible only when every
 * one of them allows it, so which one the corpus kept never matters here.
 */
export class ReferenceAcl {
  private readonly records = new Map<string, RawRecord[]>();
  private readonly ruleFields: string[];

  constructor(
    records: readonly RawRecord[],
    readonly policy: AclPolicy,
  ) {
    for (const r of records) {
      const same = this.records.get(r.id);
      if (same) same.push(r);
      else this.records.set(r.id, [r]);
    }
    this.ruleFields = fieldsReadBy(policy.rule);
  }

  /** Reads every corpus file (the same globs and size limits as the corpus; no snapshot, no cache). */
  static fromDisk(root: string, settings: CorpusSettings, policy: AclPolicy): ReferenceAcl {
    return runSync(ReferenceAcl.fromDiskSteps(root, settings, policy));
  }

  /** `fromDisk` pausing between files (see util/cooperative); stops with the slicer's abort reason. */
  static fromDiskSliced(root: string, settings: CorpusSettings, policy: AclPolicy, slicer: Slicer): Promise<ReferenceAcl> {
    return runSliced(ReferenceAcl.fromDiskSteps(root, settings, policy), slicer);
  }

  private static *fromDiskSteps(root: string, settings: CorpusSettings, policy: AclPolicy): Steps<ReferenceAcl> {
    const records: RawRecord[] = [];
    for (const [i, path] of listCorpusFiles(root, settings).entries()) {
      yield i;
      const ext = path.slice(path.lastIndexOf('.')).toLowerCase();
      const limit = ext === '.json' || ext === '.jsonl' ? settings.maxRecordFileBytes : settings.maxFileBytes;
      try {
        if (statSync(join(root, path)).size > limit) continue;
        if (ext === '.jsonl') {
          records.push(...readRawJsonlRecords(path, fileLines(join(root, path)), settings));
          continue;
        }
        const text = decodeText(readFileSync(join(root, path)));
        records.push(...readRawRecords(path, text, settings));
      } catch {
        continue; // unreadable: the corpus has no document from it either
      }
    }
    return new ReferenceAcl(records, policy);
  }

  /** False for an id no corpus file holds. */
  visible(principal: Principal, id: string): boolean {
    const same = this.records.get(id);
    return !!same && same.every((r) => this.allowsRecord(principal, r));
  }

  private allowsRecord(principal: Principal, r: RawRecord): boolean {
    if (r.invalid.length > 0) return false;
    if (!this.followsMissingAcl(r)) return allows(this.policy.rule, principal, r);
    return this.policy.missingAcl === 'public';
  }

  /** Only when the rule reads document fields and this record has none of them. */
  private followsMissingAcl(r: RawRecord): boolean {
    return r.invalid.length === 0 && this.ruleFields.length > 0 && !this.ruleFields.some((f) => r.value(f) !== undefined);
  }

  /** Records of these ids with a present but invalid access field, in file order. */
  invalidDocuments(ids: Iterable<string>): { id: string; file: string; line: number; fields: string[] }[] {
    const out = [...ids]
      .flatMap((id) => this.records.get(id) ?? [])
      .filter((r) => r.invalid.length > 0)
      .map((r) => ({ id: r.id, file: r.file, line: Math.min(...r.invalid.map((x) => x.line)), fields: r.invalid.map((x) => x.key) }));
    return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  }

  /** Of these ids, how many have valid access fields and none of the fields the rule reads (they follow `missingAcl`). */
  followingMissingAcl(ids: Iterable<string>): number {
    return this.missingAclDocuments(ids).length;
  }

  /** Those documents themselves, where they are, in file order. */
  missingAclDocuments(ids: Iterable<string>): { id: string; file: string; line: number }[] {
    const out = [...ids]
      .flatMap((id) => (this.records.get(id) ?? []).filter((r) => this.followsMissingAcl(r)).slice(0, 1))
      .map((r) => ({ id: r.id, file: r.file, line: r.line }));
    return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  }
}

/** One document as found in a file: its id, where it is, its field values as the rule reads them, and its invalid access fields. */
export interface RawRecord {
  id: string;
  file: string;
  line: number;
  value(field: string): unknown;
  invalid: { key: string; line: number }[];
}

const INVALID = Symbol('invalid');

/**
 * A record read from somewhere other than a corpus file: the stored fields of a document in a search engine
 * (check-acl against an engine without a workspace corpus), its access fields under these names.
 */
export function storedRecord(raw: Record<string, unknown>, id: string, where: string, aclFields: CorpusSettings['aclFields']): RawRecord {
  return record(raw, id, where, 0, { aclFields } as CorpusSettings, () => 0); // record() reads only the access field names
}

/** The raw documents of one corpus file, by extension; a file or record the corpus would skip yields nothing here either. */
function makeRecords(
  path: string,
  settings: CorpusSettings,
  raw: unknown,
  line: number,
  fallbackId: string | undefined,
  keyLine: (key: string) => number,
): RawRecord[] {
  if (!isPlainObject(raw)) {
    // Front matter that is not a mapping: its access fields cannot be read.
    return fallbackId ? [{ id: fallbackId, file: path, line, value: () => undefined, invalid: [{ key: 'front matter', line: 1 }] }] : [];
  }
  const id = idOf(raw, settings) ?? fallbackId;
  if (!id) return [];
  const r = record(raw, id, path, line, settings, keyLine);
  for (const miss of nearMissKeys(raw, accessFieldNames(settings), mappedRecordKeys(settings))) {
    r.invalid.push({ key: miss.key, line: keyLine(topKey(miss.key)) });
  }
  return [r];
}

/** The records of a JSON Lines file's lines (streamed from disk by fromDisk: such a file may pass V8's string limit). */
export function readRawJsonlRecords(path: string, lines: Iterable<NumberedLine>, settings: CorpusSettings): RawRecord[] {
  const out: RawRecord[] = [];
  for (const { line, text } of lines) {
    if (text.trim() === '') continue;
    try {
      out.push(...makeRecords(path, settings, JSON.parse(text), line, undefined, () => line));
    } catch {
      // malformed line: skipped by the corpus too
    }
  }
  return out;
}

export function readRawRecords(path: string, text: string, settings: CorpusSettings): RawRecord[] {
  const ext = path.slice(path.lastIndexOf('.')).toLowerCase();
  const make = (raw: unknown, line: number, fallbackId: string | undefined, keyLine: (key: string) => number) =>
    makeRecords(path, settings, raw, line, fallbackId, keyLine);
  if (ext === '.md' || ext === '.markdown') {
    let data: unknown;
    try {
      data = matter(text, {}).data;
    } catch {
      return [];
    }
    // JSON round trip: YAML dates become ISO strings, as everywhere a front-matter value is read.
    return make(JSON.parse(JSON.stringify(data ?? {})), 1, path, (key) => frontMatterKeyLine(text, key));
  }
  if (ext === '.html' || ext === '.htm') {
    const tags = htmlMetaTags(text);
    return make(Object.fromEntries([...tags].map(([k, v]) => [k, v.content])), 1, path, (key) => tags.get(key)?.line ?? 1);
  }
  if (ext === '.jsonl')
    return readRawJsonlRecords(
      path,
      text.split(text.includes('\n') ? '\n' : '\r').map((t, i) => ({ line: i + 1, text: t })),
      settings,
    );
  if (ext === '.json') {
    try {
      const { value, locations } = parseJsonWithLocations(text, { maxDepth: 2 });
      const wrapped = isPlainObject(value) && Array.isArray(value.documents);
      const items = Array.isArray(value) ? value : wrapped ? (value as { documents: unknown[] }).documents : [];
      return items.flatMap((item, k) => {
        const line = locations.values.get(`${wrapped ? '/documents' : ''}/${k}`)?.line ?? 1;
        return make(item, line, undefined, () => line);
      });
    } catch {
      return [];
    }
  }
  if (ext === '.txt') return [{ id: path, file: path, line: 1, value: () => undefined, invalid: [] }];
  return [];
}

function record(
  raw: Record<string, unknown>,
  id: string,
  file: string,
  line: number,
  settings: CorpusSettings,
  keyLine: (key: string) => number,
): RawRecord {
  const names = settings.aclFields;
  const acl = new Map<string, unknown>();
  const invalid: RawRecord['invalid'] = [];
  for (const [field, parse] of [
    ['tenant', strictTenant],
    ['groups', strictGroups],
    ['public', strictPublic],
  ] as const) {
    const v = lookup(raw, names[field]);
    if (v === undefined) continue;
    const parsed = parse(v);
    if (parsed === INVALID) invalid.push({ key: names[field], line: keyLine(topKey(names[field])) });
    else acl.set(field, parsed);
  }
  // tenant, groups and public are the validated values; any other field the rule names is read raw.
  const value = (field: string) => (field === 'tenant' || field === 'groups' || field === 'public' ? acl.get(field) : lookup(raw, field));
  return { id, file, line, value, invalid };
}

function strictTenant(v: unknown): string | typeof INVALID {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : INVALID;
  return typeof v === 'string' && v.trim().length > 0 ? v.trim() : INVALID;
}

function strictGroups(v: unknown): string[] | typeof INVALID {
  let items: unknown[];
  if (typeof v === 'string') items = v.split(',');
  else if (Array.isArray(v)) items = v;
  else return INVALID;
  const names = items.map((g) => (typeof g === 'number' && Number.isFinite(g) ? String(g) : typeof g === 'string' ? g.trim() : ''));
  return names.includes('') ? INVALID : names;
}

function strictPublic(v: unknown): boolean | typeof INVALID {
  if (v === true || v === 1) return true;
  if (v === false || v === 0) return false;
  if (typeof v !== 'string') return INVALID;
  const s = v.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(s)) return true;
  if (['false', 'no', '0'].includes(s)) return false;
  return INVALID;
}

/** The record id: the configured id field, then `_id`, then `id` (the first one present); strings and numbers only. */
function idOf(raw: Record<string, unknown>, settings: CorpusSettings): string | undefined {
  const names = [...new Set([...(settings.fields.id ? [settings.fields.id] : []), '_id', 'id'])];
  const present = names.map((n) => lookup(raw, n)).find((v) => v !== undefined && v !== null && v !== '');
  if (typeof present !== 'string' && typeof present !== 'number') return undefined;
  return String(present).trim() || undefined;
}

/** A literal key first, else a dotted path into nested objects. */
function lookup(raw: Record<string, unknown>, name: string): unknown {
  if (Object.prototype.hasOwnProperty.call(raw, name)) return raw[name];
  let cur: unknown = raw;
  for (const part of name.split('.')) cur = isPlainObject(cur) ? cur[part] : undefined;
  return name.includes('.') ? cur : undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The rule's document fields (doc, same, overlap). */
function fieldsReadBy(rule: AclRule): string[] {
  if ('any' in rule) return rule.any.flatMap(fieldsReadBy);
  if ('all' in rule) return rule.all.flatMap(fieldsReadBy);
  if ('not' in rule) return fieldsReadBy(rule.not);
  if ('doc' in rule) return [rule.doc];
  if ('same' in rule) return [rule.same];
  if ('overlap' in rule) return [rule.overlap];
  return [];
}

function allows(rule: AclRule, who: Principal, doc: RawRecord): boolean {
  if ('any' in rule) return rule.any.some((r) => allows(r, who, doc));
  if ('all' in rule) return rule.all.every((r) => allows(r, who, doc));
  if ('not' in rule) return !allows(rule.not, who, doc);
  if ('principal' in rule) return who[rule.principal] === rule.is;
  if ('doc' in rule) return doc.value(rule.doc) === rule.is;
  if ('same' in rule) {
    const mine = doc.value(rule.same);
    const isValue = (typeof mine === 'string' && mine !== '') || typeof mine === 'number' || typeof mine === 'boolean';
    return isValue && mine === who[rule.same];
  }
  if ('overlap' in rule) {
    const docList = asNames(doc.value(rule.overlap));
    if (docList === INVALID) return false;
    if (docList.length === 0) return rule.ifEmpty === 'allow';
    const theirs = asNames(who[rule.overlap]);
    return theirs !== INVALID && docList.some((g) => theirs.includes(g));
  }
  return false;
}

/** undefined, "" and [] are empty; a string is one name; a list must hold strings only. */
function asNames(v: unknown): string[] | typeof INVALID {
  if (v === undefined || v === '') return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
  return INVALID;
}

/** Line of `key:` in the front matter (between the opening and closing ---), else 1. */
function frontMatterKeyLine(text: string, key: string): number {
  const lines = text.split(/\r?\n/);
  const pattern = new RegExp(`^["']?${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']?\\s*:`);
  for (const [i, line] of lines.entries()) {
    if (i === 0) continue;
    if (line.trim() === '---') break;
    if (pattern.test(line)) return i + 1;
  }
  return 1;
}

/** The first segment of a dotted key (`a.b` -> `a`): the key a line is looked up by. */
function topKey(key: string): string {
  const dot = key.indexOf('.');
  return dot < 0 ? key : key.slice(0, dot);
}

/** `<meta name|property="k" content="v">` tags: the first tag of each name, with its line; entities decoded. */
function htmlMetaTags(html: string): Map<string, { content: string; line: number }> {
  const out = new Map<string, { content: string; line: number }>();
  for (const tag of html.matchAll(/<meta\b([^>]*)>/gi)) {
    const attrs = new Map<string, string>();
    for (const a of (tag[1] ?? '').matchAll(/([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g)) {
      const name = (a[1] ?? '').toLowerCase();
      if (!attrs.has(name)) attrs.set(name, a[2] ?? a[3] ?? a[4] ?? '');
    }
    const key = attrs.get('name') ?? attrs.get('property');
    const content = attrs.get('content');
    if (key && content !== undefined && !out.has(key)) {
      out.set(key, { content: decodeEntities(content), line: html.slice(0, tag.index).split('\n').length });
    }
  }
  return out;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e: string) => {
    if (e.startsWith('#')) return String.fromCodePoint(/^#x/i.test(e) ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return NAMED[e.toLowerCase()] ?? m;
  });
}
