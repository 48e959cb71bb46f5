// Issue 32: a large corpus must not fail silently. Caches that cannot be written are warned about on stderr (not only
// in the --verbose log).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Mulberry32 } from '../../../src/core/util/random';
import { ranklab } from '../../helpers/cli';
import { syntheticCollection } from '../../helpers/synthetic-collection';
import { tempDir } from '../../helpers/workspace';

test('a corpus snapshot or lexical cache that cannot be written is a warning on stderr, and the evaluation still runs', () => {
  const state = tempDir();
  // a file where the lexical cache folder goes, a non-empty folder where the snapshot file goes
  mkdirSync(join(state, 'cache', 'corpus-snapshot.json', 'x'), { recursive: true });
  writeFileSync(join(state, 'cache', 'lexical'), 'not a folder');
  const r = ranklab([
    'eval',
    '--workspace',
    syntheticCollection({ docs: 120, queries: 10 }),
    '--state-dir',
    state,
    '--no-save',
    '--format',
    'json',
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).runs.length, 1);
  assert.match(r.stderr, /warning: corpus snapshot not written \(.+\): the next start reads every corpus file again/);
  const lexical = r.stderr.match(/warning: config bm25: lexical: index cache not written \(.+\); the next start builds the index again/g);
  assert.equal(lexical?.length, 1, r.stderr); // once, though the timing file failed too
});

/** A BEIR folder of `docs` documents of 100 words each drawn from ~2 million made-up words: a huge vocabulary. */
function hugeVocabulary(docs: number): string {
  const dir = tempDir();
  const rng = new Mulberry32(32);
  const word = () => (rng.nextUint32() % 2_000_000).toString(36).replace(/\d/g, (d) => 'qwxzjkvbpy'[Number(d)]);
  const lines: string[] = [];
  for (let i = 0; i < docs; i++)
    lines.push(JSON.stringify({ _id: `d${i}`, title: word(), text: Array.from({ length: 100 }, word).join(' ') }));
  writeFileSync(join(dir, 'corpus.jsonl'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'queries.jsonl'), JSON.stringify({ _id: 'q1', text: JSON.parse(lines[0]!).title }) + '\n');
  writeFileSync(join(dir, 'qrels.tsv'), 'q1\td0\t1\n');
  return dir;
}

test('a corpus whose lexical index would not fit in the heap, even postings only, is refused up front: exit 2 naming the corpus, the estimate, the limit and the ways out; no V8 crash', () => {
  // 20,000 documents of 100 words from ~2 million: ~1.3 million terms (~1.1 estimated), ~85 MiB of postings-only
  // vocabulary on the heap while it is built (the full index: ~650 MiB) beside 40-70 MiB in use, over 0.8 x the
  // 128 MiB old space
  const corpus = hugeVocabulary(20_000);
  const r = ranklab(['eval', '--workspace', corpus, '--state-dir', tempDir(), '--no-save'], { nodeArgs: ['--max-old-space-size=128'] });
  assert.equal(r.code, 2, r.stderr);
  assert.doesNotMatch(r.stderr, /FATAL ERROR|heap limit.*JavaScript heap out of memory/);
  assert.ok(r.stderr.includes(corpus), r.stderr);
  assert.match(
    r.stderr,
    /20,000 documents, about 2\.0 million postings and [\d,]+ terms estimated\) needs about \d+ MiB of heap; \d+ MiB is in use and the heap limit is \d+ MiB/,
  );
  assert.match(r.stderr, /NODE_OPTIONS=--max-old-space-size=\d+/);
  assert.match(r.stderr, /sample of the corpus/);
  assert.match(r.stderr, /engine adapter/);
  assert.match(r.stderr, /RANKLAB_HEAP_CHECK=off/);
  // the same corpus with room to spare runs, postings only (the full index would still not fit), and says so
  const ok = ranklab(['eval', '--workspace', corpus, '--state-dir', tempDir(), '--no-save'], { nodeArgs: ['--max-old-space-size=512'] });
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(
    ok.stderr,
    /warning: config bm25: lexical: the full index \(20,000 documents, .*\) would need about \d+ MiB of heap .*: the index holds the postings only/,
  );
});

test('a full index that would not fit gives way to the postings-only one: the same figures, a warning saying what is missing and the heap that would give it room', () => {
  // 20,000 generated documents cycling through 500 topics: ~1.1 million postings and ~130,000 terms (the estimate
  // says more), ~125 MiB of MiniSearch index beside 40-70 MiB in use, over 0.8 x the 128 MiB old space. The check
  // before (4.4 bytes a character: ~60 MiB, against 0.8 x the 176 MiB limit, young generation included) admitted it,
  // and V8 crashed in the build.
  const corpus = syntheticCollection({ docs: 20_000, queries: 10 });
  const args = ['eval', '--workspace', corpus, '--no-save', '--per-query', '--format', 'json'];
  const small = ranklab([...args, '--state-dir', tempDir()], { nodeArgs: ['--max-old-space-size=128'] });
  assert.equal(small.code, 0, small.stderr);
  assert.doesNotMatch(small.stderr, /FATAL ERROR/);
  assert.match(
    small.stderr,
    /lexical: the full index \(20,000 documents, about 1\.\d million postings and [\d,]+ terms estimated\) would need about \d+ MiB of heap beside \d+ MiB in use, over the 102 MiB usable \(NODE_OPTIONS=--max-old-space-size=\d+ would give it room\): the index holds the postings only, without MiniSearch; explanations, suggestions/,
  );
  const full = ranklab([...args, '--state-dir', tempDir()], { nodeArgs: ['--max-old-space-size=512'] });
  assert.equal(full.code, 0, full.stderr);
  assert.doesNotMatch(full.stderr, /postings only/);
  const perQuery = (out: string) => (JSON.parse(out) as { runs: Array<{ perQuery: unknown }> }).runs[0]!.perQuery;
  assert.deepEqual(perQuery(small.stdout), perQuery(full.stdout));
});
