import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import matter from 'gray-matter';
import { ReferenceAcl } from '../../../src/core/acl/reference-acl';
import { RanklabSession } from '../../../src/core/session/session';
import { ranklab } from '../../helpers/cli';
import { copyOfExample } from '../../helpers/workspace';
import { makeWorkspace, md } from '../acl/helpers';

const example = copyOfExample();
process.on('exit', () => rmSync(join(example, '..'), { recursive: true, force: true }));

/** Rewrites a file in place keeping its size and mtime, so the corpus snapshot (and the index) keep the old version. */
function editUnnoticed(path: string, from: string, to: string): () => () => void {
  assert.equal(from.length, to.length, 'same size');
  const text = readFileSync(path, 'utf8');
  const stamp = 1_700_000_000;
  utimesSync(path, stamp, stamp);
  return () => {
    const edited = text.replace(from, to);
    assert.notEqual(edited, text, `"${from}" is in ${path}`);
    writeFileSync(path, edited);
    utimesSync(path, stamp, stamp);
    return () => writeFileSync(path, text);
  };
}

test('check-acl: documents with invalid access fields are counted and listed with file:line, exit 1; --allow-invalid-acl makes it a warning', () => {
  const dir = makeWorkspace({
    'corpus/ok.md': md(['id: ok', 'tenant: acme', 'groups: [hr]']),
    'corpus/bad.md': md(['id: bad', 'title: Salaries', 'tenant: [acme]']),
    'data/records.jsonl': [
      JSON.stringify({ id: 'r-ok', text: 'salary', public: true }),
      JSON.stringify({ id: 'r-bad', text: 'salary', public: 'maybe' }),
    ].join('\n'),
  });
  try {
    const args = ['check-acl', '--workspace', dir, '--no-prefixes'];
    const json = ranklab([...args, '--format', 'json']);
    assert.equal(json.code, 1, json.stderr);
    const report = JSON.parse(json.stdout);
    assert.deepEqual(report.violations, []);
    assert.equal(report.invalidAcl, 2);
    assert.deepEqual(
      report.invalidAclDocuments.map((d: { id: string; file: string; line: number; fields: string[] }) => [d.id, d.file, d.line, d.fields]),
      [
        ['bad', 'corpus/bad.md', 4, ['tenant']],
        ['r-bad', 'data/records.jsonl', 2, ['public']],
      ],
    );
    const table = ranklab(args);
    assert.equal(table.code, 1);
    assert.match(table.stdout, /2 document\(s\) with invalid or misspelled access fields/);
    assert.match(table.stdout, /corpus\/bad\.md:4/);
    assert.match(table.stdout, /data\/records\.jsonl:2/);
    const allowed = ranklab([...args, '--allow-invalid-acl']);
    assert.equal(allowed.code, 0, allowed.stdout + allowed.stderr);
    assert.match(allowed.stdout, /warning: 2 document\(s\) with invalid or misspelled access fields/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check-acl: a stale index filter (it permits what the files forbid) exits 1 naming principal and documents, even with no leak shown', () => {
  const dir = makeWorkspace({
    'corpus/pay.md': md(['id: pay', 'tenant: acme', 'groups: [hr]']),
    'corpus/zebra.md': md(['id: zebra', 'tenant: acme', 'groups: [hr]'], 'Zebra crossing rules.'),
    'judgments/golden.json': JSON.stringify([{ id: 'q1', query: 'salary', judgments: { pay: 1 } }]),
  });
  try {
    const args = ['check-acl', '--workspace', dir, '--as', 'hr', '--no-prefixes'];
    const edit = editUnnoticed(join(dir, 'corpus', 'zebra.md'), 'groups: [hr]', 'groups: [xx]');
    assert.equal(ranklab(args).code, 0); // writes the corpus snapshot
    const restore = edit();
    try {
      // "salary" never matches zebra, so nothing forbidden is shown; the filter is still wrong.
      const r = ranklab([...args, '--format', 'json']);
      assert.equal(r.code, 1, r.stdout);
      const report = JSON.parse(r.stdout);
      assert.deepEqual(report.violations, []);
      const hr = report.byPrincipal.bm25.hr;
      assert.equal(hr.filterExtra, 1);
      assert.deepEqual(hr.filterExtraDocuments, ['zebra']);
      const table = ranklab(args);
      assert.equal(table.code, 1);
      assert.match(table.stdout, /index filter of hr permits 1 document\(s\) the source files forbid: zebra/);
    } finally {
      restore();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('search --verify: the hit count and facets do not count a document the display-time check removed', () => {
  const burrs = join(example, 'corpus', 'bar', 'ops-burrs.md');
  const query = 'how to replace the grinder burrs';
  const args = ['search', '--workspace', example, '--config', 'pre-filter', '--as', 'sari', '--format', 'json'];
  const edit = editUnnoticed(burrs, 'groups: [baristas, roastery, management]', 'groups: [xbarista, roastery, management]');
  const before = JSON.parse(ranklab([...args, query]).stdout);
  assert.ok(before.results.some((r: { id: string }) => r.id === 'ops-burrs'));
  const tags: string[] = matter(readFileSync(burrs, 'utf8')).data.tags;
  const restore = edit();
  try {
    const stale = JSON.parse(ranklab([...args, query]).stdout);
    assert.equal(stale.total, before.total, 'without --verify the stale index still counts it');
    const verified = JSON.parse(ranklab([...args, '--verify', query]).stdout);
    assert.ok(!verified.results.some((r: { id: string }) => r.id === 'ops-burrs'));
    assert.equal(verified.total, before.total - 1);
    const expected = { ...before.facets.tags };
    for (const t of tags) if (--expected[t] === 0) delete expected[t];
    assert.deepEqual(verified.facets.tags, expected);
    assert.ok(verified.notes.some((n: string) => /ops-burrs/.test(n)));
  } finally {
    restore();
  }
});

test('search --verify without --as says what it checked', () => {
  const r = ranklab(['search', '--workspace', example, '--config', 'pre-filter', '--verify', '--format', 'json', 'kopi gayo']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const note = out.notes.find((n: string) => /verif/.test(n));
  assert.ok(note, JSON.stringify(out.notes));
  assert.match(note, /unrestricted/);
  assert.match(note, new RegExp(`${out.total} `), 'names how many documents were checked');
});

/** Queries scored as the principal on the example (the issue found 2 of guest's 8 and 5 of ayu's 45 forced to 0). */
const SCORED = { guest: 6, ayu: 40 } as const;

test('eval --as: queries whose relevant documents are all invisible are left out and listed, not scored 0; check-acl recall counts the same queries', () => {
  const golden: { id: string; judgments: Record<string, number> }[] = JSON.parse(
    readFileSync(join(example, 'judgments', 'golden.json'), 'utf8'),
  );
  const session = RanklabSession.open(example, { writeCache: false });
  const reference = ReferenceAcl.fromDisk(example, session.workspace.settings.corpus, session.policy());
  for (const [principal, scored] of Object.entries(SCORED)) {
    const who = session.principals().find((p) => p.name === principal)!;
    const r = ranklab([
      'eval',
      '--workspace',
      example,
      '--config',
      'pre-filter',
      '--as',
      principal,
      '--metrics',
      'recall@10,ndcg@10',
      '--no-save',
      '--format',
      'json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const run = JSON.parse(r.stdout).runs[0];
    assert.equal(run.queries, scored, principal);
    assert.equal(Object.keys(run.perQuery).length, scored);
    assert.equal(run.queries + run.excludedQueries.length, golden.length, 'every query is either scored or listed');
    const relevantOf = (qid: string) =>
      Object.entries(golden.find((q) => q.id === qid)!.judgments)
        .filter(([, g]) => g >= 1)
        .map(([id]) => id);
    for (const x of run.excludedQueries as { qid: string; reason: string }[]) {
      assert.equal(run.perQuery[x.qid], undefined, `${x.qid} is not scored`);
      const relevant = relevantOf(x.qid);
      assert.ok(
        relevant.every((id) => !reference.visible(who, id)),
        `${x.qid}: all relevant documents are invisible to ${principal}`,
      );
      assert.match(x.reason, new RegExp(`all ${relevant.length} relevant`));
    }
    // Every scored query has a relevant document the principal may see: none is a forced 0 by access.
    for (const qid of Object.keys(run.perQuery))
      assert.ok(
        relevantOf(qid).some((id) => reference.visible(who, id)),
        qid,
      );
    // check-acl's recall is over the same queries, with the same value.
    const acl = JSON.parse(
      ranklab(['check-acl', '--workspace', example, '--config', 'pre-filter', '--as', principal, '--no-prefixes', '--format', 'json'])
        .stdout,
    );
    const pr = acl.byPrincipal['pre-filter'][principal];
    assert.equal(pr.recallQueries, run.queries, 'check-acl averages recall over the same queries');
    assert.ok(Math.abs(pr.recall - run.metrics['recall@10']) < 1e-12, `${pr.recall} vs ${run.metrics['recall@10']}`);
    assert.deepEqual(
      pr.excludedQueries,
      run.excludedQueries.map((x: { qid: string }) => x.qid),
    );
    const table = ranklab(['eval', '--workspace', example, '--config', 'pre-filter', '--as', principal, '--no-save']);
    assert.match(
      table.stdout,
      new RegExp(`${golden.length - scored} queries left out: every relevant document is invisible to ${principal}`),
    );
    assert.match(table.stdout, new RegExp(`${scored} queries \\(all, as ${principal}`));
  }
});

test('compare --as: the same queries are left out and listed', () => {
  const r = ranklab([
    'compare',
    '--workspace',
    example,
    '--baseline',
    'baseline',
    '--candidate',
    'pre-filter',
    '--as',
    'guest',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.queries, SCORED.guest);
  assert.equal(out.excludedQueries.length, 94 - SCORED.guest);
  for (const x of out.excludedQueries) assert.equal(out.perQuery[x.qid], undefined);
  const table = ranklab(['compare', '--workspace', example, '--baseline', 'baseline', '--candidate', 'pre-filter', '--as', 'guest']);
  assert.match(table.stdout, /88 queries left out/);
});
