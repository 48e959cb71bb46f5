import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { diffCorpus } from '../../../src/core/corpus/diff';
import { loadCorpus } from '../../../src/core/corpus/load';
import { parseSnapshot, readSnapshotFile, serializeSnapshot, writeSnapshotFile } from '../../../src/core/corpus/snapshot';
import { corpusSettings } from '../../../src/core/corpus/settings';
import { sealJson } from '../../../src/core/util/content-hash';
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
    // The snapshot goes through JSON, as it would through the on-disk cache.
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

test('parseSnapshot refuses what is not a snapshot', () => {
  assert.equal(parseSnapshot('not json'), undefined);
  assert.equal(parseSnapshot(sealJson('{"files": {}}')), undefined);
  assert.equal(parseSnapshot(sealJson('{"format":"ranklab-corpus-snapshot","settingsKey":"k","files":{"a":{"size":1}}}')), undefined);
});

test('parseSnapshot checks the content hash: an edited snapshot (a document that no file has), one cut short or one without a hash is not used', () => {
  const first = loadCorpus(MIXED, mixedSettings);
  const text = serializeSnapshot(first.snapshot);
  assert.ok(parseSnapshot(text));
  const title = first.corpus.docs[0].title;
  assert.ok(title && text.includes(JSON.stringify(title)));
  const log: string[] = [];
  assert.equal(
    parseSnapshot(text.replace(JSON.stringify(title), JSON.stringify(`${title} (edited)`)), (m) => log.push(m)),
    undefined,
  );
  assert.match(log.join('\n'), /corpus snapshot not reused: its content hash does not match/);
  // an edit that leaves no valid JSON is a mismatch too (the rest of the file is still hashed)
  log.length = 0;
  assert.equal(
    parseSnapshot(text.replace(JSON.stringify(title), '{'), (m) => log.push(m)),
    undefined,
  );
  assert.match(log.join('\n'), /its content hash does not match/);
  const lines = text.split('\n').filter(Boolean);
  const last = JSON.parse(lines[lines.length - 1]);
  assert.match(last.sha256, /^[0-9a-f]{64}$/);
  assert.equal(last.end, first.snapshot.files.size);
  log.length = 0;
  assert.equal(
    parseSnapshot(lines.slice(0, -1).join('\n'), (m) => log.push(m)),
    undefined,
    'cut short',
  );
  assert.match(log.join('\n'), /cut short/);
  assert.equal(parseSnapshot([...lines.slice(0, -1), JSON.stringify({ end: last.end })].join('\n')), undefined, 'no hash: stale');
});

test('the snapshot file is written and read line by line: same snapshot back; older formats and a cut file are not used', () => {
  const dir = copyFixture('mixed');
  try {
    const first = loadCorpus(dir, mixedSettings);
    const path = join(dir, 'state', 'corpus-snapshot.json');
    writeSnapshotFile(path, first.snapshot);
    assert.equal(readFileSync(path, 'utf8'), serializeSnapshot(first.snapshot));
    const back = readSnapshotFile(path);
    assert.deepEqual(back, first.snapshot);
    // one line per document, plus a header, one line per file and the last line (count and hash)
    const docs = [...first.snapshot.files.values()].reduce((n, f) => n + f.docs.length, 0);
    assert.equal(readFileSync(path, 'utf8').split('\n').filter(Boolean).length, 1 + first.snapshot.files.size + docs + 1);
    // the hash is over the bytes before the last line, as written: what sha256sum of those bytes gives
    const bytes = readFileSync(path);
    const lastStart = bytes.lastIndexOf(10, bytes.length - 2) + 1;
    assert.equal(
      JSON.parse(bytes.subarray(lastStart).toString()).sha256,
      createHash('sha256').update(bytes.subarray(0, lastStart)).digest('hex'),
    );

    // before JSON Lines: one JSON value, without a hash (older Ranklab) or sealed (before the streamed format)
    const old = JSON.stringify({
      format: 'ranklab-corpus-snapshot',
      settingsKey: first.snapshot.settingsKey,
      files: Object.fromEntries(first.snapshot.files),
    });
    for (const text of [old, sealJson(old)]) {
      writeFileSync(path, text);
      assert.equal(readSnapshotFile(path), undefined);
    }

    const lines = serializeSnapshot(first.snapshot).split('\n');
    writeFileSync(path, lines.slice(0, -3).join('\n'));
    assert.equal(readSnapshotFile(path), undefined, 'a file cut short (a crash while copying) is not taken for a snapshot');
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
