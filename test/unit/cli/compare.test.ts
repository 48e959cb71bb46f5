// `ranklab compare` and `ranklab gate` through the built binary, on the example workspace and real collections.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { COLLECTIONS_DIR } from '../../helpers/shared';
import { copyOfExample, tempDir } from '../../helpers/workspace';

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
  const regressing = Object.entries(cmp.slices as Record<string, { metrics: Record<string, { delta: number }> }>).filter(([, s]) => s.metrics['ndcg@10'].delta < -0.02);
  assert.ok(regressing.length >= 1, 'at least one slice regresses');
  assert.ok(cmp.warnings.some((w: { kind: string }) => w.kind === 'slice-regression'));
  assert.ok(cmp.splits.tune && cmp.splits.holdout, 'tune and holdout are compared');
  // the worst query comes first, with the documents that moved and their grades
  const worst = cmp.queryDeltas[0];
  assert.ok(worst.delta < 0 && worst.moved.length > 0);
  assert.equal(worst.delta, Math.min(...Object.values(cmp.perQuery as Record<string, Record<string, { delta: number }>>).map((q) => q['ndcg@10'].delta)));
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
  assert.match(xml, /<testsuites name="ranklab gates: regressing vs baseline" failures="\d+">/);
  assert.match(xml, /<testcase classname="ndcg@10 &gt;= 0.65" name="q\d+ [^"]*"><failure/);
  assert.match(readFileSync(summary, 'utf8'), /^## Ranklab: regressing vs baseline/);
  const ok = ranklab(['gate', '--workspace', example, '--candidate', 'title-boost-3']);
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
});

test('the second compare of unchanged configs reuses the saved runs', () => {
  const r = ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--format', 'markdown']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /baseline: reusing .*\.json \(same config, corpus, judgments, access, tool version and learned models\)/);
  assert.match(r.stdout, /^## Ranklab: title-boost-3 vs baseline/);
});

test('--verbose says why a saved run was not reused (here: acl.missingAcl changed)', () => {
  const ws = copyOfExample();
  assert.equal(ranklab(['compare', '--workspace', ws, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--as', 'ayu']).code, 0);
  const settings = JSON.parse(readFileSync(join(ws, 'ranklab.json'), 'utf8'));
  settings.acl.missingAcl = 'private';
  writeFileSync(join(ws, 'ranklab.json'), JSON.stringify(settings));
  const r = ranklab(['compare', '--workspace', ws, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--as', 'ayu', '--verbose']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /\[ranklab\] baseline: not reusing .*baseline@ayu-[^ ]*\.json: (judgments differ, )?access rule or missingAcl differ\n/);
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
  assert.match(refused.stderr, /baseline "baseline" was run as principal "ayu", candidate "title-boost-3" without a principal \(every document\).*--allow-mixed-principals/);
  // A config run now with --as against a saved run made without: the same refusal, before the config runs.
  const runsBefore = readdirSync(join(ws, '.ranklab', 'runs')).sort();
  const beforeWork = ranklab(['compare', '--workspace', ws, '--baseline', asNobody, '--candidate', 'hybrid-rrf', '--as', 'ayu']);
  assert.equal(beforeWork.code, 2, beforeWork.stderr);
  assert.match(beforeWork.stderr, /candidate "hybrid-rrf" as principal "ayu".*--allow-mixed-principals/);
  assert.deepEqual(readdirSync(join(ws, '.ranklab', 'runs')).sort(), runsBefore, 'nothing was run or saved');

  const allowed = ranklab(['compare', '--workspace', ws, '--baseline', asAyu, '--candidate', asNobody, '--allow-mixed-principals']);
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.match(allowed.stdout.split('\n').slice(0, 2).join('\n'), /^Ranklab compare: .*\n!! MIXED PRINCIPALS: baseline "baseline" was run as principal "ayu"/);
  const json = JSON.parse(ranklab(['compare', '--workspace', ws, '--baseline', asAyu, '--candidate', asNobody, '--allow-mixed-principals', '--format', 'json']).stdout);
  assert.deepEqual(json.principals, { baseline: 'ayu', candidate: null, mixed: true });
  assert.equal(json.warnings[0].kind, 'mixed-principals');
  // Two runs made as the same principal compare as that principal, without a flag.
  const alsoAyu = saved(['--config', 'title-boost-3', '--as', 'ayu']);
  const same = JSON.parse(ranklab(['compare', '--workspace', ws, '--baseline', asAyu, '--candidate', alsoAyu, '--format', 'json']).stdout);
  assert.deepEqual(same.principals, { baseline: 'ayu', candidate: 'ayu', mixed: false });
  assert.equal(same.judgments, JSON.parse(readFileSync(alsoAyu, 'utf8')).provenance.judgments, 'scored on the judgments as ayu sees them');
});

test('two BM25 configs on a real collection (BEIR folder, read-only) compare in well under a minute', () => {
  const state = tempDir();
  const cfg = join(state, 'title-boost.rank.json');
  writeFileSync(cfg, JSON.stringify({ lexical: { fields: { title: 3, body: 1 } } }));
  const t0 = Date.now();
  const r = ranklab(['compare', '--workspace', join(COLLECTIONS_DIR, 'cisi'), '--state-dir', state, '--baseline', 'bm25', '--candidate', cfg, '--metrics', 'ndcg@10,recall@100', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const cmp = JSON.parse(r.stdout);
  assert.equal(cmp.queries, 76);
  assert.ok(Number.isFinite(cmp.metrics['ndcg@10'].pPermutation));
  // Not a timing assertion: the time is printed for the record (see README for measured figures).
  process.stderr.write(`cisi compare took ${Date.now() - t0} ms\n`);
});

test('two TREC run files with --qrels compare without any workspace', () => {
  const dir = tempDir();
  const base = join(COLLECTIONS_DIR, 'adi', 'run.bm25.txt');
  const shuffled = join(dir, 'worse.txt');
  // a candidate that reverses each query's top 3
  const lines = readFileSync(base, 'utf8').trim().split('\n').map((l) => l.split(' '));
  writeFileSync(shuffled, lines.map((c) => (Number(c[3]) <= 3 ? [c[0], c[1], c[2], c[3], String(-Number(c[3])), 'worse'] : [...c.slice(0, 5), 'worse']).join(' ')).join('\n') + '\n');
  const r = ranklab(['compare', '--qrels', join(COLLECTIONS_DIR, 'adi', 'qrels.tsv'), '--baseline', base, '--candidate', shuffled, '--metrics', 'ndcg@10', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const cmp = JSON.parse(r.stdout);
  assert.equal(cmp.baseline, 'bm25');
  assert.equal(cmp.candidate, 'worse');
  assert.equal(cmp.queries, 35);
});
