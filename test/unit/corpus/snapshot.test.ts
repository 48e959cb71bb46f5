// The corpus snapshot's binary format (@3): exact round trips (unicode, many fields, every optional part, documents
// of odd shapes, batches across read chunks), and every way it is refused: any changed byte, any cut, older formats.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Document } from '../../../src/core/corpus/document';
import { type CorpusSnapshot, loadCorpus } from '../../../src/core/corpus/load';
import { parseSnapshot, readSnapshotFile, serializeSnapshot, writeSnapshotFile } from '../../../src/core/corpus/snapshot';
import { sealJson } from '../../../src/core/util/content-hash';
import { tempDir } from '../../helpers/workspace';
import { copyFixture, FIXTURES, mixedSettings } from './helpers';

const doc = (id: string, more: Partial<Document> = {}): Document => ({
  id,
  title: `Title of ${id}`,
  body: `Body of ${id}`,
  fields: {},
  meta: {},
  source: { path: 'data/a.jsonl', line: 1 },
  hash: `sha256:${id.padEnd(16, '0').slice(0, 16)}`,
  ...more,
});

function snapshotOf(files: Record<string, Document[]>): CorpusSnapshot {
  return {
    settingsKey: 'sha256:0123456789abcdef',
    files: new Map(
      Object.entries(files).map(([path, docs], i) => [
        path,
        { mtimeMs: 1_700_000_000_000.25 + i, size: 1000 + i, docs, diagnostics: [], fieldsSeen: ['title'] },
      ]),
    ),
  };
}

const manyFields = Object.fromEntries(Array.from({ length: 60 }, (_, k) => [`field_${k}`, `value ${k} `.repeat(k)]));

/** Documents of every shape the format has a path for. */
const unusual: Document[] = [
  doc('latin1', { title: 'Café crème, naïve façade — no: the dash is wide', body: 'ÿ at the end ÿ\u00ff' }),
  doc('narrow-extremes', { title: '\u0000\u00ff', body: '' }),
  doc('wide', { title: '東京 タワー', body: 'emoji 😀 and a combining é and \u0100' }),
  doc('surrogates', { title: 'lone \ud800 high', body: 'lone \udc00 low, and a pair \ud83d\ude00' }),
  doc('many-fields', { fields: { ...manyFields, résumé: 'unicode field name', 東京: '' } }),
  doc('meta', { meta: { tenant: 'acme', groups: ['a', 'b'], public: false, nested: { n: 1.5, z: null } } }),
  doc('no-line', { source: { path: 'data/a.jsonl' } }),
  doc('line-zero', { source: { path: 'data/a.jsonl', line: 0 } }),
  doc('other-path', { source: { path: 'corpus/elsewhere.md', line: 7 } }),
  doc('vector', { vector: [0.1, -2.5e-300, 3, 1e300] }),
  doc('invalid-acl', { invalidAcl: ['tenant'], meta: { tenant: 'x' } }),
  doc('empty-acl', { invalidAcl: [] }),
  // shapes kept as one JSON text
  doc('odd-field', { fields: { count: 3 } as unknown as Record<string, string> }),
  doc('proto-field', { fields: JSON.parse('{"__proto__":"not a prototype","a":"b"}') as Record<string, string> }),
  { ...doc('extra-key'), extra: 'kept' } as Document,
  doc('big-line', { source: { path: 'data/a.jsonl', line: 2 ** 40 } }),
  doc('odd-source', { source: { path: 'data/a.jsonl', line: 3, column: 4 } as Document['source'] }),
];

test('round trip: every document back exactly (unicode, lone surrogates, many fields, meta, vectors, odd shapes)', () => {
  const snapshot = snapshotOf({ 'data/a.jsonl': unusual, 'data/empty.jsonl': [], 'data/b.jsonl': [doc('b1'), doc('b2')] });
  snapshot.files.get('data/empty.jsonl')!.diagnostics = [
    { file: 'data/empty.jsonl', line: 3, severity: 'warning', message: 'a problem', key: 'k' },
  ];
  const back = parseSnapshot(serializeSnapshot(snapshot));
  assert.deepEqual(back, snapshot);
  assert.deepEqual([...back!.files.keys()], ['data/a.jsonl', 'data/empty.jsonl', 'data/b.jsonl'], 'files in their order');
  const proto = back!.files.get('data/a.jsonl')!.docs.find((d) => d.id === 'proto-field')!;
  assert.equal(Object.getPrototypeOf(proto.fields), Object.prototype);
  assert.deepEqual(Object.keys(proto.fields), ['__proto__', 'a']);
  // the text of each document is the same as JSON would give: one check independent of deepEqual's rules
  assert.deepEqual(
    back!.files.get('data/a.jsonl')!.docs.map((d) => JSON.stringify(d)),
    unusual.map((d) => JSON.stringify(d)),
  );
});

test('round trip of documents larger than a batch and than a read chunk (batches cut across chunks)', () => {
  const big = (id: string, c: string) => doc(id, { body: c.repeat(700_000), fields: { more: `${c}x`.repeat(1000) } });
  const docs = [big('a', 'a'), big('b', 'é'), big('c', 'ü東'), doc('small'), big('d', 'd'), big('e', '😀')];
  const snapshot = snapshotOf({ 'data/a.jsonl': docs });
  const bytes = serializeSnapshot(snapshot);
  assert.ok(bytes.length > 6 << 20, `the snapshot spans more than one 4 MiB chunk and 2 Mi-unit batch (${bytes.length} bytes)`);
  assert.deepEqual(parseSnapshot(bytes), snapshot);
});

test('any changed byte is refused: the content hash, or the trailer', () => {
  const snapshot = snapshotOf({ 'data/a.jsonl': [doc('x1', { meta: { k: 1 } }), doc('é2')], 'data/b.jsonl': [doc('x3')] });
  const bytes = serializeSnapshot(snapshot);
  assert.deepEqual(parseSnapshot(bytes), snapshot, 'the control');
  for (let at = 0; at < bytes.length; at++) {
    for (const flip of [0x01, 0x80]) {
      const changed = Buffer.from(bytes);
      changed[at]! ^= flip;
      assert.equal(parseSnapshot(changed), undefined, `byte ${at} ^ ${flip}`);
    }
  }
});

test('an edited document is caught by the content hash and logged, even where it breaks the layout', () => {
  const snapshot = snapshotOf({ 'data/a.jsonl': [doc('x1'), doc('x2')] });
  const bytes = serializeSnapshot(snapshot);
  const title = Buffer.from('Title of x2', 'latin1');
  const at = bytes.indexOf(title);
  assert.ok(at > 0);
  const edited = Buffer.from(bytes);
  edited.write('Tidle', at, 'latin1');
  const log: string[] = [];
  assert.equal(
    parseSnapshot(edited, (m) => log.push(m)),
    undefined,
  );
  assert.match(log.join('\n'), /corpus snapshot not reused: its content hash does not match/);
  // a section length changed: the sections no longer parse, the rest is still hashed and the message is the same
  const lengthAt = bytes.indexOf(Buffer.from('{"settingsKey"', 'latin1')) - 4;
  const broken = Buffer.from(bytes);
  broken.writeUInt32LE(0xffffffff, lengthAt);
  log.length = 0;
  assert.equal(
    parseSnapshot(broken, (m) => log.push(m)),
    undefined,
  );
  assert.match(log.join('\n'), /its content hash does not match/);
});

test('a file cut short anywhere is refused without an exception; the log says so once the trailer is gone', () => {
  const bytes = serializeSnapshot(snapshotOf({ 'data/a.jsonl': [doc('x1'), doc('wide', { title: '東京' })] }));
  for (let n = 0; n < bytes.length; n++) assert.equal(parseSnapshot(bytes.subarray(0, n)), undefined, `cut to ${n} bytes`);
  const log: string[] = [];
  assert.equal(
    parseSnapshot(bytes.subarray(0, bytes.length - 1), (m) => log.push(m)),
    undefined,
  );
  assert.match(log.join('\n'), /cut short/);
  // bytes after the trailer: the trailer is no longer last
  assert.equal(parseSnapshot(Buffer.concat([bytes, Buffer.from('\n')])), undefined, 'bytes appended');
});

test('the hash in the trailer is the sha256 of every byte before it, as written', () => {
  const bytes = serializeSnapshot(snapshotOf({ 'data/a.jsonl': [doc('x1')] }));
  const trailer = bytes.subarray(bytes.length - 48);
  assert.equal(trailer.subarray(0, 8).toString('latin1'), 'RLSNPEND');
  assert.equal(trailer.readUInt32LE(8), 1, 'the number of files');
  assert.equal(trailer.readUInt32LE(12), 0);
  assert.equal(
    trailer.subarray(16).toString('hex'),
    createHash('sha256')
      .update(bytes.subarray(0, bytes.length - 48))
      .digest('hex'),
  );
  assert.equal(bytes.subarray(0, 26).toString('latin1'), 'ranklab-corpus-snapshot@3\n');
});

test('the file is written atomically and read back; older formats (JSON Lines @2, single JSON) are not used, silently', () => {
  const dir = copyFixture('mixed');
  try {
    const first = loadCorpus(dir, mixedSettings);
    const path = join(dir, 'state', 'corpus-snapshot.json');
    writeSnapshotFile(path, first.snapshot);
    assert.deepEqual(readFileSync(path), serializeSnapshot(first.snapshot));
    assert.deepEqual(readSnapshotFile(path), first.snapshot);

    // a valid JSON Lines snapshot of the format before (its hash right), and the single-JSON ones before that
    const [rel, entry] = [...first.snapshot.files][0]!;
    const lines = [
      JSON.stringify({ format: 'ranklab-corpus-snapshot@2', settingsKey: first.snapshot.settingsKey }),
      JSON.stringify({ path: rel, mtimeMs: entry.mtimeMs, size: entry.size, diagnostics: [], fieldsSeen: [], docs: entry.docs.length }),
      ...entry.docs.map((d) => JSON.stringify(d)),
    ];
    const content = lines.map((l) => `${l}\n`).join('');
    const v2 = `${content}${JSON.stringify({ end: 1, sha256: createHash('sha256').update(content).digest('hex') })}\n`;
    const v1 = JSON.stringify({
      format: 'ranklab-corpus-snapshot',
      settingsKey: first.snapshot.settingsKey,
      files: Object.fromEntries(first.snapshot.files),
    });
    for (const text of [v2, v1, sealJson(v1), '']) {
      writeFileSync(path, text);
      const log: string[] = [];
      assert.equal(
        readSnapshotFile(path, (m) => log.push(m)),
        undefined,
      );
      assert.deepEqual(log, [], 'an older format is not a problem to report: the corpus is read again');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the mixed fixture through a file: every reader's documents back exactly", () => {
  const state = tempDir();
  const { snapshot } = loadCorpus(join(FIXTURES, 'mixed'), mixedSettings);
  const path = join(state, 'corpus-snapshot');
  writeSnapshotFile(path, snapshot);
  const back = readSnapshotFile(path)!;
  assert.deepEqual(back, snapshot);
  assert.deepEqual(loadCorpus(join(FIXTURES, 'mixed'), mixedSettings, back).reread, [], 'every file from the snapshot');
});
