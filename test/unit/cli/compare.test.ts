// `ranklab compare` and `ranklab gate` through the built binary, on the example workspace and generated collections.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { copyOfExample, tempDir } from '../../helpers/workspace';
import { readRunJson } from '../../helpers/runs';

const example = copyOfExample();

test('baseline vs title-boost-3 on the example: winners and losers, and slices that regress while the mean improves', () => {
  const r = ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const cmp = JSON.parse(r.stdout);
  const ndcg = cmp.metrics['ndcg@10'];
  for (const key of ['baseline', 'candidate', 'delta', 'ci95', 'pPermutation', 'pTTest', 'pAdjusted']) assert.ok(key in ndcg, key);
  assert.ok(ndcg.delta > 0, 'title-boost-3 improves the mean nDCG@10');
  assert.ok(cmp.wins['ndcg@10'] > 0 && cmp.losses['ndcg@10'] > 0, 'with winners and losers');
  assert.equal(cmp.wins['ndcg@10'] + cmp.losses['ndcg@10'] + cmp.ties['ndcg@10'], 94);
  const regressing = Object.entries(cmp.slices as Record<string, { metrics: Record<string, { delta: number }> }>).filter(
    ([, s]) => s.metrics['ndcg@10'].delta < -0.02,
  );
  assert.ok(regressing.length >= 1, 'at least one slice regresses');
  assert.ok(cmp.warnings.some((w: { kind: string }) => w.kind === 'slice-regression'));
  assert.ok(cmp.splits.tune && cmp.splits.holdout, 'tune and holdout are compared');
  // the worst query comes first, with the documents that moved and their grades
  const worst = cmp.queryDeltas[0];
  assert.ok(worst.delta < 0 && worst.moved.length > 0);
  assert.equal(
    worst.delta,
    Math.min(...Object.values(cmp.perQuery as Record<string, Record<string, { delta: number }>>).map((q) => q['ndcg@10'].delta)),
  );
});

test('the gate fails (exit 1) for a config that regresses, naming the gate and the queries, and writes JUnit and Markdown', () => {
  const dir = tempDir();
  const junit = join(dir, 'gates.xml');
  const summary = join(dir, 'summary.md');
  const r = ranklab(['gate', '--workspace', example, '--candidate', 'regressing', '--junit', junit, '--summary', summary]);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  assert.match(r.stderr, /gate failed: ndcg@10 >= 0\.65 \(actual 0\.\d+\); queries: q\d+/);
  assert.match(r.stderr, /gate failed: ndcg@10 drop vs baseline <= 0\.02/);
  const xml = readFileSync(junit, 'utf8');
  assert.match(xml, /<testsuites name="ranklab gates: regressing vs baseline" tests="15" failures="\d+">/);
  assert.match(xml, /<testcase classname="regressing vs baseline" name="ndcg@10 &gt;= 0.65">\n\s*<failure /);
  assert.match(readFileSync(summary, 'utf8'), /^## Ranklab: regressing vs baseline/);
  const ok = ranklab(['gate', '--workspace', example, '--candidate', 'title-boost-3']);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
});

test('the table and the Markdown summary open with the verdict: no significant change for title-boost-3, a significant drop for regressing', () => {
  const same = ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3']);
  assert.equal(same.code, 0, same.stderr);
  const lines = same.stdout.split('\n');
  assert.match(
    lines[2],
    /^Verdict: title-boost-3 vs baseline: no significant change on any of 5 metrics; gates 15\/15 pass; 94 queries, significant = Holm-adjusted p < 0\.05 over 65 tests$/,
  );
  assert.match(
    lines[4],
    /^  ndcg@10 \+0\.0040 \(0\.7827 → 0\.7867\), 95% CI \[-0\.0\d{3}, \+0\.0\d{3}\]: not significant \(p adj\. 1\.0000\); gates 14\/14 pass; worst slice paraphrase -0\.0\d{3} \(9 queries\); MDE ±0\.0\d{3}; unjudged documents could flip it/,
  );
  assert.match(
    same.stdout,
    /\n  With 94 queries, changes smaller than ±0\.0\d{3} in ndcg@10 cannot be told from noise \(80% power, two-sided α = 0\.05\); about [\d,]+ queries would be needed to detect ±0\.01\.\n/,
  );
  assert.match(same.stdout, /\(MDE = minimum detectable effect: /, 'the MDE is explained where it appears');

  const dir = tempDir();
  const summary = join(dir, 'summary.md');
  const drop = ranklab([
    'compare',
    '--workspace',
    example,
    '--baseline',
    'baseline',
    '--candidate',
    'regressing',
    '--format',
    'markdown',
    '--summary',
    summary,
  ]);
  assert.equal(drop.code, 0, 'without --fail-on-regression a failed gate is reported, not an exit code');
  const md = readFileSync(summary, 'utf8');
  assert.match(
    md,
    /^## Ranklab: regressing vs baseline\n\n\*\*Verdict: regressing vs baseline: significant drop on 5 metrics \(ndcg@10, mrr@10, p@5, recall@20, hit@5\); \d+ of 15 gates fail\*\*; 94 queries/,
  );
  assert.match(
    md,
    /\n- ndcg@10 -0\.2222 \(0\.7827 → 0\.5605\), 95% CI \[-0\.\d{4}, -0\.\d{4}\]: significant drop \(p adj\. 0\.\d{4}\); gates \d+\/14 pass; worst slice /,
  );
  assert.equal(drop.stdout, md, 'the summary file is the Markdown report');
  const json = JSON.parse(
    ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'regressing', '--format', 'json']).stdout,
  );
  assert.equal(json.verdict.outcome, 'regressed');
  assert.deepEqual(json.verdict.regressed, ['ndcg@10', 'mrr@10', 'p@5', 'recall@20', 'hit@5']);
  assert.ok(json.verdict.metrics[0].mde.value > 0 && json.verdict.metrics[0].mde.queriesFor > 94);
});

test('three candidates: one matrix, one Holm correction, every format; --fail-on-regression fails when one candidate fails a gate', () => {
  const three = [
    '--workspace',
    example,
    '--baseline',
    'baseline',
    '--candidate',
    'title-boost-3',
    '--candidate',
    'regressing',
    '--candidate',
    'pre-filter',
  ];
  const table = ranklab(['compare', ...three]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(
    table.stdout,
    /^Ranklab compare: 3 candidates vs baseline baseline\n\nVerdict \(94 queries, significant = Holm-adjusted p < 0\.05 over 195 tests of 3 candidates\):\n/,
  );
  for (const name of ['title-boost-3', 'regressing', 'pre-filter']) assert.match(table.stdout, new RegExp(`\\n  ${name} vs baseline: `));
  assert.match(table.stdout, /\nregressing +0\.5605 -0\.2222\* \[/, 'the matrix row: mean, delta and the significance mark');
  assert.match(table.stdout, /\ntitle-boost-3 +0\.7867 \+0\.0040 \[/);
  assert.match(table.stdout, /\* = significant: the delta survives one Holm–Bonferroni correction over all 195 tests/);

  const json = JSON.parse(ranklab(['compare', ...three, '--format', 'json']).stdout);
  assert.deepEqual(json.candidates, ['title-boost-3', 'regressing', 'pre-filter']);
  assert.equal(json.tests, 195);
  assert.equal(json.matrix.rows.length, 3);
  assert.equal(json.comparisons.length, 3);
  assert.ok(
    json.comparisons.every((c: { tests: number }) => c.tests === 195),
    'every pairwise report is corrected over the whole matrix',
  );
  assert.equal(json.matrix.rows[1].outcome, 'regressed');
  assert.ok(json.matrix.rows[1].cells['ndcg@10'].significant);
  // the same p-values corrected over 3 x 65 tests are never smaller than over one candidate's 65
  const single = JSON.parse(
    ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'regressing', '--format', 'json']).stdout,
  );
  assert.equal(single.metrics['ndcg@10'].pPermutation, json.comparisons[1].metrics['ndcg@10'].pPermutation);
  assert.ok(json.comparisons[1].metrics['ndcg@10'].pAdjusted >= single.metrics['ndcg@10'].pAdjusted);

  assert.match(
    ranklab(['compare', ...three, '--format', 'markdown']).stdout,
    /^## Ranklab: 3 candidates vs baseline\n\n\*\*Verdict\*\* \(94 queries/,
  );
  const xml = ranklab(['compare', ...three, '--format', 'junit']).stdout;
  assert.match(xml, /<testsuites name="ranklab gates: title-boost-3, regressing, pre-filter vs baseline" tests="45" failures="\d+">/);
  assert.match(xml, /<testsuite name="regressing vs baseline" tests="15" failures="[1-9]\d*">/);
  assert.match(xml, /<testsuite name="title-boost-3 vs baseline" tests="15" failures="0">/);

  const gated = ranklab(['compare', ...three, '--fail-on-regression']);
  assert.equal(gated.code, 1, gated.stderr);
  assert.match(gated.stderr, /gate failed: regressing: ndcg@10 >= 0\.65 \(actual 0\.5605\)/);
  assert.doesNotMatch(gated.stderr, /gate failed: title-boost-3/);
  const passing = ranklab([
    'compare',
    '--workspace',
    example,
    '--baseline',
    'baseline',
    '--candidate',
    'title-boost-3',
    '--candidate',
    'pre-filter',
    '--fail-on-regression',
  ]);
  assert.equal(passing.code, 0, passing.stderr);
});

test('a candidate given twice, or also as the baseline, is refused', () => {
  const r = ranklab([
    'compare',
    '--workspace',
    example,
    '--baseline',
    'baseline',
    '--candidate',
    'regressing',
    '--candidate',
    'regressing',
  ]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--candidate: "regressing" is given twice \(as two candidates\)/);
  assert.match(
    ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'baseline']).stderr,
    /given twice \(as the baseline and a candidate\)/,
  );
});

test('the second compare of unchanged configs reuses the saved runs', () => {
  const r = ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--format', 'markdown']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /baseline: reusing .*\.json\.gz \(same config, corpus, judgments, access, tool version and learned models\)/);
  assert.match(r.stdout, /^## Ranklab: title-boost-3 vs baseline/);
});

test('saved runs are named by their id (as the editor shows them) as well as by path, with the same figures', () => {
  const runsDir = join(example, '.ranklab', 'runs');
  const newest = (config: string) =>
    readdirSync(runsDir)
      .filter((f) => f.startsWith(`${config}-2`) && f.endsWith('.json.gz'))
      .sort()
      .pop()!;
  const [b, c] = [newest('baseline'), newest('title-boost-3')];
  assert.ok(b && c, 'the earlier tests saved both runs');
  const byId = ranklab([
    'compare',
    '--workspace',
    example,
    '--baseline',
    b.replace(/\.json\.gz$/, ''),
    '--candidate',
    c.replace(/\.json\.gz$/, ''),
    '--format',
    'json',
  ]);
  const byPath = ranklab([
    'compare',
    '--workspace',
    example,
    '--baseline',
    join(runsDir, b),
    '--candidate',
    join(runsDir, c),
    '--format',
    'json',
  ]);
  assert.equal(byId.code, 0, byId.stderr);
  assert.deepEqual(JSON.parse(byId.stdout).metrics, JSON.parse(byPath.stdout).metrics);
  assert.equal(JSON.parse(byId.stdout).candidate, 'title-boost-3');
  // An id is a plain name: a path-like one that is no file is not looked up in the runs folder.
  const bad = ranklab([
    'compare',
    '--workspace',
    example,
    '--baseline',
    `../runs/${b.replace(/\.json\.gz$/, '')}`,
    '--candidate',
    'title-boost-3',
  ]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown config/);
});

test('--verbose says why a saved run was not reused (here: acl.missingAcl changed)', () => {
  const ws = copyOfExample();
  assert.equal(ranklab(['compare', '--workspace', ws, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--as', 'ayu']).code, 0);
  const settings = JSON.parse(readFileSync(join(ws, 'ranklab.json'), 'utf8'));
  settings.acl.missingAcl = 'private';
  writeFileSync(join(ws, 'ranklab.json'), JSON.stringify(settings));
  const r = ranklab(['compare', '--workspace', ws, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--as', 'ayu', '--verbose']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /\[ranklab\] baseline: not reusing .*baseline@ayu-[^ ]*\.json\.gz: (judgments differ, )?access rule or missingAcl differ\n/,
  );
  assert.doesNotMatch(r.stderr, /reusing .* \(same config/);
});

test('saved runs made as different principals are refused, named, unless --allow-mixed-principals; then the output says so first', () => {
  const ws = copyOfExample();
  const saved = (args: string[]) => {
    const r = ranklab(['eval', '--workspace', ws, '--format', 'json', ...args]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout).runs[0].saved as string;
  };
  const asAyu = saved(['--config', 'baseline', '--as', 'ayu']);
  const asNobody = saved(['--config', 'title-boost-3']);
  const refused = ranklab(['compare', '--workspace', ws, '--baseline', asAyu, '--candidate', asNobody]);
  assert.equal(refused.code, 2, refused.stdout + refused.stderr);
  assert.equal(refused.stdout, '');
  assert.match(
    refused.stderr,
    /baseline "baseline" was run as principal "ayu", candidate "title-boost-3" without a principal \(every document\).*--allow-mixed-principals/,
  );
  // A config run now with --as against a saved run made without: the same refusal, before the config runs.
  const runsBefore = readdirSync(join(ws, '.ranklab', 'runs')).sort();
  const beforeWork = ranklab(['compare', '--workspace', ws, '--baseline', asNobody, '--candidate', 'hybrid-rrf', '--as', 'ayu']);
  assert.equal(beforeWork.code, 2, beforeWork.stderr);
  assert.match(beforeWork.stderr, /candidate "hybrid-rrf" as principal "ayu".*--allow-mixed-principals/);
  assert.deepEqual(readdirSync(join(ws, '.ranklab', 'runs')).sort(), runsBefore, 'nothing was run or saved');

  const allowed = ranklab(['compare', '--workspace', ws, '--baseline', asAyu, '--candidate', asNobody, '--allow-mixed-principals']);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(
    allowed.stdout.split('\n').slice(0, 2).join('\n'),
    /^Ranklab compare: .*\n!! MIXED PRINCIPALS: baseline "baseline" was run as principal "ayu"/,
  );
  const json = JSON.parse(
    ranklab(['compare', '--workspace', ws, '--baseline', asAyu, '--candidate', asNobody, '--allow-mixed-principals', '--format', 'json'])
      .stdout,
  );
  assert.deepEqual(json.principals, { baseline: 'ayu', candidate: null, mixed: true });
  assert.equal(json.warnings[0].kind, 'mixed-principals');
  // Two runs made as the same principal compare as that principal, without a flag.
  const alsoAyu = saved(['--config', 'title-boost-3', '--as', 'ayu']);
  const same = JSON.parse(ranklab(['compare', '--workspace', ws, '--baseline', asAyu, '--candidate', alsoAyu, '--format', 'json']).stdout);
  assert.deepEqual(same.principals, { baseline: 'ayu', candidate: 'ayu', mixed: false });
  assert.equal(same.judgments, readRunJson(alsoAyu).provenance.judgments, 'scored on the judgments as ayu sees them');
});

test('two BM25 configs on a CISI-sized collection (BEIR folder, read-only) compare in well under a minute', () => {
  const collection = syntheticCollection({ docs: 1460, queries: 76 });
  const before = readdirSync(collection).sort();
  const state = tempDir();
  const cfg = join(state, 'title-boost.rank.json');
  writeFileSync(cfg, JSON.stringify({ lexical: { fields: { title: 3, body: 1 } } }));
  const t0 = Date.now();
  const r = ranklab([
    'compare',
    '--workspace',
    collection,
    '--state-dir',
    state,
    '--baseline',
    'bm25',
    '--candidate',
    cfg,
    '--metrics',
    'ndcg@10,recall@100',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const cmp = JSON.parse(r.stdout);
  assert.equal(cmp.queries, 76);
  assert.ok(Number.isFinite(cmp.metrics['ndcg@10'].pPermutation));
  assert.deepEqual(readdirSync(collection).sort(), before, 'nothing written into the collection');
  // Not a timing assertion: the time is printed for the record (see docs/performance.md for measured figures).
  process.stderr.write(`compare on 1,460 documents took ${Date.now() - t0} ms\n`);
});

test('two TREC run files with --qrels compare without any workspace', () => {
  const dir = tempDir();
  const collection = syntheticCollection({ docs: 82, queries: 35 });
  const base = join(dir, 'run.bm25.txt');
  assert.equal(ranklab(['eval', '--workspace', collection, '--state-dir', join(dir, 'state'), '--no-save', '--trec-run', base]).code, 0);
  const shuffled = join(dir, 'worse.txt');
  // a candidate that reverses each query's top 3
  const lines = readFileSync(base, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split(' '));
  writeFileSync(
    shuffled,
    lines
      .map((c) => (Number(c[3]) <= 3 ? [c[0], c[1], c[2], c[3], String(-Number(c[3])), 'worse'] : [...c.slice(0, 5), 'worse']).join(' '))
      .join('\n') + '\n',
  );
  const r = ranklab([
    'compare',
    '--qrels',
    join(collection, 'qrels.tsv'),
    '--baseline',
    base,
    '--candidate',
    shuffled,
    '--metrics',
    'ndcg@10',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const cmp = JSON.parse(r.stdout);
  assert.equal(cmp.baseline, 'bm25');
  assert.equal(cmp.candidate, 'worse');
  assert.equal(cmp.queries, 35);
});

test('the compare table opens with the verdict (no change for title-boost-3, a significant drop for regressing), every symbol explained under it', () => {
  const same = ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3']);
  assert.equal(same.code, 0, same.stderr);
  const lines = same.stdout.split('\n').filter((l) => l.trim());
  assert.match(
    lines[1],
    /^Verdict: title-boost-3 vs baseline: no significant change on any of \d+ metrics; gates (\d+)\/\1 pass; 94 queries/,
  );
  assert.match(same.stdout, /^ {2}ndcg@10 [+-]\d\.\d{4} .*95% CI .*: not significant \(p adj\. \d\.\d{4}\).*MDE ±0\.\d{4}/m);
  for (const symbol of ['delta =', '95% CI =', 'p adj. =', 'MDE =', 'worst slice ='])
    assert.match(same.stdout, new RegExp(`^  \\(.*${symbol.replace(/[.+]/g, '\\$&')}`, 'm'), `legend explains ${symbol}`);

  // The MDE line agrees with an independent computation from the per-query deltas of the JSON output:
  // (t(0.975, 93) + t(0.8, 93)) · sd / √94, the t quantiles from a table (1.9858 and 0.8455).
  const json = JSON.parse(
    ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--format', 'json']).stdout,
  );
  const d = Object.values(json.perQuery as Record<string, Record<string, { delta: number }>>).map((q) => q['ndcg@10'].delta);
  const mean = d.reduce((a, b) => a + b, 0) / d.length;
  const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / (d.length - 1));
  const mde = ((1.9858 + 0.8455) * sd) / Math.sqrt(d.length);
  const shown = Number(/With 94 queries, changes smaller than ±(0\.\d{4}) in ndcg@10 cannot be told from noise/.exec(same.stdout)?.[1]);
  assert.ok(Math.abs(shown - mde) < 0.0002, `MDE shown ${shown}, computed ${mde}`);

  const drop = ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'regressing']);
  assert.equal(drop.code, 0, drop.stderr); // compare reports; only gate / --fail-on-regression exit 1
  assert.match(drop.stdout, /^Verdict: regressing vs baseline: significant drop on \d+ metrics \(ndcg@10[^)]*\); \d+ of \d+ gates fail/m);
  assert.match(drop.stdout, /^ {2}ndcg@10 -0\.\d{4} .*: significant drop \(p adj\. 0\.0\d{3}\)/m);
});
