import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkDocIds,
  filterBySplit,
  loadJudgments,
  queriesWithoutRelevant,
  readGoldenSet,
  judgmentsVisibleTo,
} from '../../../src/core/judgments';
import { fixture, plainQrels, withTempDir } from './helpers';

const GOLDEN = [
  '[',
  '  {"id": "10", "query": "all zero", "judgments": {"a": 0, "b": 0}},',
  '  {"id": "2", "query": "one partial", "judgments": {"a": 1, "c": 0}, "split": "holdout", "tags": ["x"]},',
  '  {"id": "1", "query": "one perfect", "judgments": {"b": 3}, "split": "tune"},',
  '  {"id": "3", "query": "no labels at all"}',
  ']',
].join('\n');

function golden() {
  return withTempDir((_d, write) => readGoldenSet(write('g.json', GOLDEN)));
}

describe('queriesWithoutRelevant', () => {
  const set = golden();
  it('lists queries whose grades are all below the threshold, or that have none, in id order', () => {
    assert.deepEqual(queriesWithoutRelevant(set), ['3', '10']);
    assert.deepEqual(queriesWithoutRelevant(set, 2), ['2', '3', '10']);
    assert.deepEqual(queriesWithoutRelevant(set, 4), ['1', '2', '3', '10']);
  });
});

describe('checkDocIds', () => {
  it('warns once per judgment of an unknown document, at the judgment line', () => {
    const path = fixture('golden-binary.json');
    const set = readGoldenSet(path);
    const diags = checkDocIds(set, new Set(['doc_001', 'doc_007']));
    assert.deepEqual(diags, [
      { file: path, line: 2, severity: 'warning', message: 'unknown document id "doc_042" (judged for query "q1"): not in the corpus' },
    ]);
    assert.deepEqual(checkDocIds(set, new Set(['doc_001', 'doc_007', 'doc_042'])), []);
  });
});

describe('judgmentsVisibleTo', () => {
  const opts = { principal: 'ana', relevanceThreshold: 1 };
  it('drops judgments of documents the principal may not see and recomputes the fingerprint', () => {
    const set = golden();
    const r = judgmentsVisibleTo(set, (doc) => doc !== 'b', opts);
    // q1's only relevant document (b) is invisible: left out. q10 has no relevant document at all: kept as it is.
    assert.deepEqual(plainQrels(r.judgments.qrels), { '10': { a: 0 }, '2': { a: 1, c: 0 } });
    assert.deepEqual(r.excluded, [{ qid: '1', reason: 'all 1 relevant document(s) are invisible to ana' }]);
    assert.equal(r.judgments.queries.size, 4, 'query texts are kept');
    assert.equal(r.judgments.locations?.has('1\tb'), false);
    assert.notEqual(r.judgments.fingerprint, set.fingerprint);
    assert.deepEqual(plainQrels(set.qrels)['1'], { b: 3 }, 'the input set is not modified');
    assert.equal(judgmentsVisibleTo(set, () => true, opts).judgments.fingerprint, set.fingerprint);
  });
  it('relevance follows the threshold; a query without relevant documents stays even when nothing judged is visible', () => {
    const set = golden();
    // Threshold 2: q2's grade-1 document is not relevant, so q2 is not left out although a is invisible.
    const r = judgmentsVisibleTo(set, (doc) => doc === 'c', { ...opts, relevanceThreshold: 2 });
    assert.deepEqual(
      r.excluded.map((x) => x.qid),
      ['1'],
    );
    assert.deepEqual(plainQrels(r.judgments.qrels), { '10': {}, '2': { c: 0 } });
    const none = judgmentsVisibleTo(set, () => false, opts);
    assert.deepEqual(none.excluded.map((x) => x.qid).sort(), ['1', '2']);
    assert.deepEqual(plainQrels(none.judgments.qrels), { '10': {} });
  });
});

describe('filterBySplit', () => {
  const set = golden();
  it('keeps holdout queries only, or tune ones (no split = tune), or everything', () => {
    const holdout = filterBySplit(set, 'holdout');
    assert.deepEqual([...holdout.queries.keys()], ['2']);
    assert.deepEqual(plainQrels(holdout.qrels), { '2': { a: 1, c: 0 } });
    const tune = filterBySplit(set, 'tune');
    assert.deepEqual([...tune.queries.keys()].sort(), ['1', '10', '3']);
    assert.deepEqual(Object.keys(plainQrels(tune.qrels)).sort(), ['1', '10']);
    assert.equal(tune.queryLocations?.has('2'), false);
    assert.equal(filterBySplit(set, 'all').fingerprint, set.fingerprint);
    assert.notEqual(tune.fingerprint, holdout.fingerprint);
  });
});

describe('fingerprint', () => {
  it('is the same for the same labels in another file order and format', () => {
    withTempDir((dir, write) => {
      write('a.qrels', '1 0 x 2\n1 0 y 0\n2 0 z 1\n');
      write('b.qrels', '# reordered, other iter column\n2 Q0 z 1\n1 0 y 0\n\n1 7 x 2\n');
      write('q1.tsv', '1\tfirst\n2\tsecond\n');
      write('q2.jsonl', '{"id": "2", "text": "second"}\n{"id": "1", "text": "first"}\n');
      const a = loadJudgments({ qrels: 'a.qrels', queries: 'q1.tsv' }, { baseDir: dir });
      const b = loadJudgments({ qrels: 'b.qrels', queries: 'q2.jsonl' }, { baseDir: dir });
      assert.equal(a.fingerprint, b.fingerprint);
      assert.match(a.fingerprint, /^sha256:[0-9a-f]{16}$/);
    });
  });

  it('changes with any grade, text, tag or split', () => {
    const base = [{ id: 'q', query: 'text', judgments: { x: 2, y: 0 }, tags: ['t'], split: 'tune' }];
    const variants = [
      [{ ...base[0], judgments: { x: 1, y: 0 } }],
      [{ ...base[0], judgments: { x: 2, y: 1 } }],
      [{ ...base[0], judgments: { x: 2 } }],
      [{ ...base[0], query: 'text!' }],
      [{ ...base[0], tags: ['u'] }],
      [{ ...base[0], split: 'holdout' }],
    ];
    withTempDir((_d, write) => {
      const fp = (items: unknown) => readGoldenSet(write('g.json', JSON.stringify(items))).fingerprint;
      const original = fp(base);
      const seen = new Set([original]);
      for (const v of variants) {
        const f = fp(v);
        assert.ok(!seen.has(f), `fingerprint collision for ${JSON.stringify(v)}`);
        seen.add(f);
      }
      assert.equal(fp([{ ...base[0], tags: ['t', 't'] }]), original, 'duplicate tags collapse');
    });
  });
});
