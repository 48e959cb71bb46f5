import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunKey, findCachedRun, reuseMismatches, saveRun } from '../../../src/core/experiment/run-store';
import type { SavedRun } from '../../../src/core/run/types';
import { readRunJson, readRunText, writeRunJson, writeRunText } from '../../helpers/runs';
import { tempDir } from '../../helpers/workspace';

const access = (principal?: string) => ({
  principal: principal ? { name: principal, groups: [] } : null,
  rule: { doc: 'public', is: true },
  missingAcl: 'public',
});

function run(config: string, minute: number, principal?: string): SavedRun {
  const createdAt = new Date(Date.UTC(2026, 11, 2, 10, minute)).toISOString();
  return {
    format: 'ranklab-run@1',
    provenance: {
      config,
      configHash: `h-${config}`,
      corpus: 'c',
      judgments: 'j',
      createdAt,
      tool: 't',
      access: access(principal),
      models: { lsa: 'm' },
    },
    config: {},
    metricSpecs: [],
    metrics: {},
    latency: {},
    principal,
    queries: [],
  };
}

function key(over: Partial<RunKey> = {}): RunKey {
  return {
    config: 'baseline',
    configHash: 'h-baseline',
    corpus: 'c',
    judgments: 'j',
    tool: 't',
    access: access(over.principal),
    models: { lsa: 'm' },
    ...over,
  };
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
    'baseline-2-2026-12-02T10-09-00-000Z.json.gz',
    'baseline-2026-12-02T10-02-00-000Z.json.gz',
    'baseline-2026-12-02T10-03-00-000Z.json.gz',
    'baseline-2026-12-02T10-04-00-000Z.json.gz',
    'baseline@ana-2026-12-02T10-10-00-000Z.json.gz',
    'notes.json',
  ]);
  assert.equal(findCachedRun(dir, key())?.saved.provenance.createdAt, '2026-12-02T10:04:00.000Z');
  assert.equal(findCachedRun(dir, key({ principal: 'ana' }))?.saved.principal, 'ana');
  assert.equal(findCachedRun(dir, key({ corpus: 'other' })), undefined);
});

test('reuse: every part of the key is compared, and the reason is named', () => {
  const saved = run('baseline', 0, 'ana');
  assert.deepEqual(reuseMismatches(saved, key({ principal: 'ana' })), []);
  const cases: Array<[Partial<RunKey>, string]> = [
    [{ configHash: 'x' }, 'config differs'],
    [{ corpus: 'x' }, 'corpus differs'],
    [{ judgments: 'x' }, 'judgments differ'],
    [{ principal: 'bo' }, 'principal differs'],
    [{ access: { ...access('ana'), principal: { name: 'ana', groups: ['hr'] } } }, 'principal attributes differ'],
    [{ access: { ...access('ana'), rule: { doc: 'public', is: false } } }, 'access rule or missingAcl differ'],
    [{ access: { ...access('ana'), missingAcl: 'private' } }, 'access rule or missingAcl differ'],
    [{ tool: 'u' }, 'tool version differs (t)'],
    [{ models: { lsa: 'n' } }, 'learned models differ'],
    [{ models: {} }, 'learned models differ'],
  ];
  for (const [over, why] of cases) assert.deepEqual(reuseMismatches(saved, key({ principal: 'ana', ...over })), [why], why);
  // Attribute order does not matter; values do.
  const reordered = run('baseline', 0, 'ana');
  reordered.provenance.access = { missingAcl: 'public', rule: { is: true, doc: 'public' }, principal: { groups: [], name: 'ana' } };
  assert.deepEqual(reuseMismatches(reordered, key({ principal: 'ana' })), []);

  const dir = tempDir();
  saveRun(dir, run('baseline', 1));
  const log: string[] = [];
  assert.equal(
    findCachedRun(dir, key({ models: { lsa: 'n' } }), (m) => log.push(m)),
    undefined,
  );
  assert.match(log.join('\n'), /^baseline: not reusing .*baseline-2026-12-02T10-01-00-000Z\.json\.gz: learned models differ$/);
  log.length = 0;
  findCachedRun(dir, key({ principal: 'ana' }), (m) => log.push(m));
  assert.deepEqual(log, ['baseline: no saved run as ana to reuse']);
});

test('a reused run is decoded once while its file is unchanged; a file written since is read and checked again', () => {
  const dir = tempDir();
  const path = saveRun(dir, { ...run('baseline', 1), metrics: { 'ndcg@10': 0.4 } });
  const first = findCachedRun(dir, key());
  assert.equal(first?.saved.metrics['ndcg@10'], 0.4);
  assert.equal(findCachedRun(dir, key())?.saved, first?.saved, 'the same decoded run while the file is unchanged');
  // Rewritten by a writer with its content hash (other figures): the new content is read.
  writeRunJson(path, { ...readRunJson(path), metrics: { 'ndcg@10': 0.5 } });
  const rewritten = findCachedRun(dir, key());
  assert.equal(rewritten?.saved.metrics['ndcg@10'], 0.5);
  // Edited (the content hash gone): read again, and no longer reused.
  writeRunText(path, readRunText(path));
  assert.equal(findCachedRun(dir, key()), undefined);
});
