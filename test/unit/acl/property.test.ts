import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEFAULT_ACL_RULE, type AclPolicy, type Principal, permittedIds } from '../../../src/core/acl/policy';
import { buildSearchView, suggestFor } from '../../../src/core/acl/search-view';
import { SourceTruth } from '../../../src/core/acl/source-truth';
import { type AclViolation, verifySearchView, verifySuggestions } from '../../../src/core/acl/checker';
import { DEFAULT_ANALYZER, normaliseRankConfig } from '../../../src/core/config/defaults';
import type { Document } from '../../../src/core/corpus/document';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { type Engine, createEngine } from '../../../src/core/retrieval/pipeline';
import type { Embedder, Reranker } from '../../../src/core/retrieval/providers/types';

/** Property: whatever the corpus, principals and queries, pre-filtered retrieval shows nothing forbidden. */

const VOCAB = ['kopi', 'gayo', 'espresso', 'latte', 'susu', 'gula', 'aren', 'roast', 'bean', 'tubruk', 'dingin', 'manis'];
const TAGS = ['coffee', 'milk', 'sugar', 'ops'];
const analyzer = createAnalyzer(DEFAULT_ANALYZER);

/** Bag-of-words vectors over the vocabulary (+ a constant so no vector is zero): no model to train. */
class BagOfWords implements Embedder {
  readonly id = 'bow';
  readonly dimension = VOCAB.length + 1;
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => {
      const v = new Float32Array(this.dimension);
      for (const w of t.toLowerCase().split(/[^a-z]+/)) {
        const i = VOCAB.indexOf(w);
        if (i >= 0) v[i] += 1;
      }
      v[VOCAB.length] = 0.1;
      return v;
    });
  }
}

/** A word-overlap cross-encoder stand-in. */
class OverlapReranker implements Reranker {
  readonly id = 'overlap';
  async score(query: string, passages: string[]): Promise<number[]> {
    const q = new Set(query.toLowerCase().split(/\W+/).filter(Boolean));
    return passages.map((p) => p.toLowerCase().split(/\W+/).filter((w) => q.has(w)).length);
  }
}

const word = fc.constantFrom(...VOCAB);
const words = (min: number, max: number) => fc.array(word, { minLength: min, maxLength: max }).map((ws) => ws.join(' '));
const subset = (items: string[]) => fc.subarray(items);

const aclArb = fc.oneof(
  fc.constant({}), // no ACL fields at all
  fc.record({
    tenant: fc.option(fc.constantFrom('t1', 't2'), { nil: undefined }),
    groups: fc.option(subset(['g1', 'g2', 'g3']), { nil: undefined }),
    public: fc.option(fc.boolean(), { nil: undefined }),
  }, { requiredKeys: [] }),
);

const docArb = fc.record({ title: words(1, 3), body: words(3, 12), tags: subset(TAGS), acl: aclArb });

const corpusArb = fc.array(docArb, { minLength: 4, maxLength: 30 }).map((raw) => raw.map((r, i): Document => {
  const meta: Record<string, unknown> = { tags: r.tags };
  for (const [k, v] of Object.entries(r.acl)) if (v !== undefined) meta[k] = v;
  return { id: `d${i}`, title: r.title, body: r.body, fields: {}, meta, source: { path: `d${i}.md` }, hash: `h${i}` };
}));

const principalArb = fc.record({ tenant: fc.option(fc.constantFrom('t1', 't2'), { nil: undefined }), groups: subset(['g1', 'g2', 'g3']) });

const scenarioArb = fc.record({
  docs: corpusArb,
  principals: fc.array(principalArb, { minLength: 1, maxLength: 3 }).map((ps) => ps.map((p, i): Principal => ({ name: `p${i}`, ...p }))),
  queries: fc.array(words(1, 2), { minLength: 1, maxLength: 3 }),
  prefixes: fc.array(fc.tuple(fc.option(word, { nil: undefined }), word, fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 3 })
    .map((ps) => ps.map(([before, w, n]) => `${before ? `${before} ` : ''}${w.slice(0, n)}`)),
  missingAcl: fc.constantFrom<'public' | 'private'>('public', 'private'),
});

const precomputed = { provider: 'precomputed' };
const CONFIGS = {
  lexical: normaliseRankConfig({ lexical: {}, pageSize: 5 }, 'lexical'),
  vectorExact: normaliseRankConfig({ vector: { embedder: precomputed, exact: true }, pageSize: 5 }, 'vector-exact'),
  vectorHnsw: normaliseRankConfig({ vector: { embedder: precomputed, hnsw: { M: 8, efConstruction: 50, efSearch: 20 } }, pageSize: 5 }, 'vector-hnsw'),
  hybrid: normaliseRankConfig({ lexical: {}, vector: { embedder: precomputed }, pageSize: 5 }, 'hybrid'),
  reranked: normaliseRankConfig({ lexical: {}, vector: { embedder: precomputed }, rerank: { provider: { provider: 'overlap' }, topN: 20, topM: 5 }, pageSize: 5 }, 'reranked'),
};

async function engines(docs: Document[]): Promise<Array<[string, Engine]>> {
  const out: Array<[string, Engine]> = [];
  for (const [name, config] of Object.entries(CONFIGS)) {
    out.push([name, await createEngine({ docs, corpusFingerprint: `fp${docs.length}`, config, embedder: new BagOfWords(), reranker: new OverlapReranker() })]);
  }
  return out;
}

/** Independent expectation of the permitted lexical hit count: visible documents sharing a word with the query (OR). */
function expectedLexicalTotal(docs: Document[], visible: Set<string>, query: string): number {
  const q = new Set(query.split(' '));
  return docs.filter((d) => visible.has(d.id) && `${d.title} ${d.body}`.split(' ').some((w) => q.has(w))).length;
}

interface Checked {
  violations: AclViolation[];
  totalsChecked: number;
}

/** Runs every query and prefix as every principal with the given filters and verifies every response. */
async function checkScenario(
  s: { docs: Document[]; principals: Principal[]; queries: string[]; prefixes: string[]; missingAcl: 'public' | 'private' },
  built: Array<[string, Engine]>,
  filterOf: (p: Principal, honest: (id: string) => boolean) => (id: string) => boolean,
): Promise<Checked> {
  const policy: AclPolicy = { rule: DEFAULT_ACL_RULE, missingAcl: s.missingAcl };
  const truth = new SourceTruth(s.docs, (p, id) => permittedIds(policy, p, s.docs).has(id));
  const byId = new Map(s.docs.map((d) => [d.id, d]));
  const termIndex = truth.termIndex(['title', 'body'], analyzer);
  const out: Checked = { violations: [], totalsChecked: 0 };
  for (const p of s.principals) {
    const permitted = permittedIds(policy, p, s.docs); // the production path, as the session computes it
    const filter = filterOf(p, (id) => permitted.has(id));
    const visible = truth.visibleIds(p);
    for (const [name, engine] of built) {
      const config = CONFIGS[name as keyof typeof CONFIGS];
      for (const q of s.queries) {
        const view = await buildSearchView(engine, q, { filter, pageSize: config.pageSize, docs: (id) => byId.get(id), analyzer, snippetChars: 40 });
        const lexicalTotal = expectedLexicalTotal(s.docs, visible, q);
        const vectorTotal = Math.min(100, visible.size);
        const totalBound = config.vector ? Math.max(config.lexical ? lexicalTotal : 0, vectorTotal) : lexicalTotal;
        out.violations.push(...verifySearchView(view, truth, p, { config: name, query: q, totalBound }));
        out.totalsChecked++;
      }
      if (config.lexical) {
        for (const prefix of s.prefixes) {
          const suggestions = suggestFor(engine, prefix, { filter, limit: 20 });
          out.violations.push(...verifySuggestions(suggestions, truth, p, { config: name, query: prefix, termIndex }));
        }
      }
    }
  }
  return out;
}

test('property: pre-filtered lexical, vector (exact, HNSW), hybrid and reranked retrieval never show a forbidden document', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (s) => {
      const built = await engines(s.docs);
      const r = await checkScenario(s, built, (_p, honest) => honest);
      assert.deepEqual(r.violations, []);
      // And the totals are exactly right, not merely bounded: checked against an independent count.
      const policy: AclPolicy = { rule: DEFAULT_ACL_RULE, missingAcl: s.missingAcl };
      const truth = new SourceTruth(s.docs, (p, id) => permittedIds(policy, p, s.docs).has(id));
      for (const p of s.principals) {
        const permitted = permittedIds(policy, p, s.docs);
        const lexical = built.find(([n]) => n === 'lexical')![1];
        for (const q of s.queries) {
          const view = await buildSearchView(lexical, q, { filter: (id) => permitted.has(id), pageSize: 5, docs: () => undefined, analyzer });
          assert.equal(view.total, expectedLexicalTotal(s.docs, truth.visibleIds(p), q), `lexical total for "${q}" as ${p.name}`);
        }
      }
    }),
    { numRuns: 40 },
  );
});

test('property: the same check fails when the filter lets one forbidden matching document through', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (s) => {
      const policy: AclPolicy = { rule: DEFAULT_ACL_RULE, missingAcl: s.missingAcl };
      const truth = new SourceTruth(s.docs, (p, id) => permittedIds(policy, p, s.docs).has(id));
      // A principal, a query and a forbidden document containing a query word; skip scenarios without one.
      let leak: { p: Principal; q: string; doc: string } | undefined;
      for (const p of s.principals) {
        for (const q of s.queries) {
          const words = new Set(q.split(' '));
          const d = s.docs.find((x) => !truth.isVisible(p, x.id) && `${x.title} ${x.body}`.split(' ').some((w) => words.has(w)));
          if (d && !leak) leak = { p, q, doc: d.id };
        }
      }
      fc.pre(leak !== undefined);
      const built = await engines(s.docs);
      const r = await checkScenario({ ...s, principals: [leak!.p], queries: [leak!.q] }, built,
        (_p, honest) => (id) => honest(id) || id === leak!.doc);
      // Every retrieval mode lets the leaked document into what the user sees, and each is caught.
      for (const name of Object.keys(CONFIGS)) {
        const mine = r.violations.filter((v) => v.config === name);
        assert.ok(mine.some((v) => v.docId === leak!.doc && (v.where === 'total' || v.where === 'results')), `${name}: the leak of ${leak!.doc} is reported`);
      }
    }),
    { numRuns: 30 },
  );
});

test('property: a word that only forbidden documents contain is never suggested; without the filter it is, and the check says so', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (s) => {
      const policy: AclPolicy = { rule: DEFAULT_ACL_RULE, missingAcl: s.missingAcl };
      const truth = new SourceTruth(s.docs, (p, id) => permittedIds(policy, p, s.docs).has(id));
      const termIndex = truth.termIndex(['title', 'body'], analyzer);
      let secret: { p: Principal; w: string } | undefined;
      for (const p of s.principals) {
        for (const w of VOCAB) {
          const holders = termIndex.get(w) ?? [];
          if (!secret && holders.length > 0 && holders.every((id) => !truth.isVisible(p, id))) secret = { p, w };
        }
      }
      fc.pre(secret !== undefined);
      const { p, w } = secret!;
      const engine = await createEngine({ docs: s.docs, corpusFingerprint: 'x', config: CONFIGS.lexical });
      const permitted = permittedIds(policy, p, s.docs);
      for (const prefix of [w, w.slice(0, 2), `${VOCAB[0]} ${w.slice(0, 3)}`]) {
        const honest = suggestFor(engine, prefix, { filter: (id) => permitted.has(id), limit: 50 });
        assert.ok(honest.every((x) => !x.suggestion.split(' ').includes(w)), `"${w}" suggested to ${p.name} for "${prefix}"`);
        assert.deepEqual(verifySuggestions(honest, truth, p, { config: 'lexical', query: prefix, termIndex }), []);
      }
      const unfiltered = suggestFor(engine, w, { limit: 50 });
      assert.ok(unfiltered.some((x) => x.suggestion.split(' ').includes(w)), 'unfiltered autoSuggest does suggest it');
      const caught = verifySuggestions(unfiltered, truth, p, { config: 'lexical', query: w, termIndex });
      assert.ok(caught.some((v) => v.where === 'suggestion' && (termIndex.get(w) ?? []).includes(v.docId)));
    }),
    { numRuns: 40 },
  );
});
