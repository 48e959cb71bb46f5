// Query and document ids are data: "__proto__" or "constructor" must be keys like any other wherever records are
// keyed by them (an assignment `record["__proto__"] = v` sets the prototype instead, and the entry vanishes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setKey } from '../../../src/core/util/records';
import { loadSavedRun, saveRun } from '../../../src/core/experiment/run-store';
import { stageRecall } from '../../../src/core/experiment/stage-recall';
import { evaluationJson } from '../../../src/core/report/evaluation';
import { docHashes } from '../../../src/core/retrieval/corpus-delta';
import { evaluateRun, parseMetricList } from '../../../src/core/metrics';
import type { Document } from '../../../src/core/corpus/document';
import type { Run } from '../../../src/core/run/types';
import { judgmentsOf } from '../../helpers/judgments';
import { savedRun } from '../../helpers/runs';
import { tempDir } from '../../helpers/workspace';

const IDS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
const own = (r: object, k: string) => Object.getOwnPropertyDescriptor(r, k)?.value;

test('setKey makes an own key of any id, leaving the prototype alone', () => {
  const r: Record<string, number> = {};
  IDS.forEach((id, i) => setKey(r, id, i));
  assert.deepEqual(Object.keys(r), IDS);
  assert.equal(Object.getPrototypeOf(r), Object.prototype);
  assert.equal(JSON.stringify(r), '{"__proto__":0,"constructor":1,"toString":2,"hasOwnProperty":3}');
});

test('a saved run keeps such query ids, document ids and titles; its evaluation, stage recall and JSON report too', () => {
  const docs = IDS.map((id, i) => ({ id, score: 10 - i, title: `title of ${id}` }));
  const queries = IDS.map((qid) => ({ qid, text: qid, docs, latencyMs: {}, metrics: {} }));
  const back = loadSavedRun(saveRun(tempDir(), savedRun(queries), 0));
  assert.deepEqual(
    back.queries.map((q) => q.qid),
    IDS,
  );
  assert.deepEqual(
    back.queries[0].docs.map((d) => d.id),
    IDS,
  );
  assert.deepEqual(Object.keys(back.titles ?? {}).sort(), [...IDS].sort());
  assert.equal(own(back.titles!, '__proto__'), 'title of __proto__');

  const judgments = judgmentsOf(JSON.parse(JSON.stringify(Object.fromEntries(IDS.map((q) => [q, { [q]: 1 }])))));
  const run: Run = new Map(back.queries.map((q) => [q.qid, q.docs]));
  const json = evaluationJson(evaluateRun(run, judgments, parseMetricList('p@1')));
  assert.deepEqual(Object.keys(json.perQuery).sort(), [...IDS].sort());
  assert.deepEqual(own(json.perQuery, '__proto__'), { 'p@1': 1 });
  const stages = stageRecall(run, undefined, judgments, { relevanceThreshold: 1 }, 1);
  assert.deepEqual(Object.keys(stages.perQuery).sort(), [...IDS].sort());
  assert.equal(own(stages.perQuery, '__proto__').class, 'hit');
});

test('the corpus snapshot keeps the hash of a document whose id is "__proto__"', () => {
  const hashes = docHashes(IDS.map((id) => ({ id, hash: `h-${id}` }) as unknown as Document));
  assert.deepEqual(Object.keys(hashes), IDS);
  assert.equal(own(hashes, '__proto__'), 'h-__proto__');
});
