// Access-control mistakes (Ranklab issue 26) on a copy of the example: a misspelled access key, a mapping or rule
// that matches nothing, a principal that cannot be used, a check that did not check, missingAcl deciding silently,
// group and tenant typos. None may pass quietly: each is an error at its file:line (exit 1 or 2) or a warning.
import assert from 'node:assert/strict';
import { type FuzzCase, type FuzzWorkspace, at, fuzzTable } from './harness';
import { RanklabSession } from '../../src/core/session/session';

const MD = 'corpus/brewing/brew-aeropress.md'; // warung-kopi, [baristas, roastery, management], public: false
const MD_ID = 'brew-aeropress';
const JSONL = 'data/products.jsonl'; // first record: sku-kg-250-wb, warung-kopi, same groups, public: false
const JSONL_ID = 'sku-kg-250-wb';
const HTML = 'corpus/store/about.html';
const PRINCIPALS = 'principals.json';
const SETTINGS = 'ranklab.json';
const ACL = ['check-acl', '-c', 'baseline', '--no-prefixes'];
/** dimas is in every warung-kopi group: a warung-kopi document he cannot see is visible to nobody of that tenant. */
const INSIDER = 'dimas';

/** `text` as a regular expression that matches it literally. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Both streams: where a finding is printed (diagnostics on stderr, the check's summary on stdout) is not the point. */
const both = (r: { stdout: string; stderr: string }) => `${r.stderr}\n${r.stdout}`;

/** The workspace as the session reads it (the loaders behind every command and the extension). */
function session(ws: FuzzWorkspace): RanklabSession {
  return RanklabSession.open(ws.root, { writeCache: false });
}

/** The document is hidden from everyone, the insider included, though the rest of its front matter would let him in. */
function hiddenFromInsider(id: string) {
  return (_r: unknown, ws: FuzzWorkspace) => {
    const permitted = session(ws).accessFor(INSIDER).permitted;
    assert.equal(permitted.has(id), false, `${id} is visible to ${INSIDER} although its access key is misspelled`);
  };
}

/**
 * A misspelled access key in a document: an error at the key's line (the record's line in JSONL) naming the key and
 * the field it resembles; the document is visible to nobody, so check-acl lists it and exits 1.
 */
function docNearMiss(
  name: string,
  file: string,
  id: string,
  from: string,
  to: string,
  key: string,
  field: string,
  needle: string,
): FuzzCase {
  return {
    name: `a document key ${key} (for ${field}) in ${file.split('.').pop()}: ${name}`,
    setup: (ws) => ws.replace(file, from, to),
    argv: ACL,
    expect: {
      code: 1,
      stderr: (ws) => [at(file, ws.lineOf(file, needle)), new RegExp(`error: [^\\n]*${key}`), `did you mean "${field}"`],
      check: (r, ws) => {
        assert.match(r.stdout, new RegExp(`${id}`), `check-acl lists ${id} among the documents visible to nobody`);
        hiddenFromInsider(id)(r, ws);
      },
    },
  };
}

/** Adds a principal before sari (its own line, so lineOf finds it). */
const addPrincipal = (json: string) => (ws: FuzzWorkspace) => ws.replace(PRINCIPALS, '{ "name": "sari"', `${json},\n  { "name": "sari"`);

const DEFAULT_RULE = { any: [{ doc: 'public', is: true }, { all: [{ same: 'tenant' }, { overlap: 'groups', ifEmpty: 'allow' }] }] };

/** Strips the document's access keys (tenant, groups, public): missingAcl then decides it. */
const stripAccess = (ws: FuzzWorkspace) => {
  const text = ws.read(MD);
  const stripped = text
    .split('\n')
    .filter((l) => !/^(tenant|groups|public):/.test(l))
    .join('\n');
  assert.equal(text.split('\n').length - stripped.split('\n').length, 3, 'the fixture has tenant, groups and public');
  ws.write(MD, stripped);
};

const cases: FuzzCase[] = [
  // 1. Near-miss keys in documents.
  docNearMiss('misspelled', MD, MD_ID, 'tenant: warung-kopi', 'tennant: warung-kopi', 'tennant', 'tenant', 'tennant:'),
  docNearMiss(
    'mis-cased',
    MD,
    MD_ID,
    'groups: [baristas, roastery, management]',
    'Groups: [baristas, roastery, management]',
    'Groups',
    'groups',
    'Groups:',
  ),
  docNearMiss('transposed', MD, MD_ID, 'public: false', 'pubilc: false', 'pubilc', 'public', 'pubilc:'),
  docNearMiss('misspelled', JSONL, JSONL_ID, '"tenant":"warung-kopi"', '"tennant":"warung-kopi"', 'tennant', 'tenant', `"${JSONL_ID}"`),
  docNearMiss(
    'mis-cased',
    JSONL,
    JSONL_ID,
    '"groups":["baristas","roastery","management"]',
    '"Groups":["baristas","roastery","management"]',
    'Groups',
    'groups',
    `"${JSONL_ID}"`,
  ),
  docNearMiss('transposed', JSONL, JSONL_ID, '"public":false', '"pubilc":false', 'pubilc', 'public', `"${JSONL_ID}"`),
  {
    // An HTML page public by its meta tags: a mis-cased key must not leave it half-read either.
    name: 'a document key Tenant (for tenant) in an HTML meta tag',
    setup: (ws) => ws.replace(HTML, '<meta name="tenant" content="public">', '<meta name="Tenant" content="public">'),
    argv: ACL,
    expect: { code: 1, stderr: (ws) => [at(HTML, ws.lineOf(HTML, 'name="Tenant"')), /error: [^\n]*Tenant/, 'did you mean "tenant"'] },
  },
  {
    // Not check-acl only: search reports the same error once, at the same place.
    name: 'a document key Groups reported by search as well',
    setup: (ws) => ws.replace(MD, 'groups: [baristas, roastery, management]', 'Groups: [baristas, roastery, management]'),
    argv: ['search', '--as', 'pak-joko', 'aeropress recipe slow bar', '--format', 'json'],
    expect: {
      code: 0,
      stderr: (ws) => [at(MD, ws.lineOf(MD, 'Groups:')), /error: [^\n]*Groups/, 'did you mean "groups"'],
      check: (r) => {
        // Under main the document falls back to "whole tenant" (no groups) and pak-joko (a supplier) sees it.
        const shown = (JSON.parse(r.stdout) as { results: { id: string }[] }).results.map((x) => x.id);
        assert.ok(!shown.includes(MD_ID), `${MD_ID} shown to pak-joko: ${shown.join(', ')}`);
      },
    },
  },

  // 2. Near-miss keys in principals.
  {
    name: 'a principal key group (for groups): an error at its line, the principal skipped, check-acl exit 1',
    setup: addPrincipal('{ "name": "eka", "tenant": "warung-kopi", "group": ["baristas"] }'),
    argv: ACL,
    expect: {
      code: 1,
      stderr: (ws) => [at(PRINCIPALS, ws.lineOf(PRINCIPALS, '"eka"')), /error: [^\n]*\bgroup\b/, 'did you mean "groups"'],
      check: (r, ws) => {
        assert.ok(
          !session(ws)
            .principals()
            .some((p) => p.name === 'eka'),
          'eka is not usable',
        );
        assert.match(both(r), /eka[^\n]*(not checked|skipped)|(not checked|skipped)[^\n]*eka/, 'check-acl names eka as not checked');
      },
    },
  },
  {
    name: 'search --as the principal whose key is misspelled: exit 2 naming its entry',
    setup: addPrincipal('{ "name": "eka", "tenant": "warung-kopi", "group": ["baristas"] }'),
    argv: ['search', '--as', 'eka', 'kopi'],
    expect: { code: 2, stderr: (ws) => [at(PRINCIPALS, ws.lineOf(PRINCIPALS, '"eka"')), 'eka'] },
  },
  {
    name: 'a principal key Tenant (mis-cased): an error at its line naming it',
    setup: addPrincipal('{ "name": "eka", "Tenant": "warung-kopi", "groups": ["baristas"] }'),
    argv: ACL,
    expect: {
      code: 1,
      stderr: (ws) => [at(PRINCIPALS, ws.lineOf(PRINCIPALS, '"eka"')), /error: [^\n]*\bTenant\b/, 'did you mean "tenant"'],
    },
  },

  // 3. A principal entry with any error is not checked: exit 1 naming it, not 0.
  {
    name: 'a principal entry with an error (tenant as a number): check-acl exit 1 naming it',
    setup: addPrincipal('{ "name": "eka", "tenant": 7, "groups": ["baristas"] }'),
    argv: ACL,
    expect: {
      code: 1,
      stderr: (ws) => [at(PRINCIPALS, ws.lineOf(PRINCIPALS, '"eka"')), /tenant/],
      check: (r) =>
        assert.match(both(r), /eka[^\n]*(not checked|skipped)|(not checked|skipped)[^\n]*eka/, 'check-acl names eka as not checked'),
    },
  },

  // 4. A mapping or rule that matches nothing: exit 2 before anything runs, at ranklab.json's line, naming the key.
  {
    name: 'acl.fields.tenant mapped to a field no document carries: exit 2 at its line',
    setup: (ws) => ws.settings((s) => (s.acl.fields.tenant = 'tenant_id')),
    argv: ACL,
    expect: { code: 2, noRuns: true, stderr: (ws) => [at(SETTINGS, ws.lineOf(SETTINGS, '"tenant_id"')), 'acl.fields.tenant', 'tenant_id'] },
  },
  {
    name: 'acl.fields.groups mapped to a field no document carries: search --as stops too',
    setup: (ws) => ws.settings((s) => (s.acl.fields.groups = 'acl_groups')),
    argv: ['search', '--as', 'sari', 'kopi'],
    expect: { code: 2, stderr: (ws) => [at(SETTINGS, ws.lineOf(SETTINGS, '"acl_groups"')), 'acl.fields.groups', 'acl_groups'] },
  },
  {
    name: 'acl.fields.public mapped to a field no document carries: eval --as stops too, before any run is saved',
    setup: (ws) => ws.settings((s) => (s.acl.fields.public = 'is_public')),
    argv: ['eval', '-c', 'baseline', '--as', 'sari'],
    expect: { code: 2, noRuns: true, stderr: (ws) => [at(SETTINGS, ws.lineOf(SETTINGS, '"is_public"')), 'acl.fields.public'] },
  },
  {
    name: 'a rule naming a document field no document carries (classificaton): exit 2 at its line with the rule path',
    setup: (ws) => {
      // The intent: hide the secret document even from its own groups. The typo makes `not` always true.
      ws.settings(
        (s) =>
          (s.acl.rule = {
            any: [
              { doc: 'public', is: true },
              { all: [{ same: 'tenant' }, { overlap: 'groups', ifEmpty: 'allow' }, { not: { doc: 'classificaton', is: 'secret' } }] },
            ],
          }),
      );
      ws.replace(MD, 'public: false', 'public: false\nclassification: secret');
    },
    argv: ACL,
    expect: {
      code: 2,
      noRuns: true,
      stderr: (ws) => [at(SETTINGS, ws.lineOf(SETTINGS, '"classificaton"')), 'acl.rule.any[1].all[2].not.doc', 'classificaton'],
    },
  },
  {
    name: 'a rule naming a principal attribute no principal carries: exit 2 at its line with the rule path',
    setup: (ws) => ws.settings((s) => (s.acl.rule = { any: [...DEFAULT_RULE.any, { principal: 'role', is: 'admin' }] })),
    argv: ACL,
    expect: { code: 2, noRuns: true, stderr: (ws) => [at(SETTINGS, ws.lineOf(SETTINGS, '"role"')), 'acl.rule.any[2].principal', 'role'] },
  },
  {
    // The only principal carries `role`, a near miss of the rule's `Role`: it is skipped for that, but the mistake is
    // in ranklab.json, and the message must say so (not only "no principals").
    name: 'a rule naming Role while the only principal carries role: exit 2 naming ranklab.json and the rule path',
    setup: (ws) => {
      ws.settings((s) => (s.acl.rule = { any: [...DEFAULT_RULE.any, { principal: 'Role', is: 'admin' }] }));
      ws.write(PRINCIPALS, '[\n  { "name": "eka", "tenant": "warung-kopi", "groups": ["baristas"], "role": "admin" }\n]\n');
    },
    argv: ACL,
    expect: { code: 2, noRuns: true, stderr: (ws) => [at(SETTINGS, ws.lineOf(SETTINGS, '"Role"')), 'acl.rule.any[2].principal'] },
  },
  {
    // A rule object whose operator key was deleted (`{"doc": "public", "is": true}` -> `{"is": true}`) is invalid:
    // it must be an error at its line, not a rule that silently denies everything with check-acl passing.
    name: 'a rule object left with only "is" (its operator deleted): exit 2 at its line',
    setup: (ws) => ws.settings((s) => (s.acl.rule = { any: [{ is: true }, DEFAULT_RULE.any[1]] })),
    argv: ACL,
    expect: {
      code: 2,
      noRuns: true,
      stderr: ['acl.rule.any[0]'],
      check: (r, ws) => {
        const line = ws.lineOf(SETTINGS, '"is": true');
        assert.match(r.stderr, new RegExp(`ranklab\\.json:(${line - 1}|${line})(?!\\d)`), 'at the line of the rule object or of its "is"');
      },
    },
  },
  {
    // The same rule is fine once a principal carries the attribute (the check above is about the typo, not the shape).
    name: 'a rule naming a principal attribute that a principal carries runs',
    setup: (ws) => {
      ws.settings((s) => (s.acl.rule = { any: [...DEFAULT_RULE.any, { principal: 'role', is: 'admin' }] }));
      addPrincipal('{ "name": "eka", "tenant": "warung-kopi", "groups": ["baristas"], "role": "admin" }')(ws);
    },
    argv: ACL,
    expect: { code: 0, notStderr: [/acl\.rule/] },
  },
  {
    // A BEIR-like corpus carries no access field under the default mapping: nothing to map, nothing to report.
    name: 'no document carries an access field under the default mapping: fine',
    setup: (ws) => {
      ws.settings((s) => {
        delete s.acl.fields;
        s.corpus.include = ['beir/*.jsonl'];
      });
      ws.write(
        'beir/corpus.jsonl',
        [1, 2, 3].map((i) => JSON.stringify({ id: `b${i}`, title: `Kopi ${i}`, text: 'kopi gayo wet-hulled' })).join('\n') + '\n',
      );
    },
    argv: ['search', '--as', 'guest', 'kopi'],
    expect: { code: 0, notStderr: [/acl\.fields/, /did you mean/] },
  },

  // 5. missingAcl must be deliberate.
  {
    name: 'a document without access keys, missingAcl not set: check-acl exit 1 with the count and the document',
    setup: (ws) => {
      stripAccess(ws);
      ws.settings((s) => delete s.acl.missingAcl);
    },
    argv: ACL,
    expect: {
      code: 1,
      check: (r) => {
        const text = both(r);
        assert.match(text, /missingAcl/, 'names the setting');
        assert.match(text, new RegExp(`${MD_ID}[^\\n]*${literal(MD)}|${literal(MD)}[^\\n]*${MD_ID}`), 'lists the document with its file');
        assert.match(text, /\b1 document/, 'counts the one document missingAcl decided');
      },
    },
  },
  {
    name: 'the same document with "missingAcl": "public" set explicitly: a deliberate choice, exit 0',
    setup: stripAccess,
    argv: ACL,
    expect: { code: 0 },
  },
  {
    name: 'the same document with "missingAcl": "private" set explicitly: exit 0, and nobody sees it',
    setup: (ws) => {
      stripAccess(ws);
      ws.settings((s) => (s.acl.missingAcl = 'private'));
    },
    argv: ACL,
    expect: { code: 0, check: hiddenFromInsider(MD_ID) },
  },
  {
    name: 'missingAcl not set: search --as reports on stderr how many documents it decided',
    setup: (ws) => {
      stripAccess(ws);
      ws.settings((s) => delete s.acl.missingAcl);
    },
    argv: ['search', '--as', 'guest', 'aeropress'],
    expect: { code: 0, stderr: [/missingAcl/, /\b1 document/] },
  },
  {
    name: 'missingAcl not set: suggest --as reports it on stderr too',
    setup: (ws) => {
      stripAccess(ws);
      ws.settings((s) => delete s.acl.missingAcl);
    },
    argv: ['suggest', '--as', 'guest', 'aero'],
    expect: { code: 0, stderr: [/missingAcl/, /\b1 document/] },
  },

  // 6. A check that did not check is not a pass.
  {
    name: 'a config that cannot run next to one that can: check-acl exit 1 naming it, and says what was checked',
    setup: (ws) => ws.write('configs/broken.rank.json', '{ "lexical": { "fields": { "title": 2 } }, \n'),
    argv: ['check-acl', '-c', 'baseline', '-c', 'broken', '--no-prefixes'],
    expect: {
      code: 1,
      stderr: ['broken'],
      check: (r) => assert.match(both(r), /\b1 of 2 configs?\b/, 'the summary counts the configs checked out of those asked for'),
    },
  },
  {
    name: 'only a config that cannot run: nothing could be checked, exit 2',
    setup: (ws) => ws.write('configs/broken.rank.json', '{ "lexical": { "fields": { "title": 2 } }, \n'),
    argv: ['check-acl', '-c', 'broken', '--no-prefixes'],
    expect: { code: 2, noRuns: true, stderr: ['broken'] },
  },
  {
    name: 'a skipped principal: the summary counts the principals checked out of those declared',
    setup: addPrincipal('{ "name": "eka", "tenant": 7 }'),
    argv: ACL,
    expect: { code: 1, check: (r) => assert.match(both(r), /\b6 of 7 principals\b/, 'counts 6 checked of the 7 declared') },
  },

  // 7. Group and tenant typos both ways: warnings with the closest existing name, the exit code unchanged.
  {
    name: 'a document group no principal holds (managment): a warning naming "management", exit 0',
    setup: (ws) => ws.replace(MD, 'groups: [baristas, roastery, management]', 'groups: [baristas, roastery, managment]'),
    argv: ACL,
    expect: {
      code: 0,
      check: (r) => assert.match(r.stderr, new RegExp(`${literal(MD)}[^\\n]*warning[^\\n]*managment[^\\n]*"management"`)),
    },
  },
  {
    name: 'a principal group no document uses (barista): a warning naming "baristas", exit 0',
    setup: addPrincipal('{ "name": "eka", "tenant": "warung-kopi", "groups": ["barista"] }'),
    argv: ACL,
    expect: {
      code: 0,
      check: (r, ws) =>
        assert.match(
          r.stderr,
          new RegExp(`${literal(PRINCIPALS)}:${ws.lineOf(PRINCIPALS, '"eka"')}: warning[^\\n]*barista\\b[^\\n]*"baristas"`),
        ),
    },
  },
  {
    name: 'a document tenant no principal has (warung-kopl): a warning naming "warung-kopi", exit 0',
    setup: (ws) => ws.replace(MD, 'tenant: warung-kopi', 'tenant: warung-kopl'),
    argv: ACL,
    expect: {
      code: 0,
      check: (r) => assert.match(r.stderr, new RegExp(`${literal(MD)}[^\\n]*warning[^\\n]*warung-kopl[^\\n]*"warung-kopi"`)),
    },
  },
  {
    name: 'a principal tenant no document has (dapur-nusantra): a warning naming "dapur-nusantara", exit 0',
    setup: addPrincipal('{ "name": "eka", "tenant": "dapur-nusantra", "groups": ["kitchen"] }'),
    argv: ACL,
    expect: {
      code: 0,
      check: (r, ws) =>
        assert.match(
          r.stderr,
          new RegExp(`${literal(PRINCIPALS)}:${ws.lineOf(PRINCIPALS, '"eka"')}: warning[^\\n]*dapur-nusantra\\b[^\\n]*"dapur-nusantara"`),
        ),
    },
  },
  {
    name: 'the example as shipped: no warning, no error, exit 0',
    argv: ACL,
    expect: { code: 0, notStderr: [/did you mean/, /error/], check: (r) => assert.doesNotMatch(both(r), /warning/) },
  },
];

fuzzTable('acl', cases);
