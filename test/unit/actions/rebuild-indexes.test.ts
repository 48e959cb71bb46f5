// The action "rebuild indexes" (src/core/actions/rebuild-indexes.ts) on a copy of the example workspace, real indexes:
// the cached indexes are deleted and built again by a fresh session, a config whose model is not on this machine is
// data while the others are built, and an aborted signal stops it with its reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { type RebuildIndexesProgress, rebuildIndexes } from '../../../src/core/actions/rebuild-indexes';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const example = copyOfExample();

/** Opened as an untrusted folder is in the editor: no download, so hybrid-rerank's cross-encoder cannot be had. */
function open(): RanklabSession {
  return RanklabSession.open(example, { stateDir: tempDir(), allowNetwork: false, allowModelLoading: false });
}

const cacheOf = (s: RanklabSession) => (existsSync(s.workspace.cacheDir) ? readdirSync(s.workspace.cacheDir).sort() : []);

test('the cached indexes are deleted and every config built again by a fresh session; a config that cannot be built is data', async () => {
  const old = open();
  await old.engine(old.resolveConfig('baseline'));
  const before = cacheOf(old);
  assert.ok(before.length > 0, 'the first build wrote its cache');
  const events: RebuildIndexesProgress[] = [];
  let fresh: RanklabSession | undefined;
  const r = await rebuildIndexes(old, { progress: (p) => events.push(p), opened: (s) => (fresh = s) });

  assert.ok(r.removed.length > 0);
  for (const name of r.removed) assert.ok(before.includes(name), `${name} was in the cache`);
  assert.ok(!r.removed.includes('embeddings'), 'cached embeddings are kept');
  const names = old.configEntries().map((e) => e.name);
  assert.deepEqual(
    r.built,
    names.filter((n) => n !== 'hybrid-rerank'),
  );
  assert.deepEqual(
    r.failed.map((f) => f.config),
    ['hybrid-rerank'],
  );
  assert.match(r.failed[0].message, /^rerank\.provider: .*not allowed/);
  assert.equal(r.docs, RanklabSession.open(example).corpus().docs.length);

  // The fresh session is another session than the old one, and what it built is on disk again.
  assert.ok(fresh && fresh !== old);
  assert.ok(cacheOf(fresh).length > 0, 'the indexes were written again');
  // Every build's report names its config, with its place among the configs.
  const built = new Set(events.map((e) => `${e.step.index} ${e.config}`));
  assert.ok(built.has(`0 ${names[0]}`), [...built].join(', '));
  for (const e of events) assert.equal(names[e.step.index], e.config);
  assert.ok(events.every((e) => e.step.count === names.length && e.work.label !== undefined));

  // The rebuilt engine ranks as one built by a session of its own.
  const query = [...fresh.judgments().queries.values()][0].text;
  const ids = async (s: RanklabSession) => (await (await s.engine(s.resolveConfig('title-boost-3'))).search(query)).docs.map((d) => d.id);
  assert.deepEqual(await ids(fresh), await ids(open()));
});

test('a signal aborted before the start stops it with its reason, and nothing is deleted', async () => {
  const old = open();
  await old.engine(old.resolveConfig('baseline'));
  const before = cacheOf(old);
  const abort = new AbortController();
  abort.abort(new Error('stopped by the test'));
  await assert.rejects(rebuildIndexes(old, { signal: abort.signal }), /stopped by the test/);
  assert.deepEqual(cacheOf(old), before);
});

test("a signal aborted inside the second config's build stops it there with its reason", async () => {
  const abort = new AbortController();
  const seen = new Set<number>();
  await assert.rejects(
    rebuildIndexes(open(), {
      signal: abort.signal,
      progress: (p) => {
        seen.add(p.step.index);
        if (p.step.index === 1) abort.abort(new Error('stopped in the second'));
      },
    }),
    /stopped in the second/,
  );
  assert.ok(!seen.has(2), `no later config was started: ${[...seen].join(', ')}`);
});
