import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { diffCorpus } from '../../../src/core/corpus/diff';
import { loadCorpus } from '../../../src/core/corpus/load';
import { parseSnapshot, serializeSnapshot } from '../../../src/core/corpus/snapshot';
import { corpusSettings } from '../../../src/core/corpus/settings';
import { COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';
import { copyFixture, FIXTURES, mixedSettings } from './helpers';

const MIXED = join(FIXTURES, 'mixed');

test('mixed folder: every format read, excluded folders and bad files skipped, ids in path then line order', () => {
  const { corpus, files } = loadCorpus(MIXED, mixedSettings);
  assert.deepEqual(
    corpus.docs.map((d) => d.id),
    [
      'corpus/articles/bad-acl.md',
      'coffee-brewing',
      'corpus/articles/grinders.md',
      'p-100',
      'p-101',
      'p-104',
      'p-200',
      'corpus/notes/cold-brew.txt',
      'corpus/pages/espresso.html',
    ],
  );
  assert.ok(!files.some((f) => f.includes('drafts') || f.includes('node_modules')));
  const byId = new Map(corpus.docs.map((d) => [d.id, d]));
  assert.deepEqual(byId.get('p-101')!.source, { path: 'corpus/data/products.jsonl', line: 2 });
  assert.deepEqual(byId.get('p-200')!.source, { path: 'corpus/data/restock.json', line: 3 });
  assert.deepEqual(byId.get('coffee-brewing')!.source, { path: 'corpus/articles/coffee-brewing.md' });
});

test('mixed folder: each problem is reported at its file and line', () => {
  const { corpus } = loadCorpus(MIXED, mixedSettings);
  const found = corpus.diagnostics.map((d) => `${d.file}:${d.line}:${d.severity}`).sort();
  assert.deepEqual(found, [
    'corpus/articles/bad-acl.md:3:error', // tenant is a list: visible to nobody
    'corpus/articles/bad-acl.md:4:error', // groups is a number
    'corpus/articles/bad-acl.md:5:error', // public: maybe
    'corpus/assets/logo.md:0:warning', // binary
    'corpus/data/products.jsonl:3:error', // malformed line
    'corpus/data/products.jsonl:5:error', // no id
    'corpus/data/products.jsonl:6:warning', // no text
    'corpus/data/products.jsonl:7:warning', // bad vector
    'corpus/data/products.jsonl:8:error', // not an object
    'corpus/data/restock.json:8:error', // duplicate of products.jsonl:1
    'corpus/notes/ignored.csv:0:warning', // unsupported type
  ]);
  const dup = corpus.diagnostics.find((d) => d.file === 'corpus/data/restock.json')!;
  assert.match(dup.message, /duplicate id "p-100"/);
  assert.match(dup.message, /corpus\/data\/products\.jsonl:1/);
  assert.match(corpus.diagnostics.find((d) => d.line === 3 && d.file.endsWith('.jsonl'))!.message, /malformed JSON/);
  assert.match(corpus.diagnostics.find((d) => d.file.endsWith('logo.md'))!.message, /NUL/);
  assert.match(corpus.diagnostics.find((d) => d.file.endsWith('.csv'))!.message, /unsupported file type ".csv"/);
});

test('fingerprint: stable across runs and locations, changed by an edit', () => {
  const a = loadCorpus(MIXED, mixedSettings).corpus;
  const b = loadCorpus(MIXED, mixedSettings).corpus;
  assert.equal(a.fingerprint, b.fingerprint);
  assert.match(a.fingerprint, /^sha256:[0-9a-f]{16}$/);
  const copy = copyFixture('mixed');
  try {
    const c = loadCorpus(copy, mixedSettings).corpus;
    assert.equal(c.fingerprint, a.fingerprint);
    assert.deepEqual(
      c.docs.map((d) => d.hash),
      a.docs.map((d) => d.hash),
    );
    appendFileSync(join(copy, 'corpus/notes/cold-brew.txt'), 'Serve over ice.\n');
    const d = loadCorpus(copy, mixedSettings).corpus;
    assert.notEqual(d.fingerprint, a.fingerprint);
    const changed = d.docs.filter((x, k) => x.hash !== c.docs[k].hash).map((x) => x.id);
    assert.deepEqual(changed, ['corpus/notes/cold-brew.txt']);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test('incremental reload re-reads only changed, added files; diffCorpus names what changed', () => {
  const dir = copyFixture('mixed');
  try {
    const first = loadCorpus(dir, mixedSettings);
    assert.equal(first.reread.length, first.files.length);
    assert.equal(first.files.length, 9);
    // The snapshot goes through its bytes, as it would through the on-disk cache.
    const restored = parseSnapshot(serializeSnapshot(first.snapshot));
    assert.ok(restored);

    const unchanged = loadCorpus(dir, mixedSettings, restored);
    assert.deepEqual(unchanged.reread, []);
    assert.equal(unchanged.corpus.fingerprint, first.corpus.fingerprint);
    assert.deepEqual(unchanged.corpus.diagnostics, first.corpus.diagnostics);
    assert.deepEqual(unchanged.corpus.docs, first.corpus.docs);

    const coffee = join(dir, 'corpus/articles/coffee-brewing.md');
    appendFileSync(coffee, '- Grind just before brewing.\n');
    writeFileSync(join(dir, 'corpus/notes/aeropress.txt'), 'AeroPress\nPress slowly for 30 seconds.\n');
    const second = loadCorpus(dir, mixedSettings, unchanged.snapshot);
    assert.deepEqual(second.reread, ['corpus/articles/coffee-brewing.md', 'corpus/notes/aeropress.txt']);
    const diff = diffCorpus(first.corpus.docs, second.corpus.docs);
    assert.deepEqual(
      diff.changed.map((d) => d.id),
      ['coffee-brewing'],
    );
    assert.deepEqual(
      diff.added.map((d) => d.id),
      ['corpus/notes/aeropress.txt'],
    );
    assert.deepEqual(diff.removed, []);

    // Same size, new mtime: still re-read.
    utimesSync(join(dir, 'corpus/notes/cold-brew.txt'), new Date(), new Date(Date.now() + 5000));
    rmSync(join(dir, 'corpus/pages/espresso.html'));
    const third = loadCorpus(dir, mixedSettings, second.snapshot);
    assert.deepEqual(third.reread, ['corpus/notes/cold-brew.txt']);
    const diff2 = diffCorpus(second.corpus.docs, third.corpus.docs);
    assert.deepEqual(diff2, { added: [], changed: [], removed: ['corpus/pages/espresso.html'] });

    // Other field mapping: the snapshot does not apply, everything is read again.
    const other = corpusSettings({ ...mixedSettings, fields: { ...mixedSettings.fields, text: [] } });
    assert.equal(loadCorpus(dir, other, third.snapshot).reread.length, third.files.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The snapshot's own tests (format, hash, cuts, older formats): snapshot.test.ts.

test('a snapshot without repeated ids carries the corpus fingerprint; a start reusing every file takes it, any change computes it again: always what a cold load gives', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-assembled-'));
  try {
    mkdirSync(join(dir, 'data'));
    mkdirSync(join(dir, 'notes'));
    const record = (id: string) => `${JSON.stringify({ id, title: `Title ${id}`, text: `Body of ${id}` })}\n`;
    writeFileSync(join(dir, 'data/a.jsonl'), record('a1') + record('a2') + record('a3'));
    writeFileSync(join(dir, 'data/b.jsonl'), record('b1') + record('b2'));
    writeFileSync(join(dir, 'notes/c.md'), '# A note\n\nSome text.\n');
    const settings = corpusSettings({ include: ['data/*.jsonl', 'notes/*.md'] });
    const cold = loadCorpus(dir, settings);
    assert.equal(cold.corpus.docs.length, 6);
    assert.equal(cold.snapshot.assembled?.fingerprint, cold.corpus.fingerprint);
    let previous = parseSnapshot(serializeSnapshot(cold.snapshot))!;
    assert.deepEqual(previous.assembled, cold.snapshot.assembled, 'kept in the file');
    const later = (rel: string) => {
      const t = new Date(Date.now() + 60_000);
      utimesSync(join(dir, rel), t, t);
    };
    const step = (label: string, reread: string[]) => {
      const warm = loadCorpus(dir, settings, previous);
      const fresh = loadCorpus(dir, settings);
      assert.deepEqual(warm.reread, reread, label);
      assert.deepEqual(warm.corpus, fresh.corpus, label);
      assert.deepEqual(warm.snapshot.assembled, fresh.snapshot.assembled, label);
      previous = parseSnapshot(serializeSnapshot(warm.snapshot))!;
      return warm;
    };
    step('unchanged', []);
    appendFileSync(join(dir, 'data/b.jsonl'), record('b3'));
    later('data/b.jsonl');
    step('a file changed', ['data/b.jsonl']);
    rmSync(join(dir, 'notes/c.md'));
    step('a file removed', []);
    writeFileSync(join(dir, 'data/c.jsonl'), record('a2'));
    const dup = step('a file added that repeats an id', ['data/c.jsonl']);
    assert.equal(dup.snapshot.assembled, undefined, 'no fingerprint kept when an id repeats');
    assert.match(dup.corpus.diagnostics.map((d) => d.message).join('\n'), /duplicate id "a2"/);
    step('the repeated id still there, every file reused', []);
    rmSync(join(dir, 'data/c.jsonl'));
    const back = step('the repeating file removed', []);
    assert.equal(back.snapshot.assembled?.fingerprint, back.corpus.fingerprint);

    // the shortcut is taken: with every file reused the kept fingerprint is the corpus's (the file's hash guards it)
    const marked = { ...previous, assembled: { fingerprint: 'sha256:kept' } };
    assert.equal(loadCorpus(dir, settings, marked).corpus.fingerprint, 'sha256:kept');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('oversized file (default 2 MiB limit) is reported and skipped, the rest indexed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-big-'));
  try {
    writeFileSync(join(dir, 'huge.txt'), 'a'.repeat(2 * 1024 * 1024 + 1));
    writeFileSync(join(dir, 'small.txt'), 'Small\nfile');
    const { corpus } = loadCorpus(dir, corpusSettings({ include: ['*.txt'] }));
    assert.deepEqual(
      corpus.docs.map((d) => d.id),
      ['small.txt'],
    );
    assert.equal(corpus.diagnostics.length, 1);
    assert.equal(corpus.diagnostics[0].file, 'huge.txt');
    assert.match(corpus.diagnostics[0].message, /over the 2\.0 MiB limit/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('BEIR corpus.jsonl with defaults: _id, title, text, metadata kept as meta', () => {
  const { corpus } = loadCorpus(join(FIXTURES, 'beir-mini'), corpusSettings({ include: ['corpus.jsonl'] }));
  assert.deepEqual(corpus.diagnostics, []);
  assert.deepEqual(
    corpus.docs.map((d) => [d.id, d.title, d.body]),
    [
      ['d1', 'Latte art', 'Steam milk to 60 degrees for microfoam.'],
      ['d2', 'Moka pot', 'Stovetop brewer making strong coffee.'],
      ['d3', '', 'Aeropress inverted method.'],
    ],
  );
  assert.deepEqual(corpus.docs[0].meta, { metadata: { url: 'https://example.com/latte' } });
});

test('real collection: med corpus.jsonl has 1033 documents and no problems', { skip: COLLECTIONS_SKIP }, () => {
  const { corpus } = loadCorpus(collectionPath('med'), corpusSettings({ include: ['corpus.jsonl'] }));
  assert.equal(corpus.docs.length, 1033);
  assert.deepEqual(corpus.diagnostics, []);
  assert.equal(new Set(corpus.docs.map((d) => d.id)).size, 1033);
});

test('always-excluded folders stay out even when include names them', () => {
  const dir = copyFixture('beir-mini');
  try {
    for (const sub of ['.ranklab/cache', 'node_modules/x', '.git']) {
      mkdirSync(join(dir, sub), { recursive: true });
      writeFileSync(join(dir, sub, 'doc.txt'), 'Hidden\ntext');
    }
    const { files } = loadCorpus(dir, corpusSettings({ include: ['**/*.txt', '.ranklab/**/*.txt', '.git/*.txt'] }));
    assert.deepEqual(files, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
