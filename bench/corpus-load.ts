// Corpus loading speed: a real BEIR corpus.jsonl, and a folder of 2,000 small Markdown files
// (cold load, then an incremental reload after one file changed).
// Run: node --import tsx bench/corpus-load.ts   (RANKLAB_SHARED overrides the shared folder)
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCorpus } from '../src/core/corpus/load';
import { parseSnapshot, serializeSnapshot } from '../src/core/corpus/snapshot';
import { corpusSettings } from '../src/core/corpus/settings';

const shared = process.env.RANKLAB_SHARED ?? resolve(__dirname, '../..', 'shared');
const ms = (t0: number) => `${(performance.now() - t0).toFixed(0)} ms`;
const best = (runs: number, f: () => void) => {
  let min = Infinity;
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now();
    f();
    min = Math.min(min, performance.now() - t0);
  }
  return `${min.toFixed(0)} ms (best of ${runs})`;
};

const lisa = join(shared, 'collections/lisa');
const lisaSettings = corpusSettings({ include: ['corpus.jsonl'] });
let t0 = performance.now();
const first = loadCorpus(lisa, lisaSettings);
console.log(`lisa corpus.jsonl: ${first.corpus.docs.length} docs, first load ${ms(t0)}; ${best(5, () => loadCorpus(lisa, lisaSettings))}`);
console.log(`lisa unchanged, from snapshot: ${best(5, () => loadCorpus(lisa, lisaSettings, first.snapshot))}`);

const dir = mkdtempSync(join(tmpdir(), 'ranklab-bench-md-'));
try {
  const words = 'coffee roast grind brew espresso filter water ratio bloom crema bean origin acidity body aroma'.split(' ');
  for (let k = 0; k < 2000; k++) {
    const sub = join(dir, 'corpus', `part${k % 20}`);
    mkdirSync(sub, { recursive: true });
    const body = Array.from({ length: 120 }, (_, j) => words[(k * 7 + j * 3) % words.length]).join(' ');
    writeFileSync(join(sub, `note-${k}.md`), `---\nid: note-${k}\ntags: [t${k % 9}]\ntenant: t${k % 3}\n---\n# Note ${k}\n\n${body}\n`);
  }
  const settings = corpusSettings({ include: ['corpus/**/*.md'] });
  t0 = performance.now();
  const cold = loadCorpus(dir, settings);
  console.log(`2,000 markdown files: ${cold.corpus.docs.length} docs, cold load ${ms(t0)}`);
  t0 = performance.now();
  const json = serializeSnapshot(cold.snapshot);
  const snapshot = parseSnapshot(json)!;
  console.log(`snapshot round trip through JSON (${(json.length / 1024).toFixed(0)} KiB): ${ms(t0)}`);
  appendFileSync(join(dir, 'corpus/part7/note-7.md'), 'one more line\n');
  t0 = performance.now();
  const inc = loadCorpus(dir, settings, snapshot);
  console.log(`incremental reload, one file changed: ${ms(t0)} (re-read: ${inc.reread.join(', ')})`);
  console.log(`incremental reload, nothing changed: ${best(5, () => loadCorpus(dir, settings, inc.snapshot))}`);
  console.log(`cold load again (warm file cache): ${best(3, () => loadCorpus(dir, settings))}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
