// `ranklab explain` (and the reasons on moved documents of `ranklab compare`) through the built binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { copyOfExample } from '../../helpers/workspace';
import { STEP_EXPLAINS, STEP_NAMES } from '../../../src/core/run/stages';

const example = copyOfExample();

test('explain --format json: per-term parts add up to the score of the run, beside the baseline, with the reason', () => {
  const r = ranklab([
    'explain',
    '--workspace',
    example,
    '--config',
    'title-boost-3',
    '--baseline',
    'baseline',
    '--query',
    'q02',
    '--doc',
    'visit-toraja',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.query, { qid: 'q02', text: 'toraja coffee' });
  const lexical = out.candidate.steps.find((s: { step: string }) => s.step === 'lexical');
  const sum = lexical.lexical.parts.reduce((s: number, p: { contribution: number }) => s + p.contribution, 0);
  assert.ok(Math.abs(sum - out.candidate.score) < 1e-9, `${sum} vs ${out.candidate.score}`);
  // The search command shows the same score for the document (an independent path through the CLI).
  const search = JSON.parse(
    ranklab(['search', '--workspace', example, '--config', 'title-boost-3', '--page-size', '100', '--format', 'json', 'toraja coffee'])
      .stdout,
  );
  const shown = search.results.find((x: { id: string }) => x.id === 'visit-toraja');
  assert.equal(shown.score, out.candidate.score);
  assert.equal(search.results.indexOf(shown) + 1, out.candidate.rank);
  assert.match(out.reason, /^title boost 1→3: \+\d+\.\d\d from 'toraja' in title; rank \d+→\d+, overtook \d+ documents?$/);
});

test('explain as table; unknown config, query id and document exit 2 with "did you mean"; help explain', () => {
  const t = ranklab(['explain', '--workspace', example, '--config', 'baseline', '--query', 'kopi gayo', '--doc', 'origin-gayo']);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout, /baseline \(lexical\): rank \d+ of \d+, score/);
  assert.match(t.stdout, /field\s+term\s+match\s+weight\s+tf\s+len\s+avg len\s+df\/N\s+idf\s+norm\s+bm25\s+boost\s+coord\s+contribution/);
  const cases: Array<[string[], RegExp]> = [
    [['--config', 'baselin', '--query', 'q02', '--doc', 'visit-toraja'], /unknown config "baselin".*did you mean "baseline"/],
    [['--config', 'baseline', '--query', 'q2', '--doc', 'visit-toraja'], /--query.*unknown query id "q2".*did you mean/],
    [
      ['--config', 'baseline', '--query', 'q02', '--doc', 'visit-torja'],
      /--doc.*unknown document "visit-torja".*did you mean "visit-toraja"/,
    ],
    [['--query', 'q02', '--doc', 'visit-toraja'], /--config/],
  ];
  for (const [args, message] of cases) {
    const r = ranklab(['explain', '--workspace', example, ...args]);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}`);
    assert.match(r.stderr.replace(/\n/g, ' '), message);
  }
  const help = ranklab(['help', 'explain']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^ranklab explain \[--workspace DIR\] --config NAME \[--baseline NAME\] --query QID_OR_TEXT --doc ID/);
  // Each step's explanation is the one declaration's (core/run/stages.ts), not a text of its own.
  for (const step of STEP_NAMES) assert.ok(help.stdout.includes(`    ${step}: ${STEP_EXPLAINS[step]}\n`), step);
});

test('explain --as: a document the principal may not see is only "not visible"; one they may see is explained', () => {
  const args = ['explain', '--workspace', example, '--config', 'baseline', '--query', 'guest feedback'];
  const hidden = ranklab([...args, '--doc', 'feedback-02', '--as', 'guest', '--format', 'json']);
  assert.equal(hidden.code, 0, hidden.stderr);
  const out = JSON.parse(hidden.stdout);
  assert.equal(out.visible, false);
  assert.equal(out.candidate, undefined);
  assert.match(ranklab([...args, '--doc', 'feedback-02', '--as', 'guest']).stdout, /not visible to guest\n$/);
  const seen = JSON.parse(ranklab([...args, '--doc', 'feedback-02', '--as', 'dimas', '--format', 'json']).stdout);
  assert.equal(seen.visible, true);
  assert.ok(seen.candidate.steps.length > 0);
});

test('compare: every moved document of every changed query carries its one-line reason (json and table); --max-queries caps it', () => {
  const r = ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const cmp = JSON.parse(r.stdout);
  type Delta = { qid: string; moved: Array<{ id: string; reason?: string }> };
  const deltas = cmp.queryDeltas as Delta[];
  assert.ok(deltas.length > 20, "more changed queries than the dashboard's first screenful");
  const moved = deltas.flatMap((q) => q.moved);
  assert.ok(moved.length > 0);
  for (const m of moved) assert.match(m.reason!, /^title boost 1→3[:;]/);
  // A document of a query beyond the 20th: its reason is the one `ranklab explain --baseline` gives (its own path).
  const late = deltas.slice(20).find((q) => q.moved.length)!;
  const one = JSON.parse(
    ranklab([
      'explain',
      '--workspace',
      example,
      '--config',
      'title-boost-3',
      '--baseline',
      'baseline',
      '--query',
      late.qid,
      '--doc',
      late.moved[0].id,
      '--format',
      'json',
    ]).stdout,
  );
  assert.equal(late.moved[0].reason, one.reason);
  const t = ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'title-boost-3']);
  assert.match(t.stdout, /grade \d — title boost 1→3/);
  // A table printing 30 queries shows the reasons of the queries beyond the 20th too.
  const t30 = ranklab([
    'compare',
    '--workspace',
    example,
    '--baseline',
    'baseline',
    '--candidate',
    'title-boost-3',
    '--max-queries',
    '30',
  ]).stdout;
  // 30 per side: the 30 worst losses and the 30 best wins are printed (queryDeltas is worst first).
  const printed = new Set(
    [
      ...deltas.filter((q) => cmp.perQuery[q.qid]['ndcg@10'].delta < 0).slice(0, 30),
      ...deltas.filter((q) => cmp.perQuery[q.qid]['ndcg@10'].delta > 0).slice(-30),
    ].map((q) => q.qid),
  );
  const lateInTable = deltas.slice(20).find((q) => q.moved.length && printed.has(q.qid))!;
  assert.ok(
    t30.includes(`${lateInTable.moved[0].id}: `) && t30.includes(`— ${lateInTable.moved[0].reason}`),
    `${lateInTable.qid} ${lateInTable.moved[0].id} in the table with its reason`,
  );

  // --max-queries N: reasons for the N worst and N best changed queries only (each costs two searches per moved document).
  const capped = JSON.parse(
    ranklab([
      'compare',
      '--workspace',
      example,
      '--baseline',
      'baseline',
      '--candidate',
      'title-boost-3',
      '--format',
      'json',
      '--max-queries',
      '5',
    ]).stdout,
  );
  const all = capped.queryDeltas as (Delta & { delta: number })[];
  const explained = new Set([...all.filter((q) => q.delta < 0).slice(0, 5), ...all.filter((q) => q.delta > 0).slice(-5)]);
  assert.ok(all.length > 10);
  for (const q of all) {
    for (const m of q.moved) {
      if (explained.has(q)) assert.match(m.reason!, /^title boost 1→3[:;]/);
      else assert.equal(m.reason, undefined);
    }
  }
});

test('explain: a document below the vector depth is labelled with the search its similarity comes from (exact), not "by hnsw"', () => {
  // The example's HNSW config with a vector depth of 3, and a document the full config ranks 8th for the query.
  const config = JSON.parse(readFileSync(join(example, 'configs/vector.rank.json'), 'utf8'));
  writeFileSync(join(example, 'configs/vector-shallow.rank.json'), JSON.stringify({ ...config, vector: { ...config.vector, depth: 3 } }));
  const deep = JSON.parse(
    ranklab(['search', '--workspace', example, '--config', 'vector', '--page-size', '10', '--format', 'json', 'kopi gayo']).stdout,
  );
  const args = ['explain', '--workspace', example, '--config', 'vector-shallow', '--query', 'kopi gayo', '--doc'];
  const below = deep.results[7].id as string;
  const json = JSON.parse(ranklab([...args, below, '--format', 'json']).stdout);
  const step = json.candidate.steps.find((s: { step: string }) => s.step === 'vector');
  assert.equal(step.outcome, 'below-depth', 'the document is below depth 3');
  assert.equal(step.vector.producedBy, 'hnsw', 'the step searched with HNSW');
  const t = ranklab([...args, below]);
  assert.equal(t.code, 0, t.stderr);
  assert.match(
    t.stdout,
    new RegExp(`similarity ${step.vector.similarity.toFixed(6)} by exact search \\(not in the hnsw list of depth 3\\)`),
  );
  assert.doesNotMatch(t.stdout, /by hnsw/);
  // A document in the list keeps its label.
  assert.match(ranklab([...args, deep.results[0].id]).stdout, /similarity \d\.\d+ by hnsw; exact search: rank \d+/);
});
