// The action "compare runs" (src/core/actions/compare-runs.ts), as `ranklab compare` calls it, on the example
// workspace with real indexes: configs run (then reused), a saved run as a side, one correction over the
// candidates, moved documents explained; a config that cannot run is named as its side; an abort stops it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type CompareRunsProgress, type CompareSide, compareRuns } from '../../../src/core/actions/compare-runs';
import { compareMany } from '../../../src/core/experiment/compare';
import { comparisonSideOf } from '../../../src/core/experiment/run-store';
import { parseMetricList } from '../../../src/core/metrics';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const specs = parseMetricList(['ndcg@10', 'mrr@10']);
const metricOptions = { gain: 'exp' as const, relevanceThreshold: 1 };
const example = copyOfExample();
const open = () => RanklabSession.open(example, { stateDir: tempDir() });
const configSide = (session: RanklabSession, name: string): CompareSide => ({ kind: 'config', config: session.resolveConfig(name), name });

test("configs and a saved run compared against a config baseline: the core's compareMany figures, sides reported as they are ready", async () => {
  const session = open();
  const saved = await evaluateConfig(session, session.resolveConfig('vector'), { specs, metricOptions });
  const events: CompareRunsProgress[] = [];
  const input = { specs, metricOptions, split: 'all' as const, explain: 3 };
  const r = await compareRuns(
    session,
    {
      ...input,
      baseline: configSide(session, 'baseline'),
      candidates: [configSide(session, 'title-boost-3'), { kind: 'run', side: comparisonSideOf(saved.saved) }],
    },
    { progress: (p) => events.push(p) },
  );
  assert.deepEqual(r.many.candidates, ['title-boost-3', 'vector']);
  assert.deepEqual(
    events
      .filter((e) => e.type === 'side')
      .map((e) => `${e.type === 'side' && e.role} ${e.type === 'side' && e.name} ${e.type === 'side' && !!e.from}`),
    ['baseline baseline true', 'candidate title-boost-3 true', 'candidate vector false'],
  );
  // The same figures as the core's compareMany over the same runs (the configs' saved runs, reused here).
  const again = open();
  const sideOf = async (name: string) => ({ ...(await evaluateConfig(again, again.resolveConfig(name), { specs, metricOptions })), name });
  const [b, c] = [await sideOf('baseline'), await sideOf('title-boost-3')];
  const direct = compareMany(
    { name: 'baseline', run: b.run, stageIds: b.stageIds, principal: null },
    [{ name: 'title-boost-3', run: c.run, stageIds: c.stageIds, principal: null }, comparisonSideOf(saved.saved)],
    session.judgments(),
    specs,
    metricOptions,
  );
  for (const [i, cmp] of r.many.comparisons.entries()) {
    for (const [metric, m] of Object.entries(cmp.metrics)) {
      assert.equal(m.delta, direct.comparisons[i].metrics[metric].delta, `${cmp.candidate} ${metric}`);
      assert.equal(m.pAdjusted, direct.comparisons[i].metrics[metric].pAdjusted, `${cmp.candidate} ${metric}`);
    }
  }
  // Moved documents explained for the config candidate only (the saved run's config is not rebuilt).
  const reasons = (i: number) => r.many.comparisons[i].queryDeltas.flatMap((q) => q.moved).filter((d) => d.reason !== undefined).length;
  assert.ok(reasons(0) > 0, 'title-boost-3: moved documents explained');
  assert.equal(reasons(1), 0);
  // A second comparison reuses the configs' saved runs.
  const reused: CompareRunsProgress[] = [];
  await compareRuns(
    session,
    { ...input, explain: 0, baseline: configSide(session, 'baseline'), candidates: [configSide(session, 'title-boost-3')] },
    { progress: (p) => reused.push(p) },
  );
  assert.deepEqual(
    reused.filter((e) => e.type === 'reused').map((e) => e.type === 'reused' && e.config),
    ['baseline', 'title-boost-3'],
  );
});

test("a candidate config that cannot run is an input error naming its side and where the baseline's run is", async () => {
  const session = open();
  await assert.rejects(
    compareRuns(session, {
      specs,
      metricOptions,
      split: 'all',
      explain: 0,
      baseline: configSide(session, 'baseline'),
      candidates: [configSide(session, 'hybrid-rerank')],
    }),
    (e: Error) => e.name === 'InputError' && /^candidate "hybrid-rerank" not run: .*\(the baseline's run is in .*baseline/.test(e.message),
  );
});

test('an abort while the candidate runs stops the comparison with its reason, the baseline reported done', async () => {
  const session = open();
  const abort = new AbortController();
  const events: CompareRunsProgress[] = [];
  await assert.rejects(
    compareRuns(
      session,
      {
        specs,
        metricOptions,
        split: 'all',
        explain: 0,
        baseline: configSide(session, 'baseline'),
        candidates: [configSide(session, 'vector')],
      },
      {
        signal: abort.signal,
        progress: (p) => {
          events.push(p);
          if (p.type === 'queries' && p.config === 'vector' && p.done >= 3) abort.abort(new Error('stopped by the test'));
        },
      },
    ),
    /stopped by the test/,
  );
  assert.deepEqual(
    events.filter((e) => e.type === 'side').map((e) => e.type === 'side' && e.name),
    ['baseline'],
  );
});
