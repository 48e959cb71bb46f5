// The saved-run format ranklab-run@4 (columns, gzipped, named .json.gz): a run saved and loaded again is exactly what
// @3 (and @2) give back: ids, order, ties, stage ranks and scores, stage outputs, titles, so every metric is identical;
// real files of every older format still load, and re-saved as @4 load the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { column, columnValues, encodeRunV4 } from '../../../src/core/run/run-format-v4';
import { runFileText } from '../../../src/core/run/run-format';
import { loadSavedRun, saveRun } from '../../../src/core/experiment/run-store';
import { reciprocalRankFusion } from '../../../src/core/retrieval/fusion';
import { computeMetric, parseMetricList, queryContext, DEFAULT_METRIC_OPTIONS } from '../../../src/core/metrics';
import { sortTrecOrder } from '../../../src/core/run/trec-order';
import type { RankedDoc, SavedQueryResult, StageName } from '../../../src/core/run/types';
import { tempDir } from '../../helpers/workspace';
import { savedRun, viaV2, withoutFormat } from '../../helpers/runs';

const FIXTURES = join(__dirname, '../../fixtures/runs');
const HYBRID = { hybrid: { k: 60, depth: 100, weights: { lexical: 1, vector: 1 } } };

const run = savedRun;
const fileJson = (path: string) => JSON.parse(runFileText(readFileSync(path)));

test('real @1, @2 and @3 files load, and saved as @4 (.json.gz) load exactly as before', () => {
  const dir = tempDir();
  for (const [i, name] of ['hybrid-rrf.v1.json', 'hybrid-rrf.v2.json', 'hybrid-rrf.v3.json'].entries()) {
    const old = loadSavedRun(join(FIXTURES, name));
    assert.equal(old.format, `ranklab-run@${i + 1}`);
    assert.ok(old.queries[0].docs[0].stages?.lexical && old.queries[0].stageIds?.vector, `${name}: a hybrid with stages and stage outputs`);
    const path = saveRun(dir, { ...old, provenance: { ...old.provenance, createdAt: `2026-12-0${i + 1}T00:00:00.000Z` } }, 0);
    assert.match(path, /\.json\.gz$/);
    const bytes = readFileSync(path);
    assert.deepEqual([bytes[0], bytes[1]], [0x1f, 0x8b], 'written gzipped');
    const back = loadSavedRun(path);
    assert.equal(back.format, 'ranklab-run@4');
    assert.deepEqual(withoutFormat({ ...back, provenance: old.provenance }), withoutFormat(viaV2(old)));
  }
});

test('the real hybrid-rrf run is stored as its two stage outputs (the fused list recomputed); an edited one keeps its list', () => {
  const old = loadSavedRun(join(FIXTURES, 'hybrid-rrf.v3.json'));
  const enc = encodeRunV4(old);
  assert.deepEqual(enc.rrf, { k: 60, depth: 100, weights: { lexical: 1, vector: 1 } });
  for (const [i, q] of enc.queries.entries()) {
    assert.ok(q.fuse && !q.docs && !q.scores && !q.stageIds, `${q.qid}: the fused form`);
    assert.equal(q.fuse.lexical.length, old.queries[i].stageIds!.lexical!.length);
    assert.deepEqual(Object.keys(q.stages!).sort(), ['fuse', 'lexical', 'vector']);
  }
  // Hand-checked against the expanded run: the first document's fused score is 1/(60+lexical rank) + 1/(60+vector rank).
  const d = old.queries[0].docs[0];
  assert.equal(Number((1 / (60 + d.stages!.lexical!.rank) + 1 / (60 + d.stages!.vector!.rank)).toPrecision(6)), d.score);
  // A fused score that is not the RRF sum (edited) keeps the query's list and scores, and still loads exactly.
  const edited = structuredClone(old);
  edited.queries[1].docs[0].score += 1e-3;
  edited.queries[1].docs[0].stages!.fuse!.score = edited.queries[1].docs[0].score;
  const enc2 = encodeRunV4(edited);
  assert.ok(enc2.queries[1].docs && enc2.queries[1].scores && enc2.queries[0].fuse);
  // Two documents swapped (not the fused order): the list is kept, the RRF scores are still left out.
  const swapped = structuredClone(old);
  const d0 = swapped.queries[2].docs;
  [d0[3], d0[4]] = [d0[4], d0[3]];
  const enc3 = encodeRunV4(swapped);
  assert.ok(enc3.queries[2].docs && !enc3.queries[2].fuse);
  assert.deepEqual(withoutFormat(loadSavedRun(saveRun(tempDir(), swapped))), withoutFormat(viaV2(swapped)));
  const dir = tempDir();
  assert.deepEqual(withoutFormat(loadSavedRun(saveRun(dir, edited))), withoutFormat(viaV2(edited)));
  // Without the config's hybrid section nothing is recomputed.
  assert.ok(encodeRunV4({ ...old, config: {} }).queries.every((q) => q.docs && q.scores));
});

test('number columns: integer decreases at a common decimal scale, exact; anything else stays a plain list', () => {
  assert.deepEqual(column([25.1234, 24.5, 0.001]), { exp: -4, steps: [251234, 6234, 244990] });
  assert.deepEqual(columnValues({ exp: -4, steps: [251234, 6234, 244990] }), [25.1234, 24.5, 0.001]);
  assert.deepEqual(column([1e21, 3e21]), { exp: 21, steps: [1, -2] });
  for (const plain of [[-0, 1], [Number.MAX_VALUE, 1], [Infinity, 1], [0.1, 0.12345678901234566], [5]])
    assert.deepEqual(column(plain), plain, String(plain));
});

test('a @4 file that is not consistent is refused, naming the file and the query', () => {
  const dir = tempDir();
  const docs: RankedDoc[] = [
    { id: 'a', score: 2, stages: { lexical: { rank: 1, score: 9 } } },
    { id: 'b', score: 1, stages: { lexical: { rank: 3, score: 7 } } },
  ];
  const enc = encodeRunV4(run([{ qid: 'q1', text: 'x', docs, latencyMs: {}, metrics: {}, stageIds: { lexical: ['a', 'z', 'b'] } }]));
  assert.deepEqual(enc.queries[0].stages!.lexical, { ranks: [1, 3], scores: { exp: 0, steps: [9, 2] }, rest: ['z'] });
  const write = (name: string, v: unknown) => (writeFileSync(join(dir, name), gzipSync(JSON.stringify(v))), join(dir, name));
  assert.deepEqual(loadSavedRun(write('ok.json.gz', enc)).queries[0].stageIds, { lexical: ['a', 'z', 'b'] });
  const early = structuredClone(enc);
  early.queries[0].docs = [4, 'b'];
  assert.throws(
    () => loadSavedRun(write('early.json.gz', early)),
    /early\.json\.gz: not a readable saved run \(queries\[0\] mentions document 4 before its id\)/,
  );
  const far = structuredClone(enc);
  (far.queries[0].stages!.lexical as { ranks: number[] }).ranks = [1, 9];
  assert.throws(
    () => loadSavedRun(write('far.json.gz', far)),
    /far\.json\.gz: not a readable saved run \(queries\[0\]\.stages\.lexical: rank 9 does not fit the stage output\)/,
  );
  const negative = structuredClone(enc);
  negative.queries[0].docs = ['a', -2];
  assert.throws(
    () => loadSavedRun(write('negative.json.gz', negative)),
    /negative\.json\.gz: .*queries\[0\] mentions document -2 before its id/,
  );
  const prefix = { ...structuredClone(enc), idPrefix: 7 };
  assert.throws(
    () => loadSavedRun(write('prefix.json.gz', prefix)),
    /prefix\.json\.gz: not a readable saved run \("idPrefix" must be a string\)/,
  );
});

const METRICS = parseMetricList(['ndcg@10', 'ap', 'mrr@10', 'p@5', 'recall@20']);
const STAGES: StageName[] = ['lexical', 'vector', 'fuse'];
// Ids and titles from a small unicode alphabet (bidi override included) so lists repeat ids across queries and scores tie.
const id = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '文', '😀', '"', '\\', ' ', '\u202e', '0'), minLength: 1, maxLength: 3 });
const score = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, 1.5, 2.5, 1e-9, 0.1, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE),
  fc.integer({ min: -3, max: 3 }),
);

/** The ranked lists made by `hybridQuery`, with the depth they were cut at (the config's, 100, or another). */
const fusedLists = new WeakMap<RankedDoc[], number>();

/** A query as a hybrid pipeline records it: lexical and vector outputs fused by the real RRF, stages and outputs kept. */
const hybridQuery = fc
  .record({
    lexical: fc.uniqueArray(fc.record({ id, score }), { selector: (e) => e.id, maxLength: 25 }),
    vector: fc.uniqueArray(fc.record({ id, score }), { selector: (e) => e.id, maxLength: 25 }),
    depth: fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 30 })),
  })
  .map(({ lexical, vector, depth }): Omit<SavedQueryResult, 'qid' | 'text' | 'latencyMs' | 'metrics'> => {
    const [l, v] = [lexical, vector].map((o) => [...o].sort((a, b) => b.score - a.score));
    const fused = reciprocalRankFusion(
      [
        { name: 'lexical', docs: l },
        { name: 'vector', docs: v },
      ],
      60,
    ).slice(0, depth);
    const at = (o: typeof l, x: string) => o.findIndex((e) => e.id === x);
    const docs = fused.map((f, j): RankedDoc => {
      const stages: RankedDoc['stages'] = { fuse: { rank: j + 1, score: f.score } };
      for (const [name, o] of [
        ['lexical', l],
        ['vector', v],
      ] as const)
        if (at(o, f.id) >= 0) stages[name] = { rank: at(o, f.id) + 1, score: o[at(o, f.id)].score };
      return { id: f.id, score: f.score, stages };
    });
    fusedLists.set(docs, depth);
    return { docs, stageIds: { lexical: l.map((e) => e.id), vector: v.map((e) => e.id) } };
  });

/** Any ranked list: stages seen or not, ranks as positions in a stage output or arbitrary. */
const anyQuery = fc
  .record({
    entries: fc.uniqueArray(
      fc.record({ id, score, stageSeen: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), stageScore: score }),
      { selector: (e) => e.id, maxLength: 30 },
    ),
    output: fc.boolean(),
    extra: fc.array(id, { maxLength: 5 }),
    salt: fc.integer({ min: 1, max: 9 }),
  })
  .map((q): Omit<SavedQueryResult, 'qid' | 'text' | 'latencyMs' | 'metrics'> => {
    const sorted = [...q.entries].sort((a, b) => b.score - a.score);
    const stageIds: SavedQueryResult['stageIds'] = {};
    const docs = sorted.map((e, j): RankedDoc => {
      const stages: RankedDoc['stages'] = {};
      e.stageSeen.forEach((seen, s) => {
        if (seen) stages[STAGES[s]] = { rank: ((j * q.salt) % 7) + 1, score: e.stageScore + s };
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
    return { docs, ...(q.output && { stageIds }) };
  });

test("property: saved as @4 and loaded, a run is exactly its @2/@3 reading; ids, order, ties, stages and every metric are the original's", () => {
  const titles = fc.dictionary(id, fc.string({ unit: fc.constantFrom('x', 'É', '\u202e', '\u2066', '<', '"', '😀') }), { maxKeys: 5 });
  fc.assert(
    fc.property(
      fc.array(fc.oneof(hybridQuery, anyQuery), { minLength: 1, maxLength: 4 }),
      titles,
      fc.boolean(),
      (qs, titleMap, hybridConfig) => {
        const queries = qs.map(
          (q, qi): SavedQueryResult => ({
            qid: `q${qi}`,
            text: `query ${qi} \u202e✓`,
            ...q,
            latencyMs: { total: 0.5 },
            metrics: { 'ndcg@10': 0.25 },
            notes: qi ? ['a note'] : undefined,
          }),
        );
        const saved = run(queries, { titles: titleMap, config: hybridConfig ? HYBRID : { name: 'c' } });
        const path = saveRun(tempDir(), saved, 0);
        const file = fileJson(path);
        assert.equal(file.format, 'ranklab-run@4');
        saved.queries.forEach((q, i) => {
          if (!hybridConfig || !fusedLists.has(q.docs)) return;
          // Cut at the config's depth: the whole query is its two outputs; at another depth, the fused scores are still not stored.
          if (fusedLists.get(q.docs) === 100) assert.ok(file.queries[i].fuse && !file.queries[i].docs, `${q.qid}: stored as its outputs`);
          else if (q.docs.length > 0) assert.equal(file.queries[i].scores, undefined, `${q.qid}: RRF scores not stored`);
        });
        const back = loadSavedRun(path);
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
            b.map((d) => Object.fromEntries(Object.entries(d.stages ?? {}).map(([s, x]) => [s, x.rank]))),
            q.docs.map((d) => Object.fromEntries(Object.entries(d.stages ?? {}).map(([s, x]) => [s, x.rank]))),
            'stage ranks unchanged',
          );
          assert.deepEqual(back.queries[i].stageIds, q.stageIds, 'stage outputs unchanged');
          assert.deepEqual(
            sortTrecOrder([...b]).map((d) => d.id),
            sortTrecOrder([...q.docs]).map((d) => d.id),
            'trec_eval order unchanged',
          );
          const qrels = new Map(q.docs.map((d, j) => [d.id, j % 4]));
          for (const m of METRICS) {
            assert.equal(
              computeMetric(m, queryContext(b, qrels, DEFAULT_METRIC_OPTIONS)),
              computeMetric(m, queryContext(q.docs, qrels, DEFAULT_METRIC_OPTIONS)),
              m.name,
            );
          }
        }
      },
    ),
    { numRuns: 60 },
  );
});

test('a repeated id is written as the number of its first mention, or counted back from the latest when that is shorter', () => {
  const docs = (ids: string[]) => ids.map((x, i) => ({ id: x, score: 100 - i }));
  const many = Array.from({ length: 120 }, (_, i) => `d${i}`);
  const saved = run([
    { qid: 'q1', text: '', docs: docs(many), latencyMs: {}, metrics: {} },
    { qid: 'q2', text: '', docs: docs(['d118', 'd3', 'new']), latencyMs: {}, metrics: {} },
  ]);
  // d118 is first mention 118 of 120 so far: -2 is shorter; d3 is 3.
  assert.deepEqual(encodeRunV4(saved).queries[1].docs, [-2, 3, 'new']);
  assert.deepEqual(
    loadSavedRun(saveRun(tempDir(), saved)).queries.map((q) => q.docs.map((d) => d.id)),
    [many, ['d118', 'd3', 'new']],
  );
});

test('the prefix every id shares is written once ("idPrefix"), never splitting a character, and read back onto each id', () => {
  const docs = (ids: string[]) => ids.map((x, i) => ({ id: x, score: 10 - i }));
  const saved = (a: string[], b: string[]) =>
    run([
      { qid: 'q1', text: '', docs: docs(a), latencyMs: {}, metrics: {} },
      { qid: 'q2', text: '', docs: docs(b), latencyMs: {}, metrics: {} },
    ]);
  const roundTrip = (s: ReturnType<typeof saved>) => loadSavedRun(saveRun(tempDir(), s)).queries.map((q) => q.docs.map((d) => d.id));
  const plain = saved(['doc-12', 'doc-1', 'doc-'], ['doc-1', 'doc-7']);
  const file = encodeRunV4(plain);
  assert.equal(file.idPrefix, 'doc-');
  assert.deepEqual(
    file.queries.map((q) => q.docs),
    [
      ['12', '1', ''],
      [1, '7'],
    ],
  );
  assert.deepEqual(roundTrip(plain), [
    ['doc-12', 'doc-1', 'doc-'],
    ['doc-1', 'doc-7'],
  ]);
  // '😀' and '😁' share their first UTF-16 unit: a prefix of that unit alone would be half a character.
  const emoji = saved(['😀a', '😁b'], ['😀a']);
  assert.equal(encodeRunV4(emoji).idPrefix, undefined);
  assert.deepEqual(roundTrip(emoji), [['😀a', '😁b'], ['😀a']]);
  const whole = saved(['x😀1', 'x😀2'], []);
  assert.equal(encodeRunV4(whole).idPrefix, 'x😀');
  assert.deepEqual(roundTrip(whole), [['x😀1', 'x😀2'], []]);
});
