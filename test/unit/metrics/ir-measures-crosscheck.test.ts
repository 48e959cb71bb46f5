// RBP, ERR@k and nERR@k against ir_measures (RBP through cwl_eval, ERR through gdeval) on every real
// collection's BM25 run (RANKLAB_COLLECTIONS) and on the adversarial run of test/data/trec_eval. Python with
// ir_measures comes from $RANKLAB_PYTHON or .venv-test/bin/python (.ci/run installs it from test/python/requirements.txt).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadJudgments } from '../../../src/core/judgments';
import { evaluateRun, parseMetricList } from '../../../src/core/metrics';
import { formatTrecRun, readTrecRun } from '../../../src/core/run/trec-run';
import { REPO_DIR } from '../../helpers/cli';
import { crosscheckPython } from '../../helpers/python';
import { COLLECTIONS, COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';

const SCRIPT = join(REPO_DIR, 'test/python/metrics18_ir_measures.py');
const CUTOFFS = [5, 10, 20];
const PS = [0.5, 0.8, 0.95];

// One lookup for every cross-check (test/helpers/python.ts): skipped with the reason where Python or a package is
// missing, a failure under RANKLAB_REQUIRE_CROSSCHECK=1 (CI).
const found = crosscheckPython();
const PY = { path: found.python, why: found.skip };

function crossCheck(qrelsPath: string, runPath: string): number {
  const r = spawnSync(PY.path!, [SCRIPT, qrelsPath, runPath, CUTOFFS.join(','), PS.join(',')], { encoding: 'utf8', maxBuffer: 1 << 26 });
  assert.equal(r.status, 0, r.stderr);
  const reference: Record<string, Record<string, number>> = JSON.parse(r.stdout);
  const judgments = loadJudgments({ qrels: qrelsPath });
  const { run } = readTrecRun(runPath);
  const names = [...CUTOFFS.flatMap((k) => [`err@${k}`, `nerr@${k}`]), ...PS.map((p) => `rbp@${p}`)];
  const ev = evaluateRun(run, judgments, parseMetricList(names), { gain: 'exp', relevanceThreshold: 1 });
  let compared = 0;
  for (const name of names) {
    const values = reference[name];
    assert.ok(values && Object.keys(values).length > 0, `no ${name} from ir_measures`);
    const errRef = name.startsWith('nerr') ? reference[name.slice(1)] : undefined;
    for (const [qid, expected] of Object.entries(values)) {
      const actual = ev.perQuery.get(qid)?.[name];
      assert.ok(actual !== undefined, `${name} query ${qid}: missing from Ranklab`);
      if (name.startsWith('rbp')) {
        assert.ok(Math.abs(actual - expected) <= 1e-6, `${runPath} query ${qid} ${name}: ir_measures ${expected}, Ranklab ${actual}`);
      } else if (name.startsWith('err')) {
        // gdeval prints 5 decimals: equal within half a unit of the last one.
        assert.ok(Math.abs(actual - expected) <= 5e-6 + 1e-12, `${runPath} query ${qid} ${name}: gdeval ${expected}, Ranklab ${actual}`);
      } else {
        // nERR = two 5-decimal gdeval values divided: Ranklab's exact value must lie in the interval they allow.
        const err = errRef![qid];
        const ideal = err / expected;
        const h = 5e-6 + 1e-12;
        const [lo, hi] = expected === 0 ? [0, h] : [(err - h) / (ideal + h), (err + h) / (ideal - h)];
        assert.ok(
          actual >= lo - 1e-12 && actual <= hi + 1e-12,
          `${runPath} query ${qid} ${name}: gdeval-based ${expected}, Ranklab ${actual}`,
        );
      }
      compared++;
    }
  }
  return compared;
}

for (const c of COLLECTIONS) {
  test(`${c}: RBP (p 0.5, 0.8, 0.95), ERR@5,10,20 and nERR equal ir_measures`, { skip: COLLECTIONS_SKIP || PY.why }, () => {
    const n = crossCheck(collectionPath(c, 'qrels.tsv'), collectionPath(c, 'run.bm25.txt'));
    assert.ok(n > 100);
  });
}

test('adversarial run (ties, unjudged on top, graded 0-3): RBP, ERR, nERR equal ir_measures', { skip: PY.why }, () => {
  // cwl_eval (ir_measures' RBP) keeps the file's order among tied scores where trec_eval and gdeval sort them by
  // docid descending — tools disagree on ties. ir_measures is given the run re-written in trec_eval's order
  // (same scores, rank column and line order made consistent), so what is compared is the measure itself.
  const file = join(mkdtempSync(join(tmpdir(), 'ranklab-irm-')), 'run.txt');
  writeFileSync(file, formatTrecRun(readTrecRun(join(REPO_DIR, 'test/data/trec_eval/adversarial/run.txt')).run, 'adv'));
  assert.ok(crossCheck(join(REPO_DIR, 'test/data/trec_eval/adversarial/qrels.txt'), file) > 300);
});

test('cranfield exp-gain qrels (grades up to 15): ERR counts grades above 4 as 4, gdeval refuses them', {
  skip: COLLECTIONS_SKIP || PY.why,
}, () => {
  const r = spawnSync(
    PY.path!,
    [SCRIPT, collectionPath('cranfield', 'qrels.exp2gain.tsv'), collectionPath('cranfield', 'run.bm25.txt'), '10', '0.8'],
    { encoding: 'utf8' },
  );
  assert.notEqual(r.status, 0, 'gdeval accepts only grades up to 4');
});
