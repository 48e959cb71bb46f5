// Rater agreement: Cohen's kappa (unweighted, linear, quadratic) and Krippendorff's ordinal alpha against a
// hand-computed example, Krippendorff's published example (2011), and scikit-learn / the krippendorff package on
// random ratings; the report over real per-rater files (people, an LLM rater, conflicts, confusion matrices);
// how several raters' grades are merged for scoring, and that the policy is part of the fingerprint.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { agreementReport, cohenKappa, krippendorffOrdinalAlpha } from '../../../src/core/judging/agreement';
import { fingerprintJudgments, loadJudgments } from '../../../src/core/judgments';
import { mergeGrades } from '../../../src/core/judgments/merge';
import { loadWorkspace } from '../../../src/core/workspace';
import { createRng } from '../../../src/core/util/random';
import { REPO_DIR, ranklab } from '../../helpers/cli';
import { plainQrels, withTempDir } from '../judgments/helpers';

function confusionOf(a: number[], b: number[], G: number): number[][] {
  const m = Array.from({ length: G + 1 }, () => new Array<number>(G + 1).fill(0));
  a.forEach((x, i) => m[x]![b[i]!]!++);
  return m;
}

describe("Cohen's kappa and Krippendorff's alpha", () => {
  it('equal a hand-computed example', () => {
    // A = 0 0 0 1 1 1 2 2 2 2, B = 0 0 1 1 1 2 2 2 2 0. Confusion rows A: [2 1 0] [0 2 1] [1 0 3]; margins 3 3 4 both.
    // p_o = 7/10, p_e = (9 + 9 + 16)/100 = 0.34, kappa = 0.36/0.66 = 6/11.
    // Expected E = r_i c_j / 10; linear: sum |i-j| O = 1 + 1 + 2 = 4, sum |i-j| E = 9.0 → 1 − 4/9 = 5/9.
    // Quadratic: sum (i-j)^2 O = 1 + 1 + 4 = 6, sum (i-j)^2 E = 13.8 → 1 − 6/13.8 = 13/23.
    const m = confusionOf([0, 0, 0, 1, 1, 1, 2, 2, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2, 2, 0], 2);
    assert.deepEqual(m, [
      [2, 1, 0],
      [0, 2, 1],
      [1, 0, 3],
    ]);
    assert.ok(Math.abs(cohenKappa(m)! - 6 / 11) < 1e-12);
    assert.ok(Math.abs(cohenKappa(m, 'linear')! - 5 / 9) < 1e-12);
    assert.ok(Math.abs(cohenKappa(m, 'quadratic')! - 13 / 23) < 1e-12);
    // Total chance agreement (both raters used one grade) leaves kappa undefined, as scikit-learn's nan.
    assert.equal(
      cohenKappa([
        [5, 0],
        [0, 0],
      ]),
      null,
    );
    // Alpha, two raters, units (0,0) (0,1) (1,1): coincidences o00 = 2, o01 = o10 = 1, o11 = 2; n0 = n1 = 3, n = 6;
    // delta²(0,1) = (3 + 3 − 3)² = 9; alpha = 1 − 5·(2·9) / (2·3·3·9) = 1 − 90/162 = 4/9.
    assert.ok(
      Math.abs(
        krippendorffOrdinalAlpha([
          [0, 0],
          [0, 1],
          [1, 1],
        ])! -
          4 / 9,
      ) < 1e-12,
    );
  });

  it("reproduce Krippendorff's published example (2011): ordinal alpha = 0.815", () => {
    // "Computing Krippendorff's Alpha-Reliability", section C: 4 observers, 12 units, values 1–5, missing data.
    const data = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, null, null, null],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, null, 3],
      [null, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, null],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, null],
    ];
    const units = data[0]!.map((_, u) => data.map((row) => row[u]).filter((v): v is number => v !== null));
    assert.equal(krippendorffOrdinalAlpha(units)!.toFixed(3), '0.815');
  });

  const PY = (() => {
    const path = process.env.RANKLAB_PYTHON ?? join(REPO_DIR, '.venv-test/bin/python');
    if (!existsSync(path)) return { why: `no Python at ${path} (set RANKLAB_PYTHON or run .ci/run to create .venv-test)` };
    const r = spawnSync(path, ['-c', 'import krippendorff, sklearn'], { encoding: 'utf8' });
    return r.status === 0 ? { path } : { why: `${path} lacks krippendorff/scikit-learn (pip install -r test/python/requirements.txt)` };
  })();

  it('equal scikit-learn (kappa) and the krippendorff package (alpha) on random ratings', { skip: PY.why }, () => {
    const rng = createRng(20240612);
    const int = (n: number) => Math.floor(rng() * n);
    const kappaCases: { a: number[]; b: number[]; labels: number[] }[] = [];
    const alphaCases: (number | null)[][][] = [];
    for (let c = 0; c < 60; c++) {
      const G = 1 + int(4);
      const n = 5 + int(60);
      // Correlated raters: b copies a, or moves a grade or two, or guesses.
      const a = Array.from({ length: n }, () => int(G + 1));
      const b = a.map((x) => (rng() < 0.5 ? x : rng() < 0.6 ? Math.min(G, Math.max(0, x + int(3) - 1)) : int(G + 1)));
      kappaCases.push({ a, b, labels: Array.from({ length: G + 1 }, (_, i) => i) });
      const raters = 2 + int(4);
      const units = 4 + int(40);
      const truth = Array.from({ length: units }, () => int(G + 1));
      alphaCases.push(Array.from({ length: raters }, () => truth.map((t) => (rng() < 0.25 ? null : rng() < 0.7 ? t : int(G + 1)))));
    }
    const dir = mkdtempSync(join(tmpdir(), 'ranklab-agreement-'));
    const file = join(dir, 'cases.json');
    writeFileSync(file, JSON.stringify({ kappa: kappaCases, alpha: alphaCases }));
    const r = spawnSync(PY.path!, [join(REPO_DIR, 'test/python/agreement_crosscheck.py'), file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const ref = JSON.parse(r.stdout) as { kappa: Record<'none' | 'linear' | 'quadratic', number | null>[]; alpha: (number | null)[] };
    let compared = 0;
    kappaCases.forEach((c, i) => {
      const m = confusionOf(c.a, c.b, c.labels.length - 1);
      for (const w of ['none', 'linear', 'quadratic'] as const) {
        const ours = cohenKappa(m, w);
        const theirs = ref.kappa[i]![w];
        if (theirs === null) assert.equal(ours, null, `case ${i} ${w}`);
        else assert.ok(ours !== null && Math.abs(ours - theirs) < 1e-9, `case ${i} ${w}: ours ${ours}, scikit-learn ${theirs}`);
        compared++;
      }
    });
    alphaCases.forEach((matrix, i) => {
      const units = matrix[0]!.map((_, u) => matrix.map((row) => row[u]).filter((v): v is number => v !== null && v !== undefined));
      const ours = krippendorffOrdinalAlpha(units);
      const theirs = ref.alpha[i];
      if (theirs === null || theirs === undefined) assert.equal(ours, null, `alpha case ${i}`);
      else assert.ok(ours !== null && Math.abs(ours - theirs) < 1e-9, `alpha case ${i}: ours ${ours}, krippendorff ${theirs}`);
      compared++;
    });
    assert.equal(compared, 60 * 4);
  });
});

describe('several raters', () => {
  it('merge policies: mean rounded half up, max, majority (ties to the lower grade)', () => {
    assert.equal(mergeGrades([1, 2], 'mean-rounded'), 2);
    assert.equal(mergeGrades([0, 1, 1], 'mean-rounded'), 1);
    assert.equal(mergeGrades([0, 3], 'mean-rounded'), 2);
    assert.equal(mergeGrades([0, 3, 1], 'max'), 3);
    assert.equal(mergeGrades([3, 1, 1], 'majority'), 1);
    assert.equal(mergeGrades([3, 2], 'majority'), 2);
    assert.equal(mergeGrades([2], 'majority'), 2);
  });

  /** golden (rater "default"), judgments/ana.qrels, judgments/bo.qrels and an LLM rater's JSONL. */
  function ratersWorkspace(dir: string): void {
    writeFileSync(
      join(dir, 'golden.json'),
      JSON.stringify([
        { id: 'q1', query: 'kopi', judgments: { a: 3, b: 0, c: 1 } },
        { id: 'q2', query: 'teh', judgments: { x: 2 } },
      ]),
    );
    mkdirSync(join(dir, 'judgments'));
    writeFileSync(join(dir, 'judgments/ana.qrels'), 'q1 0 a 3\nq1 0 b 1\nq1 0 c 1\nq1 0 d 2\n');
    writeFileSync(join(dir, 'judgments/bo.qrels'), 'q1 0 a 2\nq1 0 d 2\nq2 0 x 2\n');
    writeFileSync(
      join(dir, 'judgments/llm-m.jsonl'),
      [
        { qid: 'q1', docid: 'a', grade: 3, rater: 'llm:m', model: 'm', answer: '##final score: 3' },
        { qid: 'q1', docid: 'b', grade: 2, rater: 'llm:m' },
        { qid: 'q2', docid: 'y', grade: 1, rater: 'llm:m' },
      ]
        .map((r) => JSON.stringify(r))
        .join('\n') + '\n',
    );
    writeFileSync(join(dir, 'judgments/notes.txt'), 'not a rater file\n');
  }
  const specs = [{ golden: 'golden.json' }, { raters: 'judgments' }];

  it('reads per-rater files and rater-column JSONL; scores the merged grades; LLM grades only when asked', () => {
    withTempDir((dir) => {
      ratersWorkspace(dir);
      const set = loadJudgments(specs, { baseDir: dir });
      assert.deepEqual([...set.ratings!.keys()], ['default', 'ana', 'bo', 'llm:m']);
      assert.equal(set.merge, 'mean-rounded; LLM grades ignored');
      // a: 3, 3, 2 → 2.67 → 3; b: 0, 1 → 0.5 → 1; d: 2, 2; the LLM's y does not count.
      assert.deepEqual(plainQrels(set.qrels), { q1: { a: 3, b: 1, c: 1, d: 2 }, q2: { x: 2 } });
      const max = loadJudgments(specs, { baseDir: dir, merge: { merge: 'max' } });
      assert.deepEqual(plainQrels(max.qrels), { q1: { a: 3, b: 1, c: 1, d: 2 }, q2: { x: 2 } });
      assert.notEqual(max.fingerprint, set.fingerprint, 'the policy is part of the fingerprint even when the grades agree');
      const fill = loadJudgments(specs, { baseDir: dir, merge: { llmGrades: 'fill' } });
      assert.deepEqual(plainQrels(fill.qrels), { q1: { a: 3, b: 1, c: 1, d: 2 }, q2: { x: 2, y: 1 } });
      const bo = loadJudgments(specs, { baseDir: dir, merge: { merge: 'rater:bo' } });
      assert.deepEqual(plainQrels(bo.qrels), { q1: { a: 2, d: 2 }, q2: { x: 2 } });
      const llm = loadJudgments(specs, { baseDir: dir, merge: { merge: 'rater:llm:m' } });
      assert.deepEqual(plainQrels(llm.qrels), { q1: { a: 3, b: 2 }, q2: { y: 1 } });
    });
  });

  it('one rater: the set and its fingerprint are what they were before raters existed', () => {
    withTempDir((dir, write) => {
      write('q.qrels', 'q1 0 a 1\nq1 0 b 0\n');
      const set = loadJudgments({ qrels: 'q.qrels' }, { baseDir: dir });
      assert.equal(set.ratings, undefined);
      assert.equal(set.fingerprint, fingerprintJudgments(set.queries, set.qrels));
    });
  });

  it('the agreement report: pairs of raters, people first against an LLM, confusion, conflicts, overall over people', () => {
    withTempDir((dir) => {
      ratersWorkspace(dir);
      const report = agreementReport(loadJudgments(specs, { baseDir: dir }));
      assert.deepEqual(report.scale, [0, 1, 2, 3]);
      assert.deepEqual(
        report.raters.map((r) => `${r.name}:${r.grades}:${r.llm}`),
        ['default:4:false', 'ana:4:false', 'bo:3:false', 'llm:m:3:true'],
      );
      const pair = (a: string, b: string) => report.pairs.find((p) => p.a === a && p.b === b)!;
      // default × ana on a, b, c: (3,3) (0,1) (1,1).
      const da = pair('default', 'ana');
      assert.equal(da.overlap, 3);
      assert.equal(da.agreement, 2 / 3);
      assert.deepEqual(da.confusion, [
        [0, 1, 0, 0],
        [0, 1, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 1],
      ]);
      assert.deepEqual(da.conflicts, [{ qid: 'q1', docId: 'b', grades: { default: 0, ana: 1 } }]);
      // kappa from the confusion: p_o = 2/3; rows (1,1,0,1)/3, cols (0,2,0,1)/3 → p_e = (0 + 2 + 0 + 1)/9 = 1/3 → 1/2.
      assert.ok(Math.abs(da.kappa! - 0.5) < 1e-12);
      const llm = pair('default', 'llm:m');
      assert.equal(llm.overlap, 2); // a (3,3) and b (0,2); y only the LLM graded
      assert.deepEqual(llm.conflicts, [{ qid: 'q1', docId: 'b', grades: { default: 0, 'llm:m': 2 } }]);
      assert.ok(
        report.pairs.every((p) => !p.a.startsWith('llm:')),
        'the person is always rater A against an LLM',
      );
      assert.deepEqual(report.overall.people, ['default', 'ana', 'bo']);
      // Pairs graded by two or more people: q1 a (3,3,2), b (0,1), c (1,1), d (2,2), q2 x (2,2).
      assert.equal(report.overall.overlap, 5);
      assert.deepEqual(
        report.overall.conflicts.map((c) => `${c.qid} ${c.docId}`),
        ['q1 a', 'q1 b'],
      );
      assert.ok(
        Math.abs(
          report.overall.alpha! -
            krippendorffOrdinalAlpha([
              [3, 3, 2],
              [0, 1],
              [1, 1],
              [2, 2],
              [2, 2],
            ])!,
        ) < 1e-12,
      );
    });
  });

  it('ranklab.json: a bad merge policy or rater name is an error at its line and falls back', () => {
    withTempDir((dir) => {
      ratersWorkspace(dir);
      writeFileSync(
        join(dir, 'ranklab.json'),
        '{\n  "judgments": ["golden.json", {"raters": "judgments", "rater": "a b"}],\n  "judging": {\n    "merge": "average"\n  }\n}\n',
      );
      const ws = loadWorkspace(dir);
      assert.deepEqual(
        ws.diagnostics.filter((d) => d.severity === 'error').map((d) => [d.line, d.message.slice(0, 41)]),
        [
          [2, 'rater name "a b" must start with a letter'],
          [4, '"judging.merge": merge policy must be one'],
        ],
      );
      assert.equal(ws.settings.judging.merge, 'mean-rounded');
      assert.equal(ws.judgmentSpecs[1]!.rater, undefined);
    });
  });

  it('ranklab agreement prints the table and JSON', () => {
    withTempDir((dir) => {
      ratersWorkspace(dir);
      writeFileSync(
        join(dir, 'ranklab.json'),
        JSON.stringify({ corpus: { include: ['*.md'] }, judgments: specs, judging: { merge: 'majority' } }),
      );
      writeFileSync(join(dir, 'doc.md'), '# a\nkopi\n');
      const table = ranklab(['agreement', '--workspace', dir]);
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout, /raters: default \(4 grades\), ana \(4 grades\), bo \(3 grades\), llm:m \(3 grades\)/);
      assert.match(table.stdout, /scored grades: majority; LLM grades ignored/);
      assert.match(table.stdout, /default\s+ana\s+3\s+0\.667\s+0\.500/);
      assert.match(table.stdout, /confusion: rows default, columns llm:m/);
      assert.match(table.stdout, /q1 a: default 3, ana 3, bo 2/);
      const json = JSON.parse(ranklab(['agreement', '--workspace', dir, '--format', 'json']).stdout);
      assert.equal(json.merge, 'majority; LLM grades ignored');
      assert.equal(json.pairs.length, 6);
      assert.equal(json.overall.overlap, 5);
    });
  });

  it('a 0/1 rater against a 0–3 rater: kappa at a relevance threshold beside the graded kappa, in the report, the table and JSON', () => {
    withTempDir((dir) => {
      mkdirSync(join(dir, 'judgments'));
      // ana grades 0/1, bo 0–3; they agree on what is relevant (grade >= 1), not on the grades.
      writeFileSync(join(dir, 'judgments/ana.qrels'), 'q1 0 a 1\nq1 0 b 1\nq1 0 c 1\nq1 0 d 0\nq1 0 e 0\nq1 0 f 0\n');
      writeFileSync(join(dir, 'judgments/bo.qrels'), 'q1 0 a 3\nq1 0 b 2\nq1 0 c 2\nq1 0 d 0\nq1 0 e 0\nq1 0 f 0\n');
      const set = loadJudgments([{ raters: 'judgments' }], { baseDir: dir });
      // Graded: rows ana (0: d e f → bo 0; 1: a b c → bo 3 2 2); p_o = 3/6, rows (3,3,0,0)/6, cols (3,0,2,1)/6 →
      // p_e = 9/36 → kappa = (1/2 − 1/4)/(3/4) = 1/3. At threshold 1 the two agree on every pair: kappa 1.
      const [r1] = agreementReport(set).pairs;
      assert.ok(Math.abs(r1!.kappa! - 1 / 3) < 1e-12);
      assert.equal(agreementReport(set).threshold, 1);
      assert.deepEqual(r1!.confusionBinary, [
        [3, 0],
        [0, 3],
      ]);
      assert.equal(r1!.kappaBinary, 1);
      assert.equal(r1!.agreementBinary, 1);
      // At 2 ana calls nothing relevant, bo three: confusion [[3, 3], [0, 0]], p_o = 1/2 = p_e → kappa 0.
      const [r2] = agreementReport(set, { threshold: 2 }).pairs;
      assert.deepEqual(r2!.confusionBinary, [
        [3, 3],
        [0, 0],
      ]);
      assert.equal(r2!.kappaBinary, 0);
      assert.equal(r2!.agreementBinary, 0.5);
      assert.equal(agreementReport(set).overall.meanKappaBinary, 1);
      assert.throws(() => agreementReport(set, { threshold: 0 }), /threshold must be an integer >= 1/);
      writeFileSync(join(dir, 'ranklab.json'), JSON.stringify({ corpus: { include: ['*.md'] }, judgments: [{ raters: 'judgments' }] }));
      writeFileSync(join(dir, 'doc.md'), '# a\nkopi\n');
      const table = ranklab(['agreement', '--workspace', dir]);
      assert.equal(table.code, 0, table.stderr);
      assert.match(table.stdout, /kappa ≥1/);
      assert.match(table.stdout, /ana\s+bo\s+6\s+0\.500\s+0\.333\s+\S+\s+\S+\s+\S+\s+1\.000\s+1\.000/);
      assert.match(table.stdout, /relevant \(grade ≥ 1\) for both: 3, neither: 3, only ana: 0, only bo: 0/);
      const json = JSON.parse(ranklab(['agreement', '--workspace', dir, '--relevance-threshold', '2', '--format', 'json']).stdout);
      assert.equal(json.threshold, 2);
      assert.deepEqual(
        [json.pairs[0].kappaBinary, json.pairs[0].agreementBinary, json.pairs[0].confusionBinary],
        [
          0,
          0.5,
          [
            [3, 3],
            [0, 0],
          ],
        ],
      );
      const bad = ranklab(['agreement', '--workspace', dir, '--relevance-threshold', '0']);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--relevance-threshold/);
    });
  });
});
