// bpref, infAP, Rprec, success@k, the RBP residual and the condensed-list (-J) variants against trec_eval 10.0:
// every query of the six real collections' BM25 runs (RANKLAB_COLLECTIONS) and of an adversarial run (ties across
// "9"/"10"/"100", unjudged documents on top, queries missing from the run, lists shorter than R, graded 0-3, -l 2).
// The reference outputs are committed under test/data/trec_eval/ by scripts/gen-trec-eval-refs.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadJudgments } from '../../../src/core/judgments';
import { evaluateRun, parseMetricList, type EvaluateOptions } from '../../../src/core/metrics';
import { readTrecRun } from '../../../src/core/run/trec-run';
import { REPO_DIR } from '../../helpers/cli';
import { COLLECTIONS, COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';

const REFS = join(REPO_DIR, 'test/data/trec_eval');
const MAIN: Record<string, string> = {
  Rprec: 'rprec',
  bpref: 'bpref',
  infAP: 'infap',
  success_1: 'success@1',
  success_5: 'success@5',
  success_10: 'success@10',
};
const CONDENSED: Record<string, string> = { ndcg_cut_5: 'ndcg@5', ndcg_cut_10: 'ndcg@10', map: 'ap', P_5: 'p@5', P_10: 'p@10' };
const RESIDUAL = 'rbp_resid_p=0.8';
// trec_eval prints %.4f: equal means within half a unit of the last printed digit.
const TOLERANCE = 0.00005 + 1e-9;

/** `trec_eval -q` output as measure → qid → value. */
function readReference(file: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const line of readFileSync(join(REFS, file), 'utf8').split('\n')) {
    const [measure, qid, value] = line.split('\t');
    if (value === undefined) continue;
    if (!out.has(measure)) out.set(measure, new Map());
    out.get(measure)!.set(qid, Number(value));
  }
  return out;
}

function check(qrelsPath: string, runPath: string, refFile: string, names: Record<string, string>, options: EvaluateOptions): number {
  const judgments = loadJudgments({ qrels: qrelsPath });
  const { run } = readTrecRun(runPath);
  const specs = parseMetricList([...Object.values(names), 'rbp@0.8']);
  const ev = evaluateRun(run, judgments, specs, options);
  const ref = readReference(refFile);
  let compared = 0;
  for (const [measure, metric] of Object.entries(names)) {
    const name = specs.find((s) => s.name === parseMetricList(metric)[0].name)!.name;
    const values = ref.get(measure);
    assert.ok(values, `${refFile}: no ${measure} in the reference`);
    assert.equal(values.size, ev.queries + 1, `${refFile} ${measure}: number of queries (+ all)`);
    for (const [qid, expected] of values) {
      const actual = qid === 'all' ? ev.means[name] : ev.perQuery.get(qid)?.[name];
      assert.ok(
        actual !== undefined && Math.abs(actual - expected) <= TOLERANCE,
        `${refFile} query ${qid} ${measure}: trec_eval ${expected}, Ranklab ${actual}`,
      );
      compared++;
    }
  }
  const resid = ref.get(RESIDUAL);
  if (resid) {
    for (const [qid, expected] of resid) {
      if (qid === 'all') continue;
      const docs = run.get(qid) ?? [];
      const actual = ev.residuals.perQuery.get(qid)!['rbp@0.8'];
      const qrels = judgments.qrels.get(qid)!;
      if (docs.length === 0 || docs.some((d) => !qrels.has(d.id))) {
        assert.ok(
          Math.abs(actual - expected) <= TOLERANCE,
          `${refFile} query ${qid} rbp residual: trec_eval ${expected}, Ranklab ${actual}`,
        );
      } else {
        // trec_eval prints 0 when a non-empty list has no unjudged document; Moffat & Zobel's residual is then p^n.
        assert.equal(expected, 0);
        assert.ok(Math.abs(actual - 0.8 ** docs.length) < 1e-12);
      }
      compared++;
    }
  }
  return compared;
}

const collection = (c: string, f: string) => collectionPath(c, f);
const adversarial = (f: string) => join(REFS, 'adversarial', f);

for (const c of COLLECTIONS) {
  test(`${c}: bpref, infAP, Rprec, success@1,5,10 and the RBP residual equal trec_eval on every query`, { skip: COLLECTIONS_SKIP }, () => {
    const n = check(collection(c, 'qrels.tsv'), collection(c, 'run.bm25.txt'), `${c}.txt`, MAIN, { gain: 'linear', relevanceThreshold: 1 });
    assert.ok(n > 100);
  });
  test(`${c}: --judged-only nDCG@5,10, AP, P@5,10 equal trec_eval -J on every query`, { skip: COLLECTIONS_SKIP }, () => {
    check(collection(c, 'qrels.tsv'), collection(c, 'run.bm25.txt'), `${c}.J.txt`, CONDENSED, {
      gain: 'linear',
      relevanceThreshold: 1,
      judgedOnly: true,
    });
  });
}

test('adversarial run (ties, unjudged on top, missing queries, short lists): equal trec_eval, thresholds 1 and 2', () => {
  for (const threshold of [1, 2]) {
    const suffix = threshold === 1 ? '' : '.l2';
    check(adversarial('qrels.txt'), adversarial('run.txt'), `adversarial${suffix}.txt`, MAIN, {
      gain: 'linear',
      relevanceThreshold: threshold,
    });
    check(adversarial('qrels.txt'), adversarial('run.txt'), `adversarial${suffix}.J.txt`, CONDENSED, {
      gain: 'linear',
      relevanceThreshold: threshold,
      judgedOnly: true,
    });
  }
});

test('the cross-check can fail: without --judged-only the -J reference differs, and bpref is not AP', () => {
  assert.throws(
    () =>
      check(adversarial('qrels.txt'), adversarial('run.txt'), 'adversarial.J.txt', CONDENSED, { gain: 'linear', relevanceThreshold: 1 }),
    /trec_eval/,
  );
  assert.throws(
    () =>
      check(
        adversarial('qrels.txt'),
        adversarial('run.txt'),
        'adversarial.txt',
        { ...MAIN, bpref: 'ap' },
        { gain: 'linear', relevanceThreshold: 1 },
      ),
    /bpref/,
  );
});
