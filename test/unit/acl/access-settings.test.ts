// The access settings checked against the corpus and the principals (session/access-settings.ts), and the
// access check's verdict on what it could not check (aclFindings), through a real session on real files.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { aclFindings, checkAcl } from '../../../src/core/session/check-acl';
import { RanklabSession } from '../../../src/core/session/session';
import { InputError } from '../../../src/core/util/diagnostics';
import { PRINCIPALS, makeWorkspace, md } from './helpers';

const DOCS = {
  'corpus/pay.md': md(['id: pay', 'tenant: acme', 'groups: [hr]']),
  'corpus/deals.md': md(['id: deals', 'tenant: acme', 'groups: [sales]']),
  'corpus/open.md': md(['id: open', 'public: true']),
};

function withWorkspace(
  files: Record<string, string>,
  settings: Parameters<typeof makeWorkspace>[1],
  body: (session: RanklabSession, dir: string) => Promise<void> | void,
) {
  return async () => {
    const dir = makeWorkspace(files, settings);
    try {
      await body(RanklabSession.open(dir, { writeCache: false }), dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** The InputError accessFor throws, or a failure when it does not throw. */
function refusal(session: RanklabSession, principal: string): InputError {
  try {
    session.accessFor(principal);
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  assert.fail(`access for ${principal} was granted`);
}

test(
  'a mapped access field that no document has refuses access, at its line of ranklab.json',
  withWorkspace(DOCS, { acl: { fields: { tenant: 'tenant_id' }, missingAcl: 'public' } }, (session) => {
    const e = refusal(session, 'hr');
    assert.equal(e.file, 'ranklab.json');
    assert.equal(e.key, 'acl.fields.tenant');
    assert.ok(e.line && e.line > 1, 'the line of the mapping');
    assert.match(e.message, /"tenant_id"/);
    // The same problem is an error in the editor's Problems list (accessDiagnostics), and check-acl refuses to run.
    assert.deepEqual(
      session
        .accessDiagnostics()
        .filter((d) => d.severity === 'error')
        .map((d) => d.key),
      ['acl.fields.tenant'],
    );
    return assert.rejects(checkAcl(session, { prefixes: false }), InputError);
  }),
);

test(
  'a workspace without a local corpus (an engine holds the documents): the corpus error stands, access settings are not blamed',
  withWorkspace(
    {},
    {
      acl: {
        fields: { tenant: 'tenant_id' },
        rule: {
          any: [
            { doc: 'visibility', is: 'all' },
            { principal: 'clearance', is: 'top' },
          ],
        },
        missingAcl: 'private',
      },
    },
    (session) => {
      assert.equal(session.corpus().docs.length, 0);
      assert.ok(
        session.corpusDiagnostics().some((d) => d.key === 'corpus.include' && d.severity === 'error'),
        'the corpus.include error',
      );
      // No document to check a field against; the rule's principal attribute is still checked against the principals.
      session.principals();
      const errors = session.accessDiagnostics().filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors.map((d) => d.message.match(/"([^"]+)"/)?.[1]),
        ['clearance'],
      );
    },
  ),
);

test('a stated mapping that documents use is no problem, and neither is the default mapping on a corpus without access fields', async () => {
  await withWorkspace(
    DOCS,
    { acl: { fields: { tenant: 'tenant', groups: 'groups', public: 'public' }, missingAcl: 'public' } },
    (session) => {
      assert.deepEqual(session.accessDiagnostics(), []);
      assert.equal(session.accessFor('hr').permitted.has('pay'), true);
    },
  )();
  await withWorkspace({ 'corpus/a.md': md(['id: a']), 'corpus/b.md': md(['id: b']) }, { acl: { missingAcl: 'public' } }, (session) => {
    assert.deepEqual(
      session.accessDiagnostics().filter((d) => d.severity === 'error'),
      [],
    );
    assert.deepEqual([...session.accessFor('guest').permitted].sort(), ['a', 'b']);
  })();
});

test(
  "a rule naming a document field or a principal attribute that nothing has refuses access, at the rule's line",
  withWorkspace(
    DOCS,
    {
      acl: {
        missingAcl: 'public',
        rule: { any: [{ doc: 'pubic', is: true }, { all: [{ same: 'tenant' }, { principal: 'rol', is: 'admin' }] }] },
      },
    },
    (session) => {
      session.principals();
      const errors = session.accessDiagnostics().filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors.map((d) => d.key),
        ['acl.rule.any[0].doc', 'acl.rule.any[1].all[1].principal'],
      );
      assert.ok(errors.every((d) => d.file === 'ranklab.json' && d.line > 1));
      assert.match(refusal(session, 'boss').message, /"pubic"/);
    },
  ),
);

test(
  'a misspelled access key in a principal skips it; check-acl names it and does not pass',
  withWorkspace(DOCS, { acl: { missingAcl: 'public' } }, async (session, dir) => {
    writeFileSync(
      join(dir, 'principals.json'),
      JSON.stringify([PRINCIPALS[0], { name: 'hr', tenant: 'acme', group: ['hr'] }, PRINCIPALS[2]], null, 2),
    );
    const names = session.principals().map((p) => p.name);
    assert.deepEqual(names, ['guest', 'sales'], 'hr is skipped, not a guest without groups');
    const d = session.principalDiagnostics().find((x) => x.key === 'group');
    assert.ok(
      d && d.severity === 'error' && /did you mean "groups"/.test(d.message) && d.line > 1,
      JSON.stringify(session.principalDiagnostics()),
    );
    assert.match(refusal(session, 'hr').message, /cannot be used.*"group"/);
    const report = await checkAcl(session, { prefixes: false });
    assert.deepEqual(report.principals.checked, ['guest', 'sales']);
    assert.equal(report.principals.total, 3);
    const { failures } = aclFindings(report);
    assert.equal(failures.length, 1, failures.join('\n'));
    assert.match(failures[0], /principal "hr" at principals\.json:\d+ was not checked/);
  }),
);

test('documents public only by an unstated missingAcl fail the check; stated, they are a warning that names them', async () => {
  const files = { ...DOCS, 'corpus/untagged.md': md(['id: untagged']) };
  await withWorkspace(files, {}, async (session) => {
    assert.match(
      session.missingAclNote() ?? '',
      /1 document has none of the fields.*public by acl\.missingAcl \(not set in ranklab\.json.*untagged \(corpus\/untagged\.md\)/,
    );
    const { failures } = aclFindings(await checkAcl(session, { prefixes: false }));
    assert.equal(failures.length, 1);
    assert.match(failures[0], /public only by acl\.missingAcl: untagged \(corpus\/untagged\.md:1\).*does not set "acl\.missingAcl"/);
  })();
  await withWorkspace(files, { acl: { missingAcl: 'public' } }, async (session) => {
    const { failures, warnings } = aclFindings(await checkAcl(session, { prefixes: false }));
    assert.deepEqual(failures, []);
    assert.match(warnings.join('\n'), /untagged/);
  })();
  // Private by default, unstated: hidden, so nothing to fail.
  await withWorkspace(files, { acl: { missingAcl: 'private' } }, async (session) => {
    assert.deepEqual(aclFindings(await checkAcl(session, { prefixes: false })).failures, []);
    assert.equal(session.accessFor('guest').permitted.has('untagged'), false);
  })();
});

test(
  'group and tenant names used on one side only are warnings with the closest name of the other side',
  withWorkspace(
    {
      ...DOCS,
      'corpus/typo.md': md(['id: typo', 'tenant: acme', 'groups: [hrr]']),
    },
    { acl: { missingAcl: 'public' } },
    (session) => {
      session.principals();
      const warnings = session.accessDiagnostics();
      assert.ok(warnings.every((d) => d.severity === 'warning'));
      const docSide = warnings.find((d) => d.file === 'corpus/typo.md');
      assert.match(docSide?.message ?? '', /group "hrr" .* held by no principal.*did you mean "hr"/);
      // Principal groups no document uses: "x" and "name" of boss; "public" is guest's tenant, which no document has.
      const principalSide = warnings
        .filter((d) => d.file === 'principals.json')
        .map((d) => /"([^"]+)" of principal/.exec(d.message)?.[1])
        .sort();
      assert.deepEqual(principalSide, ['name', 'public', 'x']);
    },
  ),
);
