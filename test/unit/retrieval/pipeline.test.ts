import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normaliseRankConfig } from '../../../src/core/config/defaults';
import { permittedFilter } from '../../../src/core/retrieval/doc-filter';
import { createEngine } from '../../../src/core/retrieval/engine';
import type { Embedder, Reranker } from '../../../src/core/retrieval/providers/types';
import { fingerprint } from '../../../src/core/util/fingerprint';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { corpusFingerprint, loadDocs, loadQueries } from './collections';

/** Test double for a cross-encoder: scores by shared words. */
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

const collection = syntheticCollection({ docs: 1033, queries: 30 });
const docs = loadDocs(collection);
const fp = corpusFingerprint(docs);
const queries = loadQueries(collection);
const lsa = { provider: 'lsa', dimensions: 64 };
const configs = {
  lexical: normaliseRankConfig({ lexical: {} }, 'lexical'),
  vector: normaliseRankConfig({ vector: { embedder: lsa } }, 'vector'),
  vectorExact: normaliseRankConfig({ vector: { embedder: lsa, exact: true } }, 'vector-exact'),
  hybrid: normaliseRankConfig({ lexical: {}, vector: { embedder: lsa } }, 'hybrid'),
  rerank: normaliseRankConfig(
    { lexical: {}, vector: { embedder: lsa }, rerank: { provider: { provider: 'transformers', model: 'x' } } },
    'rerank',
  ),
};

test('pre-filter never returns a forbidden document, in every mode, for 40% and 2% permitted', async () => {
  for (const [mode, config] of Object.entries(configs)) {
    const engine = await createEngine({ docs, corpusFingerprint: fp, config, reranker: new OverlapReranker() });
    for (const modulo of [5, 50]) {
      // 2 of 5 docs (40%), or 1 of 50 (2%)
      const allow = (id: string) => Number(id) % modulo === 0 || (modulo === 5 && Number(id) % 5 === 1);
      let returned = 0;
      for (const q of queries.slice(0, 10)) {
        const r = await engine.search(q.text, { filter: allow, aclMode: 'pre-filter' });
        for (const d of r.docs) assert.ok(allow(d.id), `${mode}: forbidden doc ${d.id} returned`);
        returned += r.docs.length;
        if (mode !== 'lexical' && mode !== 'vectorExact' && modulo === 50) {
          assert.ok(
            r.notes.some((n) => /^vector: exact filtered fallback \(\d+\.\d% permitted\)$/.test(n)),
            `${mode}: fallback noted`,
          );
        }
      }
      assert.ok(returned > 0, `${mode}: something was returned`);
    }
  }
});

test('pre-filter: the vector stage fills its list from permitted documents (exact fallback) and ranks like exact search', async () => {
  const engine = await createEngine({ docs, corpusFingerprint: fp, config: configs.vector });
  const allow = (id: string) => Number(id) % 50 === 0; // 20 of 1033 docs
  const permitted = docs.filter((d) => allow(d.id)).length;
  for (const q of queries.slice(0, 5)) {
    const r = await engine.search(q.text, { filter: allow });
    assert.equal(r.docs.length, permitted, 'all permitted docs are reachable');
    assert.deepEqual(
      r.docs.map((d) => d.id),
      await engine.exactVectorSearch(q.text, 100, allow),
    );
  }
});

test('a permitted-set filter ranks exactly like the same predicate as a function (exact, HNSW with exact fallback, int8)', async () => {
  const int8 = normaliseRankConfig({ vector: { embedder: lsa, exact: true, storage: 'int8' } }, 'int8');
  for (const config of [configs.vectorExact, configs.vector, configs.hybrid, int8]) {
    const engine = await createEngine({ docs, corpusFingerprint: fp, config });
    assert.equal(engine.build.vector?.scan, 'simd', 'the engine loads the SIMD kernels');
    for (const modulo of [3, 50]) {
      // 33% (HNSW filtered walk) and 2% (exact fallback)
      const permitted = new Set(docs.map((d) => d.id).filter((id) => Number(id) % modulo === 0));
      for (const q of queries.slice(0, 5)) {
        const bySet = await engine.search(q.text, { filter: permittedFilter(permitted) });
        const byFunction = await engine.search(q.text, { filter: (id) => permitted.has(id) });
        assert.deepEqual(bySet.docs, byFunction.docs, `${config.name} ${modulo}`);
        assert.deepEqual(bySet.notes, byFunction.notes);
        assert.equal(bySet.total, byFunction.total);
      }
    }
  }
});

test('post-filter with a 5% predicate: page-fill shortfall is reported, total counts only permitted matches', async () => {
  const engine = await createEngine({ docs, corpusFingerprint: fp, config: configs.lexical });
  const allow = (id: string) => Number(id) % 20 === 0; // 5%
  // The query matching the most documents: the 50 candidates are a real cut, and 5% of its matches fill a page.
  let q = '';
  let unfiltered = await engine.search(q);
  for (const query of queries) {
    const r = await engine.search(query.text);
    if (r.total > unfiltered.total) [q, unfiltered] = [query.text, r];
  }
  assert.ok(unfiltered.total >= 400, `the broadest query matches ${unfiltered.total} documents`);
  const r = await engine.search(q, { filter: allow, aclMode: 'post-filter', candidates: 50, pageSize: 10 });
  const expected = unfiltered.docs
    .slice(0, 50)
    .filter((d) => allow(d.id))
    .map((d) => d.id)
    .slice(0, 10);
  assert.deepEqual(
    r.docs.map((d) => d.id),
    expected,
  );
  assert.ok(r.docs.length < 10, 'a 5% predicate cannot fill a page of 10 from 50 candidates here');
  assert.ok(
    r.notes.some((n) =>
      n.startsWith(`post-filter: ${expected.length} of 50 candidates permitted; page of 10 short by ${10 - expected.length}`),
    ),
    r.notes.join('; '),
  );
  // total = every permitted lexical match: count them in an unfiltered list deep enough to hold all matches
  const deep = await createEngine({ docs, corpusFingerprint: fp, config: normaliseRankConfig({ lexical: { depth: 100000 } }, 'deep') });
  const all = await deep.search(q);
  assert.equal(all.docs.length, unfiltered.total);
  assert.equal(r.total, all.docs.filter((d) => allow(d.id)).length);
  assert.ok(r.total > r.docs.length);
  const pre = await engine.search(q, { filter: allow, aclMode: 'pre-filter', pageSize: 10 });
  assert.equal(pre.docs.length, 10, 'pre-filter fills the page');
  assert.equal(pre.total, r.total);
});

test('hybrid and rerank: stages carry provenance; the fused score is RRF of the stage ranks', async () => {
  const engine = await createEngine({ docs, corpusFingerprint: fp, config: configs.rerank, reranker: new OverlapReranker() });
  const r = await engine.search(queries[0].text);
  assert.equal(r.docs.length, 10, 'topM');
  for (const d of r.docs) {
    const s = d.stages!;
    assert.ok(s.rerank && s.fuse);
    const expected = (s.lexical ? 1 / (60 + s.lexical.rank) : 0) + (s.vector ? 1 / (60 + s.vector.rank) : 0);
    assert.ok(Math.abs(s.fuse.score - expected) < 1e-12);
    assert.ok(s.fuse.rank <= 50, 'reranked docs come from the top 50 fused');
  }
  assert.ok(r.latencyMs.lexical! >= 0 && r.latencyMs.vector! >= 0 && r.latencyMs.fuse! >= 0 && r.latencyMs.rerank! >= 0);
  assert.ok(r.latencyMs.total >= r.latencyMs.lexical!);
});

test('engine update equals a fresh engine (lexical, LSA + HNSW, hybrid, a fixed embedder), and caches give identical warm starts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-engine-'));
  // The lexical cache's load-or-rebuild choice follows measured costs: a clock that never advances keeps wall
  // time (and whatever else loads the machine) out of this test.
  const now = () => 0;
  try {
    const base = docs.slice(0, 1000);
    const changed = base
      .slice(0, 20)
      .map((d) => ({ ...d, body: d.body + ' renal failure dialysis', hash: fingerprint([d.id, d.body, 'x']) }));
    const deleted = base.slice(500, 530).map((d) => d.id);
    const added = docs.slice(1000);
    const changedById = new Map(changed.map((d) => [d.id, d]));
    const finalDocs = [...base.filter((d) => !deleted.includes(d.id)).map((d) => changedById.get(d.id) ?? d), ...added];
    for (const config of [configs.lexical, configs.vector, configs.hybrid]) {
      // The updated engine retrains LSA on the new corpus and rebuilds HNSW: exactly what a fresh engine holds.
      const first = await createEngine({ docs: base, corpusFingerprint: corpusFingerprint(base), config, cacheDir: dir, now });
      await first.update({
        upsert: [...added, ...changed],
        delete: deleted,
        docs: finalDocs,
        corpusFingerprint: corpusFingerprint(finalDocs),
      });
      const fresh = await createEngine({ docs: finalDocs, corpusFingerprint: corpusFingerprint(finalDocs), config });
      assert.deepEqual(await first.learnedModels(), await fresh.learnedModels(), config.name);
      for (const q of queries) {
        const a = await first.search(q.text);
        const b = await fresh.search(q.text);
        assert.deepEqual(a.docs, b.docs, `${config.name} q${q.id}`);
      }
    }
    // The rerank step reads documents by id (a map only such an engine keeps, updated with it): as a fresh engine.
    const change = { upsert: [...added, ...changed], delete: deleted, docs: finalDocs, corpusFingerprint: corpusFingerprint(finalDocs) };
    const reranked = await createEngine({
      docs: base,
      corpusFingerprint: corpusFingerprint(base),
      config: configs.rerank,
      reranker: new OverlapReranker(),
    });
    await reranked.update(change);
    const freshRerank = await createEngine({
      docs: finalDocs,
      corpusFingerprint: change.corpusFingerprint,
      config: configs.rerank,
      reranker: new OverlapReranker(),
    });
    for (const q of queries.slice(0, 20)) {
      const a = await reranked.search(q.text);
      assert.ok(
        a.docs.some((d) => d.stages?.rerank),
        'reranked',
      );
      assert.deepEqual(a.docs, (await freshRerank.search(q.text)).docs, `rerank q${q.id}`);
    }
    // A fixed embedder (not trained on the corpus): only changed documents are embedded; the HNSW graph is rebuilt.
    const trained = await createEngine({ docs: base, corpusFingerprint: corpusFingerprint(base), config: configs.vectorExact });
    const embedder = (trained as unknown as { embedder: Embedder }).embedder;
    const first = await createEngine({ docs: base, corpusFingerprint: corpusFingerprint(base), config: configs.vector, embedder });
    await first.update({
      upsert: [...added, ...changed],
      delete: deleted,
      docs: finalDocs,
      corpusFingerprint: corpusFingerprint(finalDocs),
    });
    const fresh = await createEngine({
      docs: finalDocs,
      corpusFingerprint: corpusFingerprint(finalDocs),
      config: configs.vector,
      embedder,
    });
    for (const q of queries)
      assert.deepEqual((await first.search(q.text)).docs, (await fresh.search(q.text)).docs, `fixed embedder q${q.id}`);
    // Warm start from the cache (lexical JSON, HNSW + LSA files) gives the same rankings.
    for (const config of [configs.lexical, configs.hybrid]) {
      const cold = await createEngine({ docs, corpusFingerprint: fp, config, cacheDir: dir, now });
      const warm = await createEngine({ docs, corpusFingerprint: fp, config, cacheDir: dir, now });
      if (config.lexical) assert.equal(warm.build.lexical!.source, 'cache');
      if (config.vector) assert.equal(warm.build.vector!.source, 'cache');
      for (const q of queries.slice(0, 10)) {
        assert.deepEqual((await warm.search(q.text)).docs, (await cold.search(q.text)).docs);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the order of the documents (a renamed file) changes nothing: LSA and HNSW are built in id order, caches stay valid', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ranklab-engine-'));
  try {
    const some = docs.slice(0, 400);
    const reordered = [...some.slice(200), ...some.slice(0, 200)]; // same documents, same fingerprint
    const f = corpusFingerprint(some);
    assert.equal(corpusFingerprint(reordered), f);
    for (const config of [configs.vector, configs.vectorExact]) {
      await createEngine({ docs: some, corpusFingerprint: f, config, cacheDir: dir });
      const warm = await createEngine({ docs: reordered, corpusFingerprint: f, config, cacheDir: dir });
      const fresh = await createEngine({ docs: reordered, corpusFingerprint: f, config });
      for (const q of queries.slice(0, 10))
        assert.deepEqual((await warm.search(q.text)).docs, (await fresh.search(q.text)).docs, `${config.name} q${q.id}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
