// npm run bench:lexical [-- --sizes 10k,50k,200k] [--queries N]   (also run at the end of `npm run bench`)
// Pruned exact top-100 BM25 (LexicalIndex.topK: MaxScore over the compact postings) against, in the same run and
// over the same queries: plain MiniSearch `search` with the same boosts (top 100 kept), Ranklab's exhaustive
// first pass (MiniSearch per field + recombination: `fieldScores` then `recombine`) and the recombination of
// cached field scores (what a boost change costs). Synthetic corpora (bench/lib/corpus.mjs), fields title (2) and
// body (1), default analyzer and BM25. Also: build time of MiniSearch and of the postings, and their memory.
// Every pruned answer is checked against the exhaustive one (ids, order, scores, totals); mismatches are printed.
// Prints a table; with the default sizes it also rewrites the `bench:lexical` section of docs/benchmarks.md.
import { DEFAULT_ANALYZER, defaultRankConfig } from '../src/core/config/defaults';
import { createAnalyzer } from '../src/core/retrieval/analyzer';
import { LexicalIndex, recombine } from '../src/core/retrieval/lexical';
// @ts-expect-error plain ES modules of the bench without type declarations
import { syntheticCorpus } from './lib/corpus.mjs';
// @ts-expect-error see above
import { writeDocSection } from './lib/doc-section.mjs';
// @ts-expect-error see above
import { loadavg, machine, measureBuild, timeQueries } from './lib/measure.mjs';
// @ts-expect-error see above
import { buildPlainMiniSearch, plainSearch } from './lib/plain.mjs';

const DEPTH = 100;
const FIELDS = ['title', 'body'];
const BOOSTS = { title: 2, body: 1 };
const SIZES: Record<string, number> = { '10k': 10_000, '50k': 50_000, '200k': 200_000 };
const DEFAULT_SIZES = ['10k', '50k', '200k'];

interface Timing {
  p50: number;
  p99: number;
  qps: number;
  n: number;
}
interface SizeResult {
  label: string;
  docs: number;
  queries: number;
  postings: number;
  build: { miniSearchMs: number; miniSearchHeapMB: number; postingsMs: number; postingsMB: number; postingsHeapMB: number };
  plain: Timing;
  exhaustive: Timing;
  pruned: Timing;
  recombine: Timing;
  mismatches: number;
}

export async function runLexicalBench(
  options: { sizes?: string[]; queryCount?: number; log?: (line: string) => void; writeDoc?: boolean } = {},
): Promise<SizeResult[]> {
  const log = options.log ?? console.log;
  const sizes = options.sizes ?? DEFAULT_SIZES;
  const queryCount = options.queryCount ?? 1000;
  const analyzer = createAnalyzer(DEFAULT_ANALYZER);
  const bm25 = defaultRankConfig().lexical!.bm25;
  const settings = { bm25, prefix: false, fuzzy: 0, boosts: BOOSTS, combineWith: 'OR' as const, depth: DEPTH };
  const results: SizeResult[] = [];
  log(`lexical top-k bench: depth ${DEPTH}, fields ${JSON.stringify(BOOSTS)}, BM25 ${JSON.stringify(bm25)}; load average ${loadavg()}`);
  for (const label of sizes) {
    const n = SIZES[label];
    if (!n) throw new Error(`unknown size ${label} (one of ${Object.keys(SIZES).join(', ')})`);
    const corpus = syntheticCorpus(n, queryCount, (w: string) => analyzer.processTerm(w) === null);
    for (const d of corpus.docs) delete d.vector; // vectors are not used here: free their memory
    const queries: string[] = corpus.queries;
    log(`[${label}] ${corpus.description.split(';').slice(0, 2).join(';')}; load ${loadavg()}`);

    const plainBuild = await measureBuild(() => buildPlainMiniSearch(corpus.docs, FIELDS, analyzer));
    const plain = plainBuild.value;
    const indexBuild = await measureBuild(() => LexicalIndex.build(corpus.docs, FIELDS, analyzer));
    const index = indexBuild.value;
    const postingsBuild = await measureBuild(() => index.postings());
    const postings = postingsBuild.value;

    const plainT = await timeQueries(queries, (q: string) => plainSearch(plain, q, BOOSTS, bm25, DEPTH));
    const prunedT = await timeQueries(queries, (q: string) => index.topK(q, settings));
    const exhaustiveT = await timeQueries(queries, (q: string) => recombine(index.fieldScores(q, settings), settings));
    // The cache now holds every query's field scores: a boost change is a recombination.
    const changed = { ...settings, boosts: { title: 3, body: 1 } };
    const recombineT = await timeQueries(queries, (q: string) => index.search(q, changed));

    let mismatches = 0;
    for (const q of queries) {
      const a = index.topK(q, changed);
      const b = index.search(q, changed); // from the cache: the exhaustive oracle
      const same =
        a.total === b.total &&
        a.hits.length === b.hits.length &&
        a.hits.every((h: { id: string; score: number }, i: number) => h.id === b.hits[i].id && h.score === b.hits[i].score);
      if (!same) {
        mismatches++;
        if (mismatches <= 3) log(`  MISMATCH on "${q}"`);
      }
    }
    const r: SizeResult = {
      label,
      docs: n,
      queries: queries.length,
      postings: postings.postingCount,
      build: {
        miniSearchMs: plainBuild.ms,
        miniSearchHeapMB: plainBuild.heapMB,
        postingsMs: postingsBuild.ms,
        postingsMB: postings.byteLength / 2 ** 20,
        postingsHeapMB: postingsBuild.heapMB,
      },
      plain: pick(plainT),
      exhaustive: pick(exhaustiveT),
      pruned: pick(prunedT),
      recombine: pick(recombineT),
      mismatches,
    };
    results.push(r);
    log(sizeLines(r).join('\n'));
  }
  log('');
  log(table(results));
  if (options.writeDoc) {
    const m = machine();
    writeDocSection(
      'lexical',
      [
        '## Exact top-k BM25 (`npm run bench:lexical`, also at the end of `npm run bench`)',
        '',
        `Measured ${new Date().toISOString().slice(0, 10)} on ${m.cpus} cores (${m.cpuModel}), node ${m.node}, load average at the end ${loadavg()} (other processes were running: compare the columns of one row, measured in the same run, rather than rows of different runs).`,
        `Synthetic documents (bench/lib/corpus.mjs), ${queryCount.toLocaleString('en')} distinct queries of 2-4 words, fields title (boost 2) and body (1), default analyzer and BM25, top ${DEPTH}. ` +
          "Pruned = `LexicalIndex.topK` (MaxScore over the compact postings; what `search` runs when the query's field scores are not cached). " +
          "MiniSearch = plain `search` with the same boosts, top 100 kept. Exhaustive = Ranklab's old first pass (MiniSearch per field, then `recombine`). " +
          'Recombine = the same queries with the title boost changed to 3, from the cached field scores. Every pruned answer is compared with the exhaustive one (mismatches column).',
        '',
        table(results),
      ].join('\n'),
    );
    log('wrote the bench:lexical section of docs/benchmarks.md');
  }
  return results;
}

const pick = (t: Timing): Timing => ({ p50: t.p50, p99: t.p99, qps: t.qps, n: t.n });
const ms = (x: number) => (x < 1 ? x.toFixed(2) : x < 10 ? x.toFixed(1) : x.toFixed(0));
const q = (t: Timing) => `${t.qps.toFixed(0)} q/s (p50 ${ms(t.p50)} / p99 ${ms(t.p99)} ms)`;

function sizeLines(r: SizeResult): string[] {
  return [
    `  build: MiniSearch ${(r.build.miniSearchMs / 1000).toFixed(1)} s (${r.build.miniSearchHeapMB.toFixed(0)} MB heap); postings ${(r.build.postingsMs / 1000).toFixed(2)} s, ${r.postings.toLocaleString('en')} postings, ${r.build.postingsMB.toFixed(1)} MB typed arrays (${r.build.postingsHeapMB.toFixed(0)} MB heap)`,
    `  MiniSearch search   ${q(r.plain)}`,
    `  exhaustive (old)    ${q(r.exhaustive)}`,
    `  pruned top-${DEPTH}      ${q(r.pruned)}  = ${(r.pruned.qps / r.plain.qps).toFixed(1)}x MiniSearch, ${(r.pruned.qps / r.exhaustive.qps).toFixed(1)}x exhaustive`,
    `  recombine (cached)  ${q(r.recombine)}`,
    `  pruned = exhaustive on ${r.queries - r.mismatches}/${r.queries} queries`,
  ];
}

function table(results: SizeResult[]): string {
  const head =
    '| docs | MiniSearch q/s (p50 / p99 ms) | exhaustive q/s | **pruned q/s** (p50 / p99 ms) | pruned ÷ MiniSearch | recombine (cached) q/s | MiniSearch build | postings build, size | mismatches |';
  const rows = results.map(
    (r) =>
      `| ${r.docs.toLocaleString('en')} | ${r.plain.qps.toFixed(0)} (${ms(r.plain.p50)} / ${ms(r.plain.p99)}) | ${r.exhaustive.qps.toFixed(0)} | **${r.pruned.qps.toFixed(0)}** (${ms(r.pruned.p50)} / ${ms(r.pruned.p99)}) | ${(r.pruned.qps / r.plain.qps).toFixed(1)}× | ${r.recombine.qps.toFixed(0)} | ${(r.build.miniSearchMs / 1000).toFixed(1)} s, ${r.build.miniSearchHeapMB.toFixed(0)} MB | ${(r.build.postingsMs / 1000).toFixed(2)} s, ${r.build.postingsMB.toFixed(0)} MB (${r.postings.toLocaleString('en')} postings) | ${r.mismatches} |`,
  );
  return [head, '|---|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const sizes = opt('sizes')?.split(',');
  const queryCount = opt('queries') ? Number(opt('queries')) : undefined;
  await runLexicalBench({ sizes, queryCount, writeDoc: sizes === undefined && queryCount === undefined });
}
