// The reference ACL evaluator reads a JSON Lines corpus file line by line from disk (issue 32: one over V8's
// ~512 MB string limit was silently skipped, as "unreadable"); the records must be those of the whole text.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type RawRecord, readRawJsonlRecords, readRawRecords } from '../../../src/core/acl/reference-acl';
import { corpusSettings } from '../../../src/core/corpus/settings';
import { decodeText } from '../../../src/core/util/text-file';
import { fileLines } from '../../../src/core/util/text-lines';

const settings = corpusSettings({ aclFields: { tenant: 'tenant', groups: 'groups' } });
const plain = (rs: RawRecord[]) =>
  rs.map((r) => ({ id: r.id, line: r.line, tenant: r.value('tenant'), groups: r.value('groups'), invalid: r.invalid }));

test('streamed JSONL records (CRLF, BOM, a bad line, a bad access field) equal those of the whole text', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-ref-'));
  try {
    const path = join(dir, 'docs.jsonl');
    const lines = [
      '{"id":"a","tenant":"acme","groups":["x","y"],"text":"é"}',
      '',
      '{"id":"b","tenant":["not","a","string"],"text":"t"}',
      '{not json',
      '{"id":"c","public":true,"text":"t"}',
    ];
    writeFileSync(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n'))]));
    const whole = readRawRecords('docs.jsonl', decodeText(readFileSync(path)), settings);
    for (const chunk of [1, 5, 4096])
      assert.deepEqual(plain(readRawJsonlRecords('docs.jsonl', fileLines(path, chunk), settings)), plain(whole), `chunk ${chunk}`);
    assert.deepEqual(
      whole.map((r) => [r.id, r.line]),
      [
        ['a', 1],
        ['b', 3],
        ['c', 5],
      ],
    );
    assert.ok(whole[1].invalid.length > 0, 'a tenant that is a list is an invalid access field');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
