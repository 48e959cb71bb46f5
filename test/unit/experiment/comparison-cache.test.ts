import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  COMPARISON_CACHE_DIR,
  type ComparisonCacheKey,
  cacheEntry,
  fromPlain,
  pruneComparisonCache,
  readCacheEntry,
  readCachedComparison,
  toPlain,
  writeCacheEntry,
  writeCachedComparison,
} from '../../../src/core/experiment/comparison-cache';
import { sealGzip } from '../../../src/core/util/content-hash';
import { editEntry, entryText, writeUnsealedEntry } from '../../helpers/cache-entries';
import { tempDir } from '../../helpers/workspace';
import { RunIndex } from '../../../src/core/experiment/run-index';
import { isRunFile } from '../../../src/core/run/run-files';

const roundTrip = (v: unknown) => fromPlain(JSON.parse(JSON.stringify(toPlain(v))));

test('plain data survives JSON: Maps, Sets, undefined, NaN, ±Infinity, -0 and an object with the tag key', () => {
  const v = {
    m: new Map<unknown, unknown>([
      ['a', 1],
      [2, { x: undefined }],
      [NaN, [Infinity, -Infinity, -0, 0, null]],
    ]),
    s: new Set(['x', undefined]),
    u: undefined,
    arr: [undefined, NaN, { '\u0000': 'Map', y: 1 }],
    nested: { deep: { p: -0.5, q: 'Infinity', r: true } },
  };
  const back = roundTrip(v);
  assert.deepEqual(back, v);
  assert.ok('u' in (back as object), 'a key whose value is undefined is kept');
  assert.ok(Object.is((back as typeof v).arr.length, 3));
});

test('a key such as "__proto__" (a query or document id) round-trips as a key', () => {
  const v = JSON.parse('{"__proto__": {"ndcg@10": {"baseline": 1}}, "q2": {"constructor": 2}}') as Record<string, unknown>;
  const back = roundTrip(v) as Record<string, unknown>;
  assert.deepEqual(Object.keys(back), ['__proto__', 'q2']);
  assert.equal(Object.getPrototypeOf(back), Object.prototype, 'the prototype is not set from data');
  assert.deepEqual(Object.getOwnPropertyDescriptor(back, '__proto__')?.value, { 'ndcg@10': { baseline: 1 } });
  // A value revived into another object (a Map, NaN) under that key: still a key, the prototype untouched.
  const tagged = Object.fromEntries([
    ['__proto__', new Map([['q', NaN]])],
    ['x', NaN],
  ]);
  const again = roundTrip(tagged) as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(again), Object.prototype);
  assert.deepEqual(Object.getOwnPropertyDescriptor(again, '__proto__')?.value, new Map([['q', NaN]]));
  assert.deepEqual(again, tagged);
});

test('random nested values round-trip for many seeds', () => {
  for (let seed = 1; seed <= 30; seed++) {
    let s = seed;
    const rnd = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const leaves = [undefined, null, NaN, Infinity, -Infinity, -0, 0, 1.5, 'x', '', true, false];
    const gen = (depth: number): unknown => {
      const r = rnd();
      if (depth > 3 || r < 0.4) return leaves[Math.floor(rnd() * leaves.length)];
      const n = Math.floor(rnd() * 4);
      if (r < 0.55) return Array.from({ length: n }, () => gen(depth + 1));
      if (r < 0.7) return new Map(Array.from({ length: n }, (_, i) => [i % 2 ? `k${i}` : i, gen(depth + 1)]));
      return Object.fromEntries(Array.from({ length: n }, (_, i) => [i === 0 && rnd() < 0.3 ? '\u0000' : `k${i}`, gen(depth + 1)]));
    };
    const v = gen(0);
    assert.deepEqual(roundTrip(v), v, `seed ${seed}`);
  }
});

test('what is not plain data is refused, not stored wrongly', () => {
  assert.throws(() => toPlain({ d: new Date(0) }), /not plain data: Date/);
  assert.throws(() => toPlain({ f: () => 1 }), /not plain data/);
});

function key(b: string, c: string, extra?: unknown): ComparisonCacheKey {
  return {
    baseline: { id: b, name: `${b}.json.gz`, size: 1, mtimeMs: 1 },
    candidate: { id: c, name: `${c}.json.gz`, size: 2, mtimeMs: 2 },
    judgments: 'sha256:1',
    specs: [{ name: 'ndcg@10' }],
    options: { gain: 'exp' },
    gates: {},
    allowMixedPrincipals: false,
    extra,
  };
}

test('an entry is read back only under its own key; a foreign format reads as a miss', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ranklab-cc-'));
  assert.equal(readCachedComparison(dir, key('a', 'b')), undefined);
  assert.ok(writeCachedComparison(dir, key('a', 'b'), { x: new Map([['q', NaN]]) }));
  assert.deepEqual(readCachedComparison(dir, key('a', 'b')), { x: new Map([['q', NaN]]) });
  assert.equal(readCachedComparison(dir, key('a', 'b', 1)), undefined, 'another input');
  assert.equal(readCachedComparison(dir, key('b', 'a')), undefined, 'the pair the other way round');
  const [name] = readdirSync(path.join(dir, COMPARISON_CACHE_DIR));
  writeFileSync(
    path.join(dir, COMPARISON_CACHE_DIR, name),
    sealGzip(gzipSync(JSON.stringify({ format: 'ranklab-comparison-cache@0', key: name.slice(26, 58), value: 1 }))),
  );
  assert.equal(readCachedComparison(dir, key('a', 'b')), undefined, 'an older schema, sealed as this one is');
});

test('entries of removed runs go when the store is listed; at most `max` entries are kept, the newest', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ranklab-cc-'));
  writeFileSync(path.join(dir, 'a.json'), '{}'); // not a usable run: listed as a problem, but its file is there
  writeFileSync(path.join(dir, 'b.json'), '{}');
  writeCachedComparison(dir, key('a', 'b'), 1);
  writeCachedComparison(dir, key('a', 'c'), 2);
  const cacheDir = path.join(dir, COMPARISON_CACHE_DIR);
  assert.equal(readdirSync(cacheDir).length, 2);
  assert.deepEqual(readdirSync(dir).filter(isRunFile).sort(), ['a.json', 'b.json'], 'the cache folder is not a run');
  new RunIndex(dir).open(); // c is not a run here: its entries go
  assert.equal(readdirSync(cacheDir).length, 1);
  assert.equal(readCachedComparison(dir, key('a', 'b')), 1);
  unlinkSync(path.join(dir, 'b.json'));
  new RunIndex(dir).open();
  assert.deepEqual(readdirSync(cacheDir), []);

  mkdirSync(cacheDir, { recursive: true });
  for (let i = 0; i < 5; i++) writeCachedComparison(dir, key('a', `r${i}`), i);
  const names = readdirSync(cacheDir);
  names.forEach((n, i) => utimesSync(path.join(cacheDir, n), new Date(), new Date(1_000_000 + i * 1000)));
  pruneComparisonCache(dir, undefined, 2);
  assert.deepEqual(readdirSync(cacheDir).sort(), names.slice(-2).sort(), 'the two written last are kept');
});

test('a cache entry is checked against its content hash: an edited entry, or one written before hashes, is computed again', () => {
  const runsDir = tempDir();
  const entry = cacheEntry(runsDir, ['run-a', 'run-b'], { metric: 'ndcg@10' });
  assert.ok(writeCacheEntry(runsDir, entry, { delta: 0.25 }));
  assert.deepEqual(readCacheEntry(entry), { delta: 0.25 });
  const text = entryText(entry.path);
  editEntry(entry.path, text.replace('0.25', '0.75')); // edited, its hash kept
  const log: string[] = [];
  assert.equal(
    readCacheEntry(entry, (m) => log.push(m)),
    undefined,
  );
  assert.match(log.join('\n'), /not reused: its content hash does not match/);
  writeUnsealedEntry(entry.path, text); // the same entry without a hash (an older Ranklab)
  assert.equal(readCacheEntry(entry), undefined);
  writeFileSync(entry.path, readFileSync(entry.path).subarray(0, 40)); // cut short
  assert.equal(readCacheEntry(entry), undefined);
});
