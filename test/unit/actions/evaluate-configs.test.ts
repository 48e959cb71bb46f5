// The action "evaluate configs" (src/core/actions/evaluate-configs.ts) on the example workspace, real indexes:
// each config's result is the core's own evaluation, a config that cannot run is data while the others complete,
// and an aborted signal stops it between configs or inside one, with nothing of the stopped config saved.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type EvaluateConfigsProgress,
  type WorkspaceConfigsProgress,
  evaluateConfigs,
  evaluateWorkspaceConfigs,
} from '../../../src/core/actions/evaluate-configs';
import { parseMetricList } from '../../../src/core/metrics';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { InputError } from '../../../src/core/util/diagnostics';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const specs = parseMetricList(['ndcg@10', 'mrr@10']);
const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };
const example = copyOfExample();

/** A session of the example with its own state folder, opened as the CLI opens it (hybrid-rerank's cross-encoder is not on this machine). */
function open() {
  const stateDir = tempDir();
  return RanklabSession.open(example, { stateDir });
}

function savedRuns(session: RanklabSession): string[] {
  const dir = session.workspace.runsDir;
  return existsSync(dir) ? readdirSync(dir).filter((f) => !f.startsWith('.')) : [];
}

test("a config that cannot run is reported as data; the others complete with the core's own evaluation", async () => {
  const session = open();
  const configs = ['baseline', 'hybrid-rerank', 'title-boost-3'].map((n) => session.resolveConfig(n));
  const events: EvaluateConfigsProgress[] = [];
  const r = await evaluateConfigs(session, { configs, specs, metricOptions, save: false }, { progress: (p) => events.push(p) });
  assert.deepEqual(
    r.results.map((x) => x.config.name),
    ['baseline', 'title-boost-3'],
  );
  assert.equal(r.failed.length, 1);
  assert.equal(r.failed[0].name, 'hybrid-rerank');
  assert.match(r.failed[0].message, /rerank\.provider\.model/);
  assert.equal(r.stopped, undefined);
  assert.deepEqual(r.notRun, []);
  // The progress tells the same story, config by config, with each one's step.
  assert.deepEqual(
    events.filter((e) => e.type === 'evaluated' || e.type === 'failed').map((e) => `${e.type} ${e.config} ${e.step.index}/${e.step.count}`),
    ['evaluated baseline 0/3', 'failed hybrid-rerank 1/3', 'evaluated title-boost-3 2/3'],
  );
  assert.ok(events.some((e) => e.type === 'queries' && e.config === 'title-boost-3' && e.done === e.total));
  // Each result is what the core's one-config evaluation gives on a session of its own.
  const alone = open();
  for (const result of r.results) {
    const own = await evaluateConfig(alone, alone.resolveConfig(result.config.name), { specs, metricOptions, save: false });
    assert.deepEqual(result.evaluation.means, own.evaluation.means, result.config.name);
  }
  assert.deepEqual(savedRuns(session), [], 'save: false writes no run');
});

test('a signal aborted before the start stops at the first config: nothing run, nothing saved, and it says so', async () => {
  const session = open();
  const configs = ['baseline', 'title-boost-3'].map((n) => session.resolveConfig(n));
  const abort = new AbortController();
  abort.abort(new Error('stopped by the test'));
  const r = await evaluateConfigs(session, { configs, specs, metricOptions }, { signal: abort.signal });
  assert.deepEqual(r.results, []);
  assert.deepEqual(r.failed, []);
  assert.equal(r.stopped, 'baseline');
  assert.deepEqual(r.notRun, ['title-boost-3']);
  assert.deepEqual(savedRuns(session), []);
});

test('a signal aborted inside the second config stops it there: the first saved, the stopped one not, the rest not run', async () => {
  const session = open();
  const configs = ['baseline', 'title-boost-3', 'vector'].map((n) => session.resolveConfig(n));
  const abort = new AbortController();
  const r = await evaluateConfigs(
    session,
    { configs, specs, metricOptions },
    {
      signal: abort.signal,
      progress: (p) =>
        void (p.type === 'queries' && p.config === 'title-boost-3' && p.done >= 5 && abort.abort(new Error('stopped by the test'))),
    },
  );
  assert.deepEqual(
    r.results.map((x) => x.config.name),
    ['baseline'],
  );
  assert.equal(r.stopped, 'title-boost-3');
  assert.deepEqual(r.notRun, ['vector']);
  assert.deepEqual(r.failed, [], 'a stop is not a failure');
  const saved = savedRuns(session);
  assert.equal(saved.length, 1, saved.join(', '));
  assert.ok(r.results[0].path?.endsWith(saved[0]), `${r.results[0].path} is the one saved run (${saved[0]})`);
});

test("the workspace's configs chosen by name or file: a config whose file is not usable is skipped first, the others evaluated and saved", async () => {
  const ws = copyOfExample();
  const broken = join(ws, 'configs/broken.rank.json');
  writeFileSync(broken, '{\n  "lexical": { "fields": { "title": "three" } }\n}\n');
  const session = RanklabSession.open(ws, { stateDir: tempDir() });
  const events: WorkspaceConfigsProgress[] = [];
  const r = await evaluateWorkspaceConfigs(
    session,
    { only: ['baseline', broken, join(ws, 'configs/title-boost-3.rank.json')] },
    { progress: (p) => events.push(p) },
  );
  assert.deepEqual(events[0], { type: 'skipped', config: broken });
  assert.equal(events.filter((e) => e.type === 'skipped').length, 1);
  assert.equal(r.total, 2);
  assert.deepEqual(
    r.results.map((x) => x.config.name),
    ['baseline', 'title-boost-3'],
  );
  assert.equal(savedRuns(session).length, 2);
  // With the workspace's metrics (ranklab.json), as the core evaluates the config alone.
  const metrics = session.workspace.settings.metrics;
  assert.deepEqual(Object.keys(r.results[0].evaluation.means).sort(), [...metrics].sort());
  const alone = RanklabSession.open(ws, { stateDir: tempDir() });
  const own = await evaluateConfig(alone, alone.resolveConfig('baseline'), {
    specs: parseMetricList(metrics),
    metricOptions: { gain: alone.workspace.settings.gain, relevanceThreshold: alone.workspace.settings.relevanceThreshold },
    save: false,
  });
  assert.deepEqual(r.results[0].evaluation.means, own.evaluation.means);

  // Nothing usable chosen: an InputError, after the unusable one was reported.
  const skipped: WorkspaceConfigsProgress[] = [];
  await assert.rejects(
    evaluateWorkspaceConfigs(session, { only: [broken] }, { progress: (p) => skipped.push(p) }),
    (e: Error) => e instanceof InputError && /no usable ranking config/.test(e.message),
  );
  assert.deepEqual(skipped, [{ type: 'skipped', config: broken }]);
  await assert.rejects(evaluateWorkspaceConfigs(session, { only: ['nothing-here'] }), /no usable ranking config/);
});
