// `ranklab show-run`: a saved run of any format (the gzipped @3 included) printed as plain JSON or TREC, through the
// built binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ranklab } from '../../helpers/cli';
import { loadSavedRun, saveRun } from '../../../src/core/experiment/run-store';
import { tempDir } from '../../helpers/workspace';

const FIXTURES = join(__dirname, '../../fixtures/runs');

test('a @4 run file (gzipped) prints as the expanded JSON and as TREC lines; @1, @2 and @3 files print too', () => {
  const dir = tempDir();
  const path = saveRun(dir, loadSavedRun(join(FIXTURES, 'hybrid-rrf.v2.json')));
  assert.equal(readFileSync(path)[0], 0x1f, 'the saved file is gzipped');
  const json = ranklab(['show-run', path]);
  assert.equal(json.code, 0, json.stderr);
  const shown = JSON.parse(json.stdout);
  assert.equal(shown.format, 'ranklab-run@1');
  assert.deepEqual(shown.queries, loadSavedRun(path).queries);
  const trec = ranklab(['show-run', path, '--format', 'trec']);
  assert.equal(trec.code, 0, trec.stderr);
  const lines = trec.stdout.trim().split('\n');
  const saved = loadSavedRun(path);
  assert.equal(
    lines.length,
    saved.queries.reduce((n, q) => n + q.docs.length, 0),
  );
  const d = saved.queries[0].docs[0];
  assert.equal(lines[0], `${saved.queries[0].qid} Q0 ${d.id} 1 ${d.score} hybrid-rrf`);
  for (const old of ['hybrid-rrf.v1.json', 'hybrid-rrf.v2.json', 'hybrid-rrf.v3.json']) {
    const r = ranklab(['show-run', join(FIXTURES, old)]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).queries, loadSavedRun(join(FIXTURES, old)).queries);
  }
});

test('a file that is not a saved run: exit 2 naming the file', () => {
  const dir = tempDir();
  writeFileSync(join(dir, 'x.json'), '{"format": "something"}');
  const r = ranklab(['show-run', join(dir, 'x.json')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /x\.json: not a usable Ranklab saved run: format is "something"/);
  assert.equal(ranklab(['show-run']).code, 2);
});
