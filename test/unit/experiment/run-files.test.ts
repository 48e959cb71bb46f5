// Run file names: new runs are `<id>.json.gz`, older `<id>.json` runs (@1-@3) are still runs everywhere: the run index
// lists them with their ids (never an extension), the editor's store loads them, retention prunes across both names
// and a pinned old run is kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { RunIndex } from '../../../src/core/experiment/run-index';
import { isSavedRunFile, loadSavedRun, pinnedRuns, saveRun, setPinned } from '../../../src/core/experiment/run-store';
import { isRunFile, runFileName, runIdOfFile } from '../../../src/core/run/run-files';
import { SavedRuns } from '../../../src/extension/run-store';
import { tempDir } from '../../helpers/workspace';

const FIXTURES = join(__dirname, '../../fixtures/runs');

test('run file names: ids never include the extension; the index, pins and temporary files are not runs', () => {
  assert.equal(runFileName('baseline-2026-12-04T10-00-00-000Z'), 'baseline-2026-12-04T10-00-00-000Z.json.gz');
  assert.equal(runIdOfFile('baseline-2026-12-04T10-00-00-000Z.json.gz'), 'baseline-2026-12-04T10-00-00-000Z');
  assert.equal(runIdOfFile('old.json'), 'old');
  for (const name of ['.index', '.pins', 'x.json.gz.123-0.456.tmp', 'x.txt', '.json', '.json.gz', 'x.gz'])
    assert.equal(isRunFile(name), false, name);
});

/** A folder with a real @1 run and a real @3 run under the names their writers gave them, then a new run. */
function mixedFolder(): { dir: string; ids: string[] } {
  const dir = tempDir();
  const v1 = 'hybrid-rrf-2026-12-01T00-00-00-000Z';
  const v3 = 'hybrid-rrf-2026-12-02T00-00-00-000Z';
  copyFileSync(join(FIXTURES, 'hybrid-rrf.v1.json'), join(dir, `${v1}.json`));
  copyFileSync(join(FIXTURES, 'hybrid-rrf.v3.json'), join(dir, `${v3}.json`));
  const old = loadSavedRun(join(FIXTURES, 'hybrid-rrf.v3.json'));
  const path = saveRun(dir, { ...old, provenance: { ...old.provenance, createdAt: '2026-12-03T00:00:00.000Z' } }, 0);
  assert.match(path, /hybrid-rrf-2026-12-03T00-00-00-000Z\.json\.gz$/);
  return { dir, ids: [v1, v3, 'hybrid-rrf-2026-12-03T00-00-00-000Z'] };
}

test('a folder with a @1 .json, a @3 .json and a new .json.gz run lists all three with their ids, and each loads', () => {
  const { dir, ids } = mixedFolder();
  const listing = new RunIndex(dir).open();
  assert.deepEqual(listing.problems, []);
  // (Listed by creation time; the fixtures keep theirs, so by id here.)
  assert.deepEqual(listing.summaries.map((s) => [s.id, s.format]).sort(), [
    [ids[0], 'ranklab-run@1'],
    [ids[1], 'ranklab-run@3'],
    [ids[2], 'ranklab-run@4'],
  ]);
  const store = new SavedRuns(dir, dir);
  const runs = store.list().runs;
  assert.deepEqual(runs.map((r) => [r.id, r.file.slice(dir.length + 1)]).sort(), [
    [ids[0], `${ids[0]}.json`],
    [ids[1], `${ids[1]}.json`],
    [ids[2], `${ids[2]}.json.gz`],
  ]);
  for (const r of runs) assert.equal(r.run.queries.length, r.summary.queryCount);
  // A watcher event for the new name is one file read.
  const before = store.filesRead;
  assert.equal(store.refresh(join(dir, `${ids[2]}.json.gz`)).runs.length, 3);
  assert.equal(store.filesRead, before, 'unchanged: not read again');
  for (const id of ids) assert.ok(isSavedRunFile(join(dir, readdirSync(dir).find((f) => runIdOfFile(f) === id)!)), id);
});

test('retention prunes across .json and .json.gz, oldest first, and keeps a pinned old .json run', () => {
  const { dir, ids } = mixedFolder();
  setPinned(dir, ids[0], true);
  assert.deepEqual([...pinnedRuns(dir)], [`${ids[0]}.json`]);
  const old = loadSavedRun(join(FIXTURES, 'hybrid-rrf.v3.json'));
  const log: string[] = [];
  saveRun(dir, { ...old, provenance: { ...old.provenance, createdAt: '2026-12-04T00:00:00.000Z' } }, 2, (m) => log.push(m));
  assert.deepEqual(readdirSync(dir).filter(isRunFile).sort(), [
    `${ids[0]}.json`,
    `${ids[2]}.json.gz`,
    'hybrid-rrf-2026-12-04T00-00-00-000Z.json.gz',
  ]);
  assert.deepEqual(log, [`removed the older run ${ids[1]}.json (keeping the newest 2 of hybrid-rrf: ranklab.json "runs.keep")`]);
  // Unpinned, the old .json run goes with the next save.
  setPinned(dir, ids[0], false);
  assert.deepEqual([...pinnedRuns(dir)], []);
  saveRun(dir, { ...old, provenance: { ...old.provenance, createdAt: '2026-12-05T00:00:00.000Z' } }, 2);
  assert.deepEqual(readdirSync(dir).filter(isRunFile).sort(), [
    'hybrid-rrf-2026-12-04T00-00-00-000Z.json.gz',
    'hybrid-rrf-2026-12-05T00-00-00-000Z.json.gz',
  ]);
});
