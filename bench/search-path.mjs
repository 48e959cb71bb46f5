// npm run bench:search -- [--baseline DIR] [--docs N] [--rounds N]
// The cost of the search path itself (createEngine(...).search: the steps, their timing and provenance, the
// post-filter) for this tree and, with --baseline, for another checkout of Ranklab (e.g. `git worktree add
// /tmp/before <commit>`, with a node_modules: a symlink to this tree's will do), in the same process, over the same engines' inputs, rounds interleaved (this tree, the
// baseline, this tree, ...) so that both sides see the same machine load. Modes: lexical (BM25 over title and
// body), vector exact and HNSW (LSA vectors trained on the documents), hybrid (RRF), and lexical under an access
// filter in post-filter mode. Every distinct real query of the shared collections is run once per round; the
// lexical per-query score cache is emptied before every round, so each lexical query is scored from the index.
// Prints per mode the p50 and mean per query of each side (medians over rounds) and the ratio. Measures; asserts nothing.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { corpusFingerprint, realCorpus } from './lib/corpus.mjs';
import { loadavg, percentile } from './lib/measure.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const docCount = Number(opt('docs', '10000'));
const rounds = Number(opt('rounds', '5'));
const baselineDir = opt('baseline');
const HERE = resolve(import.meta.dirname, '..');

/** A checkout's engine factory: retrieval/engine.ts since the steps, retrieval/pipeline.ts before. */
async function loadTree(dir, label) {
  const at = (p) => pathToFileURL(join(dir, p)).href;
  const engineFile = existsSync(join(dir, 'src/core/retrieval/engine.ts'))
    ? 'src/core/retrieval/engine.ts'
    : 'src/core/retrieval/pipeline.ts';
  const { createEngine } = await import(at(engineFile));
  const { normaliseRankConfig } = await import(at('src/core/config/defaults.ts'));
  return { label, createEngine, normaliseRankConfig };
}

const MODES = [
  { name: 'lexical', config: { lexical: { fields: { title: 2, body: 1 } } } },
  { name: 'lexical, post-filter', config: { lexical: { fields: { title: 2, body: 1 } }, acl: { mode: 'post-filter' } }, post: true },
  { name: 'vector exact', config: { vector: { embedder: { provider: 'lsa' }, exact: true } } },
  { name: 'vector HNSW', config: { vector: { embedder: { provider: 'lsa' } } } },
  {
    name: 'hybrid (RRF)',
    config: { mode: 'hybrid', lexical: { fields: { title: 2, body: 1 } }, vector: { embedder: { provider: 'lsa' } } },
  },
];

const { docs, description, distinctQueries } = realCorpus(docCount, 1);
const distinct = [...new Set(realCorpus(docCount, distinctQueries).queries)]; // each query once (some texts repeat)
const fp = corpusFingerprint(docs);
// Access filter for the post-filter mode: two thirds of the documents visible (a plain predicate, as a principal's).
const visible = new Set(docs.filter((_, i) => i % 3 !== 0).map((d) => d.id));
const filter = (id) => visible.has(id);

const trees = [await loadTree(HERE, 'this tree')];
if (baselineDir) trees.push(await loadTree(resolve(baselineDir), `baseline ${baselineDir}`));
console.log(
  `search-path bench: ${description.split(';')[0]}; ${distinct.length} distinct queries x ${rounds} rounds per side; load ${loadavg()}`,
);

const cacheRoot = mkdtempSync(join(tmpdir(), 'ranklab-bench-search-'));
try {
  for (const mode of MODES) {
    // Each side builds its own engine (own cache folder); the LSA model is trained once per side.
    const engines = [];
    for (const [i, tree] of trees.entries()) {
      const config = tree.normaliseRankConfig(mode.config, `bench-${mode.name}`);
      engines.push(await tree.createEngine({ docs, corpusFingerprint: fp, config, cacheDir: join(cacheRoot, `side${i}`) }));
    }
    const options = mode.post ? { filter, pageSize: 10 } : {};
    for (const e of engines) await e.search(distinct[0], options); // warm-up: JIT, lazy loading
    const p50s = trees.map(() => []);
    const means = trees.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (const [i, engine] of engines.entries()) {
        engine.lexical?.cache?.clear(); // private: bench only
        const lat = [];
        for (const q of distinct) {
          const t = performance.now();
          await engine.search(q, options);
          lat.push(performance.now() - t);
        }
        p50s[i].push(percentile(lat, 0.5));
        means[i].push(lat.reduce((a, b) => a + b, 0) / lat.length);
      }
    }
    const med = (xs) => percentile(xs, 0.5);
    const cells = trees.map((t, i) => `${t.label}: p50 ${med(p50s[i]).toFixed(3)} ms, mean ${med(means[i]).toFixed(3)} ms`);
    const ratio =
      trees.length > 1
        ? `; this / baseline: p50 ${(med(p50s[0]) / med(p50s[1])).toFixed(3)}x, mean ${(med(means[0]) / med(means[1])).toFixed(3)}x`
        : '';
    console.log(`${mode.name.padEnd(22)} ${cells.join(' | ')}${ratio}`);
  }
} finally {
  rmSync(cacheRoot, { recursive: true, force: true });
}
console.log(`load at end ${loadavg()}`);
