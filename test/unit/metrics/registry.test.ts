// Item A of metrics-18: a metric is declared once (its file + one registry row); the parser, the error
// message, --help, describeMetric and the docs/metrics.md and docs/formats.md metric tables all come from that declaration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METRICS, describeMetric, metricUsage, parseMetric, parseMetricList, DEFAULT_METRIC_OPTIONS } from '../../../src/core/metrics';
import { metricTableMarkdown, withMetricTable } from '../../../src/core/metrics/docs';
import { main } from '../../../src/cli/main';
import { REPO_DIR } from '../../helpers/cli';

test('every definition carries name, label, description, formula, reference and tie rule', () => {
  for (const def of METRICS) {
    for (const key of ['name', 'label', 'description', 'formula', 'reference', 'ties'] as const) {
      assert.ok(def[key].trim().length > 0, `${def.name}: ${key} is empty`);
    }
    assert.match(def.ties, /docid desc/, `${def.name}: the tie rule names trec_eval's order`);
  }
});

test('docs/metrics.md and docs/formats.md carry exactly the table the registry generates', () => {
  for (const file of ['docs/metrics.md', 'docs/formats.md']) {
    const text = readFileSync(join(REPO_DIR, file), 'utf8');
    const regenerated = withMetricTable(text);
    assert.ok(regenerated !== undefined, `${file}: metric table markers missing`);
    assert.equal(text, regenerated, `${file}: the metric table is out of date: run npm run docs:metrics`);
  }
  // One row per metric, and the check would notice a stale table.
  assert.equal(metricTableMarkdown().split('\n').length, METRICS.length + 2);
  const stale = readFileSync(join(REPO_DIR, 'docs/metrics.md'), 'utf8').replace('| `bpref` |', '| `bpref2` |');
  assert.notEqual(withMetricTable(stale), stale);
});

test('the unknown-metric error lists every registered metric', () => {
  assert.throws(
    () => parseMetric('bleu@4'),
    (e: Error) => {
      for (const def of METRICS) assert.ok(e.message.includes(metricUsage(def)), `${def.name} missing from "${e.message}"`);
      return /unknown metric "bleu@4"/.test(e.message);
    },
  );
});

test('--help of score, eval and compare lists every metric and --judged-only', async () => {
  for (const command of ['score', 'eval', 'compare']) {
    let out = '';
    const code = await main([command, '--help'], { out: (s: string) => (out += s), err: () => {} } as never);
    assert.equal(code, 0);
    for (const def of METRICS) assert.ok(out.includes(metricUsage(def)), `${command} --help lacks ${metricUsage(def)}`);
    assert.match(out, /--judged-only/);
  }
});

test('describeMetric keeps the words of the existing metrics (hand-written)', () => {
  const o = DEFAULT_METRIC_OPTIONS;
  assert.equal(describeMetric(parseMetric('ndcg@10'), o), 'nDCG@10, gain 2^rel−1, log2(rank+1) discount, ideal over all judged documents');
  assert.equal(describeMetric(parseMetric('p@5'), o), 'Precision@5, relevant = grade ≥ 1');
  assert.equal(describeMetric(parseMetric('mrr'), o), 'MRR, whole list, relevant = grade ≥ 1');
  assert.equal(describeMetric(parseMetric('judged@10'), o), 'Judged@10, share of shown results with any judgment');
  assert.equal(describeMetric(parseMetric('bpref'), { ...o, relevanceThreshold: 2 }), 'bpref, relevant = grade ≥ 2');
  assert.equal(
    describeMetric(parseMetric('p@5'), { ...o, judgedOnly: true }),
    'Precision@5, relevant = grade ≥ 1, condensed: unjudged removed',
  );
});

test('parsing: parameters, defaults, aliases and their errors', () => {
  assert.deepEqual(
    parseMetricList('bpref,infAP,Rprec,rbp,rbp@0.95,err@20,nerr@10,success@5,map').map((s) => s.name),
    ['bpref', 'infap', 'rprec', 'rbp@0.8', 'rbp@0.95', 'err@20', 'nerr@10', 'hit@5', 'ap'],
  );
  assert.equal(parseMetric('rbp@0.5').param, 0.5);
  assert.equal(parseMetric('rbp@0.5').k, undefined);
  assert.equal(parseMetric('err@5').k, 5);
  assert.throws(() => parseMetric('rbp@1'), /between 0 and 1/);
  assert.throws(() => parseMetric('bpref@10'), /takes no parameter/);
  assert.throws(() => parseMetric('p@2.5'), /at least 1/);
  assert.throws(() => parseMetric('success'), /needs a cut-off/);
});
