// The same corpus in a real engine and in Ranklab: BM25 in OpenSearch and Solr against Ranklab's BM25, and kNN in
// OpenSearch (Lucene HNSW) and Solr (DenseVectorField) over the same all-MiniLM-L6-v2 vectors against Ranklab's exact
// and HNSW search, on shared collections. Starts both engines (test/engines/, needs Java and Maven), indexes each
// collection with `ranklab index` semantics (indexCorpus), evaluates every config with evaluateConfig, and prints
// nDCG@10, recall@100 (linear gain), the overlap of each top 10 with Ranklab's exact top 10, and times: each engine
// config is evaluated twice, one query at a time (latency: what the engine reports, the round trip measured here)
// and batched as configured by default (20 queries per _msearch, 2 requests in flight: the wall time per query).
// Needs the model (bash scripts/fetch-model.sh); document and query vectors come from the embeddings cache that
// bench/real-model.ts fills (bench/results/tmp/real-model/<collection>), so run that first or wait for embedding.
// Run: node --import tsx bench/engines.ts [collection ...]      (default: cranfield med)
import { join } from 'node:path';
import { normaliseRankConfig, type RankConfig } from '../src/core/config';
import { indexCorpus } from '../src/core/session/engine-index';
import { parseMetricList } from '../src/core/metrics';
import { type ConfigEvaluation, evaluateConfig } from '../src/core/session/evaluate';
import { RanklabSession } from '../src/core/session/session';
import { type RunningEngine, startEngine } from '../test/engines/launcher';
import { COLLECTIONS_DIR } from './lib/shared';
import { MINILM, benchState } from './real-model';

const specs = parseMetricList('ndcg@10,recall@100');

function configs(os: string, solr: string, index: string): Record<string, object> {
  const engine = (kind: 'opensearch' | 'solr', url: string, template: object) => ({
    engine: { kind, url, index, template, embedder: MINILM },
  });
  return {
    'ranklab bm25': { lexical: { fields: { title: 1, body: 1 } } },
    'opensearch bm25': engine('opensearch', os, {
      query: { multi_match: { query: '{{query}}', fields: ['title', 'body'], type: 'most_fields' } },
    }),
    // tie 1: the fields' scores summed, as multi_match most_fields and Ranklab do (edismax's default takes the best field)
    'solr bm25': engine('solr', solr, { defType: 'edismax', q: '{{query}}', qf: 'title body', tie: 1, 'q.op': 'OR' }),
    'ranklab minilm exact': { vector: { embedder: MINILM, exact: true } },
    'ranklab minilm hnsw': { vector: { embedder: MINILM, exact: false } },
    'opensearch knn': engine('opensearch', os, { query: { knn: { vector: { vector: '{{vector}}', k: '{{k}}' } } } }),
    'solr knn': engine('solr', solr, { q: '{!knn f=vector topK={{k}}}[{{vector}}]' }),
  };
}

function overlapAt10(a: ConfigEvaluation, b: ConfigEvaluation): number {
  let sum = 0;
  for (const [qid, docs] of b.run) {
    const ref = new Set(docs.slice(0, 10).map((d) => d.id));
    sum += (a.run.get(qid) ?? []).slice(0, 10).filter((d) => ref.has(d.id)).length / Math.max(1, ref.size);
  }
  return sum / Math.max(1, b.run.size);
}

async function main() {
  const names = process.argv.slice(2).length ? process.argv.slice(2) : ['cranfield', 'med'];
  const engines: RunningEngine[] = [];
  try {
    const os = startEngine('opensearch');
    engines.push(os);
    const solr = startEngine('solr');
    engines.push(solr);
    const rows = [
      '| collection | config | nDCG@10 | R@100 | top-10 overlap with exact | one at a time: engine / request / total p50 ms | batched: ms per query |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const name of names) {
      const session = RanklabSession.open(join(COLLECTIONS_DIR, name), { stateDir: benchState(name) });
      const all = Object.entries(configs(os.url, solr.url, name.replace(/[^a-z0-9]/g, ''))).map(([n, raw]) => normaliseRankConfig(raw, n));
      for (const c of all.filter((c: RankConfig) => c.name.endsWith('knn'))) {
        const t = performance.now();
        const r = await indexCorpus(session, c, { recreate: true });
        process.stderr.write(
          `${name}: indexed ${r.indexed} into ${c.engine!.kind} with ${r.vectors?.dimension}-d vectors in ${((performance.now() - t) / 1000).toFixed(1)} s\n`,
        );
      }
      const results = new Map<string, ConfigEvaluation>();
      const batchedMs = new Map<string, number>();
      const evaluate = (c: RankConfig) =>
        evaluateConfig(session, c, { specs, metricOptions: { gain: 'linear', relevanceThreshold: 1 }, save: false });
      for (const c of all) {
        let t = performance.now();
        const sequential = c.engine ? { ...c, engine: { ...c.engine, request: { ...c.engine.request, batchSize: 1, concurrency: 1 } } } : c;
        results.set(c.name, await evaluate(sequential));
        process.stderr.write(`${name} ${c.name}: ${((performance.now() - t) / 1000).toFixed(1)} s\n`);
        if (c.engine) {
          t = performance.now();
          const batched = await evaluate(c);
          batchedMs.set(c.name, (performance.now() - t) / batched.run.size);
          if (batched.evaluation.means['ndcg@10'] !== results.get(c.name)!.evaluation.means['ndcg@10'])
            throw new Error(`${c.name}: batched and sequential runs differ`);
        }
      }
      const exact = results.get('ranklab minilm exact')!;
      for (const [n, r] of results) {
        const lat = (stage: string) => (r.saved.latency[stage] ? r.saved.latency[stage].p50.toFixed(2) : '-');
        const overlap = n.includes('knn') || n.includes('minilm') ? overlapAt10(r, exact).toFixed(3) : '-';
        const batched = batchedMs.get(n);
        rows.push(
          `| ${name} | ${n} | ${r.evaluation.means['ndcg@10'].toFixed(4)} | ${r.evaluation.means['recall@100'].toFixed(4)} | ${overlap} | ${lat('engine')} / ${lat('request')} / ${lat('total')} | ${batched === undefined ? '-' : batched.toFixed(2)} |`,
        );
      }
    }
    console.log(rows.join('\n'));
  } finally {
    for (const e of engines) e.stop();
  }
}
void main();
