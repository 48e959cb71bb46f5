// A workspace with one query per class (hit, ranking miss, retrieval miss, no relevant) under a real lexical +
// cross-encoder pipeline (the tiny generated reranker of test/helpers/tiny-models.ts, which scores by query/passage
// word overlap): config `rerank` (BM25 depth 3, reranked, top 1 kept) and `shallow` (BM25 depth 1).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tinyModel } from './tiny-models';
import { tempDir } from './workspace';

export function stagesWorkspace(): string {
  const dir = tempDir('ranklab-stages-');
  const docs = [
    ['a1', 'alpha beta gamma'],
    ['a2', 'alpha'], // qA: the relevant a1 shares every word: reranked first → hit
    ['b1', 'delta'],
    ['b2', 'delta epsilon zeta'],
    ['b3', 'epsilon'], // qB: relevant b1 retrieved, out-reranked by b2 → ranking miss
    ['c1', 'kappa lambda'],
    ['c2', 'theta iota'],
    ['c3', 'theta'], // qC: relevant c1 shares no word → retrieval miss
    ['f1', 'mu nu'],
    ['f2', 'xi omicron'],
  ];
  writeFileSync(join(dir, 'docs.jsonl'), docs.map(([id, text]) => JSON.stringify({ id, title: '', text })).join('\n') + '\n');
  writeFileSync(
    join(dir, 'golden.json'),
    JSON.stringify([
      { id: 'qA', query: 'alpha beta gamma', judgments: { a1: 2 }, tags: ['greek'] },
      { id: 'qB', query: 'delta epsilon zeta', judgments: { b1: 2, b3: 0 }, tags: ['greek'] },
      { id: 'qC', query: 'theta iota', judgments: { c1: 2 } },
      { id: 'qD', query: 'alpha', judgments: { a2: 0 } }, // no relevant document: not classed
    ]),
  );
  writeFileSync(join(dir, 'ranklab.json'), JSON.stringify({ corpus: { include: ['docs.jsonl'] }, judgments: ['golden.json'] }));
  mkdirSync(join(dir, 'configs'));
  writeFileSync(
    join(dir, 'configs', 'rerank.rank.json'),
    JSON.stringify({
      lexical: { fields: { all: 1 }, depth: 3 },
      rerank: { provider: { provider: 'transformers', model: tinyModel('tiny-reranker') }, topN: 3, topM: 1 },
    }),
  );
  writeFileSync(join(dir, 'configs', 'shallow.rank.json'), JSON.stringify({ lexical: { fields: { all: 1 }, depth: 1 } }));
  return dir;
}
