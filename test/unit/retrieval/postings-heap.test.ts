// The postings-only index (large corpora) under a real small heap: a child process with --max-old-space-size gets a
// corpus whose vocabulary (~450k terms) cannot fit. Both ways in are refused with exit 2 and the estimate, never V8's
// out-of-memory crash: the build (estimated from a sample) and the warm start from the disk cache (sized from the
// cache file's header; it crashed before: the load had no check). The heap the message advises then works, and the
// refused start leaves the cache as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/workspace';

const CHILD = join(__dirname, 'fixtures/postings-under-heap.ts');
const SMALL_HEAP_MB = 64;

function start(cacheDir: string | undefined, heapMB?: number) {
  const heap = heapMB ? [`--max-old-space-size=${heapMB}`] : [];
  const r = spawnSync(process.execPath, [...heap, '--import', 'tsx', CHILD, cacheDir ?? '-'], { encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Checks the refusal (with `terms` in it when given); returns the heap, in MiB, the message advises. */
function refused(r: ReturnType<typeof start>, terms?: string): number {
  assert.equal(r.code, 2, `exit 2, not a crash: ${r.stderr.slice(0, 2000)}`);
  assert.doesNotMatch(r.stderr, /FATAL ERROR|JavaScript heap out of memory/);
  const m =
    /the many-terms corpus \(30,000 documents, about ([\d,]+) terms\) needs about \d+ MiB of heap; \d+ MiB is in use and the heap limit is \d+ MiB/.exec(
      r.stderr,
    );
  assert.ok(m, r.stderr);
  if (terms !== undefined) assert.equal(m[1], terms);
  const advice = /NODE_OPTIONS=--max-old-space-size=(\d+)/.exec(r.stderr);
  assert.ok(advice && /engine adapter/.test(r.stderr), r.stderr);
  return Number(advice[1]);
}

test('a postings-only index too large for the heap is refused with its estimate, built or loaded from its cache; the advised heap works', () => {
  const cacheDir = tempDir();
  const built = start(cacheDir);
  assert.equal(built.code, 0, built.stderr);
  const { source, terms } = JSON.parse(built.stdout) as { source: string; terms: number };
  assert.equal(source, 'built');
  const [file] = readdirSync(join(cacheDir, 'lexical')).filter((f) => f.endsWith('.postings.bin'));
  assert.ok(file, 'the index was cached');
  const cached = readFileSync(join(cacheDir, 'lexical', file));

  // warm start: the cache file's exact term count is in the message
  const warm = start(cacheDir, SMALL_HEAP_MB);
  const advisedWarm = refused(warm, terms.toLocaleString('en'));
  assert.ok(readFileSync(join(cacheDir, 'lexical', file)).equals(cached), 'the refused start left the cache as it was');
  const warmOk = start(cacheDir, advisedWarm);
  assert.equal(warmOk.code, 0, warmOk.stderr);
  assert.equal(JSON.parse(warmOk.stdout).source, 'cache');

  // cold build: estimated from a sample, before anything is built
  const advisedCold = refused(start(undefined, SMALL_HEAP_MB));
  const coldOk = start(undefined, advisedCold);
  assert.equal(coldOk.code, 0, coldOk.stderr);
  assert.equal(JSON.parse(coldOk.stdout).source, 'built');
});
