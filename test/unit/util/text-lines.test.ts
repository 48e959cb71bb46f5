import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { createHash } from 'node:crypto';
import { decodeText, invalidUtf8Lines, splitLines } from '../../../src/core/util/text-file';
import { fileLines } from '../../../src/core/util/text-lines';

const dir = mkdtempSync(join(tmpdir(), 'ranklab-lines-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let k = 0;
function linesOf(content: Buffer | string, chunkBytes: number): string[] {
  const path = join(dir, `f${k++}.txt`);
  writeFileSync(path, content);
  return [...fileLines(path, chunkBytes)].map((l, i) => {
    assert.equal(l.line, i + 1, 'lines are numbered from 1 without gaps');
    return l.text;
  });
}

/** Every chunk size from 1 byte to past the whole file: each cuts the content at different places. */
function allChunkings(content: Buffer | string): string[][] {
  const n = Buffer.byteLength(content);
  return Array.from({ length: n + 1 }, (_, c) => linesOf(content, c + 1));
}

test('a line cut between chunks is joined, whatever the chunk size', () => {
  for (const got of allChunkings('{"id":"a"}\n{"id":"bb"}\n\n{"id":"ccc"}\n'))
    assert.deepEqual(got, ['{"id":"a"}', '{"id":"bb"}', '', '{"id":"ccc"}']);
});

test('a multi-byte UTF-8 character cut between chunks is decoded whole', () => {
  // é is 2 bytes, € 3, 😀 4 (a surrogate pair in the string)
  for (const got of allChunkings('é€😀\nx😀y\n')) assert.deepEqual(got, ['é€😀', 'x😀y']);
});

test('CRLF cut between CR and LF is one line end, not two', () => {
  for (const got of allChunkings('ab\r\ncd\r\n\r\nef')) assert.deepEqual(got, ['ab', 'cd', '', 'ef']);
});

test('a final line without newline is kept; a final newline adds no line', () => {
  for (const got of allChunkings('one\ntwo')) assert.deepEqual(got, ['one', 'two']);
  for (const got of allChunkings('one\ntwo\n')) assert.deepEqual(got, ['one', 'two']);
  for (const got of allChunkings('only')) assert.deepEqual(got, ['only']);
  assert.deepEqual(linesOf('', 4), []);
});

test('a UTF-8 BOM is stripped, even when the chunk is smaller than the BOM', () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  for (const got of allChunkings(Buffer.concat([bom, Buffer.from('a\nb\n')]))) assert.deepEqual(got, ['a', 'b']);
});

test('lone CR line ends (old Mac files) are line ends', () => {
  for (const got of allChunkings('a\rb\r\rc\r')) assert.deepEqual(got, ['a', 'b', '', 'c']);
});

test('the same lines as splitLines(decodeText(file)) on mixed content, for several chunk sizes', () => {
  const content = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('{"t":"naïve café"}\r\n  \n{"t":"日本語"}\n{"t":"x\\ny"}\r\n{"bad"\n{"t":"😀"}'),
  ]);
  const whole = splitLines(decodeText(content)).map((l) => l.text);
  for (const chunk of [1, 2, 3, 5, 7, 16, 64, 4096]) assert.deepEqual(linesOf(content, chunk), whole, `chunk ${chunk}`);
});

test('a line whose bytes are not UTF-8 is named with its first bad byte, as invalidUtf8Lines names it, at every chunk cut', () => {
  // Latin-1 "café" (0xE9), a lone continuation byte, a 3-byte character cut short by the line end, good lines between
  const content = Buffer.concat([
    Buffer.from('q1 0 caf'),
    Buffer.from([0xe9]),
    Buffer.from(' 1\nq2 0 ok€ 1\r\nq3 0 x'),
    Buffer.from([0x80]),
    Buffer.from('y 2\nq4 0 '),
    Buffer.from([0xe2, 0x82]),
    Buffer.from('\nlast é'),
  ]);
  const expected = invalidUtf8Lines(content).map(({ line, column, byte }) => ({ line, column, byte }));
  assert.equal(expected.length, 3, 'the fixture has three bad lines');
  for (let chunk = 1; chunk <= content.length + 1; chunk++) {
    const path = join(dir, `bad${k++}.txt`);
    writeFileSync(path, content);
    const lines = [...fileLines(path, chunk)];
    assert.deepEqual(
      lines.filter((l) => l.invalidUtf8).map((l) => ({ line: l.line, ...l.invalidUtf8 })),
      expected,
      `chunk ${chunk}`,
    );
    assert.deepEqual(
      lines.map((l) => l.text),
      splitLines(decodeText(content)).map((l) => l.text),
      `chunk ${chunk}: texts as decodeText gives them`,
    );
  }
});

test('a hash given to fileLines sees every byte of the file, as read', () => {
  const content = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a\r\nb\n'), Buffer.from([0xe9]), Buffer.from('\nc')]);
  for (const chunk of [1, 3, 4096]) {
    const path = join(dir, `h${k++}.txt`);
    writeFileSync(path, content);
    const hash = createHash('sha256');
    for (const _ of fileLines(path, chunk, hash));
    assert.equal(hash.digest('hex'), createHash('sha256').update(content).digest('hex'), `chunk ${chunk}`);
  }
});
