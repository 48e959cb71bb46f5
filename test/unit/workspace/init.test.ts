// planWorkspace / writeWorkspace on folders made here: what is taken for a field, what is kept out of the corpus,
// and that nothing is ever overwritten (createFileAtomic).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/workspace';
import { listCorpusFiles } from '../../../src/core/corpus/discover';
import { createFileAtomic } from '../../../src/core/util/atomic-write';
import { guessFields } from '../../../src/core/workspace/init-scan';
import { planWorkspace, writeWorkspace } from '../../../src/core/workspace/init';
import { loadWorkspace } from '../../../src/core/workspace';
import { InputError } from '../../../src/core/util/diagnostics';

test('guessFields: an id must be unique in the sample; the body falls back to the longest text', () => {
  const records = [
    { category_id: 'c1', item_id: 'i1', name: 'Kettle', notes: 'a long description of a gooseneck kettle for pour-over' },
    { category_id: 'c1', item_id: 'i2', name: 'Grinder', notes: 'a long description of a burr grinder with 40 settings' },
  ];
  // category_id comes first in the records but repeats: it cannot be the id.
  assert.deepEqual(guessFields(records), { id: 'item_id', title: 'name', body: 'notes' });
  // With no unique candidate there is no id (the report then says records without an id are skipped).
  assert.equal(guessFields(records.map(({ category_id, name, notes }) => ({ category_id, name, notes }))).id, undefined);
  assert.deepEqual(guessFields([{ id: 1, text: 'x', tenant_id: 't', is_public: true, allowed_groups: ['a'] }]), {
    id: 'id',
    body: 'text',
    tenant: 'tenant_id',
    groups: 'allowed_groups',
    public: 'is_public',
  });
});

test('text documents beside a .txt qrels and queries file: the judgments are paired and kept out of the corpus', () => {
  const dir = tempDir('ranklab-init-txt-');
  for (const id of ['a', 'b', 'c']) writeFileSync(join(dir, `${id}.txt`), `Title ${id}\n\nbody of ${id}\n`);
  writeFileSync(join(dir, 'qrels.txt'), 'q1 0 a.txt 1\nq1 0 b.txt 0\n');
  writeFileSync(join(dir, 'queries.txt'), 'q1\tbody of a\n');
  const plan = planWorkspace(dir);
  assert.deepEqual(
    plan.judgments.map((j) => j.entry),
    [{ qrels: 'qrels.txt', queries: 'queries.txt' }],
  );
  assert.deepEqual(plan.corpus.include, ['**/*.txt']);
  assert.deepEqual(plan.corpus.exclude, ['qrels.txt', 'queries.txt']);
  writeWorkspace(plan);
  const ws = loadWorkspace(dir);
  assert.deepEqual(ws.diagnostics, []);
  assert.deepEqual(listCorpusFiles(dir, ws.settings.corpus), ['a.txt', 'b.txt', 'c.txt']);
});

test('qrels without a queries file are written as found, with a warning that says what is missing', () => {
  const dir = tempDir('ranklab-init-noq-');
  writeFileSync(join(dir, 'docs.jsonl'), '{"id": "a", "text": "alpha"}\n{"id": "b", "text": "beta"}\n');
  writeFileSync(join(dir, 'test.qrels'), 'q1 0 a 1\n');
  const plan = planWorkspace(dir);
  assert.deepEqual(
    plan.judgments.map((j) => j.entry),
    [{ qrels: 'test.qrels' }],
  );
  assert.ok(
    plan.warnings.some((w) => /test\.qrels has no queries file/.test(w)),
    plan.warnings.join('\n'),
  );
  assert.ok(plan.warnings.some((w) => /no title field found/.test(w)));
  assert.deepEqual(
    plan.files.map((f) => f.path),
    ['ranklab.json', 'configs/baseline.rank.json', 'configs/vector.rank.json', 'configs/hybrid-rrf.rank.json'],
  );
  assert.deepEqual(JSON.parse(plan.files[1].content).lexical.fields, { body: 1 });
});

test('writeWorkspace: a ranklab.json that appeared after the plan is not overwritten (exit 2); createFileAtomic never replaces', () => {
  const dir = tempDir('ranklab-init-race-');
  writeFileSync(join(dir, 'a.md'), '# A\n\ntext\n');
  const plan = planWorkspace(dir);
  writeFileSync(join(dir, 'ranklab.json'), '{}\n');
  assert.throws(
    () => writeWorkspace(plan),
    (e: unknown) => e instanceof InputError && /already exists/.test(e.message),
  );
  assert.equal(readFileSync(join(dir, 'ranklab.json'), 'utf8'), '{}\n');
  assert.equal(createFileAtomic(join(dir, 'ranklab.json'), 'new'), false);
  assert.equal(readFileSync(join(dir, 'ranklab.json'), 'utf8'), '{}\n');
  assert.equal(createFileAtomic(join(dir, 'sub', 'new.txt'), 'new'), true);
  assert.equal(readFileSync(join(dir, 'sub', 'new.txt'), 'utf8'), 'new');
});
