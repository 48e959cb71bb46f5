// The run store's index: read once, updated one file at a time, never trusted over the run files; retention keeps
// the newest N runs per config, never a pinned one, and says what it removed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { RUN_INDEX_FILE, RunIndex, summaryOf } from '../../../src/core/experiment/run-index';
import { pinnedRuns, saveRun, setPinned } from '../../../src/core/experiment/run-store';
import { runIdOfFile } from '../../../src/core/run/run-files';
import type { SavedRun } from '../../../src/core/run/types';
import { tempDir } from '../../helpers/workspace';
import { readRunText, writeRunText } from '../../helpers/runs';

function run(config: string, minute: number, ndcg = 0.5, principal?: string): SavedRun {
  return {
    format: 'ranklab-run@2',
    provenance: {
      config,
      createdAt: new Date(Date.UTC(2026, 11, 3, 10, minute)).toISOString(),
      tool: 't',
      corpus: 'sha256:c',
      judgments: 'sha256:j',
    },
    config: {},
    metricSpecs: ['ndcg@10'],
    metrics: { 'ndcg@10': ndcg },
    latency: {},
    principal,
    queries: [
      { qid: 'q1', text: 'x', docs: [{ id: 'a', score: 1 }], latencyMs: {}, metrics: { 'ndcg@10': ndcg } },
      { qid: 'q2', text: 'y', docs: [], latencyMs: {}, metrics: { 'ndcg@10': ndcg } },
    ],
  };
}

test('the index lists summaries, is read once, and a change to one file reads only that file', () => {
  const dir = tempDir();
  const a = saveRun(dir, run('baseline', 1, 0.4));
  saveRun(dir, run('boost', 2, 0.6, 'ana'));
  const first = new RunIndex(dir);
  const l1 = first.open();
  assert.equal(first.filesRead, 2, 'no index yet: every run is read once');
  assert.deepEqual(
    l1.summaries.map((s) => [s.provenance.config, s.principal ?? null, s.metrics['ndcg@10'], s.queryCount]),
    [
      ['baseline', null, 0.4, 2],
      ['boost', 'ana', 0.6, 2],
    ],
  );
  assert.ok(readdirSync(dir).includes(RUN_INDEX_FILE));

  // A new reader (the editor opened again): summaries come from the index, no run file is parsed.
  const second = new RunIndex(dir);
  assert.deepEqual(second.open(), l1);
  assert.equal(second.filesRead, 0);

  // One file rewritten: a refresh for it reads that file only.
  writeRunText(a, readRunText(a).replace('"ndcg@10":0.4', '"ndcg@10":0.45'));
  const l2 = second.refresh('baseline-2026-12-03T10-01-00-000Z.json.gz');
  assert.equal(second.filesRead, 1);
  assert.equal(l2.summaries[0].metrics['ndcg@10'], 0.45);
  // A new file and a deleted one.
  const c = saveRun(dir, run('vector', 3));
  assert.equal(second.refresh(c).summaries.length, 3);
  rmSync(c);
  assert.deepEqual(
    second.refresh(c).summaries.map((s) => s.provenance.config),
    ['baseline', 'boost'],
  );
  assert.equal(second.filesRead, 2);
  // Details only on demand.
  assert.deepEqual(
    second.load(l2.summaries[1].id).queries.map((q) => q.qid),
    ['q1', 'q2'],
  );
});

test('a stale or broken index is never trusted over the files: changed files are read again, a garbled index is rebuilt', () => {
  const dir = tempDir();
  const a = saveRun(dir, run('baseline', 1, 0.4));
  new RunIndex(dir).open();
  // Changed behind the index's back (no watcher): the size or time differs, so it is read again on open.
  writeRunText(a, readRunText(a).replace('"ndcg@10":0.4', '"ndcg@10":0.9'));
  utimesSync(a, new Date(), new Date(Date.now() + 5000));
  const again = new RunIndex(dir);
  assert.equal(again.open().summaries[0].metrics['ndcg@10'], 0.9);
  assert.equal(again.filesRead, 1);
  // A file removed behind its back disappears; a garbled index is rebuilt from the files.
  saveRun(dir, run('boost', 2));
  writeFileSync(join(dir, RUN_INDEX_FILE), '{"format": "ranklab-run-index@1", "runs": ');
  const rebuilt = new RunIndex(dir);
  assert.deepEqual(
    rebuilt.open().summaries.map((s) => s.provenance.config),
    ['baseline', 'boost'],
  );
  assert.equal(rebuilt.filesRead, 2);
  rmSync(a);
  assert.deepEqual(
    new RunIndex(dir).open().summaries.map((s) => s.provenance.config),
    ['boost'],
  );
  // A hand-edited entry (size and time still matching) whose summary is not one is not believed: the file is read.
  const index = JSON.parse(readFileSync(join(dir, RUN_INDEX_FILE), 'utf8'));
  const [name] = Object.keys(index.runs);
  index.runs[name].summary = { id: 'something else' };
  writeFileSync(join(dir, RUN_INDEX_FILE), JSON.stringify(index));
  const distrust = new RunIndex(dir);
  assert.deepEqual(
    distrust.open().summaries.map((s) => s.provenance.config),
    ['boost'],
  );
  assert.equal(distrust.filesRead, 1);
});

test('a broken run file is listed as a problem (by name) and not read again while unchanged; the others still load', () => {
  const dir = tempDir();
  saveRun(dir, run('baseline', 1));
  writeFileSync(join(dir, 'broken.json'), '{ "format": "ranklab-run@2", ');
  const idx = new RunIndex(dir);
  const l = idx.open();
  assert.equal(l.summaries.length, 1);
  assert.equal(l.problems.length, 1);
  assert.match(l.problems[0], /^broken\.json: not a readable saved run \(.*\); file skipped$/);
  const next = new RunIndex(dir);
  assert.deepEqual(next.open().problems, l.problems);
  assert.equal(next.filesRead, 0);
});

test('retention keeps the newest N runs per config and principal, never a pinned run, and logs every removal', () => {
  const dir = tempDir();
  const log: string[] = [];
  const first = saveRun(dir, run('baseline', 0), 2, (m) => log.push(m));
  const pinnedId = first.slice(dir.length + 1, -'.json.gz'.length);
  setPinned(dir, pinnedId, true);
  assert.deepEqual([...pinnedRuns(dir)], [`${pinnedId}.json.gz`]);
  for (let m = 1; m <= 4; m++) saveRun(dir, run('baseline', m), 2, (x) => log.push(x));
  saveRun(dir, run('baseline', 5, 0.5, 'ana'), 2, (x) => log.push(x));
  const runs = readdirSync(dir)
    .filter((f) => f.endsWith('.json.gz'))
    .sort();
  assert.deepEqual(runs, [
    'baseline-2026-12-03T10-00-00-000Z.json.gz', // pinned: kept although older than the newest two
    'baseline-2026-12-03T10-03-00-000Z.json.gz',
    'baseline-2026-12-03T10-04-00-000Z.json.gz',
    'baseline@ana-2026-12-03T10-05-00-000Z.json.gz',
  ]);
  assert.deepEqual(log, [
    'removed the older run baseline-2026-12-03T10-01-00-000Z.json.gz (keeping the newest 2 of baseline: ranklab.json "runs.keep")',
    'removed the older run baseline-2026-12-03T10-02-00-000Z.json.gz (keeping the newest 2 of baseline: ranklab.json "runs.keep")',
  ]);
  // Unpinned, it goes with the next save; keep 0 never removes anything.
  setPinned(dir, pinnedId, false);
  saveRun(dir, run('baseline', 6), 2);
  assert.equal(readdirSync(dir).filter((f) => f.startsWith('baseline-')).length, 2);
  for (let m = 7; m < 10; m++) saveRun(dir, run('baseline', m), 0);
  assert.equal(readdirSync(dir).filter((f) => f.startsWith('baseline-')).length, 5);
});

test('the index carries its content hash: an entry edited to a believable summary is not believed, the file is read', () => {
  const dir = tempDir();
  saveRun(dir, run('baseline', 1, 0.5));
  assert.equal(new RunIndex(dir).open().summaries[0].metrics['ndcg@10'], 0.5);
  const path = join(dir, RUN_INDEX_FILE);
  const text = readFileSync(path, 'utf8');
  assert.ok(text.includes('"ndcg@10":0.5'));
  writeFileSync(path, text.replace('"ndcg@10":0.5', '"ndcg@10":0.99')); // a usable summary, its hash kept
  const edited = new RunIndex(dir);
  assert.equal(edited.open().summaries[0].metrics['ndcg@10'], 0.5);
  assert.equal(edited.filesRead, 1);
});

test("a run its writer entered with its summary is not decoded on the watcher's event; a file changed since is", () => {
  const dir = tempDir();
  saveRun(dir, run('baseline', 1, 0.4));
  const index = new RunIndex(dir);
  index.open();
  const read = index.filesRead;
  const saved = run('boost', 2, 0.6);
  const path = saveRun(dir, saved);
  const id = runIdOfFile(basename(path))!;
  const listed = index.learn(path, summaryOf(id, saved));
  assert.equal(index.filesRead, read, 'the summary the writer has: no file read');
  const fresh = new RunIndex(dir).open();
  assert.deepEqual(listed, fresh, 'the listing reading every file gives');
  index.refresh(path);
  assert.equal(index.filesRead, read, "the watcher's event: unchanged, not read");
  // Written again after it was entered: the next event reads it.
  writeRunText(path, readRunText(path));
  utimesSync(path, new Date(), new Date(Date.now() + 5000));
  index.refresh(path);
  assert.equal(index.filesRead, read + 1);
});
