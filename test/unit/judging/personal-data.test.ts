import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { BUILT_IN_PII, findPersonalData, ibanValid, loadPiiPatterns, luhnValid } from '../../../src/core/judging/personal-data';
import { createRng } from '../../../src/core/util/random';
import { germanIban, luhnCard } from '../../helpers/query-logs';

// Ordinary text: words of letters (any script, accents), punctuation, and numbers of at most 4 digits, never two
// numbers side by side (a run of numbers reads as a phone or account number, by design).
const word = fc.stringMatching(/^[a-zà-ÿα-ω]{1,12}$/);
const small = fc.integer({ min: 0, max: 9999 }).map(String);
const ordinary = fc
  .array(fc.tuple(word, fc.option(small, { nil: undefined }), fc.constantFrom(' ', ', ', ' - ', '? ')), { minLength: 1, maxLength: 8 })
  .map((parts) =>
    parts
      .map(([w, n, sep]) => (n === undefined ? w : `${w} ${n}`) + sep)
      .join('')
      .trim(),
  );

const seeded = fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((s) => createRng(s));
const planted: Record<string, fc.Arbitrary<string>> = {
  email: fc
    .tuple(
      fc.stringMatching(/^[a-z][a-z0-9._+-]{0,15}$/),
      fc.stringMatching(/^[a-z0-9]{1,10}$/),
      fc.constantFrom('com', 'org', 'de', 'co.uk'),
    )
    .map(([u, d, t]) => `${u}@${d}.${t}`),
  card: fc
    .tuple(seeded, fc.integer({ min: 13, max: 19 }), fc.constantFrom('', ' ', '-'))
    .map(([rng, n, sep]) => luhnCard(rng, n).replace(/(\d{4})(?=\d)/g, `$1${sep}`)),
  iban: fc.tuple(seeded, fc.boolean()).map(([rng, spaced]) => (spaced ? germanIban(rng).replace(/(.{4})(?=.)/g, '$1 ') : germanIban(rng))),
  ssn: fc
    .tuple(fc.integer({ min: 100, max: 999 }), fc.integer({ min: 10, max: 99 }), fc.integer({ min: 1000, max: 9999 }))
    .map(([a, b, c]) => `${a}-${b}-${c}`),
  nino: fc
    .tuple(fc.constantFrom('AB', 'ce', 'JK', 'wx'), fc.integer({ min: 100000, max: 999999 }), fc.constantFrom('A', 'b', 'C', 'd'))
    .map(([p, n, s]) => `${p}${n}${s}`),
  phone: fc.oneof(
    fc
      .tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 100000000, max: 9999999999 }))
      .map(([cc, n]) => `+${cc} ${String(n).replace(/(\d{3})(?=\d)/g, '$1 ')}`),
    fc.integer({ min: 2000000000, max: 9999999999 }).map((n) => String(n).replace(/^(\d{3})(\d{3})/, '($1) $2-')),
  ),
  account: fc.integer({ min: 100000000, max: Number.MAX_SAFE_INTEGER }).map(String),
};

test('ordinary text is kept', () => {
  fc.assert(
    fc.property(ordinary, (text) => findPersonalData(text) === undefined),
    { numRuns: 2000 },
  );
});

for (const [kind, item] of Object.entries(planted)) {
  test(`no planted ${kind} survives, wherever it sits in ordinary text`, () => {
    fc.assert(
      fc.property(ordinary, item, ordinary, (before, x, after) => findPersonalData(`${before} ${x} ${after}`) !== undefined),
      { numRuns: 500 },
    );
    // Alone, glued to punctuation, in upper case (the log's own spelling).
    fc.assert(
      fc.property(item, (x) => findPersonalData(`(${x})`) !== undefined && findPersonalData(x.toUpperCase()) !== undefined),
      { numRuns: 200 },
    );
  });
}

test('each kind is named: the report counts removals by kind', () => {
  assert.equal(findPersonalData('write to ana@example.org today'), 'email');
  assert.equal(findPersonalData('4111 1111 1111 1111 refund'), 'card');
  assert.equal(findPersonalData('GB82 WEST 1234 5698 7654 32'), 'iban');
  assert.equal(findPersonalData('ssn 078-05-1120'), 'national-id');
  assert.equal(findPersonalData('call +1 415 555 2671'), 'phone');
  assert.equal(findPersonalData('customer 123456789'), 'account');
});

test('checksums: a card failing Luhn is not a card, an IBAN failing mod 97 is not an IBAN', () => {
  assert.equal(luhnValid('4111111111111111'), true);
  assert.equal(luhnValid('4111111111111112'), false);
  assert.equal(ibanValid('GB82WEST12345698765432'), true);
  assert.equal(ibanValid('GB83WEST12345698765432'), false);
  // 16 digits failing Luhn are still a long digit run: removed, as a phone or account number, never kept.
  assert.notEqual(findPersonalData('4111111111111112'), undefined);
  assert.notEqual(findPersonalData('4111111111111112'), 'card');
});

test('a patterns file adds kinds; a bad pattern is exit 2 at its line and key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-pii-'));
  const good = join(dir, 'pii.json');
  writeFileSync(good, '{\n  "employee-id": "EMP-\\\\d{6}"\n}\n');
  const extra = loadPiiPatterns(good);
  assert.equal(findPersonalData('badge emp-123456 lost', [...BUILT_IN_PII, ...extra]), 'employee-id');
  assert.equal(findPersonalData('badge emp-123456 lost'), undefined);
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{\n  "ok": "abc",\n  "broken": "(unclosed"\n}\n');
  assert.throws(
    () => loadPiiPatterns(bad),
    (e: Error & { line?: number; key?: string }) => e.line === 3 && e.key === 'broken' && /regular expression/.test(e.message),
  );
  const empty = join(dir, 'empty.json');
  writeFileSync(empty, '{"anything": "x*"}');
  assert.throws(() => loadPiiPatterns(empty), /empty string/);
});
