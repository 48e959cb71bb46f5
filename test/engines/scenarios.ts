/**
 * What the engine tests check, the same for every engine (opensearch.test.ts, solr.test.ts start one each):
 * - Cranfield indexed with `ranklab index`; `ranklab eval` of a BM25 and a title-boosted config gives exactly the
 *   nDCG@10 that `ranklab score` gives on a TREC run fetched from the engine by this file's own HTTP code;
 *   `compare` and `gate` work on the two engine configs;
 * - a request that fails mid-run is retried (a proxy answers 503 twice: nothing lost), and one that keeps failing
 *   is reported per query while the rest of the run is kept and scored;
 * - a query the engine itself refuses fails alone;
 * - the food-search example indexed with its access fields: `check-acl` finds the leak of a deliberately wrong
 *   filter (a missing tenant clause; a `should`/`bq` where a filter belongs) and none with the right one, with
 *   the access fields read from the corpus files or fetched from the engine.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { normaliseRankConfig } from '../../src/core/config';
import { RemoteEngine } from '../../src/core/engines/remote-engine';
import { REPO_DIR, ranklab } from '../helpers/cli';
import { COLLECTIONS_SKIP, collectionPath } from '../helpers/shared';
import { tinyModel } from '../helpers/tiny-models';
import { copyOfExample, tempDir } from '../helpers/workspace';
import { type RunningEngine, type TestEngineKind, engineSkip, startEngine } from './launcher';
import { failingProxy } from './proxy';

type Raw = Record<string, unknown>;

/** The engine-specific parts: config templates, and a direct query (this file's own client) for the reference run. */
interface Flavour {
  bm25(url: string): Raw;
  boosted(url: string, titleBoost: number): Raw;
  /** A template the engine refuses for some query texts (a syntax error in the query language). */
  strict(url: string): Raw;
  acl(url: string, variant: 'right' | 'no-tenant' | 'not-a-filter'): Raw;
  /** kNN over the documents' vectors in index `foodvec`, with the access filter, the query embedded by `embedder`. */
  knn(url: string, embedder: Raw): Raw;
  /** Top 100 for a query, straight from the engine: [id, score][]. */
  direct(url: string, index: string, text: string, titleBoost: number): Promise<[string, number][]>;
  count(url: string, index: string): Promise<number>;
}

const post = async (url: string, body: unknown) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(r.status, 200, `${url}: ${await r.clone().text()}`);
  return (await r.json()) as any;
};

const OPENSEARCH_FILTER = {
  bool: {
    should: [
      { term: { public: true } },
      {
        bool: {
          filter: [
            { term: { tenant: '{{principal.tenant}}' } },
            { bool: { should: [{ terms: { groups: '{{principal.groups}}' } }, { bool: { must_not: { exists: { field: 'groups' } } } }] } },
          ],
        },
      },
      { bool: { must_not: [{ exists: { field: 'tenant' } }, { exists: { field: 'groups' } }, { exists: { field: 'public' } }] } },
    ],
  },
};

const opensearch: Flavour = {
  bm25: (url) => ({
    engine: {
      kind: 'opensearch',
      url,
      index: 'cranfield',
      template: { query: { multi_match: { query: '{{query}}', fields: ['title', 'body'], type: 'most_fields' } }, size: '{{k}}' },
    },
  }),
  boosted: (url, titleBoost) => ({
    engine: {
      kind: 'opensearch',
      url,
      index: 'cranfield',
      template: {
        query: { multi_match: { query: '{{query}}', fields: ['title^{{params.titleBoost}}', 'body'], type: 'most_fields' } },
        size: '{{k}}',
      },
      params: { titleBoost },
    },
  }),
  strict: (url) => ({
    engine: {
      kind: 'opensearch',
      url,
      index: 'cranfield',
      template: { query: { query_string: { query: '{{query}}', default_field: 'body' } } },
    },
  }),
  acl: (url, variant) => {
    const filter =
      variant === 'no-tenant'
        ? { bool: { should: [{ term: { public: true } }, { terms: { groups: '{{principal.groups}}' } }] } }
        : OPENSEARCH_FILTER;
    const bool =
      variant === 'not-a-filter'
        ? { must: { multi_match: { query: '{{query}}', fields: ['title^2', 'body'] } }, should: '{{filter}}' } // scores the access clause instead of requiring it
        : { must: { multi_match: { query: '{{query}}', fields: ['title^2', 'body'] } }, filter: '{{filter}}' };
    return { engine: { kind: 'opensearch', url, index: 'food', template: { query: { bool } }, filter }, pageSize: 10 };
  },
  knn: (url, embedder) => ({
    engine: {
      kind: 'opensearch',
      url,
      index: 'foodvec',
      embedder,
      filter: OPENSEARCH_FILTER,
      template: { query: { knn: { vector: { vector: '{{vector}}', k: '{{k}}', filter: '{{filter}}' } } } },
    },
  }),
  async direct(url, index, text, titleBoost) {
    const body = await post(`${url}/${index}/_search`, {
      size: 100,
      _source: false,
      query: { multi_match: { query: text, fields: [`title^${titleBoost}`, 'body'], type: 'most_fields' } },
    });
    return body.hits.hits.map((h: any) => [h._id, h._score]);
  },
  async count(url, index) {
    return ((await (await fetch(`${url}/${index}/_count`)).json()) as any).count;
  },
};

const SOLR_FILTER = {
  fq: '{!bool should=$aclPublic should=$aclTenant should=$aclNone}',
  aclPublic: '{!term f=public}true',
  aclTenant: '{!bool filter=$aclTenantTerm filter=$aclGroups}',
  aclTenantTerm: '{!term f=tenant}{{principal.tenant}}',
  aclGroups: '{!bool should=$aclGroupTerms should=$aclNoGroups}',
  aclGroupTerms: '{!terms f=groups}{{principal.groups}}',
  aclNoGroups: '(*:* -groups:[* TO *])',
  aclNone: '(*:* -tenant:[* TO *] -groups:[* TO *] -public:[* TO *])',
};

const solr: Flavour = {
  bm25: (url) => ({
    engine: {
      kind: 'solr',
      url,
      index: 'cranfield',
      template: { defType: 'edismax', q: '{{query}}', qf: 'title body', 'q.op': 'OR', rows: '{{k}}' },
    },
  }),
  boosted: (url, titleBoost) => ({
    engine: {
      kind: 'solr',
      url,
      index: 'cranfield',
      template: { defType: 'edismax', q: '{{query}}', qf: 'title^{{params.titleBoost}} body', 'q.op': 'OR', rows: '{{k}}' },
      params: { titleBoost },
    },
  }),
  strict: (url) => ({ engine: { kind: 'solr', url, index: 'cranfield', template: { defType: 'lucene', df: 'body', q: '{{query}}' } } }),
  acl: (url, variant) => {
    const filter =
      variant === 'no-tenant'
        ? {
            fq: '{!bool should=$aclPublic should=$aclGroupTerms}',
            aclPublic: '{!term f=public}true',
            aclGroupTerms: '{!terms f=groups}{{principal.groups}}',
          }
        : variant === 'not-a-filter'
          ? { ...SOLR_FILTER, fq: undefined, bq: '{!bool should=$aclPublic should=$aclTenant should=$aclNone}' } // a boost query: it ranks, it does not restrict
          : SOLR_FILTER;
    return {
      engine: {
        kind: 'solr',
        url,
        index: 'food',
        template: { defType: 'edismax', q: '{{query}}', qf: 'title^2 body' },
        filter: JSON.parse(JSON.stringify(filter)),
      },
      pageSize: 10,
    };
  },
  knn: (url, embedder) => ({
    engine: {
      kind: 'solr',
      url,
      index: 'foodvec',
      embedder,
      filter: SOLR_FILTER,
      template: { q: '{!knn f=vector topK={{k}}}[{{vector}}]' },
    },
  }),
  async direct(url, index, text, titleBoost) {
    const body = await post(`${url}/${index}/select`, {
      params: { defType: 'edismax', q: text, qf: `title^${titleBoost} body`, 'q.op': 'OR', rows: 100, fl: 'id,score' },
    });
    return body.response.docs.map((d: any) => [d.id, d.score]);
  },
  async count(url, index) {
    return ((await (await fetch(`${url}/${index}/select?q=*:*&rows=0&wt=json`)).json()) as any).response.numFound;
  },
};

const FLAVOURS: Record<TestEngineKind, Flavour> = { opensearch, solr };

/** The CLI without blocking this process (the proxy answers from this process's event loop). */
function ranklabAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(REPO_DIR, 'dist', 'cli.js'), ...args], { cwd: REPO_DIR });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const json = (r: { code: number | null; stdout: string; stderr: string }, code: number) => {
  assert.equal(r.code, code, `exit ${r.code}, expected ${code}\n${r.stderr}\n${r.stdout.slice(0, 2000)}`);
  return JSON.parse(r.stdout);
};

export function engineSuite(kind: TestEngineKind): void {
  const skip = engineSkip(kind);
  const flavour = FLAVOURS[kind];
  describe(`${kind}: a real engine on loopback`, { skip }, () => {
    let engine: RunningEngine;
    const work = tempDir(`ranklab-${kind}-test-`);
    const state = join(work, 'state');
    const configFile = (name: string, raw: Raw) => {
      const path = join(work, `${name}.rank.json`);
      writeFileSync(path, JSON.stringify(raw, null, 2));
      return path;
    };
    // The Cranfield scenarios (the first five) need the real collection: skipped, saying what to set, without it.
    const cranfield = () => collectionPath('cranfield');
    const cranfieldQueries = () =>
      readFileSync(join(cranfield(), 'queries.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; text: string });
    const onCranfield = (...args: string[]) => ranklab([...args, '--workspace', cranfield(), '--state-dir', state]);
    const onCranfieldAsync = (...args: string[]) => ranklabAsync([...args, '--workspace', cranfield(), '--state-dir', state]);
    let bm25: string;
    let boosted: string;
    let evaluated: Record<string, any>;

    before(() => {
      engine = startEngine(kind);
      bm25 = configFile('bm25', flavour.bm25(engine.url));
      boosted = configFile('boosted', flavour.boosted(engine.url, 3));
    });
    after(() => engine?.stop());

    it('ranklab index loads Cranfield, and refuses to overwrite the index without --recreate', { skip: COLLECTIONS_SKIP }, async () => {
      const first = json(ranklab(['index', '--engine', bm25, '--workspace', cranfield(), '--state-dir', state, '--format', 'json']), 0);
      // 1,400 records, two of them without text (not documents of Ranklab's corpus)
      assert.equal(first.documents, 1398);
      assert.equal(first.indexed, 1398);
      assert.equal(await flavour.count(engine.url, 'cranfield'), 1398);
      const again = ranklab(['index', '--engine', bm25, '--workspace', cranfield(), '--state-dir', state]);
      assert.equal(again.code, 2, again.stderr);
      assert.match(again.stderr, /already exists .*--recreate/);
      assert.equal(await flavour.count(engine.url, 'cranfield'), 1398, 'the index is untouched');
    });

    it('eval of a BM25 and a boosted config gives the nDCG@10 that `ranklab score` gives on the run fetched from the engine', {
      skip: COLLECTIONS_SKIP,
    }, async () => {
      const queries = cranfieldQueries();
      const out = json(
        onCranfield(
          'eval',
          '--config',
          bm25,
          '--config',
          boosted,
          '--metrics',
          'ndcg@10,recall@100',
          '--gain',
          'linear',
          '--format',
          'json',
          '--trec-run',
          join(work, 'eval.txt'),
        ),
        0,
      );
      evaluated = Object.fromEntries(out.runs.map((r: any) => [r.config, r]));
      assert.equal(evaluated.bm25.queries, 225);
      for (const [name, titleBoost] of [
        ['bm25', 1],
        ['boosted', 3],
      ] as const) {
        const lines: string[] = [];
        for (const q of queries) {
          (await flavour.direct(engine.url, 'cranfield', q.text, titleBoost)).forEach(([id, score], i) =>
            lines.push(`${q.id} Q0 ${id} ${i + 1} ${score} direct`),
          );
        }
        writeFileSync(join(work, `direct-${name}.txt`), lines.join('\n') + '\n');
        const scored = json(
          ranklab([
            'score',
            '--qrels',
            join(cranfield(), 'qrels.tsv'),
            '--run',
            join(work, `direct-${name}.txt`),
            '--metrics',
            'ndcg@10,recall@100',
            '--gain',
            'linear',
            '--format',
            'json',
          ]),
          0,
        );
        assert.equal(scored.metrics['ndcg@10'], evaluated[name].metrics['ndcg@10'], `${name}: eval and score on the engine's own run`);
        assert.equal(scored.metrics['recall@100'], evaluated[name].metrics['recall@100']);
      }
      // a sanity bound: BM25 in the engine is near the shared BM25 reference run (0.3437)
      assert.ok(Math.abs(evaluated.bm25.metrics['ndcg@10'] - 0.3437) < 0.03, String(evaluated.bm25.metrics['ndcg@10']));
      assert.notEqual(evaluated.boosted.metrics['ndcg@10'], evaluated.bm25.metrics['ndcg@10'], 'the boost changed the ranking');
      // both latencies are reported: what the engine says it took, and the round trip measured here
      for (const stage of ['engine', 'request', 'total'])
        assert.ok(evaluated.bm25.latency[stage]?.p50 >= 0, `latency ${stage}: ${JSON.stringify(evaluated.bm25.latency)}`);
    });

    it('compare and gate work on engine configs', { skip: COLLECTIONS_SKIP }, () => {
      const cmp = json(
        onCranfield('compare', '--baseline', bm25, '--candidate', boosted, '--metrics', 'ndcg@10', '--gain', 'linear', '--format', 'json'),
        0,
      );
      assert.equal(cmp.metrics['ndcg@10'].baseline, evaluated.bm25.metrics['ndcg@10']);
      assert.equal(cmp.metrics['ndcg@10'].candidate, evaluated.boosted.metrics['ndcg@10']);
      assert.equal(cmp.metrics['ndcg@10'].n, 225);
      const failing = join(work, 'gates-fail.json');
      writeFileSync(failing, JSON.stringify({ min: { 'ndcg@10': 0.99 } }));
      const gate = onCranfield('gate', '--baseline', bm25, '--candidate', boosted, '--gates', failing, '--metrics', 'ndcg@10');
      assert.equal(gate.code, 1, gate.stderr + gate.stdout);
      assert.match(gate.stdout, /ndcg@10 >= 0\.99/);
      const passing = join(work, 'gates-pass.json');
      writeFileSync(passing, JSON.stringify({ min: { 'ndcg@10': 0.1 } }));
      const ok = onCranfield('gate', '--baseline', bm25, '--candidate', boosted, '--gates', passing, '--metrics', 'ndcg@10');
      assert.equal(ok.code, 0, ok.stderr + ok.stdout);
    });

    it('a request that fails is retried; one that keeps failing is reported per query and the rest of the run is kept', {
      skip: COLLECTIONS_SKIP,
    }, async () => {
      const proxy = await failingProxy(engine.url);
      try {
        const victim = cranfieldQueries()[49];
        const raw = flavour.bm25(proxy.url) as { engine: Raw };
        const config = configFile('bm25-proxied', {
          engine: { ...raw.engine, request: { maxRetries: 2, retryDelayMs: 10, batchSize: 5 } },
        });
        proxy.failWhenBodyHas = JSON.stringify(victim.text).slice(1, -1);
        proxy.failTimes = 2;
        const healed = json(
          await onCranfieldAsync(
            'eval',
            '--config',
            config,
            '--metrics',
            'ndcg@10,recall@100',
            '--gain',
            'linear',
            '--format',
            'json',
            '--no-save',
          ),
          0,
        );
        assert.equal(proxy.failed, 2, 'two 503s, then the retry went through');
        assert.equal(healed.runs[0].queries, 225);
        assert.equal(healed.runs[0].metrics['ndcg@10'], evaluated.bm25.metrics['ndcg@10'], 'nothing lost');

        proxy.failed = 0;
        proxy.failTimes = Infinity;
        const r = await onCranfieldAsync(
          'eval',
          '--config',
          config,
          '--metrics',
          'ndcg@10,recall@100',
          '--gain',
          'linear',
          '--format',
          'json',
          '--no-save',
        );
        const partial = json(r, 2);
        const run = partial.runs[0];
        // OpenSearch sends the query in an _msearch of 5: those 5 fail together; Solr sends it alone.
        const lost: string[] = run.failedQueries.map((f: any) => f.qid);
        assert.ok(lost.includes(victim.id), JSON.stringify(run.failedQueries));
        assert.equal(lost.length, kind === 'opensearch' ? 5 : 1);
        assert.equal(proxy.failed, 3, 'the first attempt and two retries');
        assert.match(run.failedQueries[0].error, /503/);
        assert.match(r.stderr, new RegExp(`query ${victim.id} failed`));
        assert.equal(run.queries, 225 - lost.length, 'the rest of the run is kept');
        // and scored as it was: the mean over the queries that ran, from the complete run's per-query values
        const full = evaluated.bm25.perQuery as Record<string, Record<string, number>>;
        const kept = Object.keys(full).filter((q) => !lost.includes(q));
        const mean = kept.reduce((s, q) => s + full[q]['ndcg@10'], 0) / kept.length;
        assert.ok(Math.abs(run.metrics['ndcg@10'] - mean) < 1e-12, `${run.metrics['ndcg@10']} vs ${mean}`);
      } finally {
        await proxy.close();
      }
    });

    it('a query the engine refuses fails alone; the others in its batch are answered (on the Cranfield index)', {
      skip: COLLECTIONS_SKIP,
    }, async () => {
      const engineApi = new RemoteEngine(normaliseRankConfig(flavour.strict(engine.url), 'strict'), { allowNetwork: true });
      const answers = await engineApi.searchMany(['boundary layer', 'boundary "layer', 'heat transfer'], { pageSize: 5 });
      assert.ok(!(answers[0] instanceof Error) && answers[0].docs.length === 5);
      assert.ok(answers[1] instanceof Error);
      assert.match(answers[1].message, /refused the query \(400\)/);
      assert.ok(!(answers[2] instanceof Error) && answers[2].docs.length === 5);
    });

    describe('access control against the engine (the food-search example)', () => {
      let ws: string;
      let right: string;
      let noTenant: string;
      let notAFilter: string;
      const checkAcl = (config: string, ...extra: string[]) =>
        ranklab(['check-acl', '--workspace', ws, '--config', config, '--no-prefixes', '--format', 'json', ...extra]);

      before(() => {
        ws = copyOfExample();
        right = join(ws, 'configs', 'engine-right.rank.json');
        writeFileSync(right, JSON.stringify(flavour.acl(engine.url, 'right'), null, 2));
        noTenant = join(ws, 'configs', 'engine-no-tenant.rank.json');
        writeFileSync(noTenant, JSON.stringify(flavour.acl(engine.url, 'no-tenant'), null, 2));
        notAFilter = join(ws, 'configs', 'engine-not-a-filter.rank.json');
        writeFileSync(notAFilter, JSON.stringify(flavour.acl(engine.url, 'not-a-filter'), null, 2));
      });

      it('indexes the example with its access fields', () => {
        const r = json(ranklab(['index', '--engine', right, '--workspace', ws, '--format', 'json']), 0);
        assert.equal(r.indexed, 398);
        assert.deepEqual(r.skipped, []);
      });

      for (const source of ['corpus', 'engine'] as const) {
        it(`check-acl (access fields from the ${source}): the right filter leaks nothing`, () => {
          const report = json(checkAcl('engine-right', '--acl-source', source), 0);
          assert.equal(report.violations.length, 0);
          const byPrincipal = report.byPrincipal['engine-right'];
          assert.equal(Object.keys(byPrincipal).length, 6);
          // not vacuous: restricted principals do get results
          assert.ok(byPrincipal.dimas.resultsChecked > 100 && byPrincipal.ayu.resultsChecked > 100, JSON.stringify(byPrincipal.dimas));
          assert.equal(report.aclSource?.['engine-right'], source);
        });

        it(`check-acl (access fields from the ${source}): a filter without the tenant clause is caught`, () => {
          const report = json(checkAcl('engine-no-tenant', '--acl-source', source), 1);
          assert.ok(report.violations.length > 0);
          const leak = report.violations.find((v: any) => v.where === 'results');
          assert.ok(leak, JSON.stringify(report.violations.slice(0, 3)));
          // "management" exists in both tenants: a manager of one sees the other's management documents
          assert.ok(report.violations.some((v: any) => ['dimas', 'rahmat'].includes(v.principal)));
        });
      }

      it(`check-acl: the access part as a scoring clause (${kind === 'solr' ? 'bq' : 'should'}) instead of a filter is caught`, () => {
        const report = json(checkAcl('engine-not-a-filter'), 1);
        assert.ok(report.violations.some((v: any) => v.where === 'results'));
        assert.ok(
          report.violations.some((v: any) => v.principal === 'guest'),
          'the guest sees private documents',
        );
      });

      it('a workspace with judgments, configs and principals but no corpus: eval --as and check-acl read the access fields from the engine', () => {
        const bare = tempDir('ranklab-no-corpus-');
        cpSync(ws, bare, { recursive: true, filter: (src) => !/\/(corpus|data|\.ranklab)(\/|$)/.test(src.slice(ws.length)) });
        const r = json(
          ranklab(['eval', '--workspace', bare, '--config', 'engine-right', '--as', 'ayu', '--format', 'json', '--no-save']),
          0,
        );
        assert.equal(r.runs[0].queries, 40, 'the same 40 queries as with the corpus files');
        const leak = json(
          ranklab(['check-acl', '--workspace', bare, '--config', 'engine-no-tenant', '--no-prefixes', '--format', 'json']),
          1,
        );
        assert.equal(leak.aclSource['engine-no-tenant'], 'engine');
        assert.ok(leak.violations.some((v: any) => v.where === 'results'));
        json(ranklab(['check-acl', '--workspace', bare, '--config', 'engine-right', '--no-prefixes', '--format', 'json']), 0);
      });

      it("kNN over the same vectors: the engine's top 10 is Ranklab's exact top 10, and its filter leaks nothing", () => {
        // A tiny random ONNX model (test/helpers/tiny-models.ts) is enough to check the plumbing: the same vectors in, the same neighbours out.
        const embedder = { provider: 'transformers', model: tinyModel('tiny-embedder'), pooling: 'mean', normalize: true };
        writeFileSync(join(ws, 'configs', 'engine-knn.rank.json'), JSON.stringify(flavour.knn(engine.url, embedder), null, 2));
        writeFileSync(join(ws, 'configs', 'local-exact.rank.json'), JSON.stringify({ vector: { embedder, exact: true } }, null, 2));
        const indexed = json(ranklab(['index', '--engine', 'engine-knn', '--workspace', ws, '--format', 'json']), 0);
        assert.deepEqual([indexed.indexed, indexed.vectors.dimension], [398, 64]);
        const runs = join(ws, 'knn.txt');
        json(
          ranklab([
            'eval',
            '--workspace',
            ws,
            '--config',
            'engine-knn',
            '--config',
            'local-exact',
            '--format',
            'json',
            '--no-save',
            '--trec-run',
            runs,
          ]),
          0,
        );
        const top10 = (file: string) => {
          const out = new Map<string, string[]>();
          for (const line of readFileSync(file, 'utf8').trim().split('\n')) {
            const [qid, , doc, rank] = line.split(/\s+/);
            if (Number(rank) > 10) continue;
            if (!out.has(qid)) out.set(qid, []);
            out.get(qid)!.push(doc);
          }
          return out;
        };
        const onEngine = top10(join(ws, 'knn.engine-knn.txt'));
        const exact = top10(join(ws, 'knn.local-exact.txt'));
        let shared = 0;
        let total = 0;
        for (const [qid, ids] of exact) {
          total += ids.length;
          shared += ids.filter((id) => onEngine.get(qid)?.includes(id)).length;
        }
        // HNSW in the engine is approximate; on 398 documents it should find nearly all of the exact neighbours.
        assert.ok(shared / total > 0.95, `top-10 overlap ${shared}/${total}`);
        json(checkAcl('engine-knn'), 0);
      });

      it('eval as a principal: judged as the principal sees the corpus, as for a local config', () => {
        const r = json(
          ranklab([
            'eval',
            '--workspace',
            ws,
            '--config',
            'engine-right',
            '--config',
            'baseline',
            '--as',
            'ayu',
            '--format',
            'json',
            '--no-save',
          ]),
          0,
        );
        const [onEngine, local] = r.runs;
        assert.equal(onEngine.queries, local.queries);
        assert.equal(onEngine.queries, 40, 'ayu is scored on the 40 queries with a relevant document she may see (docs/access-control.md)');
      });
    });
  });
}
