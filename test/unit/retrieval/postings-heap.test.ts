// The postings-only index (large corpora) under a real small heap (a child process with --max-old-space-size). Its
// vocabulary is front-coded typed arrays (postings/vocabulary.ts), off the heap once built: a corpus of 30,000
// documents and ~450k terms now builds and loads from its cache with a 128 MiB old space (with MiniSearch's radix tree
// both were refused there, and the cache needed ~160-200 MiB; it runs in 64, but the check, counting only the old
// space and ~25% more terms than there are, asks for ~100). While it is built the terms are a Map on the heap: a
// corpus of ~1.5 million terms is refused with exit 2 and the estimate, never V8's out-of-memory crash, and the heap
// the message advises then works. (A warm start's heap is now the ids alone: too few here to refuse one; its check is
// memory-estimate.test.ts's.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/workspace';

const CHILD = join(__dirname, 'fixtures/postings-under-heap.ts');
const SMALL_HEAP_MB = 128;

/** The larger corpus: 100,000 documents of 20 words from 3 million made-up ones. */
const LARGE = ['100000', '3000000'];

function start(cacheDir: string | undefined, heapMB?: number, corpus: string[] = []) {
  const heap = heapMB ? [`--max-old-space-size=${heapMB}`] : [];
  const args = [...heap, '--import', 'tsx', CHILD, cacheDir ?? '-', ...corpus];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 300_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Checks the refusal; returns the heap, in MiB, the message advises. */
function refused(r: ReturnType<typeof start>): number {
  assert.equal(r.code, 2, `exit 2, not a crash: ${r.stderr.slice(0, 2000)}`);
  assert.doesNotMatch(r.stderr, /FATAL ERROR|JavaScript heap out of memory/);
  const m =
    /the many-terms corpus \(100,000 documents, about [\d.]+ million postings and ([\d,]+) terms estimated\) needs about \d+ MiB of heap; \d+ MiB is in use and the heap limit is \d+ MiB/.exec(
      r.stderr,
    );
  assert.ok(m, r.stderr);
  const advice = /NODE_OPTIONS=--max-old-space-size=(\d+)/.exec(r.stderr);
  assert.ok(advice && /engine adapter/.test(r.stderr), r.stderr);
  return Number(advice[1]);
}

test('a postings-only index of 450k terms builds and loads from its cache in a 128 MiB old space (the vocabulary is off the heap)', () => {
  const cacheDir = tempDir();
  const built = start(cacheDir, SMALL_HEAP_MB);
  assert.equal(built.code, 0, built.stderr);
  const { source, terms } = JSON.parse(built.stdout) as { source: string; terms: number };
  assert.equal(source, 'built');
  assert.ok(terms > 400_000, `${terms} terms`);
  const [file] = readdirSync(join(cacheDir, 'lexical')).filter((f) => f.endsWith('.postings.bin'));
  assert.ok(file, 'the index was cached');
  const warm = start(cacheDir, SMALL_HEAP_MB);
  assert.equal(warm.code, 0, warm.stderr);
  assert.deepEqual(JSON.parse(warm.stdout), { source: 'cache', terms, heapLimit: JSON.parse(built.stdout).heapLimit });
});

test('a postings-only index whose terms do not fit the heap while it is built is refused with its estimate; the advised heap works', () => {
  const advised = refused(start(undefined, SMALL_HEAP_MB, LARGE));
  const ok = start(undefined, advised, LARGE);
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(JSON.parse(ok.stdout).source, 'built');
});
