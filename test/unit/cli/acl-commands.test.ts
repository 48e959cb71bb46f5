import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { ranklab } from '../../helpers/cli';

const EXAMPLE = resolve(__dirname, '../../../examples/food-search');

/** The CLI writes .ranklab/ caches into the workspace: work on a copy. */
function copyExample(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-acl-cli-'));
  cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${sep}.ranklab`) });
  return dir;
}

const dir = copyExample();
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

test('search --format json: what pak-joko sees, with totals, stages, facets and snippets', () => {
  const r = ranklab(['search', '--workspace', dir, '--config', 'pre-filter', '--as', 'pak-joko', '--format', 'json', 'kopi gayo']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.principal, 'pak-joko');
  assert.equal(out.results.length, out.total > 10 ? 10 : out.total);
  for (const x of out.results) {
    assert.equal(typeof x.stages.lexical.rank, 'number');
    assert.equal(typeof x.snippet, 'string');
  }
  // Unrestricted, the same query matches far more documents (the Gayo products are staff-only).
  const all = JSON.parse(ranklab(['search', '--workspace', dir, '--config', 'pre-filter', '--format', 'json', 'kopi gayo']).stdout);
  assert.ok(all.total > out.total);
  assert.ok(all.facets.tags.gayo > 0 && all.facets.tags.product > 0, 'staff see the Gayo origin notes and products');
  assert.equal(out.facets.tags.gayo, undefined, 'no facet from the Gayo documents pak-joko may not see');
  assert.equal(out.facets.tags.product, undefined);
  assert.ok(!out.results.some((x: { id: string }) => x.id.startsWith('origin-gayo')));
});

test('suggest --format json: completions only from what the principal may see', () => {
  const guest = JSON.parse(ranklab(['suggest', '--workspace', dir, '--as', 'guest', '--format', 'json', 'kopi g']).stdout);
  const dimas = JSON.parse(ranklab(['suggest', '--workspace', dir, '--as', 'dimas', '--format', 'json', 'kopi g']).stdout);
  const g = guest.suggestions.map((s: { suggestion: string }) => s.suggestion);
  const d = dimas.suggestions.map((s: { suggestion: string }) => s.suggestion);
  assert.ok(d.includes('kopi gayo'));
  for (const s of guest.suggestions) assert.equal(typeof s.score, 'number');
  // Every guest suggestion starts with "kopi g" and the staff-only "grinder" is not among them.
  assert.ok(g.every((s: string) => s.startsWith('kopi g')));
  assert.ok(!g.includes('kopi grinder'));
});

test('check-acl passes on pre- and post-filter and shows the post-filter page-fill problem in numbers', () => {
  const r = ranklab(['check-acl', '--workspace', dir, '--config', 'pre-filter', '--config', 'post-filter', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.deepEqual(report.violations, []);
  assert.ok(report.checked > 0);
  const principals = ['guest', 'sari', 'dimas', 'ayu', 'rahmat', 'pak-joko'];
  assert.deepEqual(Object.keys(report.byPrincipal['pre-filter']).sort(), [...principals].sort());
  const pre = report.byPrincipal['pre-filter']['pak-joko'];
  const post = report.byPrincipal['post-filter']['pak-joko'];
  assert.ok(post.pageFill < pre.pageFill);
  assert.ok(post.emptyPages > pre.emptyPages);
  assert.equal(post.postFilter.candidates, 50);
  assert.ok(post.postFilter.depthFor95 > 50);
  // Table output names the same figures.
  const table = ranklab(['check-acl', '--workspace', dir, '--config', 'post-filter', '--as', 'pak-joko', '--no-prefixes']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /pak-joko/);
  assert.match(table.stdout, /depth for 95%/);
  assert.match(table.stdout, /No violations/);
});

test('check-acl exits 1 when what is shown disagrees with the files: a corpus snapshot that missed an ACL edit', () => {
  const args = ['check-acl', '--workspace', dir, '--config', 'pre-filter', '--as', 'sari', '--no-prefixes', '--format', 'json'];
  const path = join(dir, 'corpus', 'bar', 'ops-burrs.md');
  const stamp = 1_700_000_000; // whole seconds, so the mtime can be restored exactly
  utimesSync(path, stamp, stamp);
  assert.equal(ranklab(args).code, 0); // also writes the corpus snapshot (files are re-read only when mtime or size change)
  // Take sari's group (baristas) off the burr notes without changing the file's size or mtime:
  // the snapshot keeps the old ACL, the index serves it, and the checker (which re-reads every file) must notice.
  const text = readFileSync(path, 'utf8');
  const edited = text.replace('groups: [baristas, roastery, management]', 'groups: [xbarista, roastery, management]');
  assert.equal(edited.length, text.length);
  writeFileSync(path, edited);
  utimesSync(path, stamp, stamp);
  try {
    const r = ranklab(args);
    assert.equal(r.code, 1, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.ok(report.violations.length > 0);
    assert.ok(report.violations.every((v: { docId: string }) => v.docId === 'ops-burrs'));
    assert.ok(
      report.violations.some(
        (v: { where: string; query: string }) => v.where === 'results' && v.query === 'how to replace the grinder burrs',
      ),
    );
    assert.equal(report.byPrincipal['pre-filter'].sari.filterExtra, 1);
    const table = ranklab(args.slice(0, -2));
    assert.equal(table.code, 1);
    assert.match(table.stdout, /violation\(s\):/);
    assert.match(table.stdout, /permits 1 document\(s\) the source files forbid/);
  } finally {
    writeFileSync(path, text);
  }
});

test('bad input: unknown principal and missing query are exit 2 with a message', () => {
  const r = ranklab(['search', '--workspace', dir, '--as', 'nobody', 'kopi']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown principal "nobody"/);
  const q = ranklab(['suggest', '--workspace', dir]);
  assert.equal(q.code, 2);
  assert.match(q.stderr, /prefix is required/);
});
