// parseCNumber against C's own strtod (glibc, C locale), which trec_eval's atof calls: a small C program is
// compiled here and fed the same strings. Skipped (with a note) where no C compiler is installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseCNumber } from '../../../src/core/run/c-number';

test('hand cases: decimal, hexadecimal, inf and nan as strtod reads them, and the prefix it stops at', () => {
  const cases: Array<[string, number, number]> = [
    ['12', 12, 2],
    ['-1.5', -1.5, 4],
    ['+.5', 0.5, 3],
    ['5.', 5, 2],
    ['1e-3', 0.001, 4],
    ['1E+2', 100, 4],
    ['0x10', 16, 4],
    ['-0x10', -16, 5],
    ['0x1.8p1', 3, 7],
    ['0X.8', 0.5, 4],
    ['0x1p-2', 0.25, 6],
    ['0b11', 0, 1],
    ['0o7', 0, 1],
    ['0x', 0, 1],
    ['0xg', 0, 1],
    ['1e', 1, 1],
    ['1e+', 1, 1],
    ['1.5.2', 1.5, 3],
    ['12abc', 12, 2],
    ['inf', Infinity, 3],
    ['-Infinity', -Infinity, 9],
    ['INFx', Infinity, 3],
    ['x', 0, 0],
    ['', 0, 0],
    ['-', 0, 0],
    ['.', 0, 0],
    ['e5', 0, 0],
    ['1e999', Infinity, 5],
    ['1e-999', 0, 6],
  ];
  for (const [text, value, length] of cases) assert.deepEqual(parseCNumber(text), { value, length }, text);
  assert.deepEqual(parseCNumber('nan'), { value: NaN, length: 3 });
  assert.deepEqual(parseCNumber('NaN(12_a)x'), { value: NaN, length: 9 });
  assert.deepEqual(parseCNumber('nan(1-2)'), { value: NaN, length: 3 });
  assert.ok(Object.is(parseCNumber('-0').value, -0));
});

const C_SOURCE = `
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <locale.h>
int main(void) {
  char line[4096];
  setlocale(LC_ALL, "C");
  while (fgets(line, sizeof line, stdin)) {
    line[strcspn(line, "\\n")] = 0;
    char *end;
    double d = strtod(line, &end);
    unsigned long long bits;
    memcpy(&bits, &d, sizeof bits);
    printf("%ld %016llx\\n", (long)(end - line), bits);
  }
  return 0;
}
`;

function cStrtod(): ((inputs: string[]) => Array<{ length: number; bits: bigint }>) | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-strtod-'));
  writeFileSync(join(dir, 'strtod.c'), C_SOURCE);
  const cc = spawnSync('cc', ['-O1', '-o', join(dir, 'strtod'), join(dir, 'strtod.c')], { encoding: 'utf8' });
  if (cc.error || cc.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  return (inputs) => {
    const r = spawnSync(join(dir, 'strtod'), { input: inputs.join('\n') + '\n', encoding: 'utf8' });
    return r.stdout
      .trim()
      .split('\n')
      .map((l) => {
        const [length, bits] = l.split(' ');
        return { length: Number(length), bits: BigInt(`0x${bits}`) };
      });
  };
}

function bitsOf(x: number): bigint {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0);
}

test('random number-like strings: same value (bit for bit) and same consumed length as glibc strtod', (t) => {
  const strtod = cStrtod();
  if (!strtod) return t.skip('no C compiler (cc) here');
  const digits = (alphabet: string, max: number) => fc.string({ unit: fc.constantFrom(...alphabet.split('')), maxLength: max });
  const sign = fc.constantFrom('', '+', '-');
  const decimal = fc
    .tuple(
      sign,
      digits('0123456789', 20),
      fc.constantFrom('', '.'),
      digits('0123456789', 20),
      fc.constantFrom('', 'e', 'E', 'e-', 'e+'),
      digits('0123456789', 4),
      fc.constantFrom('', 'x', ' ', 'e'),
    )
    .map((p) => p.join(''));
  const hex = fc
    .tuple(
      sign,
      fc.constantFrom('0x', '0X'),
      digits('0123456789abcdefABCDEF', 13),
      fc.constantFrom('', '.'),
      digits('0123456789abcdef', 6),
      fc.constantFrom('', 'p', 'P', 'p-', 'p+'),
      digits('0123456789', 3),
      fc.constantFrom('', 'g', 'p'),
    )
    .map((p) => p.join(''));
  const words = fc
    .tuple(
      sign,
      fc.constantFrom('inf', 'INF', 'Infinity', 'infinit', 'nan', 'NaN', 'nan(abc_1)', 'nan(', 'in', 'na', '0b1', '0o7', '.', 'e1'),
    )
    .map((p) => p.join(''));
  const junk = digits('0123456789.eExXpP+-abcfinINFty()_ ', 12);
  const samples = fc.sample(fc.oneof(decimal, hex, words, junk), { numRuns: 4000, seed: 42 }).map((s) => s.replace(/^\s+/, '')); // fields never start with blanks (strtod would skip them)
  const expected = strtod(samples);
  assert.equal(expected.length, samples.length);
  samples.forEach((text, i) => {
    const ours = parseCNumber(text);
    assert.equal(ours.length, expected[i].length, `length for "${text}"`);
    if (Number.isNaN(ours.value))
      assert.ok(Number.isNaN(new DataView(new BigUint64Array([expected[i].bits]).buffer).getFloat64(0, true)), `NaN for "${text}"`);
    else assert.equal(bitsOf(ours.value), expected[i].bits, `value for "${text}": ${ours.value}`);
  });
});
