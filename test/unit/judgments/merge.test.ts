import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLICK_RATER, isMachineRater, mergeRatings } from '../../../src/core/judgments/merge';

const grades = (entries: [string, string, number][]) => {
  const m = new Map<string, Map<string, number>>();
  for (const [q, d, g] of entries) {
    if (!m.has(q)) m.set(q, new Map());
    m.get(q)!.set(d, g);
  }
  return m;
};

const byRater = new Map([
  ['ana', grades([['q1', 'd1', 3]])],
  [
    'llm:m',
    grades([
      ['q1', 'd1', 0],
      ['q1', 'd2', 2],
    ]),
  ],
  [
    CLICK_RATER,
    grades([
      ['q1', 'd1', 1],
      ['q1', 'd3', 3],
    ]),
  ],
]);
const scored = (opts: Parameters<typeof mergeRatings>[2]) =>
  [...(mergeRatings(byRater, new Map(), opts).qrels.get('q1') ?? new Map())].sort();

test('the click rater is a machine, never merged silently: left out by default and by "fill", scored only when named', () => {
  assert.equal(isMachineRater(CLICK_RATER), true);
  assert.equal(isMachineRater('ana'), false);
  assert.deepEqual(scored({}), [['d1', 3]]);
  assert.deepEqual(scored({ merge: 'max' }), [['d1', 3]]);
  // "fill" fills with LLM grades only.
  assert.deepEqual(scored({ llmGrades: 'fill' }), [
    ['d1', 3],
    ['d2', 2],
  ]);
  assert.deepEqual(scored({ merge: 'rater:clicks' }), [
    ['d1', 1],
    ['d3', 3],
  ]);
});
