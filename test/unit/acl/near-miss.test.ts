import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nearMissOf } from '../../../src/core/util/near-miss';

/**
 * The boundaries of the near-miss detector (Ranklab issue 26): which keys are taken for a misspelled access
 * field (and then hide their document) and which are left alone. The expectations are worked out by hand from
 * the rule: same name ignoring case and `_`/`-`, else Damerau-Levenshtein distance 1 for a field of 4-7
 * characters and 2 for 8 or more, compared lower-case; keys the workspace knows are never flagged.
 */

const ACCESS = ['tenant', 'groups', 'public'];
/** What the corpus reader passes as known: the access fields themselves, id/title/body and the example's meta fields. */
const KNOWN = new Set([...ACCESS, 'id', 'title', 'text', 'tags', 'lang', 'sku']);

const flagged = (key: string, field: string, fields = ACCESS, known = KNOWN) =>
  assert.equal(nearMissOf(key, fields, known), field, `"${key}" should be taken for "${field}"`);
const notFlagged = (key: string, fields = ACCESS, known = KNOWN) =>
  assert.equal(nearMissOf(key, fields, known), undefined, `"${key}" should not be flagged`);

test('a misspelled, mis-cased or decorated access key is flagged with the field it resembles', () => {
  flagged('tennant', 'tenant'); // one insertion
  flagged('tenat', 'tenant'); // one deletion
  flagged('Tenant', 'tenant'); // case only
  flagged('TENANT', 'tenant');
  flagged('tenant_', 'tenant'); // a separator only
  flagged('ten-ant', 'tenant');
  flagged('grups', 'groups'); // one deletion
  flagged('gruops', 'groups'); // one transposition (Damerau: distance 1, Levenshtein would say 2)
  flagged('group', 'groups'); // singular
  flagged('Groups', 'groups');
  flagged('pubilc', 'public'); // transposition
  flagged('publc', 'public');
  flagged('Public', 'public');
});

test('keys further away than the threshold, or that are other words, are not flagged', () => {
  notFlagged('publish'); // public -> publish: a substitution and an insertion, 2 > 1 for a 6-letter field
  notFlagged('published');
  notFlagged('tenancy'); // 2 substitutions
  notFlagged('grp'); // 3 deletions
  notFlagged('gruopz'); // transposition + substitution = 2
  notFlagged('owner');
  notFlagged('lang');
  notFlagged('sku');
  notFlagged('tags');
  notFlagged('title');
});

test('the access fields themselves and keys the workspace knows (id, title, body, meta fields) are not flagged', () => {
  for (const f of ACCESS) notFlagged(f);
  // `group` would be taken for `groups`, unless the workspace lists it as a meta field of its own.
  notFlagged('group', ACCESS, new Set([...KNOWN, 'group']));
  // `tenants` is one insertion away from `tenant`; as a configured meta field it is a field like any other.
  flagged('tenants', 'tenant');
  notFlagged('tenants', ACCESS, new Set([...KNOWN, 'tenants']));
});

test('the distance allowed depends on the field length: 0 below 4 letters, 1 for 4-7, 2 for 8 and more', () => {
  // A 3-letter rule field: only case and separators count.
  flagged('Age', 'age', ['age']);
  flagged('a_ge', 'age', ['age']);
  notFlagged('ag', ['age']);
  notFlagged('agr', ['age']);
  // 4 letters: distance 1 is flagged, 2 is not.
  flagged('rol', 'role', ['role']);
  notFlagged('rl', ['role']);
  // 7 letters: still 1.
  flagged('prjoect', 'project', ['project']);
  notFlagged('prajekt', ['project']);
  // 8 letters: 2 is flagged, 3 is not.
  flagged('kategori', 'category', ['category']);
  notFlagged('kateqori', ['category']);
  // A long rule field, as in a custom rule reading `classification`.
  flagged('classificaton', 'classification', ['classification']);
  flagged('clasificaton', 'classification', ['classification']);
  notFlagged('clsificaton', ['classification']);
});

test('a mapped field name is matched as mapped (acl.fields), and the mapped name is what is returned', () => {
  flagged('TenantId', 'tenant_id', ['tenant_id', 'acl_groups', 'is_public']);
  flagged('acl-groups', 'acl_groups', ['tenant_id', 'acl_groups', 'is_public']);
  flagged('is_pubilc', 'is_public', ['tenant_id', 'acl_groups', 'is_public']);
  notFlagged('owner_id', ['tenant_id', 'acl_groups', 'is_public'], new Set(['tenant_id', 'acl_groups', 'is_public']));
  // No access field, nothing to resemble.
  notFlagged('tennant', [], new Set());
});
