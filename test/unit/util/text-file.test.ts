import { test } from 'node:test';
import assert from 'node:assert/strict';
import { invalidUtf8At, invalidUtf8Lines } from '../../../src/core/util/text-file';
import { createRng } from '../../../src/core/util/random';

const fatal = new TextDecoder('utf-8', { fatal: true });
const isUtf8ByDecoder = (b: Uint8Array): boolean => {
  try {
    fatal.decode(b);
    return true;
  } catch {
    return false;
  }
};

test('invalidUtf8At agrees with a fatal TextDecoder on edge sequences and on random bytes', () => {
  const cases = [
    [0x63, 0x61, 0x66, 0xe9], // Latin-1 é
    [0xc3, 0xa9], // UTF-8 é
    [0xc0, 0xaf], // overlong
    [0xe0, 0x80, 0xaf], // overlong, 3 bytes
    [0xed, 0xa0, 0x80], // a surrogate
    [0xef, 0xbf, 0xbd], // U+FFFD itself
    [0xf0, 0x9f, 0x98, 0x80], // U+1F600
    [0xf4, 0x90, 0x80, 0x80], // above U+10FFFF
    [0xf0, 0x9f, 0x98], // cut short
    [0x80],
  ];
  const next = createRng(7);
  for (let k = 0; k < 2000; k++) {
    const len = 1 + Math.floor(next() * 6);
    // Mostly high bytes, so that valid multi-byte sequences occur too.
    cases.push(Array.from({ length: len }, () => (next() < 0.2 ? 0x41 : 0x80 + Math.floor(next() * 0x80))));
  }
  for (const c of cases) {
    const b = Uint8Array.from(c);
    assert.equal(invalidUtf8At(b) < 0, isUtf8ByDecoder(b), `bytes ${Buffer.from(b).toString('hex')}`);
  }
});

test('invalidUtf8Lines names the lines as splitLines numbers them, with the first bad byte', () => {
  const lf = Buffer.concat([
    Buffer.from('q1 0 ok 1\nq1 0 caf'),
    Buffer.from([0xe9]),
    Buffer.from(' 1\n\nq2 0 '),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('\n'),
  ]);
  assert.deepEqual(invalidUtf8Lines(lf), [
    { line: 2, column: 9, byte: 0xe9 },
    { line: 4, column: 6, byte: 0xff },
  ]);
  const cr = Buffer.concat([Buffer.from('a\rb'), Buffer.from([0xe8]), Buffer.from('\r')]); // old Mac line ends
  assert.deepEqual(invalidUtf8Lines(cr), [{ line: 2, column: 2, byte: 0xe8 }]);
  assert.deepEqual(invalidUtf8Lines(Buffer.from('caf\u00e9 \uFFFD\n')), []);
});
