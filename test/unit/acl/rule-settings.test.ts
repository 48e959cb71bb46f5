import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { applyDefaults } from '../../../src/core/workspace/settings';
import { RanklabSession } from '../../../src/core/session/session';
import { DEFAULT_ACL_RULE, maySee } from '../../../src/core/acl/policy';

test('acl.rule: a valid rule is passed through, none means the default, an invalid one fails closed', () => {
  const rule = {
    any: [
      { doc: 'public', is: true },
      { principal: 'role', is: 'admin' },
    ],
  };
  assert.deepEqual(applyDefaults({ acl: { rule } }).acl.rule, rule);
  assert.equal(applyDefaults({}).acl.rule, undefined);
  const closed = applyDefaults({ acl: { rule: { overlap: 'groups', ifEmpty: 'sometimes' } } }).acl.rule!;
  assert.deepEqual(closed, { any: [] });
  // Fails closed: even a public document is hidden, and so is one without ACL fields (a rule that reads no
  // document field decides every document; missingAcl does not apply).
  const policy = { rule: closed, missingAcl: 'public' as const };
  assert.equal(maySee(policy, { name: 'x', groups: [] }, { meta: { public: true } }), false);
  assert.equal(maySee(policy, { name: 'x', groups: [] }, { meta: {} }), false);
  assert.equal(maySee({ rule: DEFAULT_ACL_RULE, missingAcl: 'public' }, { name: 'x', groups: [] }, { meta: { public: true } }), true);
});

test('acl.rule in ranklab.json: errors name the line; a custom rule decides what a principal sees', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-rule-'));
  try {
    cpSync(resolve(__dirname, '../../../examples/food-search'), dir, { recursive: true, filter: (src) => !src.includes(`${sep}.ranklab`) });
    const file = join(dir, 'ranklab.json');
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...settings, acl: { ...settings.acl, rule: { all: [{ doc: 'public' }] } } }, null, 2));
    const bad = RanklabSession.open(dir, { writeCache: false });
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"all"')) + 2; // the rule object inside the list, 1-based
    const ruleProblems = bad.diagnostics.filter((d) => d.key?.startsWith('acl.rule'));
    assert.deepEqual(
      ruleProblems.map((d) => [d.line, d.severity, d.key]),
      [[at, 'error', 'acl.rule.all[0]']],
    );
    assert.match(ruleProblems[0].message, /"doc" needs "is"; the access rule denies everything/);
    assert.equal(bad.accessFor('dimas').permitted.size, 0, 'an invalid rule shows nothing');

    // Public documents only, whatever the tenant and groups: dimas sees exactly what the guest sees.
    writeFileSync(file, JSON.stringify({ ...settings, acl: { ...settings.acl, rule: { doc: 'public', is: true } } }, null, 2));
    const session = RanklabSession.open(dir, { writeCache: false });
    assert.deepEqual(
      session.diagnostics.filter((d) => d.severity !== 'info'),
      [],
    );
    const dimas = session.accessFor('dimas').permitted;
    const publicDocs = session
      .corpus()
      .docs.filter((d) => d.meta.public === true)
      .map((d) => d.id)
      .sort();
    assert.deepEqual([...dimas].sort(), publicDocs);
    assert.deepEqual([...session.accessFor('guest').permitted].sort(), publicDocs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
