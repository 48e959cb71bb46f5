import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_ACL_RULE, type AclPolicy, type Principal, permittedIds } from '../../../src/core/acl/policy';
import { buildSearchView, makeSnippet, suggestFor, tagCounts } from '../../../src/core/session/search-view';
import { SourceTruth } from '../../../src/core/session/source-truth';
import { postFilterDepth, typingPrefixes, verifySearchView, verifySuggestions } from '../../../src/core/session/check-acl';
import { DEFAULT_ANALYZER, normaliseRankConfig } from '../../../src/core/config/defaults';
import type { Document } from '../../../src/core/corpus/document';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { createEngine } from '../../../src/core/retrieval/engine';

const analyzer = createAnalyzer(DEFAULT_ANALYZER);

function doc(id: string, title: string, body: string, meta: Record<string, unknown>): Document {
  return { id, title, body, fields: {}, meta, source: { path: `${id}.md` }, hash: id };
}

// d1 public, d2 restricted to tenant t1 / group g1, d3 has no ACL fields (public by default).
const docs = [
  doc('d1', 'Espresso machine', 'Cleaning the espresso machine every evening keeps it sweet.', { tags: ['ops', 'espresso'], public: true }),
  doc('d2', 'House blend', 'The espresso secret blend: gayo with a little robusta.', {
    tags: ['espresso', 'recipe'],
    tenant: 't1',
    groups: ['g1'],
    public: false,
  }),
  doc('d3', 'Milk', 'Steam milk for latte to 60 degrees.', { tags: ['milk'] }),
];
const policy: AclPolicy = { rule: DEFAULT_ACL_RULE, missingAcl: 'public' };
const guest: Principal = { name: 'guest', tenant: 'public', groups: [] };
const insider: Principal = { name: 'insider', tenant: 't1', groups: ['g1'] };
const config = normaliseRankConfig({ lexical: {}, pageSize: 10 }, 'lexical');
const byId = new Map(docs.map((d) => [d.id, d]));
const filterFor = (p: Principal) => {
  const set = permittedIds(policy, p, docs);
  return (id: string) => set.has(id);
};

test('snippet: cut around the first query term at word boundaries, with … at the cuts', () => {
  const body = 'one two three four five six seven eight nine ten espresso eleven twelve thirteen fourteen fifteen';
  // "espresso" starts at 49; start = 49 - floor(40/3) = 36 (inside "eight"), moved to the next word: 40 ("nine");
  // end = 40 + 40 = 80, a space, so the cut is after "thirteen".
  const s = makeSnippet({ title: 't', body }, 'espresso', analyzer, 40);
  assert.equal(s, '…nine ten espresso eleven twelve thirteen…');
  assert.equal(makeSnippet({ title: 't', body: 'short text' }, 'x', analyzer, 40), 'short text');
  // no match: the beginning
  assert.equal(makeSnippet({ title: 't', body }, 'absent', analyzer, 20), 'one two three four…');
});

test('facets count each tag once per document', () => {
  assert.deepEqual(
    tagCounts(['d1', 'd2', 'd3', 'missing'], (id) => byId.get(id)),
    { espresso: 2, milk: 1, ops: 1, recipe: 1 },
  );
});

test('search view: results, total, facets and snippets come from permitted documents only', async () => {
  const engine = await createEngine({ docs, corpusFingerprint: 'fp', config });
  const asGuest = await buildSearchView(engine, 'espresso', {
    filter: filterFor(guest),
    pageSize: 10,
    docs: (id) => byId.get(id),
    analyzer,
  });
  assert.deepEqual(
    asGuest.results.map((r) => r.id),
    ['d1'],
  );
  assert.equal(asGuest.total, 1);
  assert.deepEqual(asGuest.facets.tags, { espresso: 1, ops: 1 });
  assert.ok(asGuest.results[0].snippet!.includes('espresso machine'));
  assert.equal(asGuest.results[0].stages.lexical?.rank, 1);
  const asInsider = await buildSearchView(engine, 'espresso', {
    filter: filterFor(insider),
    pageSize: 10,
    docs: (id) => byId.get(id),
    analyzer,
  });
  assert.deepEqual(asInsider.results.map((r) => r.id).sort(), ['d1', 'd2']);
  assert.equal(asInsider.total, 2);
  assert.deepEqual(asInsider.facets.tags, { espresso: 2, ops: 1, recipe: 1 });
  const truth = new SourceTruth(docs, (p, id) => filterFor(p)(id));
  assert.deepEqual(verifySearchView(asGuest, truth, guest, { config: 'x', query: 'espresso', totalBound: 1 }), []);
});

test('verifySearchView names each kind of leak: result, total, facet and snippet', async () => {
  const truth = new SourceTruth(docs, (p, id) => filterFor(p)(id));
  const engine = await createEngine({ docs, corpusFingerprint: 'fp', config });
  const unfiltered = await buildSearchView(engine, 'espresso', { pageSize: 10, docs: (id) => byId.get(id), analyzer });
  const filtered = await buildSearchView(engine, 'espresso', {
    filter: filterFor(guest),
    pageSize: 10,
    docs: (id) => byId.get(id),
    analyzer,
  });
  const places = (vs: { where: string; docId: string }[]) => vs.map((v) => `${v.where}:${v.docId}`).sort();
  // The whole unfiltered response shown to the guest: d2 leaks everywhere.
  assert.deepEqual(places(verifySearchView(unfiltered, truth, guest, { config: 'x', query: 'espresso' })), [
    'facet:d2',
    'facet:d2',
    'results:d2',
    'snippet:d2',
    'total:d2',
  ]);
  // Only the facets computed over all matches (a classic bug): caught as facet leaks (espresso 2 > 1, recipe 1 > 0);
  // no document is named because the filtered matches do not contain it.
  assert.deepEqual(places(verifySearchView({ ...filtered, facets: unfiltered.facets }, truth, guest, { config: 'x', query: 'espresso' })), [
    'facet:',
    'facet:',
  ]);
  // Only the count: 2 where the guest may see 1 matching document.
  assert.deepEqual(places(verifySearchView({ ...filtered, total: 2 }, truth, guest, { config: 'x', query: 'espresso', totalBound: 1 })), [
    'total:',
  ]);
  // A snippet taken from another document than the result it is shown under.
  const wrongSnippet = { ...filtered, results: [{ ...filtered.results[0], snippet: 'The espresso secret blend' }] };
  assert.deepEqual(places(verifySearchView(wrongSnippet, truth, guest, { config: 'x', query: 'espresso' })), ['snippet:d1']);
});

test('suggest: completions come only from documents the principal may see', async () => {
  const engine = await createEngine({ docs, corpusFingerprint: 'fp', config });
  const truth = new SourceTruth(docs, (p, id) => filterFor(p)(id));
  const termIndex = truth.termIndex(['title', 'body'], analyzer);
  // "se": "secret" is only in d2; "sweet" is in d1; "steam" does not start with "se".
  assert.deepEqual(
    suggestFor(engine, 'se', { filter: filterFor(guest) }).map((s) => s.suggestion),
    [],
  );
  assert.deepEqual(
    suggestFor(engine, 'sw', { filter: filterFor(guest) }).map((s) => s.suggestion),
    ['sweet'],
  );
  assert.deepEqual(
    suggestFor(engine, 'se', { filter: filterFor(insider) }).map((s) => s.suggestion),
    ['secret'],
  );
  // Multi-word: AND of the earlier words with the completed last word, within one permitted document.
  const guestEspressoS = suggestFor(engine, 'espresso s', { filter: filterFor(guest) }).map((s) => s.suggestion);
  assert.deepEqual(guestEspressoS, ['espresso sweet']);
  const insiderEspressoS = suggestFor(engine, 'espresso s', { filter: filterFor(insider) })
    .map((s) => s.suggestion)
    .sort();
  assert.deepEqual(insiderEspressoS, ['espresso secret', 'espresso sweet']);
  // Unfiltered suggestions shown to the guest are caught by the check, naming d2.
  const leaked = suggestFor(engine, 'se', {});
  assert.deepEqual(
    verifySuggestions(leaked, truth, guest, { config: 'x', query: 'se', termIndex }).map((v) => v.docId),
    ['d2'],
  );
});

test('suggest after an update: a revoked document stops feeding suggestions', async () => {
  const engine = await createEngine({ docs, corpusFingerprint: 'fp', config });
  const opened = doc('d2', 'House blend', 'The espresso secret blend: gayo with a little robusta.', { tags: ['espresso'], public: true });
  const after = [docs[0], opened, docs[2]];
  await engine.update({ upsert: [opened], docs: after, corpusFingerprint: 'fp2' });
  const open = permittedIds(policy, guest, after);
  assert.deepEqual(
    suggestFor(engine, 'se', { filter: (id) => open.has(id) }).map((s) => s.suggestion),
    ['secret'],
  );
  await engine.update({ upsert: [docs[1]], docs, corpusFingerprint: 'fp' }); // private again
  assert.deepEqual(
    suggestFor(engine, 'se', { filter: filterFor(guest) }).map((s) => s.suggestion),
    [],
  );
});

test('typing prefixes: the first word letter by letter (up to 8), later words by 1-3 letters and whole', () => {
  assert.deepEqual(typingPrefixes(['Kopi Gayo', 'kopi susu']), [
    'k',
    'ko',
    'kop',
    'kopi',
    'kopi g',
    'kopi ga',
    'kopi gay',
    'kopi gayo',
    'kopi s',
    'kopi su',
    'kopi sus',
    'kopi susu',
  ]);
  assert.equal(typingPrefixes(['cappuccino']).length, 9); // 8 letter-prefixes + the whole word
});

test('post-filter depth: how deep the unfiltered list must go to fill the page', () => {
  const visible = new Set(['a', 'b', 'c']);
  // page size 2. q1: visible at ranks 2 and 5 -> needs 5. q2: visible at 1, 2 -> 2. q3: one visible at 4 -> needs 4 (fill 1 of 2 is all it can).
  const rankings = [
    ['x', 'a', 'y', 'z', 'b'],
    ['a', 'b', 'x'],
    ['x', 'y', 'z', 'c'],
  ];
  const r = postFilterDepth(rankings, visible, 2, 3);
  assert.equal(r.depthFor95, 5); // ceil(0.95 * 3) = 3rd smallest of [2, 4, 5]
  assert.equal(r.fillPossible, (1 + 1 + 0.5) / 3);
  assert.equal(r.fillAtCandidates, (0.5 + 1 + 0) / 3); // first 3 candidates
  assert.equal(r.deepest, 5);
});
