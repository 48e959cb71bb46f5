import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { corpusSettings } from '../../../src/core/corpus/settings';

export const FIXTURES = resolve(__dirname, '../../fixtures/corpus');

/** Settings for the `mixed` fixture: products use sku_id/name/description, ACL under tenant_id/acl_groups. */
export const mixedSettings = corpusSettings({
  include: ['corpus/**/*'],
  exclude: ['**/drafts/**'],
  fields: { id: 'sku_id', title: 'name', body: 'description', text: ['summary'] },
  aclFields: { tenant: 'tenant_id', groups: 'acl_groups' },
});

/** A private copy of a fixture folder, so tests can edit files. */
export function copyFixture(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ranklab-${name}-`));
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}
