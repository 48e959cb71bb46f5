// The lexical cache's choice between loading the cached index and rebuilding it. Every test here drives the
// decision with a scripted clock (or calls the policy as a pure function): none depends on how fast this
// machine is, or on what else it is running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { DEFAULT_ANALYZER } from '../../../src/core/config/defaults';
import {
  NO_TIMING,
  REBUILD_STARTS,
  SLOW_LOADS_TO_SWITCH,
  TIMING_SAMPLES,
  buildOrLoadLexical,
  lexicalCacheKey,
  shouldLoadLexicalCache,
  timingAfterBuild,
  timingAfterLoad,
} from '../../../src/core/retrieval/index-cache';
import { readLexicalCacheFile } from '../../../src/core/retrieval/lexical-cache-file';
import { tempDir } from '../../helpers/workspace';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { corpusFingerprint, loadDocs } from './collections';

const analyzer = createAnalyzer(DEFAULT_ANALYZER);
const fields = ['title', 'body'];
const all = loadDocs(syntheticCollection({ docs: 82, queries: 1 })); // 82 small documents: each start is quick

/**
 * A clock that advances `step` ms on every reading, so a build or a load measured between two readings takes
 * exactly `step` ms, whatever the machine does.
 */
function scriptedClock() {
  let t = 0;
  const clock = { step: 1, now: () => (t += clock.step) };
  return clock;
}

async function start(dir: string, docs: typeof all, clock: { now: () => number }) {
  return buildOrLoadLexical(docs, corpusFingerprint(docs), fields, analyzer, dir, { now: clock.now });
}

test('one load slower than the build does not switch the cache off', async () => {
  const dir = tempDir();
  const clock = scriptedClock();
  clock.step = 10;
  assert.equal((await start(dir, all, clock)).source, 'built');
  clock.step = 1000; // one load hit by a busy machine
  assert.equal((await start(dir, all, clock)).source, 'cache');
  clock.step = 5;
  assert.equal((await start(dir, all, clock)).source, 'cache', 'still loading after one noisy sample');
});

test('the build cost is per document: loads of a grown corpus are not compared with the build of a smaller one', async () => {
  const dir = tempDir();
  const clock = scriptedClock();
  const small = all.slice(0, 66);
  clock.step = 66; // 1 ms per document
  assert.equal((await start(dir, small, clock)).source, 'built');
  // 16 documents added (20%, updated incrementally); each load takes 74 ms for 82 documents: 0.9 ms per document.
  clock.step = 74;
  for (let i = 0; i < 6; i++) assert.equal((await start(dir, all, clock)).source, 'cache', `start ${i + 2}`);
});

test('loads that are repeatedly slower switch to rebuilding for a while, then the cache is written and tried again', async () => {
  const dir = tempDir();
  const clock = scriptedClock();
  clock.step = 10;
  assert.equal((await start(dir, all, clock)).source, 'built');
  clock.step = 30; // every load now costs three builds
  for (let i = 0; i < SLOW_LOADS_TO_SWITCH; i++) assert.equal((await start(dir, all, clock)).source, 'cache', `slow load ${i + 1}`);
  for (let i = 0; i < REBUILD_STARTS; i++) assert.equal((await start(dir, all, clock)).source, 'built', `rebuild ${i + 1}`);
  // The last rebuild wrote the cache again: it is measured afresh (and a changed corpus is still served correctly).
  const edited = all.map((d, i) => (i === 0 ? { ...d, body: d.body + ' quokka', hash: d.hash + 'x' } : d));
  const r = await start(dir, edited, clock);
  assert.equal(r.source, 'cache');
  assert.deepEqual(
    r.index
      .search('quokka', {
        bm25: { k1: 1.2, b: 0.75, d: 0.5 },
        prefix: false,
        fuzzy: 0,
        boosts: { title: 1, body: 1 },
        combineWith: 'OR',
        depth: 10,
      })
      .hits.map((h) => h.id),
    [edited[0].id],
  );
});

test('policy as a pure function: per-document medians, consecutive evidence, a bounded rebuild period', () => {
  let t = timingAfterBuild(NO_TIMING, 1);
  assert.ok(shouldLoadLexicalCache(t));
  // Slow, fast, slow, slow: not three in a row.
  for (const x of [2, 0.5, 2, 2]) t = timingAfterLoad(t, x);
  assert.ok(shouldLoadLexicalCache(t));
  t = timingAfterLoad(t, 2); // the third slow load in a row
  assert.ok(!shouldLoadLexicalCache(t));
  assert.deepEqual(t.loadMsPerDoc, [], 'evidence is consumed');
  for (let i = 0; i < REBUILD_STARTS - 1; i++) t = timingAfterBuild(t, 1);
  assert.ok(!shouldLoadLexicalCache(t));
  t = timingAfterBuild(t, 1);
  assert.ok(shouldLoadLexicalCache(t), 'tried again after the rebuild period');
  // The build cost is a median of recent samples: one outlier build does not make every load look fast.
  let u = NO_TIMING;
  for (const x of [1, 1, 50]) u = timingAfterBuild(u, x);
  for (let i = 0; i < SLOW_LOADS_TO_SWITCH; i++) u = timingAfterLoad(u, 3);
  assert.ok(!shouldLoadLexicalCache(u));
  // No build recorded yet (an old cache): loads are never counted as slower.
  let v = NO_TIMING;
  for (let i = 0; i < 10; i++) v = timingAfterLoad(v, 1000);
  assert.ok(shouldLoadLexicalCache(v));
  assert.equal(v.loadMsPerDoc.length, TIMING_SAMPLES, 'bounded history');
});

test('the cache is JSON Lines (no one string to outgrow) and searches like the built index; the older one-JSON format is a miss, rewritten', async () => {
  const dir = tempDir();
  const clock = scriptedClock();
  const built = await start(dir, all, clock);
  const [data] = readdirSync(join(dir, 'lexical')).filter((f) => f.endsWith('.json') && !f.includes('.meta.') && !f.includes('.timing.'));
  const path = join(dir, 'lexical', data);
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
  assert.ok(lines.length > 100, `one line per term, got ${lines.length} lines`);
  const loaded = await start(dir, all, clock);
  assert.equal(loaded.source, 'cache');
  for (const q of ['the', all[3].title, all[40].body.split(' ').slice(0, 4).join(' ')]) {
    assert.deepEqual(
      loaded.index.miniSearch.search(q).map((r) => [r.id, r.score]),
      built.index.miniSearch.search(q).map((r) => [r.id, r.score]),
      q,
    );
  }
  writeFileSync(path, JSON.stringify(built.index.miniSearch)); // what older versions wrote
  assert.equal((await start(dir, all, clock)).source, 'built');
  assert.ok(readFileSync(path, 'utf8').startsWith('{"format":"ranklab-lexical-lines@1"}\n'), 'rewritten in the new format');
});

test('the streamed cache file holds exactly what MiniSearch toJSON() gives (it reads MiniSearch tables toJSON reads)', async () => {
  const dir = tempDir();
  const built = await start(dir, all.slice(0, 30), scriptedClock());
  const path = join(dir, 'lexical', `${lexicalCacheKey(fields, analyzer)}.json`);
  const { dataSha256 } = JSON.parse(readFileSync(join(dir, 'lexical', `${lexicalCacheKey(fields, analyzer)}.meta.json`), 'utf8'));
  const js = readLexicalCacheFile(path, dataSha256);
  const streamed = { ...js, index: [...(js.index as Iterable<unknown>)] };
  assert.deepEqual(streamed, JSON.parse(JSON.stringify(built.index.miniSearch.toJSON())));
});
