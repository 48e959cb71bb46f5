import { type AclPolicy, type Principal, decidedByRule, ruleReferences } from '../acl/policy';
import type { Document } from '../corpus/document';
import { ACL_LOGICAL_FIELDS } from '../corpus/settings';
import type { RanklabSettings } from '../workspace/settings';
import { closest } from '../util/closest';
import type { Diagnostic } from '../util/diagnostics';

/**
 * What only the corpus and the principals can tell about the access settings of ranklab.json. A mapping or a
 * rule that matches nothing would make access undecidable for every document (a typo in `acl.fields.tenant`
 * makes every document tenant-less, so public by `missingAcl`): those are errors, and access is then refused
 * (`RanklabSession.accessFor` throws them). Names used on one side only (a document group no principal holds,
 * a principal group no document uses, the same for tenants) are warnings naming the closest name of the other side.
 */
export interface AccessSettingsInput {
  settings: Pick<RanklabSettings, 'acl' | 'corpus'>;
  /** The field names some record of the corpus has (the corpus's `fieldsSeen`). */
  fieldsSeen: ReadonlySet<string>;
  docs: readonly Document[];
  /**
   * Loaded principals with each one's line, and the keys of every entry of the file (skipped ones too); undefined
   * when the command uses none.
   */
  principals?: { list: readonly Principal[]; lines: ReadonlyMap<string, number>; attributes: ReadonlySet<string>; file: string };
  /** A ranklab.json problem at the line of a JSON pointer (`/acl/fields/tenant`), its key spelled as a path. */
  at: (pointer: string, severity: Diagnostic['severity'], message: string, hint?: string) => Diagnostic;
}

export function accessSettingsProblems(input: AccessSettingsInput): Diagnostic[] {
  const { settings, fieldsSeen, principals } = input;
  const acl = settings.acl;
  const names = settings.corpus.aclFields;
  const physical = (field: string) =>
    (ACL_LOGICAL_FIELDS as readonly string[]).includes(field) ? names[field as keyof typeof names] : field;
  const out: Diagnostic[] = [];
  // Without a local corpus (a workspace that searches only an engine) no document field can be checked here: the
  // engine's stored documents are the source of access there (session/engine-check.ts), and a local config fails
  // on the corpus's own error.
  const hasCorpus = input.docs.length > 0;
  for (const key of acl.fieldsStated) {
    if (!hasCorpus || fieldsSeen.has(names[key])) continue;
    out.push(
      input.at(
        `/acl/fields/${key}`,
        'error',
        `no document of the corpus has a field "${names[key]}": every document's ${key} would be absent, so access could not be decided`,
        'map it to the field your documents carry, or remove the mapping',
      ),
    );
  }
  if (acl.rule) {
    for (const ref of ruleReferences(acl.rule)) {
      if (ref.doc !== undefined && hasCorpus && !fieldsSeen.has(physical(ref.doc))) {
        out.push(
          input.at(
            `/acl/rule${ref.pointer}`,
            'error',
            `the rule reads the document field "${physical(ref.doc)}", which no document of the corpus has`,
            'name a field your documents carry',
          ),
        );
      } else if (ref.principal !== undefined && principals && principals.attributes.size > 0 && !principals.attributes.has(ref.principal)) {
        out.push(
          input.at(
            `/acl/rule${ref.pointer}`,
            'error',
            `the rule reads the principal attribute "${ref.principal}", which no principal in ${principals.file} has`,
            'name an attribute your principals carry',
          ),
        );
      }
    }
  }
  if (principals && principals.list.length > 0) out.push(...oneSidedNames(input.docs, principals));
  return out;
}

/** Group and tenant names that only documents, or only principals, use: most often one side's typo. */
function oneSidedNames(docs: readonly Document[], principals: NonNullable<AccessSettingsInput['principals']>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const kind of ['groups', 'tenant'] as const) {
    const fromDocs = new Map<string, { doc: Document; count: number }>();
    for (const d of docs) {
      for (const name of valuesOf(d.meta[kind])) {
        const seen = fromDocs.get(name);
        if (seen) seen.count++;
        else fromDocs.set(name, { doc: d, count: 1 });
      }
    }
    const fromPrincipals = new Map<string, string>();
    for (const p of principals.list) for (const name of valuesOf(p[kind])) if (!fromPrincipals.has(name)) fromPrincipals.set(name, p.name);
    if (fromDocs.size === 0 || fromPrincipals.size === 0) continue;
    const what = kind === 'groups' ? 'group' : 'tenant';
    for (const [name, { doc, count }] of fromDocs) {
      if (fromPrincipals.has(name)) continue;
      const near = closest(name, [...fromPrincipals.keys()]);
      out.push({
        file: doc.source.path,
        line: doc.source.line ?? 0,
        severity: 'warning',
        key: kind,
        message: `${what} "${name}" (${count} document${count === 1 ? '' : 's'}, first "${doc.id}") is held by no principal in ${principals.file}${near ? `; did you mean "${near}"?` : ''}`,
      });
    }
    for (const [name, who] of fromPrincipals) {
      if (fromDocs.has(name)) continue;
      const near = closest(name, [...fromDocs.keys()]);
      out.push({
        file: principals.file,
        line: principals.lines.get(who) ?? 0,
        severity: 'warning',
        key: kind,
        message: `${what} "${name}" of principal "${who}" is used by no document${near ? `; did you mean "${near}"?` : ''}`,
      });
    }
  }
  return out;
}

function valuesOf(v: unknown): string[] {
  if (typeof v === 'string') return v === '' ? [] : [v];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Documents whose access `missingAcl` decides (none of the fields the rule reads, nothing invalid), in corpus order. */
export function decidedByMissingAcl(policy: AclPolicy, docs: readonly Document[]): Document[] {
  return docs.filter((d) => !d.invalidAcl?.length && !decidedByRule(policy.rule, d));
}

/** One line for every command that applies access: how many documents `missingAcl` decided, the first few with their files. */
export function missingAclSummary(policy: AclPolicy, stated: boolean, docs: readonly Document[], max = 5): string | undefined {
  const decided = decidedByMissingAcl(policy, docs);
  if (decided.length === 0) return undefined;
  const first = decided
    .slice(0, max)
    .map((d) => `${d.id} (${d.source.path}${d.source.line ? `:${d.source.line}` : ''})`)
    .join(', ');
  const more = decided.length > max ? ` and ${decided.length - max} more` : '';
  return `${decided.length} document${decided.length === 1 ? ' has' : 's have'} none of the fields the access rule reads and ${decided.length === 1 ? 'is' : 'are'} ${policy.missingAcl} by acl.missingAcl${stated ? '' : ' (not set in ranklab.json: the default)'}: ${first}${more}`;
}
