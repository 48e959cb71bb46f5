import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findPrincipal, readPrincipals } from '../../../src/core/acl/principals';
import { tempDir } from '../../helpers/workspace';

test('bad principal entries are reported at their line and skipped; the good ones are kept', () => {
  const file = join(tempDir(), 'principals.json');
  writeFileSync(
    file,
    [
      '[',
      '  { "name": "ana", "tenant": "acme", "groups": ["sales"] },',
      '  { "tenant": "acme" },',
      '  { "name": "bo", "groups": "sales" },',
      '  { "name": "ana", "tenant": "other" },',
      '  { "name": "cy", "role": "admin" }',
      ']',
    ].join('\n'),
  );
  const { principals, diagnostics } = readPrincipals(file);
  assert.deepEqual(
    principals.map((p) => [p.name, p.tenant, p.groups]),
    [
      ['ana', 'acme', ['sales']],
      ['cy', undefined, []],
    ],
  );
  assert.equal(principals[1].role, 'admin', 'other attributes are kept for custom rules');
  assert.deepEqual(
    diagnostics.map((d) => [d.line, d.message]),
    [
      [3, 'principal #2 has no "name"; skipped'],
      [4, 'principal "bo": "groups" must be a list of strings; skipped'],
      [5, 'principal "ana" is declared twice; the first is used'],
    ],
  );
  assert.throws(() => findPrincipal(principals, 'zed', file), /principals\.json: --as: unknown principal "zed" \(declared: ana, cy\)/);
});

test('a principals file that is not JSON, or missing, is unusable input', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'p.json'), '[{"name": "ana",]');
  assert.throws(() => readPrincipals(join(dir, 'p.json')), /p\.json:1: invalid JSON/);
  assert.throws(() => readPrincipals(join(dir, 'none.json')), /principals file not found/);
});
