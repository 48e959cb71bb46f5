import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadJudgments, queriesWithoutRelevant, readBeirJudgments, readQrels, readQueries } from '../../../src/core/judgments';
import { COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';

// From the collections' README.md (table "Collections"): eval queries, judged pairs, queries in source.
const EXPECTED: Record<string, { queries: number; pairs: number; inSource: number }> = {
  cranfield: { queries: 225, pairs: 1837, inSource: 225 },
  cisi: { queries: 76, pairs: 3114, inSource: 112 },
  med: { queries: 30, pairs: 696, inSource: 30 },
  cacm: { queries: 52, pairs: 796, inSource: 64 },
  lisa: { queries: 35, pairs: 379, inSource: 35 },
  adi: { queries: 35, pairs: 170, inSource: 35 },
};

function gradeCounts(qrels: Map<string, Map<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const docs of qrels.values()) for (const g of docs.values()) out[g] = (out[g] ?? 0) + 1;
  return out;
}

describe('the real collections (RANKLAB_COLLECTIONS)', { skip: COLLECTIONS_SKIP }, () => {
  for (const [name, expected] of Object.entries(EXPECTED)) {
    it(`${name}: ${expected.pairs} judged pairs over ${expected.queries} queries, no diagnostics`, () => {
      const dir = collectionPath(name);
      const qrels = readQrels(join(dir, 'qrels.tsv'));
      assert.deepEqual(qrels.diagnostics, []);
      let pairs = 0;
      for (const docs of qrels.qrels.values()) pairs += docs.size;
      assert.equal(pairs, expected.pairs);
      assert.equal(qrels.qrels.size, expected.queries);

      const stats = JSON.parse(readFileSync(join(dir, 'stats.json'), 'utf8')) as { rel_distribution: Record<string, number> };
      assert.deepEqual(gradeCounts(qrels.qrels), stats.rel_distribution);

      const queries = readQueries(join(dir, 'queries.jsonl'));
      assert.deepEqual(queries.diagnostics, []);
      assert.equal(queries.queries.size, expected.queries);
      assert.equal(readQueries(join(dir, 'queries.all.jsonl')).queries.size, expected.inSource);

      const set = readBeirJudgments(dir);
      assert.deepEqual(set.diagnostics, [], 'every judged query has text and every query has judgments');
      assert.equal(set.queries.size, expected.queries);
      assert.deepEqual(queriesWithoutRelevant(set), [], 'README: every eval query has a relevant document');
      const viaSpec = loadJudgments({ qrels: join(dir, 'qrels.tsv'), queries: join(dir, 'queries.jsonl') });
      assert.equal(viaSpec.fingerprint, set.fingerprint);
    });
  }

  it('cranfield: graded 0..4, 158 queries have no grade-4 document (computed with awk)', () => {
    const set = readBeirJudgments(collectionPath('cranfield'));
    assert.equal(queriesWithoutRelevant(set, 4).length, 158);
    assert.equal(queriesWithoutRelevant(set, 3).length, 42);
    assert.equal(set.qrels.get('1')?.get('486'), 0);
    assert.equal(set.qrels.get('1')?.get('12'), 2);
  });

  it('cranfield exp2gain qrels: same pairs, grades 2^rel - 1', () => {
    const exp = readQrels(collectionPath('cranfield', 'qrels.exp2gain.tsv'));
    assert.deepEqual(gradeCounts(exp.qrels), { '0': 225, '1': 363, '3': 734, '7': 387, '15': 128 });
  });
});
