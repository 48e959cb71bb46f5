import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { aclFindings, checkAcl } from '../../../src/core/session/check-acl';
import { permittedIds } from '../../../src/core/acl/policy';
import { RanklabSession } from '../../../src/core/session/session';
import { PRINCIPALS, makeWorkspace, md } from './helpers';

/**
 * Present-but-invalid access fields: each of these documents was public (no usable ACL field left) or
 * open to its whole tenant (groups dropped) before access fields failed closed.
 */
const INVALID_MD: Record<string, { front: string[]; key: string; line: number }> = {
  'tenant-list': { front: ['id: tenant-list', 'title: Salaries', 'tenant: [acme]'], key: 'tenant', line: 4 },
  'groups-number': { front: ['id: groups-number', 'tenant: acme', 'groups: 42'], key: 'groups', line: 4 },
  'groups-objects': { front: ['id: groups-objects', 'tenant: acme', 'title: Payroll', 'groups: [{name: hr}]'], key: 'groups', line: 5 },
  'public-maybe': { front: ['id: public-maybe', 'public: "maybe"'], key: 'public', line: 3 },
  'tenant-empty': { front: ['id: tenant-empty', 'tenant:'], key: 'tenant', line: 3 },
  'groups-blank': { front: ['id: groups-blank', 'tenant: acme', 'groups: [""]'], key: 'groups', line: 4 },
  'public-null-with-valid-rest': {
    front: ['id: public-null-with-valid-rest', 'tenant: acme', 'groups: [hr]', 'public: null'],
    key: 'public',
    line: 5,
  },
};

const JSONL = [
  JSON.stringify({ id: 'j-tenant-list', text: 'salary table', tenant: ['acme'] }),
  JSON.stringify({ id: 'j-groups-number', text: 'salary table', tenant: 'acme', groups: 42 }),
  JSON.stringify({ id: 'j-public-maybe', text: 'salary table', public: 'maybe' }),
  JSON.stringify({ id: 'j-tenant-null', text: 'salary table', tenant: null }),
  JSON.stringify({ id: 'j-ok', text: 'salary table', tenant: 'acme', groups: ['hr'] }),
].join('\n');

const HTML =
  '<html><head><title>Salary page</title>\n<meta name="id" content="h-public-maybe">\n<meta name="public" content="maybe">\n</head><body><p>salary</p></body></html>';

function files(): Record<string, string> {
  const out: Record<string, string> = {
    'corpus/ok.md': md(['id: ok', 'tenant: acme', 'groups: [hr]']),
    'corpus/open.md': md(['id: open', 'public: yes']),
    'corpus/untagged.md': md(['id: untagged']),
    'data/records.jsonl': JSONL,
    'corpus/page.html': HTML,
  };
  for (const [name, c] of Object.entries(INVALID_MD)) out[`corpus/${name}.md`] = md(c.front);
  return out;
}

const INVALID_IDS = [
  ...Object.keys(INVALID_MD),
  'j-tenant-list',
  'j-groups-number',
  'j-public-maybe',
  'j-tenant-null',
  'h-public-maybe',
].sort();

test('a present but invalid access field makes the document visible to nobody, whatever the rule and missingAcl', () => {
  const variants = [
    { name: 'default rule, missingAcl public', acl: {} },
    { name: 'default rule, missingAcl private', acl: { missingAcl: 'private' } },
    // A rule that lets an admin see everything still does not open a document whose access fields are broken.
    {
      name: 'admin rule',
      acl: {
        rule: {
          any: [
            { principal: 'role', is: 'admin' },
            { doc: 'public', is: true },
          ],
        },
      },
    },
  ];
  for (const v of variants) {
    const dir = makeWorkspace(files(), { acl: v.acl });
    try {
      const session = RanklabSession.open(dir, { writeCache: false });
      const ids = session.corpus().docs.map((d) => d.id);
      for (const id of INVALID_IDS)
        assert.ok(ids.includes(id), `${id} is still indexed (its text is searchable by whoever may see it: nobody)`);
      for (const p of PRINCIPALS) {
        const permitted = session.accessFor(p.name).permitted;
        for (const id of INVALID_IDS) assert.equal(permitted.has(id), false, `${v.name}: ${p.name} sees ${id}`);
      }
      // The valid documents still follow the rule (the test is not vacuous).
      assert.equal(session.accessFor('hr').permitted.has('ok'), true, v.name);
      assert.equal(session.accessFor('boss').permitted.has('j-ok'), true, v.name);
      assert.equal(session.accessFor('guest').permitted.has('open'), true, v.name);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
});

test('an invalid access field is a corpus error at the field line (Markdown, HTML) or the record line (JSONL), naming the key', () => {
  const dir = makeWorkspace(files());
  try {
    const session = RanklabSession.open(dir, { writeCache: false });
    const diags = session.corpus().diagnostics.filter((d) => /visible to nobody/.test(d.message));
    for (const [name, c] of Object.entries(INVALID_MD)) {
      const d = diags.find((x) => x.file === `corpus/${name}.md`);
      assert.ok(d, `diagnostic for ${name}`);
      assert.equal(d.line, c.line, name);
      assert.equal(d.severity, 'error');
      assert.match(d.message, new RegExp(`"${c.key}"`), name);
    }
    const records = diags
      .filter((d) => d.file === 'data/records.jsonl')
      .map((d) => [d.line, /"(tenant|groups|public)"/.exec(d.message)?.[1]]);
    assert.deepEqual(records, [
      [1, 'tenant'],
      [2, 'groups'],
      [3, 'public'],
      [4, 'tenant'],
    ]);
    const html = diags.find((d) => d.file === 'corpus/page.html');
    assert.ok(html);
    assert.equal(html.line, 3, 'the <meta name="public"> line');
    assert.equal(diags.length, INVALID_IDS.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check-acl catches a lenient field parser and a wrong rule in the retrieval path (the checker reads the files itself)', async () => {
  // missingAcl stated: the untagged document is public by choice (unstated, that alone fails the check).
  const dir = makeWorkspace(files(), { acl: { missingAcl: 'public' } });
  try {
    const session = RanklabSession.open(dir, { writeCache: false });
    const policy = session.policy();
    const principal = (name: string) => PRINCIPALS.find((p) => p.name === name)!;
    const honest = await checkAcl(session, { prefixes: false });
    assert.deepEqual(honest.violations, []);
    assert.deepEqual(honest.invalidAclDocuments.map((d) => d.id).sort(), INVALID_IDS);
    assert.deepEqual(aclFindings(honest, { allowInvalidAcl: true }).failures, []);

    // The corpus as a lenient mapper reads it: invalid access fields dropped instead of hiding the document.
    const lenientDocs = session.corpus().docs.map((d) => ({ ...d, invalidAcl: undefined }));
    const lenient = await checkAcl(session, {
      prefixes: false,
      filterFor: (name) => {
        const set = permittedIds(policy, principal(name), lenientDocs);
        return (id) => set.has(id);
      },
    });
    // e.g. public-maybe (no usable field left: public by default) shows to the guest, groups-number to all of acme.
    assert.ok(lenient.byPrincipal.bm25.guest.filterExtraDocuments.includes('public-maybe'));
    assert.ok(lenient.byPrincipal.bm25.sales.filterExtraDocuments.includes('groups-number'));
    assert.ok(lenient.violations.some((v) => v.docId === 'public-maybe' && v.principal === 'guest' && v.where === 'results'));
    assert.ok(aclFindings(lenient, { allowInvalidAcl: true }).failures.some((f) => /index filter of guest permits/.test(f)));

    // A wrong rule implementation: the group test forgotten, so the whole tenant sees hr's documents.
    const wrong = { ...policy, rule: { any: [{ doc: 'public', is: true }, { same: 'tenant' }] } };
    const broken = await checkAcl(session, {
      prefixes: false,
      filterFor: (name) => {
        const set = permittedIds(wrong, principal(name), session.corpus().docs);
        return (id) => set.has(id);
      },
    });
    assert.deepEqual(broken.byPrincipal.bm25.sales.filterExtraDocuments, ['j-ok', 'ok']);
    assert.ok(broken.violations.some((v) => v.principal === 'sales' && v.docId === 'ok' && v.where === 'results'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
