import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { checkAcl, verifyAtDisplay } from '../../../src/core/session/check-acl';
import { RanklabSession } from '../../../src/core/session/session';

const EXAMPLE = resolve(__dirname, '../../../examples/food-search');

/** A private copy of the example workspace (tests write .ranklab/ caches and edit corpus files). */
function copyExample(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-acl-'));
  cpSync(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes(`${sep}.ranklab`) });
  return dir;
}

const BURRS = join('corpus', 'bar', 'ops-burrs.md');
const QUERY = 'how to replace the grinder burrs';

/** ops-burrs is for baristas, roastery and management of warung-kopi; narrowing it to management revokes sari (a barista). */
function revokeBaristas(dir: string): void {
  const path = join(dir, BURRS);
  const text = readFileSync(path, 'utf8');
  const changed = text.replace('groups: [baristas, roastery, management]', 'groups: [management]');
  assert.notEqual(changed, text, 'the fixture line is there');
  writeFileSync(path, changed);
}

test('a permission change on disk is an index update: refresh, and the next query no longer shows the document', async () => {
  const dir = copyExample();
  try {
    const session = RanklabSession.open(dir);
    const config = session.resolveConfig('pre-filter');
    const before = await session.searchView(config, QUERY, { principal: 'sari' });
    assert.ok(
      before.results.some((r) => r.id === 'ops-burrs'),
      'sari (barista) sees the burr notes',
    );
    assert.ok(session.accessFor('sari').permitted.has('ops-burrs'));
    const engine = await session.engine(config);

    revokeBaristas(dir);
    // Until the refresh, the display-time check (which re-reads the file) already drops it.
    const display = verifyAtDisplay(
      session,
      'sari',
      before.results.map((r) => r.id),
    );
    assert.deepEqual(
      display.dropped.map((d) => d.id),
      ['ops-burrs'],
    );
    assert.equal(display.kept.length, before.results.length - 1);

    const refresh = await session.refreshCorpus();
    assert.deepEqual(refresh, { ...refresh, added: [], changed: ['ops-burrs'], removed: [] });
    assert.equal(await session.engine(config), engine, 'the same engine was updated, not rebuilt');
    assert.equal(session.accessFor('sari').permitted.has('ops-burrs'), false, 'the cached permitted set was recomputed');

    const after = await session.searchView(config, QUERY, { principal: 'sari' });
    assert.ok(!after.results.some((r) => r.id === 'ops-burrs'), 'revoked');
    assert.equal(after.total, before.total - 1);
    const dimas = await session.searchView(config, QUERY, { principal: 'dimas' });
    assert.ok(
      dimas.results.some((r) => r.id === 'ops-burrs'),
      'management still sees it',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check-acl re-derives visibility from the files: a stale index filter is caught, and passes after refresh', async () => {
  const dir = copyExample();
  try {
    const session = RanklabSession.open(dir);
    const config = session.resolveConfig('pre-filter');
    const clean = await checkAcl(session, { configs: [config], principals: ['sari'], prefixes: false });
    assert.equal(clean.violations.length, 0);

    revokeBaristas(dir); // on disk only: the session's corpus, index and permitted sets are now stale
    const stale = await checkAcl(session, { configs: [config], principals: ['sari'], prefixes: false });
    assert.equal(stale.byPrincipal['pre-filter'].sari.filterExtra, 1);
    assert.ok(stale.violations.length > 0);
    assert.ok(
      stale.violations.every((v) => v.docId === 'ops-burrs'),
      'only the revoked document is flagged',
    );
    assert.ok(stale.violations.some((v) => v.where === 'results' && v.query === QUERY));

    await session.refreshCorpus();
    const fresh = await checkAcl(session, { configs: [config], principals: ['sari'], prefixes: false });
    assert.equal(fresh.violations.length, 0);
    assert.equal(fresh.byPrincipal['pre-filter'].sari.filterExtra, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check-acl on the example: no leaks; a deliberately broken filter is caught in results, totals, facets and suggestions', async () => {
  const dir = copyExample();
  try {
    const session = RanklabSession.open(dir);
    const configs = [session.resolveConfig('pre-filter'), session.resolveConfig('post-filter')];
    const report = await checkAcl(session, { configs, principals: ['guest', 'pak-joko'] });
    assert.deepEqual(report.violations, []);
    assert.equal(report.documents, 398);
    assert.equal(report.documentsWithoutAcl, 0);
    assert.equal(report.checked, 2 * 2 * (report.queries + report.prefixes));
    const pre = report.byPrincipal['pre-filter']['pak-joko'];
    const post = report.byPrincipal['post-filter']['pak-joko'];
    assert.equal(pre.visibleDocuments, 14);
    assert.ok(post.pageFill < pre.pageFill, `post-filter fills less of pak-joko's page (${post.pageFill} vs ${pre.pageFill})`);
    assert.ok(post.postFilter!.depthFor95! > 50, 'more than the 50 candidates are needed');
    assert.equal(post.postFilter!.fillPossible, pre.pageFill, 'an unlimited candidate list fills like pre-filter (same BM25 ranking)');

    // The guest's filter lets ops-burrs (staff only) through.
    const broken = await checkAcl(session, {
      configs: [configs[0]],
      principals: ['guest'],
      filterFor: (_p, filter) => (id) => filter(id) || id === 'ops-burrs',
    });
    const places = new Set(broken.violations.map((v) => v.where));
    for (const p of ['results', 'total', 'facet', 'suggestion', 'snippet']) assert.ok(places.has(p as never), `leak caught in ${p}`);
    assert.ok(broken.violations.filter((v) => v.where !== 'suggestion').every((v) => v.docId === 'ops-burrs'));
    // A leaked suggestion names a forbidden document holding its words; every one of them is in ops-burrs too.
    const burrs = readFileSync(join(dir, BURRS), 'utf8').toLowerCase();
    for (const v of broken.violations.filter((x) => x.where === 'suggestion')) {
      const words = /^"(.+)" occurs only/.exec(v.detail)![1].split(' ');
      assert.ok(
        words.every((w) => burrs.includes(w)),
        `"${words.join(' ')}" comes from ops-burrs`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
