// ByteReader: pieces of any size taken across chunk boundaries (pieces larger than a chunk included), every byte
// handed to onRead exactly once and in order, nothing taken past the end.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ByteReader, bufferSource, withFileSource } from '../../../src/core/util/byte-reader';
import { tempDir } from '../../helpers/workspace';

const bytes = Buffer.from(Array.from({ length: 1000 }, (_, k) => (k * 7 + 3) % 256));

for (const chunk of [1, 3, 64, 4096]) {
  test(`pieces of 0..40 bytes over chunks of ${chunk}: the bytes in order, each read once`, () => {
    const seen: Buffer[] = [];
    const reader = new ByteReader(bufferSource(bytes), 10, 990, (b) => seen.push(Buffer.from(b)), chunk);
    const taken: Buffer[] = [];
    for (let n = 0; reader.remaining > 0; n = (n + 13) % 41) {
      const piece = reader.take(Math.min(n, reader.remaining));
      assert.ok(piece);
      taken.push(Buffer.from(piece));
    }
    assert.deepEqual(Buffer.concat(taken), bytes.subarray(10, 990));
    assert.deepEqual(Buffer.concat(seen), bytes.subarray(10, 990));
    assert.equal(reader.take(1), undefined, 'nothing past the end');
  });
}

test('take past the end gives undefined and takes nothing; drain reads the rest for onRead', () => {
  let read = 0;
  const reader = new ByteReader(bufferSource(bytes), 0, 100, (b) => (read += b.length), 16);
  assert.deepEqual(reader.take(5), bytes.subarray(0, 5));
  assert.equal(reader.take(96), undefined);
  assert.equal(reader.remaining, 95);
  assert.deepEqual(reader.take(95), bytes.subarray(5, 100));
  const other = new ByteReader(bufferSource(bytes), 0, 1000, (b) => (read += b.length), 16);
  other.take(3);
  read = 0;
  other.drain();
  assert.equal(read, 1000 - 16, 'the first chunk was read by take');
});

test('a file source reads the same bytes', () => {
  const path = join(tempDir(), 'bytes');
  writeFileSync(path, bytes);
  const got = withFileSource(path, (source) => {
    assert.equal(source.size, 1000);
    return Buffer.from(new ByteReader(source, 0, 1000, undefined, 7).take(1000)!);
  });
  assert.deepEqual(got, bytes);
});
