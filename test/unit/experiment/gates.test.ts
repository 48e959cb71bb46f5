// The one definition of valid gates (used for ranklab.json, --gates files and the extension).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateCount, readGatesFile, validateGates, withGateMetrics } from '../../../src/core/experiment/gates';
import { parseMetricList } from '../../../src/core/metrics';
import { InputError } from '../../../src/core/util/diagnostics';
import { tempDir } from '../../helpers/workspace';

test('valid gates come back with canonical metric names', () => {
  const { gates, problems } = validateGates({ min: { 'NDCG_cut@10': 0.6, 'hit@5': 0.8 }, maxRegression: { 'ndcg@10': 0.02 } });
  assert.deepEqual(problems, []);
  assert.deepEqual(gates, { min: { 'ndcg@10': 0.6, 'hit@5': 0.8 }, maxRegression: { 'ndcg@10': 0.02 } });
  assert.equal(gateCount(gates), 3);
});

test('every gate that could not be evaluated is a problem at its pointer, and is left out', () => {
  const { gates, problems } = validateGates({
    minimum: { 'ndcg@10': 0.5 },
    min: { 'ndcg@10': null, 'mrr@10': '0.5', 'foo@3': 0.1, p: 0.2, 'hit@5': 0.9 },
    maxRegression: [0.1],
  });
  assert.deepEqual(
    problems.map((p) => [p.pointer, p.key]),
    [
      ['/minimum', 'minimum'],
      ['/min/ndcg@10', 'min.ndcg@10'],
      ['/min/mrr@10', 'min.mrr@10'],
      ['/min/foo@3', 'min.foo@3'],
      ['/min/p', 'min.p'],
      ['/maxRegression', 'maxRegression'],
    ],
  );
  assert.equal(problems[0].hint, 'did you mean "min"?');
  assert.match(problems[1].message, /must be a number, not null/);
  assert.match(problems[3].message, /unknown metric "foo@3"/);
  assert.match(problems[4].message, /needs a cut-off/);
  assert.deepEqual(gates, { min: { 'hit@5': 0.9 } }, 'only the valid gate is kept');
});

test('a gates value that is not an object, and the same metric gated twice under two names', () => {
  assert.equal(validateGates([{ min: {} }]).problems[0].pointer, '');
  assert.equal(validateGates(null).problems.length, 1);
  const twice = validateGates({ min: { 'ndcg@10': 0.5, 'ndcg_cut@10': 0.6 } });
  assert.match(twice.problems[0].message, /gated twice/);
});

test('a gates file: comments, BOM and trailing commas accepted; problems at their line; unusable files throw', () => {
  const dir = tempDir();
  const ok = join(dir, 'ok.json');
  writeFileSync(ok, '\ufeff{\n  // floor\n  "min": { "ndcg@10": 0.5, },\n}\n');
  assert.deepEqual(readGatesFile(ok), { gates: { min: { 'ndcg@10': 0.5 } }, diagnostics: [] });
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{\n  "min": {\n    "ndcg@10": null\n  }\n}\n');
  assert.deepEqual(
    readGatesFile(bad, 'bad.json').diagnostics.map((d) => [d.file, d.line, d.key]),
    [['bad.json', 3, 'min.ndcg@10']],
  );
  const dup = join(dir, 'dup.json');
  writeFileSync(dup, '{\n"min": {},\n"min": {}\n}');
  assert.throws(
    () => readGatesFile(dup, 'dup.json'),
    (e: unknown) => e instanceof InputError && e.line === 3 && /duplicate key/.test(e.message),
  );
  assert.throws(
    () => readGatesFile(join(dir, 'none.json'), 'none.json'),
    (e: unknown) => e instanceof InputError && e.file === 'none.json',
  );
  writeFileSync(join(dir, 'empty.json'), ' \n');
  assert.throws(() => readGatesFile(join(dir, 'empty.json')), /empty/);
});

test('the metrics gates name are added to the computed ones', () => {
  const specs = withGateMetrics(parseMetricList('mrr@10'), { min: { 'recall@100': 0.5 }, maxRegression: { 'mrr@10': 0.01 } });
  assert.deepEqual(
    specs.map((s) => s.name),
    ['mrr@10', 'recall@100'],
  );
});
