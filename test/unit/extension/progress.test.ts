// The progress notification's text and percentage, from the core's progress reports (src/extension/logic/progress.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cancelledText, progressPercent, progressText } from '../../../src/extension/logic/progress';

test('the query loop: config, queries done of all, and which config of how many', () => {
  assert.equal(
    progressText({ phase: 'queries', label: 'baseline', done: 40, total: 94 }, { index: 1, count: 3 }),
    'baseline: 40/94 queries (config 2 of 3)',
  );
  // One config: no "config 1 of 1".
  assert.equal(progressText({ phase: 'queries', label: 'baseline', done: 0, total: 94 }, { index: 0, count: 1 }), 'baseline: 0/94 queries');
});

test('the phases before the queries say what is being done, with a count when there is one', () => {
  assert.equal(
    progressText({ phase: 'lexical-index', label: 'hybrid', done: 120, total: 500 }),
    'hybrid: building the lexical index 120/500 documents',
  );
  assert.equal(
    progressText({ phase: 'hnsw', label: 'vector', done: 3, total: 10 }, { index: 2, count: 3 }),
    'vector: building the vector index 3/10 points (config 3 of 3)',
  );
  // The corpus phase does not know its length ahead (total 0): the count read so far, or nothing yet.
  assert.equal(progressText({ phase: 'corpus', label: 'baseline', done: 35, total: 0 }), 'baseline: reading the corpus (35 files)');
  assert.equal(progressText({ phase: 'corpus', label: 'baseline', done: 0, total: 0 }), 'baseline: reading the corpus');
  assert.equal(progressText({ phase: 'lexical-cache', done: 0, total: 1 }), 'loading the cached lexical index');
});

test('the percentage: an equal share per config, filled by its query loop, clamped', () => {
  assert.equal(progressPercent({ index: 0, count: 4 }), 0);
  assert.equal(progressPercent({ index: 1, count: 4 }, { phase: 'queries', done: 47, total: 94 }), 37.5);
  assert.equal(progressPercent({ index: 1, count: 4 }, { phase: 'lexical-index', done: 400, total: 500 }), 25);
  assert.equal(progressPercent({ index: 3, count: 4 }, { phase: 'queries', done: 94, total: 94 }), 100);
  assert.equal(progressPercent({ index: 0, count: 2 }, { phase: 'queries', done: 5, total: 0 }), 0);
});

test('the cancelled message names what was saved and the config stopped', () => {
  assert.equal(
    cancelledText(1, 3, 'title-boost-3'),
    'Ranklab: evaluation cancelled (1 of 3 config(s) saved; title-boost-3 stopped, nothing of it saved)',
  );
  assert.equal(cancelledText(0, 2), 'Ranklab: evaluation cancelled (0 of 2 config(s) saved)');
});
