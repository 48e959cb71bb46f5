// The stage table (src/core/run/stages.ts): the pipeline's steps agree with it, and runs saved with an old
// spelling of a stage (`fused`, before it was unified with the step `fuse`) load and compare under the current one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STEPS } from '../../../src/core/retrieval/steps';
import { STAGES, STAGE_NAMES, STEP_NAMES, canonicalStageName } from '../../../src/core/run/stages';
import { encodeRunFile, readSavedRun } from '../../../src/core/run/run-format';
import type { SavedQueryResult, SavedRun } from '../../../src/core/run/types';
import { comparisonSideOf } from '../../../src/core/experiment/run-store';
import { compareRuns } from '../../../src/core/experiment/compare';
import { parseMetricList } from '../../../src/core/metrics';
import { sealJson } from '../../../src/core/util/content-hash';
import { judgmentsOf } from '../../helpers/judgments';
import { savedRun } from '../../helpers/runs';

test('the pipeline runs exactly the declared steps, in the declared order; runs record the declared stages', () => {
  assert.deepEqual(
    STEPS.map((s) => s.name),
    STEP_NAMES,
  );
  assert.deepEqual(STAGE_NAMES, ['lexical', 'vector', 'fuse', 'rerank', 'engine']);
  // One spelling: no name is another stage's alias, and every step says what its explanation holds.
  const names = new Set<string>(STAGES.map((s) => s.name));
  for (const s of STAGES) for (const a of 'aliases' in s ? s.aliases : []) assert.ok(!names.has(a), `${a} is both a name and an alias`);
  for (const s of STAGES) assert.equal(s.step, 'explains' in s && s.explains.length > 0, s.name);
  assert.equal(canonicalStageName('fused'), 'fuse');
  assert.equal(canonicalStageName('lexical'), 'lexical');
  assert.equal(canonicalStageName('total'), 'total');
});

/** A hybrid query as a run saved before the change recorded it: every stage key spelled `<fused>`. */
function oldQuery(qid: string, top: string, fused: string): SavedQueryResult {
  const other = top === 'a' ? 'b' : 'a';
  return {
    qid,
    text: qid,
    total: 2,
    metrics: {},
    latencyMs: { total: 2, lexical: 0.5, vector: 0.7, [fused]: 0.1 },
    docs: [
      {
        id: top,
        score: 0.032,
        stages: { lexical: { rank: 1, score: 9 }, vector: { rank: 2, score: 0.5 }, [fused]: { rank: 1, score: 0.032 } },
      },
      { id: other, score: 0.031, stages: { lexical: { rank: 2, score: 7 }, [fused]: { rank: 2, score: 0.031 } } },
    ],
    stageIds: { lexical: [top, other], vector: ['z', top], [fused]: [top, other] },
  } as SavedQueryResult;
}

function oldRun(config: string, tops: string[], fused = 'fused'): SavedRun {
  return savedRun(
    tops.map((t, i) => oldQuery(`q${i + 1}`, t, fused)),
    {
      provenance: { config, createdAt: '2026-12-01T10:00:00.000Z', tool: 'ranklab 0.1.0' },
      metricSpecs: ['p@1'],
      metrics: { 'p@1': 0.5 },
      latency: {
        total: { p50: 2, p99: 2 },
        lexical: { p50: 0.5, p99: 0.5 },
        vector: { p50: 0.7, p99: 0.7 },
        [fused]: { p50: 0.1, p99: 0.1 },
      },
    },
  );
}

test('a run saved with the old spelling "fused" (as @1 JSON and as @4) loads with "fuse" everywhere and compares', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-stages-'));
  const base = oldRun('base', ['a', 'b']);
  const cand = oldRun('cand', ['a', 'a']);
  // @1: the expanded JSON as Ranklab wrote it then; @4: the current writer's bytes, which keep whatever keys they are given.
  writeFileSync(join(dir, 'base.json'), sealJson(JSON.stringify({ ...base, format: 'ranklab-run@1' })));
  writeFileSync(join(dir, 'cand.json.gz'), encodeRunFile(cand));
  const loaded = [readSavedRun(join(dir, 'base.json')), readSavedRun(join(dir, 'cand.json.gz'))];
  for (const { saved, sealed } of loaded) {
    assert.ok(sealed, 'the content hash still matches: the file itself is not rewritten');
    assert.doesNotMatch(JSON.stringify(saved), /"fused"/);
    assert.deepEqual(Object.keys(saved.latency), ['total', 'lexical', 'vector', 'fuse']);
    const q = saved.queries[0];
    assert.deepEqual(Object.keys(q.latencyMs), ['total', 'lexical', 'vector', 'fuse']);
    assert.deepEqual(q.docs[0].stages!.fuse, { rank: 1, score: 0.032 });
    assert.deepEqual(q.docs[1].stages, { lexical: { rank: 2, score: 7 }, fuse: { rank: 2, score: 0.031 } });
    assert.deepEqual(
      q.stageIds!.fuse,
      q.docs.map((d) => d.id),
    );
  }
  // Compared with each other, the stage recall of both sides lists the stage under its one name.
  const judgments = judgmentsOf({ q1: { a: 1 }, q2: { b: 1 } });
  const cmp = compareRuns(comparisonSideOf(loaded[0].saved), comparisonSideOf(loaded[1].saved), judgments, parseMetricList('p@1'), {
    gain: 'exp',
    relevanceThreshold: 1,
  });
  assert.deepEqual(cmp.stageRecall.baseline.stages, ['lexical', 'vector', 'fuse']);
  assert.deepEqual(cmp.stageRecall.candidate.stages, ['lexical', 'vector', 'fuse']);
  assert.deepEqual([cmp.metrics['p@1'].baseline, cmp.metrics['p@1'].candidate], [1, 0.5]);
  // A run written now (with the current name) reads back the same as the old one.
  writeFileSync(join(dir, 'new.json.gz'), encodeRunFile(oldRun('cand', ['a', 'a'], 'fuse')));
  assert.deepEqual(readSavedRun(join(dir, 'new.json.gz')).saved, loaded[1].saved);
});
