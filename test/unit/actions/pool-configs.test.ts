// The action "pool" (src/core/actions/pool-configs.ts) on a copy of the example workspace with a broken config, real
// indexes: a config that cannot be used and one that fails while it runs are data beside the pool of the others,
// which is the core's workspacePool of those; none usable is an error naming each; an aborted signal stops it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type PoolConfigsProgress, poolConfigs } from '../../../src/core/actions/pool-configs';
import { poolEntries, workspacePool } from '../../../src/core/session/judging-pool';
import { RanklabSession } from '../../../src/core/session/session';
import { InputError } from '../../../src/core/util/diagnostics';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const example = copyOfExample();
// A boost that is not a number: an error of the file, at its line.
writeFileSync(join(example, 'configs/broken.rank.json'), '{\n  "lexical": { "fields": { "title": "three" } }\n}\n');

/** Untrusted (no download): hybrid-rerank's cross-encoder cannot be had, so that config fails when it runs. */
function open(): RanklabSession {
  return RanklabSession.open(example, { stateDir: tempDir(), allowNetwork: false, allowModelLoading: false });
}

test('an unusable config and one that fails at run time are reported beside the pool of the others', async () => {
  const session = open();
  const events: PoolConfigsProgress[] = [];
  const r = await poolConfigs(
    session,
    { configs: poolEntries(session, ['baseline', 'broken', 'hybrid-rerank', 'title-boost-3']), depth: 5 },
    { progress: (p) => events.push(p) },
  );
  assert.deepEqual(
    r.unusable.map((u) => u.config),
    ['broken'],
  );
  assert.match(r.unusable[0].error, /title/);
  assert.deepEqual(
    r.failed.map((f) => f.config),
    ['hybrid-rerank'],
  );
  assert.deepEqual(
    r.configs.map((c) => c.name),
    ['baseline', 'hybrid-rerank', 'title-boost-3'],
  );
  assert.deepEqual(r.pool.configs, ['baseline', 'title-boost-3']);
  assert.ok(r.pool.pairs.length > 0);
  assert.ok(
    events.some((e) => e.config === 'title-boost-3' && e.done === e.total),
    'progress names the config and its queries',
  );

  // The same pool as the core draws from the usable configs on a session of its own.
  const alone = open();
  const local = await workspacePool(alone, { configs: ['baseline', 'title-boost-3'].map((n) => alone.resolveConfig(n)), depth: 5 });
  assert.deepEqual(r.pool.pairs, local.pool.pairs);
  assert.deepEqual(r.pool.judged, local.pool.judged);
});

test('no usable config is an InputError naming each one and its problem', async () => {
  const session = open();
  await assert.rejects(
    poolConfigs(session, { configs: poolEntries(session, ['broken']) }),
    (e: Error) => e instanceof InputError && /^no config to pool: broken: .*title/.test(e.message),
  );
});

test('an aborted signal stops it with its reason', async () => {
  const session = open();
  const abort = new AbortController();
  await assert.rejects(
    poolConfigs(
      session,
      { configs: poolEntries(session, ['baseline', 'title-boost-3']) },
      {
        signal: abort.signal,
        progress: (p) => void (p.done >= 3 && abort.abort(new Error('stopped by the test'))),
      },
    ),
    /stopped by the test/,
  );
});
