// The saved-run format ranklab-run@3 (gzipped, ids at first mention, derivable stage ranks left out): a run saved and
// loaded again is exactly what the @2 layout gives back (order, ties, scores, stages, stage outputs, titles), so every
// metric is identical; real files of the older formats (@1, @2) still load, and re-saved as @3 load the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { encodeRunV3 } from '../../../src/core/run/run-format-v3';
import { loadSavedRun } from '../../../src/core/experiment/run-store';
import { computeMetric, parseMetricList, queryContext, DEFAULT_METRIC_OPTIONS } from '../../../src/core/metrics';
import { sortTrecOrder } from '../../../src/core/run/trec-order';
import type { RankedDoc, SavedQueryResult, SavedRun, StageName } from '../../../src/core/run/types';
import { tempDir } from '../../helpers/workspace';
import { savedRun, viaV2, withoutFormat } from '../../helpers/runs';

const FIXTURES = join(__dirname, '../../fixtures/runs');

const run = savedRun;

/** A run written as the @3 writer wrote it (gzipped, named .json); the current writer writes @4 (run-format-v4.test.ts). */
function saveV3(dir: string, saved: SavedRun, name = 'run.json'): string {
  const path = join(dir, name);
  writeFileSync(path, gzipSync(JSON.stringify(encodeRunV3(saved)) + '\n'));
  return path;
}

test('a real ranklab-run@1 file and a real ranklab-run@2 file load, and load the same after being saved as @3', () => {
  const dir = tempDir();
  for (const name of ['hybrid-rrf.v1.json', 'hybrid-rrf.v2.json']) {
    const old = loadSavedRun(join(FIXTURES, name));
    assert.equal(old.format, name.includes('v1') ? 'ranklab-run@1' : 'ranklab-run@2');
    assert.equal(old.provenance.config, 'hybrid-rrf');
    assert.ok(old.queries[0].docs[0].stages?.lexical && old.queries[0].stageIds?.vector, `${name}: a hybrid with stages and stage outputs`);
    const path = saveV3(dir, old, name);
    const bytes = readFileSync(path);
    assert.deepEqual([bytes[0], bytes[1]], [0x1f, 0x8b], 'written gzipped');
    const back = loadSavedRun(path);
    assert.equal(back.format, 'ranklab-run@3');
    assert.deepEqual(withoutFormat({ ...back, provenance: old.provenance }), withoutFormat(viaV2(old)));
  }
  // The real @2 file was written by the @2 writer: its scores are already short, so @3 keeps them exactly.
  const v2 = loadSavedRun(join(FIXTURES, 'hybrid-rrf.v2.json'));
  assert.deepEqual(viaV2(v2).queries, v2.queries);
});

test("stage ranks are left out only where they are the documents' positions in the stage output", () => {
  const docs: RankedDoc[] = [
    { id: 'a', score: 3, stages: { lexical: { rank: 2, score: 7 }, vector: { rank: 5, score: 0.9 } } },
    { id: 'b', score: 2, stages: { lexical: { rank: 1, score: 9 } } },
  ];
  // lexical: a and b at positions 2 and 1 of stageIds.lexical (derivable); vector: rank 5 is not a's position (kept).
  const saved = run([{ qid: 'q', text: 't', docs, latencyMs: {}, metrics: {}, stageIds: { lexical: ['b', 'a', 'c'], vector: ['a'] } }]);
  const stages = encodeRunV3(saved).queries[0].stages!;
  assert.deepEqual(stages.lexical, { scores: [7, 9] });
  assert.deepEqual(stages.vector, { ranks: [5, null], scores: [0.9, null] });
  const dir = tempDir();
  assert.deepEqual(loadSavedRun(saveV3(dir, saved)).queries, saved.queries);
});

test('ids are written in full at their first mention, then as the number of that mention', () => {
  const docs = (ids: string[]) => ids.map((id, i) => ({ id, score: 10 - i }));
  const saved = run([
    { qid: 'q1', text: '', docs: docs(['x', 'y']), latencyMs: {}, metrics: {}, stageIds: { lexical: ['z', 'x'] } },
    { qid: 'q2', text: '', docs: docs(['z', 'y', 'w']), latencyMs: {}, metrics: {} },
  ]);
  const enc = encodeRunV3(saved);
  assert.deepEqual(
    enc.queries.map((q) => [q.docs, q.stageIds]),
    [
      [['x', 'y'], { lexical: ['z', 0] }],
      [[2, 1, 'w'], undefined],
    ],
  );
});

test('a @3 file that mentions a document by number before its id is refused, naming the file and the query', () => {
  const dir = tempDir();
  const enc = encodeRunV3(run([{ qid: 'q1', text: 'x', docs: [{ id: 'a', score: 1 }], latencyMs: {}, metrics: {} }]));
  enc.queries[0].docs = [3];
  writeFileSync(join(dir, 'bad.json'), gzipSync(JSON.stringify(enc)));
  assert.throws(
    () => loadSavedRun(join(dir, 'bad.json')),
    /bad\.json: not a readable saved run \(queries\[0\] mentions document 3 before its id\)/,
  );
  writeFileSync(join(dir, 'cut.json'), gzipSync(JSON.stringify(enc)).subarray(0, 20));
  assert.throws(() => loadSavedRun(join(dir, 'cut.json')), /cut\.json: not a readable saved run/);
});

const METRICS = parseMetricList(['ndcg@10', 'ap', 'mrr@10', 'p@5', 'recall@20']);
const STAGES: StageName[] = ['lexical', 'vector', 'fuse'];

test("property: saved as @3 and loaded, a run is exactly its @2 reading; ids, order, ties and every metric are the original's", () => {
  // Ids and titles from a small unicode alphabet so lists repeat ids across queries and scores tie.
  const id = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '文', '😀', '"', '\\', ' ', '\u202e', '0'), minLength: 1, maxLength: 3 });
  const score = fc.oneof(
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, 1, 1.5, 2.5, 1e-9, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE),
    fc.integer({ min: -3, max: 3 }),
  );
  const query = fc.record({
    entries: fc.uniqueArray(
      fc.record({
        id,
        score,
        stageSeen: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        stageScore: score,
        title: fc.option(fc.string(), { nil: undefined }),
      }),
      { selector: (e) => e.id, maxLength: 30 },
    ),
    output: fc.boolean(), // stage ranks as positions in the stage's output (a real pipeline) or arbitrary
    extra: fc.array(id, { maxLength: 5 }),
  });
  fc.assert(
    fc.property(fc.array(query, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 9 }), (qs, salt) => {
      const titles: Record<string, string> = {};
      const queries = qs.map((q, qi): SavedQueryResult => {
        const sorted = [...q.entries].sort((a, b) => b.score - a.score);
        const stageIds: SavedQueryResult['stageIds'] = {};
        const docs = sorted.map((e, j): RankedDoc => {
          if (e.title !== undefined) titles[e.id] = e.title;
          const stages: RankedDoc['stages'] = {};
          e.stageSeen.forEach((seen, s) => {
            if (seen) stages[STAGES[s]] = { rank: q.output ? 0 : ((j * salt) % 7) + 1, score: e.stageScore + s };
          });
          return { id: e.id, score: e.score, ...(Object.keys(stages).length && { stages }) };
        });
        if (q.output) {
          for (const s of STAGES) {
            const seen = docs.filter((d) => d.stages?.[s]);
            if (!seen.length) continue;
            stageIds[s] = [...seen.map((d) => d.id), ...q.extra.filter((x) => !seen.some((d) => d.id === x))];
            seen.forEach((d, p) => (d.stages![s]!.rank = p + 1));
          }
        }
        return {
          qid: `q${qi}`,
          text: `query ${qi} ✓`,
          docs,
          latencyMs: { total: 0.5 },
          metrics: { 'ndcg@10': 0.25 },
          notes: qi ? ['a note'] : undefined,
          ...(q.output && { stageIds }),
        };
      });
      const saved = run(queries, { titles });
      const dir = tempDir();
      const back = loadSavedRun(saveV3(dir, saved));
      assert.deepEqual(withoutFormat(back), withoutFormat(viaV2(saved)));
      for (const [i, q] of saved.queries.entries()) {
        const b = back.queries[i].docs;
        assert.deepEqual(
          b.map((d) => d.id),
          q.docs.map((d) => d.id),
        );
        for (let j = 0; j < b.length; j++)
          for (let k = j + 1; k < b.length; k++) {
            assert.ok(Math.sign(b[j].score - b[k].score) === Math.sign(q.docs[j].score - q.docs[k].score), 'order and ties unchanged');
          }
        assert.deepEqual(
          sortTrecOrder([...b]).map((d) => d.id),
          sortTrecOrder([...q.docs]).map((d) => d.id),
          'trec_eval order unchanged',
        );
        const qrels = new Map(q.docs.map((d, j) => [d.id, (j * salt) % 4]));
        for (const m of METRICS) {
          assert.equal(
            computeMetric(m, queryContext(b, qrels, DEFAULT_METRIC_OPTIONS)),
            computeMetric(m, queryContext(q.docs, qrels, DEFAULT_METRIC_OPTIONS)),
            m.name,
          );
        }
      }
    }),
    { numRuns: 60 },
  );
});
