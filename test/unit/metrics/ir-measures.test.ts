// Every metric of every query on the real collections' (RANKLAB_COLLECTIONS) reference runs against ir_measures (pytrec_eval, i.e.
// trec_eval's C code, underneath), through test/python/crosscheck.py: full double precision, not trec_eval's
// printed 4 decimals. The metric list is a parameter: a metric added to Ranklab joins by adding its pair here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadJudgments } from '../../../src/core/judgments';
import { type GainKind, evaluateRun, parseMetricList } from '../../../src/core/metrics';
import { readTrecRun } from '../../../src/core/run/trec-run';
import { crosscheck, crosscheckPython } from '../../helpers/python';
import { COLLECTIONS, COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';

/** Ranklab metric → the ir_measures measure with the same definition. */
const IR_MEASURES: Record<string, string> = {
  'ndcg@5': 'nDCG@5',
  'ndcg@10': 'nDCG@10',
  'ndcg@100': 'nDCG@100',
  'p@5': 'P@5',
  'p@10': 'P@10',
  'recall@10': 'R@10',
  'recall@100': 'R@100',
  mrr: 'RR',
  'mrr@10': 'RR@10',
  ap: 'AP',
  'ap@10': 'AP@10',
  'hit@5': 'Success@5',
  'judged@10': 'Judged@10',
};

const { python, versions, skip: pythonSkip } = crosscheckPython();
const skip = COLLECTIONS_SKIP || pythonSkip;
/** Both sides compute in double precision from the same formula; only summation order differs. */
const TOLERANCE = 1e-9;

function crossCheck(collection: string, qrelsFile: string, gain: GainKind, referenceQrels = qrelsFile): number {
  const dir = collectionPath(collection);
  const judgments = loadJudgments({ qrels: join(dir, qrelsFile), queries: join(dir, 'queries.jsonl') });
  const { run } = readTrecRun(join(dir, 'run.bm25.txt'));
  const ours = evaluateRun(run, judgments, parseMetricList(Object.keys(IR_MEASURES)), { gain, relevanceThreshold: 1 });
  const { metrics } = crosscheck<{ metrics: Record<string, Record<string, number>> }>(python!, {
    metrics: { qrels: join(dir, referenceQrels), run: join(dir, 'run.bm25.txt'), measures: Object.values(IR_MEASURES) },
  });
  let compared = 0;
  for (const [name, measure] of Object.entries(IR_MEASURES)) {
    const reference = metrics[measure];
    const queries = [...ours.perQuery.keys()].filter((q) => run.has(q));
    assert.deepEqual(Object.keys(reference).sort(), queries.sort(), `${collection} ${name}: the same queries`);
    for (const q of queries) {
      const actual = ours.perQuery.get(q)![name];
      assert.ok(
        Math.abs(actual - reference[q]) <= TOLERANCE,
        `${collection} query ${q} ${name}: ir_measures ${measure} ${reference[q]}, Ranklab ${actual}`,
      );
      compared++;
    }
  }
  return compared;
}

for (const collection of COLLECTIONS) {
  test(`${collection}: every query and metric equals ir_measures ${versions?.ir_measures ?? ''}`.trimEnd(), { skip }, () => {
    assert.ok(crossCheck(collection, 'qrels.tsv', 'linear') > 0);
  });
}

test('cranfield (graded 0-4): exponential-gain nDCG equals ir_measures on the 2^rel-1 rewritten qrels', { skip }, () => {
  assert.ok(crossCheck('cranfield', 'qrels.tsv', 'exp', 'qrels.exp2gain.tsv') > 0);
});

test('the cross-check can fail: exponential gain against linear-gain references differs on graded data', { skip }, () => {
  assert.throws(() => crossCheck('cranfield', 'qrels.tsv', 'exp'), /ndcg@/);
});
