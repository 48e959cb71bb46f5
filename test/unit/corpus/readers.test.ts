import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Document } from '../../../src/core/corpus/document';
import { diffCorpus } from '../../../src/core/corpus/diff';
import { binaryReason } from '../../../src/core/util/text-file';
import { hashDocument } from '../../../src/core/corpus/make-document';
import { MAX_WHOLE_FILE_BYTES, readCorpusFile } from '../../../src/core/corpus/read-file';
import { readHtml } from '../../../src/core/corpus/readers/html';
import { firstHeading, readMarkdown } from '../../../src/core/corpus/readers/markdown';
import { readJsonl, readJsonRecords } from '../../../src/core/corpus/readers/records';
import { readText } from '../../../src/core/corpus/readers/text';
import { corpusSettings } from '../../../src/core/corpus/settings';
import { FIXTURES, mixedSettings } from './helpers';

const fixture = (p: string) => readFileSync(join(FIXTURES, 'mixed', p), 'utf8');
const ctx = (path: string, settings = mixedSettings) => ({ path, settings });

test('markdown: front matter gives id, title, text field, ACL and meta; body has no front matter', () => {
  const { docs, diagnostics } = readMarkdown(fixture('corpus/articles/coffee-brewing.md'), ctx('corpus/articles/coffee-brewing.md'));
  assert.deepEqual(diagnostics, []);
  const [d] = docs;
  assert.equal(d.id, 'coffee-brewing');
  assert.equal(d.title, 'How to Brew Pour-Over Coffee');
  assert.deepEqual(d.fields, { summary: 'A step-by-step pour-over recipe with a 1:16 ratio.' });
  assert.deepEqual(d.meta, {
    tags: ['coffee', 'brewing', 'guide'],
    tenant: 'acme',
    groups: ['baristas', 'sales'],
    public: false,
    published: '2024-03-01T00:00:00.000Z',
    lang: 'en',
  });
  assert.ok(d.body.startsWith('# Pour-over basics\n'));
  assert.ok(d.body.includes('Use a gooseneck kettle.'));
  assert.ok(!d.body.includes('tenant_id') && !d.body.includes('---'));
});

test('markdown: without front matter the first level-1 heading outside code is the title, id is the path', () => {
  const { docs } = readMarkdown(fixture('corpus/articles/grinders.md'), ctx('corpus/articles/grinders.md'));
  assert.equal(docs[0].id, 'corpus/articles/grinders.md');
  assert.equal(docs[0].title, 'Choosing a Burr Grinder');
  assert.equal(firstHeading('Intro\n=====\n\n# Later'), 'Intro');
  assert.equal(firstHeading('## Only level two\ntext'), '');
  assert.equal(firstHeading('#hashtag is not a heading\n# Real #'), 'Real');
});

test('markdown: bad ACL values are errors at their front-matter line and mark the document invalid (visible to nobody)', () => {
  const { docs, diagnostics } = readMarkdown(fixture('corpus/articles/bad-acl.md'), ctx('corpus/articles/bad-acl.md'));
  assert.equal(docs.length, 1);
  assert.deepEqual(docs[0].meta, {});
  assert.deepEqual(docs[0].invalidAcl, ['tenant_id', 'acl_groups', 'public']);
  assert.deepEqual(
    diagnostics.map((d) => [d.line, d.severity]),
    [
      [3, 'error'],
      [4, 'error'],
      [5, 'error'],
    ],
  );
  assert.match(diagnostics[0].message, /tenant field "tenant_id"/);
  assert.match(diagnostics[2].message, /"maybe"/);
  for (const d of diagnostics) assert.match(d.message, /visible to nobody/);
});

test('markdown: front matter that is not a mapping hides the document (its access fields cannot be read)', () => {
  const { docs, diagnostics } = readMarkdown('---\n- tenant: acme\n---\n# Pay\nSalary bands.', ctx('x.md'));
  assert.deepEqual(docs[0].invalidAcl, ['front matter']);
  assert.equal(diagnostics[0].severity, 'error');
  assert.match(diagnostics[0].message, /not a key\/value mapping.*visible to nobody/);
});

test('markdown: invalid YAML front matter is an error at its line and the file is skipped', () => {
  const text = '---\ntitle: Ok\nbad: : :\n---\nbody';
  const { docs, diagnostics } = readMarkdown(text, ctx('x.md'));
  assert.equal(docs.length, 0);
  assert.equal(diagnostics.length, 1);
  assert.equal(diagnostics[0].severity, 'error');
  assert.equal(diagnostics[0].line, 3);
  assert.match(diagnostics[0].message, /invalid front matter/);
});

test('text: first non-empty line is the title, the whole text the body', () => {
  const { docs } = readText(fixture('corpus/notes/cold-brew.txt'), ctx('corpus/notes/cold-brew.txt'));
  assert.equal(docs[0].title, 'Cold Brew Notes');
  assert.equal(docs[0].body, 'Cold Brew Notes\nSteep coarse grounds for 16 hours in cold water.\nFilter twice.');
  assert.equal(readText('  \n\n', ctx('empty.txt')).docs.length, 0);
  assert.match(readText('  \n\n', ctx('empty.txt')).diagnostics[0].message, /no text/);
});

test('html: visible text only, no script/style text, no attribute values; title from <title>; meta tags as ACL', () => {
  const { docs, diagnostics } = readHtml(fixture('corpus/pages/espresso.html'), ctx('corpus/pages/espresso.html'));
  assert.deepEqual(diagnostics, []);
  const [d] = docs;
  assert.equal(d.title, 'Espresso & Crema Guide');
  for (const visible of ['Pulling a Shot', 'Dose 18 g, yield 36 g in about 28 seconds.', 'extraction chart'])
    assert.ok(d.body.includes(visible), visible);
  for (const hidden of [
    'alert',
    'SCRIPT-SECRET',
    'ONERROR-SECRET',
    'ALT-SECRET',
    'HREF-SECRET',
    'font-family',
    'shot.png',
    'Espresso & Crema',
  ]) {
    assert.ok(!d.body.includes(hidden), `body leaks ${hidden}: ${d.body}`);
  }
  assert.equal(d.meta.tenant, 'globex');
  assert.deepEqual(d.meta.groups, ['baristas']);
  const h1Only = readHtml('<body><h1>Only &lt;h1&gt;</h1><script>alert(1)</script><p>x</p></body>', ctx('a.html')).docs[0];
  assert.equal(h1Only.title, 'Only <h1>');
  assert.ok(!h1Only.body.includes('alert(1)'));
});

test('jsonl: fields mapped by settings, ACL normalised, vector kept, bad lines reported by number', () => {
  const { docs, diagnostics } = readJsonl(fixture('corpus/data/products.jsonl'), ctx('corpus/data/products.jsonl'));
  assert.deepEqual(
    docs.map((d) => d.id),
    ['p-100', 'p-101', 'p-104'],
  );
  const [p100, p101, p104] = docs;
  assert.equal(p100.title, 'Ethiopia Yirgacheffe');
  assert.equal(p100.body, 'Floral, bergamot, light roast.');
  assert.deepEqual(p100.vector, [0.1, 0.2, 0.3]);
  assert.deepEqual(p100.meta, { tenant: 'acme', groups: ['sales', 'baristas'], public: true, price: 14.5 });
  assert.deepEqual(p101.meta, { tenant: '7', groups: ['sales'], public: true });
  assert.equal(p104.vector, undefined);
  assert.deepEqual(p104.source, { path: 'corpus/data/products.jsonl', line: 7 });
  assert.deepEqual(
    diagnostics.map((d) => d.line),
    [3, 5, 6, 7, 8],
  );
  assert.match(diagnostics[1].message, /no id/);
  assert.match(diagnostics[2].message, /"p-103" has no text/);
  assert.match(diagnostics[3].message, /vector/);
});

test('jsonl streamed in tiny chunks (BOM, CRLF, multi-byte text) gives what the whole-text reader gives', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-stream-'));
  try {
    const src = fixture('corpus/data/products.jsonl').replace(/\n/g, '\r\n').replace('Ethiopia', 'Éthiopie ☕ 😀');
    const path = join(dir, 'products.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(src)]));
    const whole = readJsonl(src, ctx('corpus/data/products.jsonl'));
    for (const chunk of [1, 3, 7, 64]) {
      const r = readCorpusFile(path, 'corpus/data/products.jsonl', statSync(path).size, mixedSettings, chunk);
      assert.deepEqual(r.docs, whole.docs, `chunk ${chunk}`);
      assert.deepEqual(r.diagnostics, whole.diagnostics, `chunk ${chunk}`);
    }
    assert.equal(whole.docs[0].title, 'Éthiopie ☕ 😀 Yirgacheffe');
    assert.deepEqual(
      whole.diagnostics.map((d) => d.line),
      [3, 5, 6, 7, 8],
    );
    writeFileSync(path, '\n  \n');
    assert.match(readCorpusFile(path, 'e.jsonl', 4, mixedSettings, 2).diagnostics[0].message, /file is empty/);
    writeFileSync(path, Buffer.from([0x7b, 0x00, 0x7d]));
    assert.match(readCorpusFile(path, 'b.jsonl', 3, mixedSettings).diagnostics[0].message, /NUL bytes; looks binary/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a JSON array file too large for one string is skipped with advice to use JSON Lines', () => {
  const big = MAX_WHOLE_FILE_BYTES + 1; // the size is the caller's stat: no such file needs to exist
  const r = readCorpusFile('/nonexistent/ranklab/all.json', 'all.json', big, corpusSettings({ maxRecordFileBytes: 2 * big }));
  assert.equal(r.diagnostics[0].file, 'all.json');
  assert.match(r.diagnostics[0].message, /too large to read as one JSON value.*JSON Lines \(\.jsonl\)/);
});

test('json: array or {documents}, record lines located; syntax errors give the line', () => {
  const defaults = corpusSettings();
  const arr = readJsonRecords('[\n  {"id": "a", "text": "one"},\n\n  {"id": 2,\n   "body": "two"}\n]', ctx('r.json', defaults));
  assert.deepEqual(
    arr.docs.map((d) => [d.id, d.body, d.source.line]),
    [
      ['a', 'one', 2],
      ['2', 'two', 4],
    ],
  );
  const wrapped = readJsonRecords('{"documents": [{"_id": "x", "content": "c", "title": "T"}]}', ctx('w.json', defaults));
  assert.deepEqual(
    wrapped.docs.map((d) => [d.id, d.title, d.body]),
    [['x', 'T', 'c']],
  );
  const broken = readJsonRecords('[\n {"id": "a", "text": "one"}\n {"id": "b"}\n]', ctx('b.json', defaults));
  assert.equal(broken.docs.length, 0);
  assert.deepEqual(
    broken.diagnostics.map((d) => [d.line, d.severity]),
    [[3, 'error']],
  );
  const notRecords = readJsonRecords('{"items": []}', ctx('n.json', defaults));
  assert.match(notRecords.diagnostics[0].message, /array of records/);
});

test('unreadable file is an error naming the file', () => {
  const r = readCorpusFile('/nonexistent/ranklab/x.md', 'x.md', 10, corpusSettings());
  assert.equal(r.readable, false);
  assert.equal(r.diagnostics[0].file, 'x.md');
  assert.match(r.diagnostics[0].message, /cannot read file: ENOENT/);
});

test('binary detection: NUL byte, mostly invalid UTF-8; real UTF-8 and a few stray bytes pass', () => {
  assert.match(binaryReason(Buffer.from([0x41, 0x00, 0x42]))!, /NUL/);
  assert.match(binaryReason(Buffer.from('caf\xe9 cr\xe8me br\xfbl\xe9e \xe0 la fran\xe7aise', 'latin1'))!, /not UTF-8/);
  assert.equal(binaryReason(Buffer.from('café crème brûlée, 咖啡, ☕ and \uFFFD literal', 'utf8')), undefined);
  const mostlyText = Buffer.concat([Buffer.from('a'.repeat(200)), Buffer.from([0xff])]);
  assert.equal(binaryReason(mostlyText), undefined);
  // A multi-byte character cut by the 8 KB sample boundary is not counted as invalid.
  const cut = Buffer.from('a'.repeat(8191) + 'é' + 'b'.repeat(10));
  assert.equal(binaryReason(cut), undefined);
});

test('document hash covers id, title, body, fields, meta, vector but not the source path', () => {
  const base = { id: 'a', title: 't', body: 'b', fields: { s: 'x' }, meta: { k: 1, tags: ['x'] } };
  const h = hashDocument(base);
  assert.equal(hashDocument({ ...base, meta: { tags: ['x'], k: 1 } }), h, 'key order does not matter');
  for (const variant of [
    { ...base, id: 'b' },
    { ...base, title: 'T' },
    { ...base, body: 'B' },
    { ...base, fields: { s: 'y' } },
    { ...base, meta: { k: 2, tags: ['x'] } },
    { ...base, vector: [1, 2] },
  ]) {
    assert.notEqual(hashDocument(variant), h);
  }
});

test('diffCorpus: added, changed, removed by id and hash', () => {
  const doc = (id: string, hash: string): Document => ({ id, hash, title: '', body: id, fields: {}, meta: {}, source: { path: id } });
  const prev = [doc('a', 'h1'), doc('b', 'h2'), doc('c', 'h3')];
  const next = [doc('b', 'h2'), doc('c', 'h9'), doc('d', 'h4')];
  const diff = diffCorpus(prev, next);
  assert.deepEqual(
    diff.added.map((d) => d.id),
    ['d'],
  );
  assert.deepEqual(
    diff.changed.map((d) => d.id),
    ['c'],
  );
  assert.deepEqual(diff.removed, ['a']);
  assert.deepEqual(diffCorpus(prev, prev), { added: [], changed: [], removed: [] });
  assert.deepEqual(
    diffCorpus([], prev).added.map((d) => d.id),
    ['a', 'b', 'c'],
  );
  assert.deepEqual(diffCorpus(prev, []).removed, ['a', 'b', 'c']);
});
