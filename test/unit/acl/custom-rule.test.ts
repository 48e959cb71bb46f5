import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReferenceAcl } from '../../../src/core/acl/reference-acl';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample } from '../../helpers/workspace';
import { makeWorkspace, md } from './helpers';

const OPEN_ONLY = { all: [{ doc: 'classification', is: 'open' }] };

const FILES = {
  'corpus/secret.md': md(['id: secret', 'classification: secret']),
  'corpus/open.md': md(['id: open', 'classification: open']),
  'corpus/plain.md': md(['id: plain']),
  'data/records.jsonl': [
    JSON.stringify({ id: 'r-secret', text: 'salary', classification: 'secret' }),
    JSON.stringify({ id: 'r-open', text: 'salary', classification: 'open' }),
    JSON.stringify({ id: 'r-plain', text: 'salary' }),
  ].join('\n'),
};

function visible(dir: string, principal: string): string[] {
  return [...RanklabSession.open(dir, { writeCache: false }).accessFor(principal).permitted].sort();
}

test('missingAcl does not bypass a custom rule: a document with a field the rule reads is decided by the rule', () => {
  // `fields.meta` lists only tags (as the example does): the rule's own fields must still reach the access decision.
  for (const meta of [undefined, ['tags']]) {
    const corpus = { include: ['corpus/**/*.md', 'data/*.jsonl'], ...(meta ? { fields: { meta } } : {}) };
    const pub = makeWorkspace(FILES, { corpus, acl: { rule: OPEN_ONLY, missingAcl: 'public' } });
    const priv = makeWorkspace(FILES, { corpus, acl: { rule: OPEN_ONLY, missingAcl: 'private' } });
    try {
      // Documents without `classification` have none of the fields the rule reads: missingAcl decides them.
      assert.deepEqual(visible(pub, 'guest'), ['open', 'plain', 'r-open', 'r-plain'], `missingAcl public, meta ${meta}`);
      assert.deepEqual(visible(priv, 'guest'), ['open', 'r-open'], `missingAcl private, meta ${meta}`);
    } finally {
      rmSync(pub, { recursive: true, force: true });
      rmSync(priv, { recursive: true, force: true });
    }
  }
});

test('a rule field that a document lacks is an absent value, not a reason to ask missingAcl', () => {
  // Public, or the same tenant and classified open. A document with only `classification: open` has a field the
  // rule reads, so the rule decides: no tenant, so nobody but... nobody (it is not public).
  const rule = { any: [{ doc: 'public', is: true }, { all: [{ same: 'tenant' }, { doc: 'classification', is: 'open' }] }] };
  const dir = makeWorkspace(
    {
      'corpus/open-no-tenant.md': md(['id: open-no-tenant', 'classification: open']),
      'corpus/acme-open.md': md(['id: acme-open', 'tenant: acme', 'classification: open']),
      'corpus/acme-secret.md': md(['id: acme-secret', 'tenant: acme', 'classification: secret']),
      'corpus/nothing.md': md(['id: nothing']),
      // The rule reads `public`: some document must carry it, else the rule matches nothing (an error of its own).
      'corpus/closed.md': md(['id: closed', 'public: false']),
    },
    { acl: { rule, missingAcl: 'public' } },
  );
  try {
    assert.deepEqual(visible(dir, 'guest'), ['nothing']);
    assert.deepEqual(visible(dir, 'hr'), ['acme-open', 'nothing']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the docs/access-control.md example on the example workspace: a secret document without tenant/groups/public is hidden from the guest', () => {
  const dir = copyOfExample();
  try {
    const file = join(dir, 'ranklab.json');
    const settings = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(file, JSON.stringify({ ...settings, acl: { ...settings.acl, rule: OPEN_ONLY } }, null, 2));
    writeFileSync(
      join(dir, 'corpus', 'management', 'board-minutes.md'),
      md(['id: board-minutes', 'title: Board minutes', 'classification: secret'], 'Kopi gayo margins.'),
    );
    writeFileSync(
      join(dir, 'corpus', 'management', 'open-letter.md'),
      md(['id: open-letter', 'title: Open letter', 'classification: open'], 'Kopi gayo for all.'),
    );
    const session = RanklabSession.open(dir, { writeCache: false });
    const guest = session.accessFor('guest').permitted;
    assert.equal(guest.has('board-minutes'), false);
    assert.equal(guest.has('open-letter'), true);
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});

test('the example workspace under the default rule: retrieval and the independent reference agree for every principal', () => {
  const dir = copyOfExample();
  try {
    const session = RanklabSession.open(dir, { writeCache: false });
    const reference = ReferenceAcl.fromDisk(dir, session.workspace.settings.corpus, session.policy());
    const ids = session.corpus().docs.map((d) => d.id);
    assert.deepEqual(reference.invalidDocuments(ids), []);
    assert.equal(reference.followingMissingAcl(ids), 0, 'every example document has access fields');
    for (const p of session.principals()) {
      const expected = ids.filter((id) => reference.visible(p, id)).sort();
      assert.deepEqual([...session.accessFor(p.name).permitted].sort(), expected, p.name);
      assert.ok(expected.length > 0);
    }
  } finally {
    rmSync(join(dir, '..'), { recursive: true, force: true });
  }
});
