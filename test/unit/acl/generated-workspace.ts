/**
 * Random access-control workspaces written as RAW FILES, shared by the property tests of test/unit/acl: documents
 * with valid, malformed and absent access fields (Markdown front matter and one JSONL file), principals, the rule
 * shapes and both missingAcl values. Validity is labelled by the generator, never by the code under test.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { DEFAULT_ACL_RULE, type AclRule, type Principal } from '../../../src/core/acl/policy';

export const VOCAB = ['kopi', 'gayo', 'espresso', 'latte', 'susu', 'gula', 'aren', 'roast', 'bean', 'tubruk', 'dingin', 'manis'];
export const TAGS = ['coffee', 'milk', 'sugar', 'ops'];

export const word = fc.constantFrom(...VOCAB);
export const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((ws) => ws.join(' '));
export const subset = (items: string[]) => fc.subarray(items);

/** A raw access value as it could appear in a file, labelled by the test (not by the code under test) as valid or not. */
export interface RawValue {
  value: unknown;
  valid: boolean;
}
export const valid = (arb: fc.Arbitrary<unknown>) => arb.map((value): RawValue => ({ value, valid: true }));
export const invalid = (...values: unknown[]) => fc.constantFrom(...values).map((value): RawValue => ({ value, valid: false }));
export const absent = fc.constant(undefined);

export const tenantArb = fc.oneof(absent, valid(fc.constantFrom('t1', 't2', ' t1 ')), invalid(['t1'], null, '', '  ', true, { id: 't1' }));
export const groupsArb = fc.oneof(
  absent,
  valid(subset(['g1', 'g2', 'g3'])),
  valid(fc.constantFrom('g1', 'g1, g2', 'g3,g1')),
  invalid(42, [{ name: 'g1' }], [''], ['g1', ''], null, '', 'g1,,g2', true),
);
export const publicArb = fc.oneof(
  absent,
  valid(fc.constantFrom(true, false, 'yes', 'no', 'true', 'False', 1, 0)),
  invalid('maybe', null, 2, '', ['true']),
);
export const classificationArb = fc.option(fc.constantFrom('open', 'secret'), { nil: undefined });

export const docArb: fc.Arbitrary<GeneratedDoc> = fc.record({
  title: words(1, 3),
  body: words(3, 12),
  tags: subset(TAGS),
  tenant: tenantArb,
  groups: groupsArb,
  public: publicArb,
  classification: classificationArb,
  format: fc.constantFrom<'md' | 'jsonl'>('md', 'jsonl'),
});

/** Rules with different shapes; the last two read a field that is not an access field. */
export const RULES: AclRule[] = [
  DEFAULT_ACL_RULE,
  { any: [{ doc: 'public', is: true }, { all: [{ same: 'tenant' }, { overlap: 'groups', ifEmpty: 'deny' }] }] },
  { all: [{ doc: 'classification', is: 'open' }] },
  { any: [{ principal: 'role', is: 'admin' }, { all: [{ same: 'tenant' }, { not: { doc: 'classification', is: 'secret' } }] }] },
];

export const principalArb = fc.record({
  tenant: fc.option(fc.constantFrom('t1', 't2'), { nil: undefined }),
  groups: subset(['g1', 'g2', 'g3']),
  role: fc.option(fc.constant('admin'), { nil: undefined }),
});

export interface Scenario {
  docs: GeneratedDoc[];
  principals: Principal[];
  queries: string[];
  prefixes: string[];
  missingAcl: 'public' | 'private';
  rule: AclRule;
}

export const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  docs: fc.array(docArb, { minLength: 4, maxLength: 24 }),
  principals: fc.array(principalArb, { minLength: 1, maxLength: 3 }).map((ps) =>
    ps.map((p, i): Principal => {
      const out: Principal = { name: `p${i}`, groups: p.groups };
      if (p.tenant !== undefined) out.tenant = p.tenant;
      if (p.role !== undefined) out.role = p.role;
      return out;
    }),
  ),
  queries: fc.array(words(1, 2), { minLength: 1, maxLength: 3 }),
  prefixes: fc
    .array(fc.tuple(fc.option(word, { nil: undefined }), word, fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 3 })
    .map((ps) => ps.map(([before, w, n]) => `${before ? `${before} ` : ''}${w.slice(0, n)}`)),
  missingAcl: fc.constantFrom<'public' | 'private'>('public', 'private'),
  rule: fc.constantFrom(...RULES),
});

export interface GeneratedDoc {
  title: string;
  body: string;
  tags: string[];
  tenant?: RawValue;
  groups?: RawValue;
  public?: RawValue;
  classification?: string;
  format: 'md' | 'jsonl';
}

/** The record as written to the file: only the keys that are present. */
export function rawRecord(d: GeneratedDoc, id: string): Record<string, unknown> {
  const r: Record<string, unknown> = { id, title: d.title, text: d.body, tags: d.tags };
  for (const key of ['tenant', 'groups', 'public'] as const) if (d[key]) r[key] = d[key]!.value;
  if (d.classification !== undefined) r.classification = d.classification;
  return r;
}

/**
 * Writes the scenario as files: Markdown documents with YAML front matter (values in JSON syntax, which YAML
 * reads the same) and one JSONL file. Ids are d0, d1, ... in generation order.
 */
export function writeWorkspace(s: { docs: GeneratedDoc[] }): string {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-acl-prop-'));
  mkdirSync(join(dir, 'corpus'));
  const lines: string[] = [];
  s.docs.forEach((d, i) => {
    const r = rawRecord(d, `d${i}`);
    if (d.format === 'jsonl') {
      lines.push(JSON.stringify(r));
      return;
    }
    const { text, ...front } = r;
    const yaml = Object.entries(front).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
    writeFileSync(join(dir, 'corpus', `d${i}.md`), ['---', ...yaml, '---', String(text), ''].join('\n'));
  });
  writeFileSync(join(dir, 'corpus', 'records.jsonl'), lines.join('\n') + '\n');
  return dir;
}

/** Ids of the generated documents whose access fields the generator made invalid. */
export function labelledInvalid(s: { docs: GeneratedDoc[] }): string[] {
  return s.docs.flatMap((d, i) => ((['tenant', 'groups', 'public'] as const).some((k) => d[k] && !d[k]!.valid) ? [`d${i}`] : []));
}
