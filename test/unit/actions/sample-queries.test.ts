// The user action "sample queries from a log" (core/actions/sample-queries.ts), which the CLI's `queries sample` and
// the editor's "Sample Queries from a Log" both call: on a generated log with planted personal data, bots and
// garbled lines, written to a real file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleQueryLog } from '../../../src/core/actions/sample-queries';
import { main } from '../../../src/cli/main';
import { formatQuerySample } from '../../../src/core/report/query-sample';
import { generateLog } from '../../helpers/query-logs';

const dir = mkdtempSync(join(tmpdir(), 'ranklab-sample-action-'));
const log = join(dir, 'searches.jsonl');
const g = generateLog({ seed: 3, distinct: 120, searches: 1500 });
writeFileSync(log, g.lines.join('\n') + '\n');

test('sampleQueryLog: N queries, no planted item in the golden set, every removal counted, garbled lines located', () => {
  const r = sampleQueryLog({ log, n: 25, scheme: 'stratified', seed: 2 });
  const items = JSON.parse(r.golden) as { id: string; query: string; tags: string[] }[];
  assert.equal(items.length, 25);
  assert.equal(r.report.sampled, 25);
  for (const p of g.planted) assert.ok(!r.golden.includes(p.item), `planted ${p.kind} ${p.item} written`);
  assert.equal(
    Object.values(r.report.personal).reduce((s, x) => s + x, 0),
    g.planted.length,
  );
  assert.equal(r.report.log.skipped, g.garbled);
  assert.equal(r.diagnostics.length, g.garbled);
  for (const d of r.diagnostics) assert.ok(d.file === log && d.line > 0, `${d.file}:${d.line}`);
  assert.equal(
    r.report.strata.map((s) => s.sampled).reduce((a, b) => a + b, 0),
    25,
  );
  assert.equal(sampleQueryLog({ log, n: 25, scheme: 'stratified', seed: 2 }).golden, r.golden, 'same inputs, same bytes');
});

test('sampleQueryLog: excluded texts are compared by normal form (case, white space)', () => {
  const first = sampleQueryLog({ log, n: 10, scheme: 'uniform', seed: 4 });
  const picked = (JSON.parse(first.golden) as { query: string }[])[0]!.query;
  const r = sampleQueryLog({ log, n: 1000, scheme: 'uniform', seed: 4, exclude: [`  ${picked.toUpperCase()}  `] });
  assert.ok(r.report.excluded > 0);
  assert.ok(!(JSON.parse(r.golden) as { query: string }[]).some((q) => q.query === picked), `${picked} still sampled`);
  assert.equal(r.report.distinct, first.report.distinct - 1);
});

test('the CLI reports what the action returns, and writes its golden set', async () => {
  const out = join(dir, 'cli.json');
  let stdout = '';
  const code = await main(
    ['queries', 'sample', '--log', log, '--n', '12', '--scheme', 'pps', '--seed', '9', '--out', out, '--format', 'json'],
    { out: (t) => void (stdout += t), err: () => {} },
  );
  assert.equal(code, 0);
  const r = sampleQueryLog({ log, n: 12, scheme: 'pps', seed: 9 });
  assert.deepEqual(JSON.parse(stdout), JSON.parse(JSON.stringify({ ...r.report, out })));
  const text = formatQuerySample({ ...r.report, out });
  assert.match(text, new RegExp(`removed: personal data ${g.planted.length} `));
  assert.match(text, /sampled 12 of 12 asked \(pps, seed 9\)/);
});

test('sampleQueryLog: an aborted signal stops it', () => {
  const abort = new AbortController();
  abort.abort(new Error('stopped'));
  assert.throws(() => sampleQueryLog({ log, n: 5, scheme: 'uniform', seed: 1 }, abort.signal), /stopped/);
});
