// npm run bench:vocabulary [-- --terms 2000000] [--queries 500] [--docs 20000]
// The postings-only index's vocabulary (issue 32), the two structures side by side in one run over the same made-up
// terms (bench:eval-1m --open-vocabulary's words, `q<base36>z`, drawn from a space 1.5x their number, inserted in
// first-occurrence order):
//   tree  = MiniSearch's radix tree (SearchableMap), what the postings-only index held until now;
//   front = postings/vocabulary.ts: sorted, front-coded blocks of 16 + tree-order term numbers, in typed arrays.
// Reported per structure: bytes a term retained (V8 heap + ArrayBuffers, after a full GC, beside the terms' own
// strings, which both need while building), build time, and per query: get (half present, half absent), atPrefix (a
// term's first 4 characters, every expansion read), fuzzyGet at distance 1 and 2 (a term with one letter replaced;
// expansions read), after an untimed warm-up of a fifth of the queries (the JIT). Every answer of
// the front-coded vocabulary is checked equal to the tree's (terms, values, order). Then the postings cache file of
// a postings-only index whose vocabulary is this size (buildPostings over --docs documents of these words): write and
// read time and file size. Needs --expose-gc (the npm script passes it).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SearchableMap from 'minisearch/SearchableMap';
import { DEFAULT_ANALYZER } from '../src/core/config/defaults';
import type { Document } from '../src/core/corpus/document';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { buildPostings } from '../src/core/retrieval/postings/build';
import { readPostingsCacheFile, writePostingsCacheFile } from '../src/core/retrieval/postings/postings-cache-file';
import { FrontCodedVocabulary } from '../src/core/retrieval/postings/vocabulary';
import { Mulberry32 } from '../src/core/util/random';
// @ts-expect-error plain ES module of the bench without type declarations
import { loadavg, machine } from './lib/measure.mjs';

const argv = process.argv.slice(2);
const opt = (name: string, d: number): number => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : d;
};
const TERMS = opt('terms', 2_000_000);
const QUERIES = opt('queries', 500);
const DOCS = opt('docs', 20_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc (npm run bench:vocabulary)');

const retained = (): number => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

// The terms, distinct, in first-occurrence order (as buildPostings holds them: a Map of term -> position).
const empty = retained();
const rng = new Mulberry32(32);
const space = Math.round(TERMS * 1.5);
const positions = new Map<string, number>();
while (positions.size < TERMS) {
  const t = `q${(rng.nextUint32() % space).toString(36)}z`;
  if (!positions.has(t)) positions.set(t, positions.size);
}
const mapBytesPerTerm = (retained() - empty) / TERMS;
const order = [...positions.keys()];
const sortedCopyBytesPerTerm = (() => {
  const before = retained();
  const sorted = [...order].sort();
  const bytes = (retained() - before) / TERMS;
  return sorted.length > 0 ? bytes : 0;
})();
const queryRng = new Mulberry32(7);
const pick = () => order[queryRng.nextUint32() % order.length]!;
const gets = Array.from({ length: QUERIES }, (_, i) => (i % 2 ? pick() : `q${(queryRng.nextUint32() % space).toString(36)}y`));
const prefixes = Array.from({ length: QUERIES }, () => pick().slice(0, 4));
const fuzzies = Array.from({ length: QUERIES }, () => {
  const t = pick();
  const at = 1 + (queryRng.nextUint32() % (t.length - 1));
  return `${t.slice(0, at)}${'abc'[queryRng.nextUint32() % 3]}${t.slice(at + 1)}`; // one letter replaced
});

interface Row {
  structure: string;
  bytesPerTerm: number;
  buildMs: number;
  getUs: number;
  prefixUs: number;
  prefixTerms: number;
  fuzzy1Us: number;
  fuzzy2Us: number;
  fuzzyTerms: number;
}
type Answers = { prefix: unknown[]; fuzzy: unknown[] };

function measure(
  structure: string,
  make: () => { get(t: string): unknown; atPrefix(p: string): Iterable<unknown>; fuzzyGet(t: string, d: number): Map<string, unknown> },
): { row: Row; answers: Answers; keep: unknown } {
  const before = retained();
  let t0 = process.hrtime.bigint();
  const v = make();
  const buildMs = ms(t0);
  const bytesPerTerm = (retained() - before) / TERMS;
  // Warm-up (the JIT), untimed: a fifth of each kind of query.
  const warm = Math.ceil(QUERIES / 5);
  for (const q of gets.slice(0, warm)) v.get(q);
  for (const p of prefixes.slice(0, warm)) for (const _ of v.atPrefix(p)) void _;
  for (const q of fuzzies.slice(0, warm)) v.fuzzyGet(q, 1);
  t0 = process.hrtime.bigint();
  let found = 0;
  for (const q of gets) if (v.get(q) !== undefined) found++;
  const getUs = (ms(t0) * 1000) / gets.length;
  const answers: Answers = { prefix: [], fuzzy: [] };
  t0 = process.hrtime.bigint();
  let prefixTerms = 0;
  for (const p of prefixes) {
    const xs = [...v.atPrefix(p)];
    prefixTerms += xs.length;
    if (answers.prefix.length < 200) answers.prefix.push(xs);
  }
  const prefixUs = (ms(t0) * 1000) / prefixes.length;
  let fuzzyTerms = 0;
  const fuzzyUs = (d: number) => {
    const t = process.hrtime.bigint();
    for (const q of fuzzies) {
      const xs = [...v.fuzzyGet(q, d)];
      fuzzyTerms += xs.length;
      if (answers.fuzzy.length < 400) answers.fuzzy.push(xs);
    }
    return (ms(t) * 1000) / fuzzies.length;
  };
  const fuzzy1Us = fuzzyUs(1);
  const fuzzy2Us = fuzzyUs(2);
  if (found === 0) throw new Error('no term found');
  console.error(`${structure}: done`);
  return { row: { structure, bytesPerTerm, buildMs, getUs, prefixUs, prefixTerms, fuzzy1Us, fuzzy2Us, fuzzyTerms }, answers, keep: v };
}

const m = machine();
console.log(
  `${m.cpus} × ${m.cpuModel}, ${m.totalMemGB.toFixed(0)} GB, Node ${m.node}, load ${loadavg()}: ${TERMS.toLocaleString('en')} terms, ${QUERIES} queries of each kind`,
);
let tree: SearchableMap<number> | undefined;
const a = measure('tree (SearchableMap)', () => {
  tree = new SearchableMap<number>();
  for (const t of order) tree.set(t, -1);
  let rank = 0;
  for (const t of [...tree.keys()]) tree.set(t, rank++);
  return tree;
});
const treeNumbers = order.slice(0, 10_000).map((t) => tree!.get(t));
tree = undefined;
a.keep = undefined;
const b = measure('front-coded', () => FrontCodedVocabulary.build(positions).vocabulary);
const front = b.keep as FrontCodedVocabulary;
const same =
  JSON.stringify(a.answers) === JSON.stringify(b.answers) &&
  JSON.stringify(order.slice(0, 10_000).map((t) => front.get(t))) === JSON.stringify(treeNumbers);
b.keep = undefined;

// The postings cache of an index with a vocabulary of about this size.
const words = Math.round(TERMS * 1.65); // drawn from 1.5 × TERMS: about TERMS distinct
const per = Math.ceil(words / DOCS);
const docRng = new Mulberry32(32);
const docs: Document[] = Array.from({ length: DOCS }, (_, i) => ({
  id: `d${i}`,
  title: '',
  body: Array.from({ length: per }, () => `q${(docRng.nextUint32() % space).toString(36)}z`).join(' '),
  fields: {},
  meta: {},
  source: { path: 'gen' },
  hash: `h${i}`,
}));
let t0 = process.hrtime.bigint();
const postings = buildPostings(docs, ['title', 'body'], createAnalyzer({ ...DEFAULT_ANALYZER, stopwords: 'none' }));
const buildPostingsMs = ms(t0);
const dir = mkdtempSync(join(tmpdir(), 'ranklab-vocabulary-'));
const file = join(dir, 'p.postings.bin');
t0 = process.hrtime.bigint();
writePostingsCacheFile(file, postings, 'bench');
const writeMs = ms(t0);
t0 = process.hrtime.bigint();
const back = readPostingsCacheFile(file, 'bench');
const readMs = ms(t0);
const cache = {
  docs: DOCS,
  terms: (postings.vocabulary as unknown as { size: number }).size, // (tsx may load the class twice: no instanceof here)
  postings: postings.postingCount,
  buildPostingsMs,
  writeMs,
  readMs,
  fileMB: statSync(file).size / 2 ** 20,
  vocabularyMB: (postings.vocabulary as FrontCodedVocabulary).byteLength / 2 ** 20,
  readBack: back !== undefined && back.postingCount === postings.postingCount,
};
rmSync(dir, { recursive: true, force: true });

const f = (x: number, d = 1) => x.toFixed(d);
console.log('structure            | bytes/term | build s | get µs | atPrefix µs (terms) | fuzzy d=1 µs | fuzzy d=2 µs');
for (const r of [a.row, b.row])
  console.log(
    `${r.structure.padEnd(20)} | ${f(r.bytesPerTerm).padStart(10)} | ${f(r.buildMs / 1000, 2).padStart(7)} | ${f(r.getUs, 2).padStart(6)} | ` +
      `${f(r.prefixUs).padStart(11)} (${f(r.prefixTerms / QUERIES)}) | ${f(r.fuzzy1Us).padStart(12)} | ${f(r.fuzzy2Us).padStart(12)}`,
  );
console.log(
  `while building (both): the terms as a Map of term -> position ${f(mapBytesPerTerm)} bytes a term; FrontCodedVocabulary.build adds their sorted copy (${f(sortedCopyBytesPerTerm)}) for its duration`,
);
console.log(`same answers (prefix, fuzzy: terms, values, order; term numbers): ${same}`);
console.log(
  `postings cache, ${cache.terms.toLocaleString('en')} terms, ${cache.postings.toLocaleString('en')} postings (${DOCS.toLocaleString('en')} documents): ` +
    `write ${f(cache.writeMs / 1000, 2)} s, read ${f(cache.readMs / 1000, 2)} s, file ${f(cache.fileMB)} MB (vocabulary ${f(cache.vocabularyMB)} MB); buildPostings ${f(buildPostingsMs / 1000, 1)} s`,
);
const out = {
  date: new Date().toISOString(),
  machine: m,
  load: loadavg(),
  terms: TERMS,
  queries: QUERIES,
  building: { mapBytesPerTerm, sortedCopyBytesPerTerm },
  rows: [a.row, b.row],
  same,
  cache,
};
writeFileSync(join(import.meta.dirname, 'results', 'vocabulary.json'), `${JSON.stringify(out, null, 2)}\n`);
if (!same) process.exit(1);
