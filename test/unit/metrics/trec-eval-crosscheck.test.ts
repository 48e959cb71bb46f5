// Every query, every metric, on every real collection (RANKLAB_COLLECTIONS): Ranklab must print what trec_eval 10.0 printed.
// The reference files were produced by trec_eval itself (see the collections' README.md). Needs RANKLAB_COLLECTIONS.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadJudgments } from '../../../src/core/judgments';
import { evaluateRun, parseMetricList, type GainKind } from '../../../src/core/metrics';
import { readTrecRun } from '../../../src/core/run/trec-run';
import { COLLECTIONS, COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';

const TREC_TO_RANKLAB: Record<string, string> = {
  P_5: 'p@5',
  P_10: 'p@10',
  recall_10: 'recall@10',
  recall_100: 'recall@100',
  ndcg_cut_5: 'ndcg@5',
  ndcg_cut_10: 'ndcg@10',
  recip_rank: 'mrr',
};

/** Parses `trec_eval -q` output: "measure <TAB> qid|all <TAB> value". */
function readTrecEvalOutput(path: string): Map<string, Map<string, number>> {
  const byQuery = new Map<string, Map<string, number>>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const cols = line.trim().split(/\s+/);
    if (cols.length !== 3 || !(cols[0] in TREC_TO_RANKLAB)) continue;
    const [measure, qid, value] = cols;
    if (!byQuery.has(qid)) byQuery.set(qid, new Map());
    byQuery.get(qid)!.set(TREC_TO_RANKLAB[measure], Number(value));
  }
  return byQuery;
}

function crossCheck(collection: string, referenceFile: string, gain: GainKind) {
  const dir = collectionPath(collection);
  const judgments = loadJudgments({ qrels: join(dir, 'qrels.tsv'), queries: join(dir, 'queries.jsonl') });
  const { run, diagnostics } = readTrecRun(join(dir, 'run.bm25.txt'));
  assert.deepEqual(diagnostics, []);
  const specs = parseMetricList(Object.values(TREC_TO_RANKLAB));
  const ev = evaluateRun(run, judgments, specs, { gain, relevanceThreshold: 1 });
  const reference = readTrecEvalOutput(join(dir, referenceFile));
  const referenceQueries = [...reference.keys()].filter((q) => q !== 'all');
  assert.equal(ev.queries, referenceQueries.length, 'number of evaluated queries');
  let compared = 0;
  // trec_eval prints %.4f: a value matches when it rounds to the printed one (half a unit of the last digit).
  const tolerance = 0.00005 + 1e-9;
  for (const [qid, values] of reference) {
    const ours = qid === 'all' ? ev.means : ev.perQuery.get(qid);
    assert.ok(ours, `query ${qid} missing from Ranklab's evaluation`);
    for (const [metric, expected] of values) {
      const actual = ours[metric];
      assert.ok(Math.abs(actual - expected) <= tolerance, `${collection} query ${qid} ${metric}: trec_eval ${expected}, Ranklab ${actual}`);
      compared++;
    }
  }
  assert.equal(compared, reference.size * Object.keys(TREC_TO_RANKLAB).length);
}

for (const collection of COLLECTIONS) {
  test(`${collection}: every query and metric equals trec_eval (linear gain)`, { skip: COLLECTIONS_SKIP }, () =>
    crossCheck(collection, 'trec_eval.bm25.txt', 'linear'),
  );
}

test('cranfield (graded 0-4): exponential gain equals trec_eval on the 2^rel-1 rewritten qrels', { skip: COLLECTIONS_SKIP }, () => {
  assert.ok(existsSync(collectionPath('cranfield', 'trec_eval.bm25.exp2gain.txt')));
  crossCheck('cranfield', 'trec_eval.bm25.exp2gain.txt', 'exp');
});

test('the cross-check can fail: gain exp against the linear-gain reference differs on graded data', { skip: COLLECTIONS_SKIP }, () => {
  assert.throws(() => crossCheck('cranfield', 'trec_eval.bm25.txt', 'exp'), /ndcg@/);
});
