import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultRankConfig, normaliseRankConfig } from '../../../src/core/config/defaults';
import { ndcgAt } from '../../../src/core/metrics';
import { createEngine } from '../../../src/core/retrieval/engine';
import { COLLECTIONS_SKIP, collectionPath } from '../../helpers/shared';
import { corpusFingerprint, loadDocs, loadQrels, loadQueries } from './collections';

// Reference nDCG@10 of the BM25 runs in the collections' README.md (trec_eval, linear gain).
const REFERENCE = { adi: 0.3968, cacm: 0.3933, cisi: 0.3495, cranfield: 0.3437, lisa: 0.4226, med: 0.67 };
// Per-field BM25 (title and body scored separately, summed: the default of a config) and single-field BM25 over
// the whole document (`all`: the built-in config of a BEIR folder, as the reference runs were made).
const CONFIGS = { 'title + body': defaultRankConfig(), all: normaliseRankConfig({ lexical: { fields: { all: 1 } } }, 'all') };

for (const [name, reference] of Object.entries(REFERENCE))
  for (const [variant, config] of Object.entries(CONFIGS)) {
    test(`default BM25 (${variant}) on ${name} reaches the reference nDCG@10 ${reference} minus 0.02`, {
      skip: COLLECTIONS_SKIP,
    }, async () => {
      const dir = collectionPath(name);
      const docs = loadDocs(dir);
      const qrels = loadQrels(dir);
      const engine = await createEngine({ docs, corpusFingerprint: corpusFingerprint(docs), config });
      let sum = 0;
      let n = 0;
      for (const q of loadQueries(dir)) {
        const judged = qrels.get(q.id);
        if (!judged) continue;
        const r = await engine.search(q.text);
        const grades = r.docs.map((d) => judged.get(d.id));
        const idealGrades = [...judged.values()].filter((g) => g > 0).sort((a, b) => b - a);
        const numRelevant = idealGrades.length;
        sum += ndcgAt({ grades, idealGrades, numRelevant, options: { gain: 'linear', relevanceThreshold: 1 } }, 10);
        n++;
      }
      const mean = sum / n;
      assert.ok(mean >= reference - 0.02, `nDCG@10 ${mean.toFixed(4)} < ${reference} - 0.02`);
      console.log(`${name} (${variant}): nDCG@10 = ${mean.toFixed(4)} (reference ${reference})`);
    });
  }
