// Pooling: which unjudged (query, document) pairs, each once, in which order; the projected judged@k equals the
// judged@k `eval` reports after the pool is really graded (grades written with the writer, judgments re-read,
// configs re-run); and `ranklab pool` on the example workspace.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { buildPool } from '../../../src/core/judging/pool';
import { workspacePool } from '../../../src/core/session/judging-pool';
import { GradeWriter } from '../../../src/core/judging/writer';
import { evaluateRun, parseMetricList } from '../../../src/core/metrics';
import type { Run } from '../../../src/core/run/types';
import { evaluateConfig } from '../../../src/core/session/evaluate';
import { RanklabSession } from '../../../src/core/session/session';
import { poolSummary } from '../../../src/cli/commands/pool';
import { ranklab } from '../../helpers/cli';
import { judgmentsOf } from '../../helpers/judgments';
import { copyOfExample } from '../../helpers/workspace';

const run = (lists: Record<string, string[]>): Run =>
  new Map(Object.entries(lists).map(([q, ids]) => [q, ids.map((id, i) => ({ id, score: 10 - i }))]));
const options = { gain: 'exp' as const, relevanceThreshold: 1 };

describe('buildPool', () => {
  // q1: a judged; A = [a, b, c], B = [b, a, d]. q2: x judged; both [x, y, z].
  // P@3 weights (candidate − baseline contribution) of q1's unjudged documents: b 0 (both top 3), c −1/3, d +1/3;
  // q2's lists are equal, every weight 0. The mean delta is 0 but could be ±1/6: c and d decide it.
  const judgments = judgmentsOf({ q1: { a: 1 }, q2: { x: 1 } });
  const A = { name: 'A', run: run({ q1: ['a', 'b', 'c'], q2: ['x', 'y', 'z'] }) };
  const B = { name: 'B', run: run({ q1: ['b', 'a', 'd'], q2: ['x', 'y', 'z'] }) };

  it('deciding pairs first, then by best rank; each pair once with its rank in every config', () => {
    const pool = buildPool([A, B], judgments, { depth: 3, specs: parseMetricList('p@3'), metricOptions: options });
    assert.deepEqual(
      pool.pairs.map((p) => `${p.qid} ${p.docId} ${p.reason}`),
      ['q1 c deciding', 'q1 d deciding', 'q1 b shared', 'q2 y shared', 'q2 z shared'],
    );
    assert.deepEqual(pool.pairs.find((p) => p.docId === 'b')!.ranks, { A: 2, B: 1 });
    assert.deepEqual(pool.byReason, { deciding: 2, differing: 0, shared: 3 });
    assert.equal(pool.total, 5);
  });

  it('without deciding pairs (one config, or a metric they cannot move) the differing ones come first', () => {
    const pool = buildPool([A, B], judgments, { depth: 3, specs: parseMetricList('p@1'), metricOptions: options });
    // P@1: q1's first documents a (judged) and b (unjudged, the candidate's top): b decides.
    assert.deepEqual(
      pool.pairs.map((p) => `${p.qid} ${p.docId} ${p.reason}`),
      ['q1 b deciding', 'q1 c differing', 'q1 d differing', 'q2 y shared', 'q2 z shared'],
    );
    const single = buildPool([A], judgments, { depth: 2, specs: parseMetricList('p@3'), metricOptions: options });
    assert.deepEqual(
      single.pairs.map((p) => `${p.qid} ${p.docId} ${p.reason}`),
      ['q1 b shared', 'q2 y shared'],
    );
  });

  it('projects judged@k: 1/3 now; 1 with the whole pool; 1/2 with the first two pairs', () => {
    const all = buildPool([A, B], judgments, { depth: 3, specs: parseMetricList('p@3'), metricOptions: options });
    assert.deepEqual(all.judged, { A: { k: 3, now: 1 / 3, projected: 1 }, B: { k: 3, now: 1 / 3, projected: 1 } });
    const two = buildPool([A, B], judgments, { depth: 3, max: 2, specs: parseMetricList('p@3'), metricOptions: options });
    assert.equal(two.pairs.length, 2);
    assert.equal(two.total, 5);
    // A: q1 [a, b, c] → a and c judged = 2/3, q2 1/3; B: q1 [b, a, d] → a, d = 2/3.
    assert.deepEqual(two.judged, { A: { k: 3, now: 1 / 3, projected: 0.5 }, B: { k: 3, now: 1 / 3, projected: 0.5 } });
  });

  it('scopes to queries and skips pairs the caller names', () => {
    const pool = buildPool([A, B], judgments, {
      depth: 3,
      qids: new Set(['q2']),
      skip: (_, d) => d === 'z',
      specs: parseMetricList('p@3'),
      metricOptions: options,
    });
    assert.deepEqual(
      pool.pairs.map((p) => `${p.qid} ${p.docId}`),
      ['q2 y'],
    );
  });

  it('with chosen queries, judged@k is over those queries (now and projected), and the summary says so', () => {
    // q1 only, the first pair (q1 c): A [a, b, c] has a judged → 1/3 now, with c → 2/3; B [b, a, d] 1/3 either way.
    // Over both queries A's projection would be (2/3 + 1/3) / 2 = 1/2.
    const pool = buildPool([A, B], judgments, {
      depth: 3,
      qids: new Set(['q1']),
      max: 1,
      specs: parseMetricList('p@3'),
      metricOptions: options,
    });
    assert.deepEqual(
      pool.pairs.map((p) => `${p.qid} ${p.docId}`),
      ['q1 c'],
    );
    assert.deepEqual(pool.judged, { A: { k: 3, now: 1 / 3, projected: 2 / 3 }, B: { k: 3, now: 1 / 3, projected: 1 / 3 } });
    assert.match(poolSummary(pool), /judged@3 A over the 1 chosen query: 0\.333 now, 0\.667 if the pool is graded/);
    assert.doesNotMatch(
      poolSummary(buildPool([A, B], judgments, { depth: 3, specs: parseMetricList('p@3'), metricOptions: options })),
      /chosen/,
    );
  });

  it('with judged pairs included, the summary does not call them unjudged', () => {
    const pool = buildPool([A, B], judgments, { depth: 3, includeJudged: true, specs: parseMetricList('p@3'), metricOptions: options });
    // q1: a (judged), b, c, d; q2: x (judged), y, z.
    assert.equal(pool.pairs.length, 7);
    assert.equal(pool.alreadyJudged, 2);
    assert.match(poolSummary(pool), /^pool: 7 pairs \(2 graded already, 5 unjudged\) from the top 3/);
    assert.match(
      poolSummary(buildPool([A, B], judgments, { depth: 3, specs: parseMetricList('p@3'), metricOptions: options })),
      /^pool: 5 unjudged pairs/,
    );
  });
});

describe('pool of a workspace', () => {
  it('the projected judged@10 is what eval reports once the pool is graded (written with the writer, re-run)', async () => {
    const dir = copyOfExample();
    try {
      const session = RanklabSession.open(dir, { writeCache: false });
      const { pool, sides, failed } = await workspacePool(session, {
        configs: ['baseline', 'title-boost-3'].map((c) => session.resolveConfig(c)),
        max: 25,
      });
      assert.deepEqual(failed, []);
      assert.equal(pool.pairs.length, 25);
      assert.ok(pool.total > 600, `pool of ${pool.total}`);
      const keys = pool.pairs.map((p) => `${p.qid}\t${p.docId}`);
      assert.equal(new Set(keys).size, keys.length, 'each pair once');
      for (const p of pool.pairs) assert.equal(session.judgments().qrels.get(p.qid)!.has(p.docId), false, 'only unjudged pairs');
      // Grade the pool for real, in golden.json, alternating grades.
      const writer = new GradeWriter({ root: dir, specs: session.workspace.judgmentSpecs });
      pool.pairs.forEach((p, i) => writer.write(session.reloadJudgments(), p.qid, p.docId, i % 4));
      const after = RanklabSession.open(dir, { writeCache: false });
      const judged = parseMetricList('judged@10');
      for (const side of sides) {
        const projected = pool.judged[side.name]!;
        assert.ok(projected.projected > projected.now, `${side.name}: ${projected.now} → ${projected.projected}`);
        const r = await evaluateConfig(after, after.resolveConfig(side.name), { specs: judged, metricOptions: options, save: false });
        assert.equal(r.evaluation.means['judged@10'], projected.projected, side.name);
        // The lists did not change by grading: the same run scored on the new judgments gives the same figure.
        assert.equal(evaluateRun(side.run, after.judgments(), judged, options).means['judged@10'], projected.projected);
      }
      const graded = after.judgments().qrels;
      pool.pairs.forEach((p, i) => assert.equal(graded.get(p.qid)!.get(p.docId), i % 4));
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });

  it('ranklab pool prints TSV on stdout and the projection on stderr; JSON has both; --slice and --queries scope it', () => {
    const dir = copyOfExample();
    try {
      const tsv = ranklab(['pool', '--workspace', dir, '--config', 'baseline', '--config', 'title-boost-3', '--max', '5']);
      assert.equal(tsv.code, 0, tsv.stderr);
      const lines = tsv.stdout.trim().split('\n');
      assert.equal(lines[0], 'qid\tdocid\tbest_rank\treason\tranks\tquery\ttitle\tpassage');
      assert.equal(lines.length, 6);
      assert.match(lines[1]!, /^q\d+\t\S+\t\d+\tdeciding\tbaseline:[\d-]+,title-boost-3:[\d-]+\t[^\t]+\t[^\t]*\t[^\t]+$/);
      // Each pair carries what a rater outside the editor needs: the query's text and the document's passage.
      const session = RanklabSession.open(dir);
      for (const line of lines.slice(1)) {
        const [qid, docid, , , , query, title, passage] = line.split('\t');
        assert.equal(query, session.judgments().queries.get(qid!)!.text);
        const doc = session.document(docid!)!;
        assert.equal(title, doc.title.replace(/\s+/g, ' ').trim());
        const body = doc.body.replace(/\s+/g, ' ').trim();
        const text = passage!.replace(/^… /, '').replace(/ …$/, '');
        assert.ok(text.length > 0 && body.includes(text), `${docid}: the passage is the body's text`);
        assert.ok(text.length <= 700 && (passage!.startsWith('… ') || body.startsWith(text)), `${docid}: marked where it was cut`);
      }
      assert.match(tsv.stderr, /judged@10 baseline: 0\.316 now, 0\.3\d\d if the pool is graded/);
      const json = ranklab([
        'pool',
        '--workspace',
        dir,
        '--config',
        'baseline',
        '--depth',
        '3',
        '--queries',
        'q01,q02',
        '--format',
        'json',
      ]);
      assert.equal(json.code, 0, json.stderr);
      const out = JSON.parse(json.stdout);
      assert.equal(out.depth, 3);
      assert.ok(out.pairs.length > 0);
      assert.ok(out.pairs.every((p: { qid: string; bestRank: number }) => ['q01', 'q02'].includes(p.qid) && p.bestRank <= 3));
      assert.equal(out.judged.baseline.k, 3);
      assert.deepEqual(out.queries, ['q01', 'q02']);
      const q01 = RanklabSession.open(dir).judgments().queries.get('q01')!.text;
      assert.ok(
        out.pairs
          .filter((p: { qid: string }) => p.qid === 'q01')
          .every((p: { query: string; passage: string }) => p.query === q01 && p.passage.length > 0),
      );
      // judged@3 over the two queries: the mean eval gives on a judgment set of those queries only.
      const all = JSON.parse(ranklab(['pool', '--workspace', dir, '--config', 'baseline', '--depth', '3', '--format', 'json']).stdout);
      assert.equal(all.queries, null);
      const slice = ranklab(['pool', '--workspace', dir, '--config', 'baseline', '--slice', 'no-such-tag']);
      assert.equal(slice.code, 2);
      assert.match(slice.stderr, /no judged query has the tag "no-such-tag"/);
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });

  it('ranklab pool: a broken config is reported once at its line, the others are pooled (exit 2); --strict pools nothing', () => {
    const dir = copyOfExample();
    try {
      writeFileSync(join(dir, 'configs/broken.rank.json'), '{\n  "lexical": {\n    "fields": { "title": "heavy" }\n  }\n}\n');
      const r = ranklab(['pool', '--workspace', dir, '--config', 'baseline', '--config', 'broken', '--max', '3']);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout.trim().split('\n').length, 4, 'the header and three pairs of the usable config');
      assert.match(r.stdout, /\tbaseline:\d+\t/m);
      assert.doesNotMatch(r.stdout, /broken/);
      const mentions = r.stderr.split('\n').filter((l) => l.includes('broken.rank.json:3'));
      assert.equal(mentions.length, 1, `the problem is printed once, at its line:\n${r.stderr}`);
      const strict = ranklab(['pool', '--workspace', dir, '--config', 'baseline', '--config', 'broken', '--max', '3', '--strict']);
      assert.equal(strict.code, 2);
      assert.equal(strict.stdout, '');
      assert.match(strict.stderr, /nothing was run/);
    } finally {
      rmSync(dirname(dir), { recursive: true, force: true });
    }
  });
});
