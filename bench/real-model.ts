// Retrieval quality with a real embedding model: BM25, all-MiniLM-L6-v2 (exact cosine) and their RRF hybrid, on the
// shared collections (nDCG@10 and recall@100, linear gain, comparable with the trec_eval reference runs) and on the
// example workspace (its own configs with the built-in LSA embedder and with MiniLM; exponential gain).
// Needs the model: bash scripts/fetch-model.sh (into .models/). Embeddings are cached under bench/results/tmp/, so
// only the first run embeds (about 20 documents/s per core on the native ONNX runtime).
// Run: node --import tsx bench/real-model.ts [collection ...] [--example]
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { normaliseRankConfig } from '../src/core/config';
import { parseMetricList } from '../src/core/metrics';
import { RanklabSession } from '../src/core/session/session';
import { evaluateConfig } from '../src/core/session/evaluate';
import { COLLECTIONS, COLLECTIONS_DIR } from './lib/shared';

const ROOT = resolve(__dirname, '..');
const MODEL = resolve(process.env.RANKLAB_MODELS ?? join(ROOT, '.models'), 'all-MiniLM-L6-v2');
if (!existsSync(join(MODEL, 'onnx', 'model.onnx'))) {
  console.error(`no model at ${MODEL}: run bash scripts/fetch-model.sh first`);
  process.exit(2);
}
export const MINILM = { provider: 'transformers', model: MODEL, pooling: 'mean', normalize: true, backend: 'native', batchSize: 16 };
const CONFIGS = {
  bm25: { lexical: { fields: { title: 1, body: 1 } } },
  minilm: { vector: { embedder: MINILM, exact: true } },
  hybrid: { lexical: { fields: { title: 1, body: 1 } }, vector: { embedder: MINILM, exact: true }, hybrid: { k: 60 } },
};

/** One state folder per workspace, kept between runs: the embeddings cache lives there. */
export function benchState(name: string): string {
  const dir = join(ROOT, 'bench', 'results', 'tmp', 'real-model', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function evaluateAll(dir: string, name: string, metrics: string, gain: 'linear' | 'exp', configs: Record<string, object> = CONFIGS) {
  const session = RanklabSession.open(dir, { stateDir: benchState(name) });
  const out: Record<string, Record<string, number>> = {};
  for (const [configName, raw] of Object.entries(configs)) {
    const t0 = performance.now();
    const r = await evaluateConfig(session, normaliseRankConfig(raw, configName), {
      specs: parseMetricList(metrics),
      metricOptions: { gain, relevanceThreshold: 1 },
      save: false,
    });
    out[configName] = r.evaluation.means;
    process.stderr.write(`${name} ${configName}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  }
  return out;
}

/** The example's own configs (baseline, vector and hybrid-rrf with the LSA embedder), and the same with MiniLM. */
function exampleConfigs(dir: string): Record<string, object> {
  const read = (n: string) => JSON.parse(readFileSync(join(dir, 'configs', `${n}.rank.json`), 'utf8')) as Record<string, any>;
  const hybrid = read('hybrid-rrf');
  return {
    'baseline (BM25)': read('baseline'),
    'vector (LSA, HNSW)': read('vector'),
    'hybrid-rrf (BM25 + LSA)': hybrid,
    'MiniLM, exact': { vector: { embedder: MINILM, exact: true } },
    'hybrid-rrf with MiniLM': { ...hybrid, vector: { embedder: MINILM, exact: true } },
  };
}

async function main() {
  const args = process.argv.slice(2);
  const example = args.includes('--example') || args.length === 0;
  const names = args.filter((a) => !a.startsWith('--'));
  const collections = names.length ? names : args.includes('--example') ? [] : COLLECTIONS;
  const f = (x: number) => x.toFixed(4);
  if (collections.length) {
    const rows = [
      '| collection | BM25 nDCG@10 | MiniLM nDCG@10 | hybrid nDCG@10 | BM25 R@100 | MiniLM R@100 | hybrid R@100 |',
      '|---|---|---|---|---|---|---|',
    ];
    for (const name of collections) {
      const v = await evaluateAll(join(COLLECTIONS_DIR, name), name, 'ndcg@10,recall@100', 'linear');
      rows.push(
        `| ${name} | ${f(v.bm25['ndcg@10'])} | ${f(v.minilm['ndcg@10'])} | ${f(v.hybrid['ndcg@10'])} | ${f(v.bm25['recall@100'])} | ${f(v.minilm['recall@100'])} | ${f(v.hybrid['recall@100'])} |`,
      );
    }
    console.log(rows.join('\n'));
  }
  if (example) {
    const dir = join(ROOT, 'examples', 'food-search');
    const v = await evaluateAll(dir, 'food-search', 'ndcg@10,mrr@10,recall@20', 'exp', exampleConfigs(dir));
    console.log(
      [
        '',
        '| food-search (exp gain) | nDCG@10 | MRR@10 | recall@20 |',
        '|---|---|---|---|',
        ...Object.entries(v).map(([c, m]) => `| ${c} | ${f(m['ndcg@10'])} | ${f(m['mrr@10'])} | ${f(m['recall@20'])} |`),
      ].join('\n'),
    );
  }
}
if (require.main === module) void main();
