import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findCachedRun, saveRun } from '../../../src/core/experiment/run-store';
import type { SavedRun } from '../../../src/core/run/types';
import { tempDir } from '../../helpers/workspace';

function run(config: string, minute: number, principal?: string): SavedRun {
  const createdAt = new Date(Date.UTC(2026, 11, 2, 10, minute)).toISOString();
  return { format: 'ranklab-run@1', provenance: { config, configHash: `h-${config}`, corpus: 'c', judgments: 'j', createdAt, tool: 't' }, config: {}, metricSpecs: [], metrics: {}, latency: {}, principal, queries: [] };
}

test('saving keeps the newest runs per config and principal and never touches other files', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'notes.json'), '{}');
  writeFileSync(join(dir, '2025-11-01-baseline.json'), '{}');
  for (let m = 0; m < 5; m++) saveRun(dir, run('baseline', m), 3);
  saveRun(dir, run('baseline-2', 9), 3);
  saveRun(dir, run('baseline', 10, 'ana'), 3);
  const files = readdirSync(dir).sort();
  assert.deepEqual(files, [
    '2025-11-01-baseline.json',
    'baseline-2-2026-12-02T10-09-00-000Z.json',
    'baseline-2026-12-02T10-02-00-000Z.json',
    'baseline-2026-12-02T10-03-00-000Z.json',
    'baseline-2026-12-02T10-04-00-000Z.json',
    'baseline@ana-2026-12-02T10-10-00-000Z.json',
    'notes.json',
  ]);
  assert.equal(findCachedRun(dir, { configHash: 'h-baseline', corpus: 'c', judgments: 'j' })?.saved.provenance.createdAt, '2026-12-02T10:04:00.000Z');
  assert.equal(findCachedRun(dir, { configHash: 'h-baseline', corpus: 'c', judgments: 'j', principal: 'ana' })?.saved.principal, 'ana');
  assert.equal(findCachedRun(dir, { configHash: 'h-baseline', corpus: 'other', judgments: 'j' }), undefined);
});
