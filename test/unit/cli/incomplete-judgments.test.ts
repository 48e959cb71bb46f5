// Item F: the new metrics, --judged-only and the comparison's bounds, ties and stage recall work everywhere the
// old metrics do: score, eval, compare, gates in ranklab.json, slices, JSON and Markdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';
import { copyOfExample, tempDir } from '../../helpers/workspace';

const NEW = 'bpref,infap,rprec,success@5,rbp@0.8,err@10,nerr@10';

test('score on cacm: every new metric, its variant words, the RBP residual and the tie report, in JSON and Markdown', {
  skip: COLLECTIONS_SKIP,
}, () => {
  const med = (f: string) => collectionPath('cacm', f);
  const r = ranklab([
    'score',
    '--qrels',
    med('qrels.tsv'),
    '--run',
    med('run.bm25.txt'),
    '--metrics',
    `ndcg@10,${NEW}`,
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out.metrics), ['ndcg@10', 'bpref', 'infap', 'rprec', 'hit@5', 'rbp@0.8', 'err@10', 'nerr@10']);
  assert.equal(out.metrics.bpref.toFixed(4), '0.5745'); // trec_eval bpref, all (test/data/trec_eval/cacm.txt)
  assert.match(out.variant.metrics['err@10'], /\(2\^rel−1\)\/16/);
  const resid = out.residuals['rbp@0.8'];
  assert.ok(resid.mean > 0 && Object.keys(resid.perQuery).length === 52);
  assert.ok(out.ties.queriesWithTies.length > 0, 'cacm has tied scores');
  assert.ok(out.ties.ranges['ndcg@10'].min <= out.metrics['ndcg@10'] && out.metrics['ndcg@10'] <= out.ties.ranges['ndcg@10'].max);

  const condensed = ranklab([
    'score',
    '--qrels',
    med('qrels.tsv'),
    '--run',
    med('run.bm25.txt'),
    '--metrics',
    'p@10',
    '--judged-only',
    '--gain',
    'linear',
    '--format',
    'json',
  ]);
  assert.equal(
    JSON.parse(condensed.stdout).metrics['p@10'].toFixed(4),
    readFileSync(join(__dirname, '../../data/trec_eval/cacm.J.txt'), 'utf8').match(/^P_10\tall\t([\d.]+)$/m)![1],
  );
  assert.match(JSON.parse(condensed.stdout).variant.metrics['p@10'], /condensed: unjudged removed/);

  const md = ranklab([
    'score',
    '--qrels',
    med('qrels.tsv'),
    '--run',
    med('run.bm25.txt'),
    '--metrics',
    'rbp@0.8,bpref',
    '--judged-only',
    '--format',
    'markdown',
  ]);
  assert.match(md.stdout, /\| rbp@0\.8 \| +0\.\d{4} \| \+0\.\d{4} \|/);
  assert.match(md.stdout, /Condensed lists \(--judged-only\)/);
  assert.match(md.stdout, /queries have score ties/);
});

test('ranklab.json: judgedOnly, new metric names and gates on them pass the schema and reach eval, compare and gate', () => {
  const ws = copyOfExample();
  const file = join(ws, 'ranklab.json');
  const settings = JSON.parse(readFileSync(file, 'utf8'));
  settings.metrics = ['ndcg@10', 'bpref', 'rbp@0.8', 'err@10'];
  settings.judgedOnly = true;
  settings.gates = { min: { bpref: 0.5, 'rbp@0.8': 0.2 }, maxRegression: { 'err@10': 0.05 } };
  writeFileSync(file, JSON.stringify(settings));
  const ev = ranklab(['eval', '--workspace', ws, '--config', 'baseline', '--format', 'json', '--no-save']);
  assert.equal(ev.code, 0, ev.stderr);
  assert.doesNotMatch(ev.stderr, /ranklab\.json/, 'no schema complaint');
  const run = JSON.parse(ev.stdout);
  assert.match(run.variant['rbp@0.8'], /condensed: unjudged removed/);
  assert.ok(run.runs[0].metrics.bpref > 0);
  assert.equal(
    run.runs[0].stageRecall.counts.hit +
      run.runs[0].stageRecall.counts['ranking-miss'] +
      run.runs[0].stageRecall.counts['retrieval-miss'] +
      run.runs[0].stageRecall.counts['no-relevant'],
    94,
  );

  const gate = ranklab(['gate', '--workspace', ws, '--candidate', 'title-boost-3']);
  assert.equal(gate.code, 0, gate.stderr + gate.stdout);
  assert.match(gate.stdout, /bpref >= 0\.5 +\d\.\d{4} +pass/);
  assert.match(gate.stdout, /Bounds over unjudged documents: none \(condensed lists/);
  settings.gates.min.bpref = 0.99;
  writeFileSync(file, JSON.stringify(settings));
  const failing = ranklab(['gate', '--workspace', ws, '--candidate', 'title-boost-3']);
  assert.equal(failing.code, 1);
  assert.match(failing.stderr, /gate failed: bpref >= 0\.99/);
});

test('compare --format json and markdown: bounds with verdicts and deciding documents, ties, stage recall, class slices', () => {
  const ws = copyOfExample();
  const r = ranklab([
    'compare',
    '--workspace',
    ws,
    '--baseline',
    'baseline',
    '--candidate',
    'hybrid-rrf',
    '--metrics',
    `ndcg@10,p@5,${NEW}`,
    '--class-slices',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const cmp = JSON.parse(r.stdout);
  for (const [name, b] of Object.entries(
    cmp.bounds.metrics as Record<string, { low: number; high: number; delta: number; verdict: string; holds: boolean }>,
  )) {
    assert.ok(b.low <= b.delta + 1e-12 || name === 'bpref' || name === 'infap', `${name}: today's delta lies in the interval`);
    assert.ok(b.low <= b.high);
    assert.match(
      b.verdict,
      b.holds ? /holds whatever the unjudged documents turn out to be/ : /could flip: \d+ unjudged documents? decides? it/,
    );
  }
  const deciding = Object.values(cmp.bounds.deciding as Record<string, string[]>).flat();
  assert.ok(deciding.length > 0 && deciding.length === cmp.bounds.decidingCount);
  assert.equal(cmp.bounds.maxGrade, 3);
  assert.ok(cmp.tieReports.baseline.queries === 94);
  assert.deepEqual(cmp.stageRecall.candidate.stages, ['lexical', 'vector', 'fuse']);
  assert.ok(
    Object.keys(cmp.slices).some((s) => s.startsWith('class:')),
    'class slices',
  );

  const md = ranklab([
    'compare',
    '--workspace',
    ws,
    '--baseline',
    'baseline',
    '--candidate',
    'hybrid-rrf',
    '--metrics',
    'ndcg@10,rbp@0.8',
    '--format',
    'markdown',
  ]);
  assert.match(md.stdout, /### If the unjudged documents were graded \(0 to 3, one grade per query and document\)/);
  assert.match(md.stdout, /### Where relevant documents are lost/);
  assert.match(md.stdout, /\| candidate \| \d+ \| \d+ \| \d+ \| \d+ \| 0\.\d{3} \| 0\.\d{3} \| 0\.\d{3} \| 0\.\d{3} \|/);
});

test('compare of two TREC runs without a workspace: bounds, and a TREC side is marked as having no stage outputs', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'qrels.txt'), 'q1 0 a 1\nq1 0 b 0\nq2 0 c 1\n');
  writeFileSync(join(dir, 'a.txt'), 'q1 Q0 a 1 2 A\nq1 Q0 u 2 1 A\nq2 Q0 u2 1 3 A\nq2 Q0 c 2 2 A\n');
  writeFileSync(join(dir, 'b.txt'), 'q1 Q0 u 1 2 B\nq1 Q0 a 2 1 B\nq2 Q0 c 1 3 B\nq2 Q0 u2 2 2 B\n');
  const r = ranklab([
    'compare',
    '--qrels',
    join(dir, 'qrels.txt'),
    '--baseline',
    join(dir, 'a.txt'),
    '--candidate',
    join(dir, 'b.txt'),
    '--metrics',
    'p@1',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const cmp = JSON.parse(r.stdout);
  // p@1: q1 1 → u (0 today, 1 if u relevant), q2 u2 → c (+1, or 0 if u2 relevant). Mean today 0, interval [−0.5, +0.5].
  assert.deepEqual([cmp.bounds.metrics['p@1'].delta, cmp.bounds.metrics['p@1'].low, cmp.bounds.metrics['p@1'].high], [0, -0.5, 0.5]);
  assert.equal(cmp.stageRecall.baseline.complete, false);
});
