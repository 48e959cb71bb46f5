import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import fc from 'fast-check';
import { type AclPolicy, type AclRule, type Principal, decidedByRule, permittedIds, ruleDocFields } from '../../../src/core/acl/policy';
import { ReferenceAcl } from '../../../src/core/acl/reference-acl';
import { buildSearchView, suggestFor } from '../../../src/core/session/search-view';
import { SourceTruth } from '../../../src/core/session/source-truth';
import { type AclViolation, verifySearchView, verifySuggestions } from '../../../src/core/session/check-acl';
import { DEFAULT_ANALYZER, normaliseRankConfig } from '../../../src/core/config/defaults';
import { loadCorpus } from '../../../src/core/corpus';
import type { Document } from '../../../src/core/corpus/document';
import { corpusSettings } from '../../../src/core/corpus/settings';
import { createAnalyzer } from '../../../src/core/retrieval/analyzer';
import { createEngine } from '../../../src/core/retrieval/engine';
import type { Engine } from '../../../src/core/retrieval/pipeline';
import type { Embedder, Reranker } from '../../../src/core/retrieval/providers/types';
import { type Scenario, VOCAB, labelledInvalid, scenarioArb, writeWorkspace } from './generated-workspace';

/**
 * Properties over random workspaces written as RAW FILES (Markdown front matter and JSONL records, with valid and
 * malformed access fields): the real corpus readers and retrieval must agree with the independent ReferenceAcl,
 * nothing forbidden may be shown, and a wrong rule implementation or a lenient field parser must be caught.
 */

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
    return passages.map(
      (p) =>
        p
          .toLowerCase()
          .split(/\W+/)
          .filter((w) => q.has(w)).length,
    );
  }
}

function settingsFor(rule: AclRule) {
  return corpusSettings({ include: ['corpus/**/*.{md,jsonl}'], aclRuleFields: ruleDocFields(rule) });
}

/** The production path: real readers, then the session's `permittedIds`. */
function readCorpus(dir: string, rule: AclRule): Document[] {
  return loadCorpus(dir, settingsFor(rule)).corpus.docs;
}

type Visibility = (policy: AclPolicy, p: Principal, docs: Document[]) => Set<string>;
const production: Visibility = (policy, p, docs) => permittedIds(policy, p, docs);

/**
 * Property: for every principal, the documents retrieval's access path permits are exactly those the independent
 * reference permits (both directions), and the invalid documents are exactly those the generator made invalid.
 * `visibility` and `mapDocs` are the seams through which the tests below inject a broken implementation.
 */
function accessAgrees(visibility: Visibility = production, mapDocs: (docs: Document[], s: Scenario) => Document[] = (d) => d) {
  return fc.property(scenarioArb, (s) => {
    const dir = writeWorkspace(s);
    try {
      const policy: AclPolicy = { rule: s.rule, missingAcl: s.missingAcl };
      const docs = mapDocs(readCorpus(dir, s.rule), s);
      assert.equal(docs.length, s.docs.length, 'every generated document is indexed');
      const reference = ReferenceAcl.fromDisk(dir, settingsFor(s.rule), policy);
      const ids = docs.map((d) => d.id);
      assert.deepEqual(
        reference
          .invalidDocuments(ids)
          .map((d) => d.id)
          .sort(),
        labelledInvalid(s).sort(),
        'reference: invalid documents',
      );
      for (const p of s.principals) {
        const permitted = [...visibility(policy, p, docs)].sort();
        const expected = ids.filter((id) => reference.visible(p, id)).sort();
        assert.deepEqual(permitted, expected, `as ${p.name} under ${JSON.stringify(s.rule)}, missingAcl ${s.missingAcl}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('property: the real readers + permittedIds agree with the independent reference on raw files, malformed fields included', () => {
  fc.assert(accessAgrees(), { numRuns: 150 });
});

test('property: the production readers mark exactly the generated malformed documents invalid, and nobody sees them', () => {
  fc.assert(
    fc.property(scenarioArb, (s) => {
      const dir = writeWorkspace(s);
      try {
        const docs = readCorpus(dir, s.rule);
        assert.deepEqual(
          docs
            .filter((d) => d.invalidAcl?.length)
            .map((d) => d.id)
            .sort(),
          labelledInvalid(s).sort(),
        );
        const policy: AclPolicy = { rule: s.rule, missingAcl: s.missingAcl };
        for (const p of s.principals) for (const id of labelledInvalid(s)) assert.equal(permittedIds(policy, p, docs).has(id), false);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }),
    { numRuns: 60 },
  );
});

/** A wrong rule implementation: `same` also holds when neither side has the field (undefined === undefined). */
function mutantEvaluate(rule: AclRule, p: Principal, meta: Record<string, unknown>): boolean {
  if ('any' in rule) return rule.any.some((r) => mutantEvaluate(r, p, meta));
  if ('all' in rule) return rule.all.every((r) => mutantEvaluate(r, p, meta));
  if ('not' in rule) return !mutantEvaluate(rule.not, p, meta);
  if ('doc' in rule) return meta[rule.doc] === rule.is;
  if ('principal' in rule) return p[rule.principal] === rule.is;
  if ('same' in rule) return meta[rule.same] === p[rule.same]; // the bug
  if ('overlap' in rule) {
    const mine = (meta[rule.overlap] as string[] | undefined) ?? [];
    return mine.length === 0 ? rule.ifEmpty === 'allow' : mine.some((g) => p.groups.includes(g));
  }
  return false;
}
const wrongRule: Visibility = (policy, p, docs) =>
  new Set(
    docs
      .filter((d) => {
        if (d.invalidAcl?.length) return false;
        if (!decidedByRule(policy.rule, d)) return policy.missingAcl === 'public';
        return mutantEvaluate(policy.rule, p, d.meta);
      })
      .map((d) => d.id),
  );

/** A lenient field parser, as the mapper was: an invalid access field is dropped (not fatal), `tenant: [x]` reads as x. */
function lenientParser(docs: Document[], s: Scenario): Document[] {
  return docs.map((d) => {
    if (!d.invalidAcl) return d;
    const raw = s.docs[Number(d.id.slice(1))];
    const meta = { ...d.meta };
    if (Array.isArray(raw.tenant?.value) && typeof raw.tenant.value[0] === 'string') meta.tenant = raw.tenant.value[0];
    return { ...d, meta, invalidAcl: undefined };
  });
}

/** missingAcl decided by tenant/groups/public alone, as before: a custom rule's own fields are ignored. */
const oldMissingAcl: Visibility = (policy, p, docs) =>
  new Set(
    docs
      .filter((d) => {
        if (d.invalidAcl?.length) return false;
        if (!['tenant', 'groups', 'public'].some((f) => d.meta[f] !== undefined)) return policy.missingAcl === 'public';
        return permittedIds(policy, p, [d]).size === 1;
      })
      .map((d) => d.id),
  );

/** The property fails, and on the access comparison (not on anything else). */
function caught(property: ReturnType<typeof accessAgrees>): void {
  assert.throws(
    () => fc.assert(property, { numRuns: 300 }),
    (e: Error) => /Property failed/.test(e.message) && /as p\d+ under/.test(String((e.cause as Error)?.message)),
  );
}

test('the property catches a wrong rule implementation (same-tenant true when both lack a tenant)', () => {
  caught(accessAgrees(wrongRule));
});

test('the property catches a lenient field parser (tenant: [t1] accepted, invalid fields dropped)', () => {
  caught(accessAgrees(production, lenientParser));
});

test('the property catches missingAcl bypassing a custom rule', () => {
  caught(accessAgrees(oldMissingAcl));
});

const precomputed = { provider: 'precomputed' };
const CONFIGS = {
  lexical: normaliseRankConfig({ lexical: {}, pageSize: 5 }, 'lexical'),
  vectorExact: normaliseRankConfig({ vector: { embedder: precomputed, exact: true }, pageSize: 5 }, 'vector-exact'),
  vectorHnsw: normaliseRankConfig(
    { vector: { embedder: precomputed, hnsw: { M: 8, efConstruction: 50, efSearch: 20 } }, pageSize: 5 },
    'vector-hnsw',
  ),
  hybrid: normaliseRankConfig({ lexical: {}, vector: { embedder: precomputed }, pageSize: 5 }, 'hybrid'),
  reranked: normaliseRankConfig(
    { lexical: {}, vector: { embedder: precomputed }, rerank: { provider: { provider: 'overlap' }, topN: 20, topM: 5 }, pageSize: 5 },
    'reranked',
  ),
};

async function engines(docs: Document[]): Promise<Array<[string, Engine]>> {
  const out: Array<[string, Engine]> = [];
  for (const [name, config] of Object.entries(CONFIGS)) {
    out.push([
      name,
      await createEngine({
        docs,
        corpusFingerprint: `fp${docs.length}`,
        config,
        embedder: new BagOfWords(),
        reranker: new OverlapReranker(),
      }),
    ]);
  }
  return out;
}

/** Independent expectation of the permitted lexical hit count: visible documents sharing a word with the query (OR). */
function expectedLexicalTotal(docs: Document[], visible: Set<string>, query: string): number {
  const q = new Set(query.split(' '));
  return docs.filter((d) => visible.has(d.id) && `${d.title} ${d.body}`.split(' ').some((w) => q.has(w))).length;
}

/** A scenario on disk, read by the real readers, with the reference as the truth. */
interface Loaded {
  docs: Document[];
  policy: AclPolicy;
  truth: SourceTruth;
}

function load(s: Scenario, dir: string): Loaded {
  const policy: AclPolicy = { rule: s.rule, missingAcl: s.missingAcl };
  const docs = readCorpus(dir, s.rule);
  const reference = ReferenceAcl.fromDisk(dir, settingsFor(s.rule), policy);
  return { docs, policy, truth: new SourceTruth(docs, (p, id) => reference.visible(p, id)) };
}

/** Runs every query and prefix as every principal with the given filters and verifies every response. */
async function checkScenario(
  s: Scenario,
  l: Loaded,
  built: Array<[string, Engine]>,
  filterOf: (p: Principal, honest: (id: string) => boolean) => (id: string) => boolean,
): Promise<AclViolation[]> {
  const byId = new Map(l.docs.map((d) => [d.id, d]));
  const termIndex = l.truth.termIndex(['title', 'body'], analyzer);
  const out: AclViolation[] = [];
  for (const p of s.principals) {
    const permitted = permittedIds(l.policy, p, l.docs); // the production path, as the session computes it
    const filter = filterOf(p, (id) => permitted.has(id));
    const visible = l.truth.visibleIds(p);
    for (const [name, engine] of built) {
      const config = CONFIGS[name as keyof typeof CONFIGS];
      for (const q of s.queries) {
        const view = await buildSearchView(engine, q, {
          filter,
          pageSize: config.pageSize,
          docs: (id) => byId.get(id),
          analyzer,
          snippetChars: 40,
        });
        const lexicalTotal = expectedLexicalTotal(l.docs, visible, q);
        const vectorTotal = Math.min(100, visible.size);
        const totalBound = config.vector ? Math.max(config.lexical ? lexicalTotal : 0, vectorTotal) : lexicalTotal;
        out.push(...verifySearchView(view, l.truth, p, { config: name, query: q, totalBound }));
      }
      if (config.lexical) {
        for (const prefix of s.prefixes) {
          const suggestions = suggestFor(engine, prefix, { filter, limit: 20 });
          out.push(...verifySuggestions(suggestions, l.truth, p, { config: name, query: prefix, termIndex }));
        }
      }
    }
  }
  return out;
}

/** Runs `body` on the scenario written to a temporary workspace. */
async function onDisk<T>(s: Scenario, body: (l: Loaded) => Promise<T>): Promise<T> {
  const dir = writeWorkspace(s);
  try {
    return await body(load(s, dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('property: pre-filtered lexical, vector (exact, HNSW), hybrid and reranked retrieval never show a forbidden document', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, (s) =>
      onDisk(s, async (l) => {
        const built = await engines(l.docs);
        assert.deepEqual(await checkScenario(s, l, built, (_p, honest) => honest), []);
        // And the totals are exactly right, not merely bounded: checked against an independent count.
        const lexical = built.find(([n]) => n === 'lexical')![1];
        for (const p of s.principals) {
          const permitted = permittedIds(l.policy, p, l.docs);
          for (const q of s.queries) {
            const view = await buildSearchView(lexical, q, {
              filter: (id) => permitted.has(id),
              pageSize: 5,
              docs: () => undefined,
              analyzer,
            });
            assert.equal(view.total, expectedLexicalTotal(l.docs, l.truth.visibleIds(p), q), `lexical total for "${q}" as ${p.name}`);
          }
        }
      }),
    ),
    { numRuns: 30 },
  );
});

test('property: the same check fails when the filter lets one forbidden matching document through', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (s) => {
      // A principal, a query and a forbidden document containing a query word; skip scenarios without one.
      const hasLeak = await onDisk(s, async (l) => {
        let leak: { p: Principal; q: string; doc: string } | undefined;
        for (const p of s.principals) {
          for (const q of s.queries) {
            const qw = new Set(q.split(' '));
            const d = l.docs.find((x) => !l.truth.isVisible(p, x.id) && `${x.title} ${x.body}`.split(' ').some((w) => qw.has(w)));
            if (d && !leak) leak = { p, q, doc: d.id };
          }
        }
        if (!leak) return false;
        const built = await engines(l.docs);
        const violations = await checkScenario(
          { ...s, principals: [leak.p], queries: [leak.q] },
          l,
          built,
          (_p, honest) => (id) => honest(id) || id === leak!.doc,
        );
        // Every retrieval mode lets the leaked document into what the user sees, and each is caught.
        for (const name of Object.keys(CONFIGS)) {
          const mine = violations.filter((v) => v.config === name);
          assert.ok(
            mine.some((v) => v.docId === leak!.doc && (v.where === 'total' || v.where === 'results')),
            `${name}: the leak of ${leak!.doc} is reported`,
          );
        }
        return true;
      });
      fc.pre(hasLeak);
    }),
    { numRuns: 20 },
  );
});

test('property: a word that only forbidden documents contain is never suggested; without the filter it is, and the check says so', async () => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async (s) => {
      const found = await onDisk(s, async (l) => {
        const termIndex = l.truth.termIndex(['title', 'body'], analyzer);
        let secret: { p: Principal; w: string } | undefined;
        for (const p of s.principals) {
          for (const w of VOCAB) {
            const holders = termIndex.get(w) ?? [];
            if (!secret && holders.length > 0 && holders.every((id) => !l.truth.isVisible(p, id))) secret = { p, w };
          }
        }
        if (!secret) return false;
        const { p, w } = secret;
        const engine = await createEngine({ docs: l.docs, corpusFingerprint: 'x', config: CONFIGS.lexical });
        const permitted = permittedIds(l.policy, p, l.docs);
        for (const prefix of [w, w.slice(0, 2), `${VOCAB[0]} ${w.slice(0, 3)}`]) {
          const honest = suggestFor(engine, prefix, { filter: (id) => permitted.has(id), limit: 50 });
          assert.ok(
            honest.every((x) => !x.suggestion.split(' ').includes(w)),
            `"${w}" suggested to ${p.name} for "${prefix}"`,
          );
          assert.deepEqual(verifySuggestions(honest, l.truth, p, { config: 'lexical', query: prefix, termIndex }), []);
        }
        const unfiltered = suggestFor(engine, w, { limit: 50 });
        assert.ok(
          unfiltered.some((x) => x.suggestion.split(' ').includes(w)),
          'unfiltered autoSuggest does suggest it',
        );
        const caught = verifySuggestions(unfiltered, l.truth, p, { config: 'lexical', query: w, termIndex });
        assert.ok(caught.some((v) => v.where === 'suggestion' && (termIndex.get(w) ?? []).includes(v.docId)));
        return true;
      });
      fc.pre(found);
    }),
    { numRuns: 30 },
  );
});
