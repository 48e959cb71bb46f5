// Retrieval quality of the built-in modes on the shared collections: BM25, LSA alone (exact cosine), and
// the RRF hybrid of both, nDCG@10 with linear gain (comparable to the trec_eval reference of the BM25 runs).
// Run: node --import tsx bench/quality.ts [collection ...]   (LSA training takes seconds per collection)
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { normaliseRankConfig } from '../src/core/config';
import { parseMetricList } from '../src/core/metrics';
import { RanklabSession } from '../src/core/session/session';
import { evaluateConfig } from '../src/core/session/evaluate';
import { COLLECTIONS, COLLECTIONS_DIR } from './lib/shared';

const CONFIGS = {
  bm25: { lexical: { fields: { title: 1, body: 1 } } },
  lsa: { vector: { embedder: { provider: 'lsa', dimensions: 256 }, exact: true } },
  'hybrid-rrf': {
    lexical: { fields: { title: 1, body: 1 } },
    vector: { embedder: { provider: 'lsa', dimensions: 256 }, exact: true },
    hybrid: { k: 60 },
  },
};
const specs = parseMetricList('ndcg@10,recall@100');
const names = process.argv.slice(2).length ? process.argv.slice(2) : COLLECTIONS;
const rows: string[] = [
  '| collection | BM25 nDCG@10 | LSA-256 nDCG@10 | hybrid RRF nDCG@10 | BM25 R@100 | LSA R@100 | hybrid R@100 |',
  '|---|---|---|---|---|---|---|',
];
async function main() {
  for (const name of names) {
    const session = RanklabSession.open(join(COLLECTIONS_DIR, name), { stateDir: mkdtempSync(join(tmpdir(), 'ranklab-quality-')) });
    const values: Record<string, Record<string, number>> = {};
    for (const [configName, raw] of Object.entries(CONFIGS)) {
      const t0 = performance.now();
      const r = await evaluateConfig(session, normaliseRankConfig(raw, configName), {
        specs,
        metricOptions: { gain: 'linear', relevanceThreshold: 1 },
        save: false,
      });
      values[configName] = r.evaluation.means;
      process.stderr.write(`${name} ${configName}: ${(performance.now() - t0).toFixed(0)} ms\n`);
    }
    const f = (c: string, m: string) => values[c][m].toFixed(4);
    rows.push(
      `| ${name} | ${f('bm25', 'ndcg@10')} | ${f('lsa', 'ndcg@10')} | ${f('hybrid-rrf', 'ndcg@10')} | ${f('bm25', 'recall@100')} | ${f('lsa', 'recall@100')} | ${f('hybrid-rrf', 'recall@100')} |`,
    );
  }
  console.log(rows.join('\n'));
}
void main();
