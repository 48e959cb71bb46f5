import type { Document } from '../corpus/document';

/** Someone who searches: a name, a tenant and groups, plus any attributes a custom rule may test. */
export interface Principal {
  name: string;
  tenant?: string;
  groups: string[];
  [attribute: string]: unknown;
}

/**
 * The access rule as data (ranklab.json `acl.rule`), so a workspace can state its own scheme:
 * - `{ "any": [rule, ...] }`, `{ "all": [rule, ...] }`, `{ "not": rule }`
 * - `{ "doc": "public", "is": true }`: a document field equals a value
 * - `{ "principal": "role", "is": "admin" }`: a principal attribute equals a value
 * - `{ "same": "tenant" }`: the document's and the principal's field are equal (and present)
 * - `{ "overlap": "groups", "ifEmpty": "allow" | "deny" }`: the two lists share a value; a document
 *   whose list is empty or missing is allowed ("allow") or denied ("deny", the default)
 */
export type AclRule =
  | { any: AclRule[] }
  | { all: AclRule[] }
  | { not: AclRule }
  | { doc: string; is: unknown }
  | { principal: string; is: unknown }
  | { same: string }
  | { overlap: string; ifEmpty?: 'allow' | 'deny' };

/** Visible when public, or same tenant and at least one shared group (a document with no groups is open to its whole tenant). */
export const DEFAULT_ACL_RULE: AclRule = {
  any: [{ doc: 'public', is: true }, { all: [{ same: 'tenant' }, { overlap: 'groups', ifEmpty: 'allow' }] }],
};

export interface AclPolicy {
  rule: AclRule;
  /** What a document with none of the fields the rule reads is: see docs/access-control.md. */
  missingAcl: 'public' | 'private';
}

const ruleFieldCache = new WeakMap<AclRule, string[]>();

/** The names a rule's leaves read on one side (document or principal), in first-mention order. */
function namesRead(rule: AclRule, side: 'doc' | 'principal'): string[] {
  const out = new Set<string>();
  const walk = (r: AclRule): void => {
    if ('any' in r) r.any.forEach(walk);
    else if ('all' in r) r.all.forEach(walk);
    else if ('not' in r) walk(r.not);
    else if ('same' in r) out.add(r.same);
    else if ('overlap' in r) out.add(r.overlap);
    else if (side === 'doc' && 'doc' in r) out.add(r.doc);
    else if (side === 'principal' && 'principal' in r) out.add(r.principal);
  };
  walk(rule);
  return [...out];
}

/** The document fields a rule reads (`doc`, `same`, `overlap`), in first-mention order. */
export function ruleDocFields(rule: AclRule): string[] {
  let fields = ruleFieldCache.get(rule);
  if (!fields) ruleFieldCache.set(rule, (fields = namesRead(rule, 'doc')));
  return fields;
}

/** The principal attributes a rule reads (`principal`, `same`, `overlap`), in first-mention order. */
export function rulePrincipalAttributes(rule: AclRule): string[] {
  return namesRead(rule, 'principal');
}

/**
 * Where each field and attribute a rule reads is named in it, as JSON pointers below the rule
 * (`/any/1/all/0/same`), for problems reported at their line of ranklab.json.
 */
export function ruleReferences(rule: AclRule, at = ''): { pointer: string; doc?: string; principal?: string }[] {
  if ('any' in rule) return rule.any.flatMap((r, i) => ruleReferences(r, `${at}/any/${i}`));
  if ('all' in rule) return rule.all.flatMap((r, i) => ruleReferences(r, `${at}/all/${i}`));
  if ('not' in rule) return ruleReferences(rule.not, `${at}/not`);
  if ('doc' in rule) return [{ pointer: `${at}/doc`, doc: rule.doc }];
  if ('principal' in rule) return [{ pointer: `${at}/principal`, principal: rule.principal }];
  if ('same' in rule) return [{ pointer: `${at}/same`, doc: rule.same, principal: rule.same }];
  if ('overlap' in rule) return [{ pointer: `${at}/overlap`, doc: rule.overlap, principal: rule.overlap }];
  return [];
}

/**
 * False when `missingAcl` decides the document: the rule reads document fields and the document has none of
 * them. A rule that reads no document field at all (principal tests only, or the fail-closed `{any: []}` that
 * stands in for an invalid rule) decides every document.
 */
export function decidedByRule(rule: AclRule, doc: Pick<Document, 'meta'>): boolean {
  const fields = ruleDocFields(rule);
  return fields.length === 0 || fields.some((f) => doc.meta[f] !== undefined);
}

/**
 * May this principal see this document? The single place where the access decision is made:
 * a document with an invalid access field is visible to nobody; one with none of the fields the rule
 * reads follows `missingAcl`; every other document is decided by the rule.
 */
export function maySee(policy: AclPolicy, principal: Principal, doc: Pick<Document, 'meta' | 'invalidAcl'>): boolean {
  if (doc.invalidAcl?.length) return false;
  if (!decidedByRule(policy.rule, doc)) return policy.missingAcl === 'public';
  return evaluateRule(policy.rule, principal, doc.meta);
}

/** A value as a list of strings; undefined when it is neither a string nor a list of strings (fails closed). */
function list(v: unknown): string[] | undefined {
  if (v === undefined || v === '') return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
  return undefined;
}

export function evaluateRule(rule: AclRule, principal: Principal, meta: Record<string, unknown>): boolean {
  if ('any' in rule) return rule.any.some((r) => evaluateRule(r, principal, meta));
  if ('all' in rule) return rule.all.every((r) => evaluateRule(r, principal, meta));
  if ('not' in rule) return !evaluateRule(rule.not, principal, meta);
  if ('doc' in rule) return meta[rule.doc] === rule.is;
  if ('principal' in rule) return principal[rule.principal] === rule.is;
  if ('same' in rule) {
    const a = meta[rule.same];
    const b = principal[rule.same];
    return a !== undefined && a !== null && a !== '' && a === b;
  }
  if ('overlap' in rule) {
    const docValues = list(meta[rule.overlap]);
    if (docValues === undefined) return false;
    if (docValues.length === 0) return rule.ifEmpty === 'allow';
    const mine = new Set(list(principal[rule.overlap]) ?? []);
    return docValues.some((v) => mine.has(v));
  }
  throw new Error(`unknown ACL rule ${JSON.stringify(rule)}`);
}

/**
 * Checks the shape of a rule read from ranklab.json: a problem per JSON pointer below `at` (the rule's own
 * pointer in the file), so each is reported at its line. An object with none of the operators (say `{"is": true}`
 * after its `doc` was deleted) is a problem, not a rule that allows nothing in silence.
 */
export function validateRule(rule: unknown, at = '/acl/rule'): { pointer: string; message: string }[] {
  const problem = (pointer: string, message: string) => [{ pointer, message }];
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) return problem(at, 'a rule must be an object');
  const r = rule as Record<string, unknown>;
  if ('any' in r || 'all' in r) {
    const key = 'any' in r ? 'any' : 'all';
    const items = r[key];
    if (!Array.isArray(items) || items.length === 0) return problem(`${at}/${key}`, 'must be a non-empty list of rules');
    return items.flatMap((x, i) => validateRule(x, `${at}/${key}/${i}`));
  }
  if ('not' in r) return validateRule(r.not, `${at}/not`);
  if ('doc' in r || 'principal' in r) return 'is' in r ? [] : problem(at, `"${'doc' in r ? 'doc' : 'principal'}" needs "is"`);
  if ('same' in r) return typeof r.same === 'string' ? [] : problem(`${at}/same`, 'must be a field name');
  if ('overlap' in r) {
    if (typeof r.overlap !== 'string') return problem(`${at}/overlap`, 'must be a field name');
    return r.ifEmpty === undefined || r.ifEmpty === 'allow' || r.ifEmpty === 'deny'
      ? []
      : problem(`${at}/ifEmpty`, 'must be "allow" or "deny"');
  }
  return problem(
    at,
    `a rule needs one of any, all, not, doc/is, principal/is, same or overlap; found ${
      Object.keys(r)
        .map((k) => `"${k}"`)
        .join(', ') || 'nothing'
    }`,
  );
}

/**
 * The set of documents a principal may see, computed once per principal so that every retrieval
 * stage can use a cheap membership test as its filter.
 */
export function permittedIds(
  policy: AclPolicy,
  principal: Principal,
  docs: readonly Pick<Document, 'id' | 'meta' | 'invalidAcl'>[],
): Set<string> {
  const out = new Set<string>();
  for (const d of docs) if (maySee(policy, principal, d)) out.add(d.id);
  return out;
}
