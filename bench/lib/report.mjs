// Renders benchmark results as Markdown tables (docs/benchmarks.md and the summary in docs/performance.md).
const f = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const s = (ms) => `${f(ms / 1000, ms < 10000 ? 2 : 1)} s`;
const msf = (ms) => (ms >= 1000 ? s(ms) : `${f(ms, ms < 10 ? 2 : 1)} ms`);
const mb = (x) => `${f(x, 0)} MB`;
/** a / b; below 0.1 written as 1/N so a large gap does not print as 0.00×. */
const ratio = (a, b) => (a / b < 0.1 ? `1/${f(b / a, 0)}` : `${f(a / b, 2)}×`);

export function sizeSection(r) {
  const lines = [];
  lines.push(`### ${r.label}: ${r.docs.toLocaleString('en')} documents`, '');
  lines.push(r.description + '.', '');
  lines.push(
    `Vectors: ${r.vectorsNote}. Queries per mode: ${r.queries.toLocaleString('en')} (lexical, HNSW); ${r.slowQueries.toLocaleString('en')} (exact, brute force, hybrid, recall). ` +
      `Load average (1/5/15 min) at start ${r.loadStart}, at end ${r.loadEnd}.`,
    '',
  );
  lines.push('| what | Ranklab | plain | Ranklab / plain |', '|---|---|---|---|');
  const L = r.lexical;
  const P = r.plainMiniSearch;
  lines.push(`| lexical index build | ${s(L.buildMs)} | MiniSearch ${s(P.buildMs)} | ${ratio(L.buildMs, P.buildMs)} |`);
  lines.push(`| lexical build memory (RSS / heap, retained) | ${mb(L.rssMB)} / ${mb(L.heapMB)} | ${mb(P.rssMB)} / ${mb(P.heapMB)} | |`);
  lines.push(`| lexical cold start (build + cache write, ${f(L.cacheBytes / 2 ** 20)} MB JSON) | ${s(L.coldStartMs)} | | |`);
  const W = r.lexicalWarm;
  lines.push(
    `| lexical warm start from cache (read ${msf(W.readMs)} + parse ${msf(W.parseMs)} + loadJS ${msf(W.loadJsMs)}) | ${s(W.ms)} (${W.source}) | rebuild ${s(L.buildMs)} | ${ratio(W.ms, L.buildMs)} of a rebuild |`,
  );
  lines.push(
    `| lexical query p50 / p99 | ${msf(L.p50)} / ${msf(L.p99)} | ${msf(P.p50)} / ${msf(P.p99)} | ${ratio(L.p50, P.p50)} / ${ratio(L.p99, P.p99)} |`,
  );
  lines.push(`| lexical eval throughput | ${f(L.qps)} q/s | ${f(P.qps)} q/s | ${ratio(L.qps, P.qps)} |`);
  const R = r.recombination;
  lines.push(
    `| boost change, ${R.queries.toLocaleString('en')} queries re-evaluated | recombination ${msf(R.recombinationMs)} | MiniSearch re-search ${s(R.plainReSearchMs)} | ${ratio(R.recombinationMs, R.plainReSearchMs)} (${f(R.plainReSearchMs / R.recombinationMs, 0)}× faster) |`,
  );
  const E = r.vectorExact;
  const B = r.plainBruteForce;
  lines.push(`| vector (exact) start: vectors ${s(E.embedMs)} + matrix | ${s(E.startMs)} | brute-force matrix ${s(B.buildMs)} | |`);
  lines.push(
    `| vector (exact) query p50 / p99 | ${msf(E.p50)} / ${msf(E.p99)} | ${msf(B.p50)} / ${msf(B.p99)} | ${ratio(E.p50, B.p50)} / ${ratio(E.p99, B.p99)} |`,
  );
  lines.push(`| vector (exact) eval throughput | ${f(E.qps)} q/s | ${f(B.qps)} q/s | ${ratio(E.qps, B.qps)} |`);
  const H = r.vectorHnsw;
  lines.push(`| HNSW build (M ${H.params.M}, efConstruction ${H.params.efConstruction}) incl. cache write | ${s(H.indexMs)} | | |`);
  lines.push(
    `| HNSW engine memory (RSS / heap, retained; includes its exact matrix) | ${mb(H.rssMB)} / ${mb(H.heapMB)} | brute force ${mb(B.rssMB)} / ${mb(B.heapMB)} | |`,
  );
  const HW = r.vectorHnswWarm;
  lines.push(
    `| HNSW warm start from cache (${f(H.cacheBytes / 2 ** 20)} MB) | ${s(HW.ms)} (${HW.source}; index load ${s(HW.indexMs)}) | cold ${s(H.startMs)} | ${ratio(HW.ms, H.startMs)} of a cold start |`,
  );
  lines.push(
    `| vector (HNSW, efSearch ${H.params.efSearch}) query p50 / p99 | ${msf(H.p50)} / ${msf(H.p99)} | brute force ${msf(B.p50)} / ${msf(B.p99)} | ${ratio(H.p50, B.p50)} / ${ratio(H.p99, B.p99)} |`,
  );
  lines.push(`| vector (HNSW) eval throughput | ${f(H.qps)} q/s | brute force ${f(B.qps)} q/s | ${ratio(H.qps, B.qps)} |`);
  lines.push(
    `| HNSW graph search alone (HnswIndex.search, vectors precomputed) p50 | ${msf(H.raw.p50)} | | engine adds ${msf(H.p50 - H.raw.p50)} |`,
  );
  lines.push(`| HNSW recall@10 vs exact | ${f(H.recallAt10, 4)} | | |`);
  const Y = r.hybrid;
  lines.push(`| hybrid (RRF) start from caches | ${s(Y.startMs)} | | |`);
  lines.push(
    `| hybrid query p50 / p99 | ${msf(Y.p50)} / ${msf(Y.p99)} | plain MiniSearch p50 + HNSW graph search p50 = ${msf(P.p50 + H.raw.p50)} | ${ratio(Y.p50, P.p50 + H.raw.p50)} |`,
  );
  lines.push(`| hybrid eval throughput | ${f(Y.qps)} q/s | | |`);
  lines.push('| rerank | skipped: no real reranking model on this machine | | |', '');
  return lines.join('\n');
}

export function summaryTable(results) {
  const lines = [
    '| | ' + results.map((r) => `${r.label} (${r.docs.toLocaleString('en')} docs)`).join(' | ') + ' |',
    '|---|' + results.map(() => '---|').join(''),
  ];
  const row = (name, fn) => lines.push(`| ${name} | ${results.map(fn).join(' | ')} |`);
  row('lexical build (Ranklab / MiniSearch)', (r) => `${s(r.lexical.buildMs)} / ${s(r.plainMiniSearch.buildMs)}`);
  row('lexical warm start from cache', (r) => `${s(r.lexicalWarm.ms)} (${ratio(r.lexicalWarm.ms, r.lexical.buildMs)} of a rebuild)`);
  row(
    'lexical p50 / p99 (Ranklab vs MiniSearch)',
    (r) => `${msf(r.lexical.p50)} / ${msf(r.lexical.p99)} vs ${msf(r.plainMiniSearch.p50)} / ${msf(r.plainMiniSearch.p99)}`,
  );
  row(
    'lexical q/s (Ranklab / MiniSearch)',
    (r) => `${f(r.lexical.qps)} / ${f(r.plainMiniSearch.qps)} (${ratio(r.lexical.qps, r.plainMiniSearch.qps)})`,
  );
  row(
    'boost change re-evaluated (queries)',
    (r) =>
      `${r.recombination.queries.toLocaleString('en')}: ` +
      `${msf(r.recombination.recombinationMs)} vs ${s(r.recombination.plainReSearchMs)} re-search`,
  );
  row('HNSW build / warm start', (r) => `${s(r.vectorHnsw.indexMs)} / ${s(r.vectorHnswWarm.ms)}`);
  row(
    'vector exact p50 (Ranklab / brute force)',
    (r) => `${msf(r.vectorExact.p50)} / ${msf(r.plainBruteForce.p50)} (${ratio(r.vectorExact.p50, r.plainBruteForce.p50)})`,
  );
  row('vector HNSW p50 / p99, recall@10', (r) => `${msf(r.vectorHnsw.p50)} / ${msf(r.vectorHnsw.p99)}, ${f(r.vectorHnsw.recallAt10, 3)}`);
  row('hybrid p50 / p99', (r) => `${msf(r.hybrid.p50)} / ${msf(r.hybrid.p99)}`);
  row('q/s: lexical / HNSW / exact / hybrid', (r) =>
    [r.lexical.qps, r.vectorHnsw.qps, r.vectorExact.qps, r.hybrid.qps].map((x) => f(x, 0)).join(' / '),
  );
  return lines.join('\n');
}

export function benchmarksDoc(results, machine, notes) {
  return [
    '# Benchmarks',
    '',
    'Produced by `npm run bench` (`bench/run.mjs`; `--size 10k|100k|all`, `--queries N`, `--slow-queries N`). This file is',
    'rewritten by every run that measures both sizes; the figures below are from the run described under "Machine".',
    '',
    '## Machine',
    '',
    `${machine.cpus} cores (${machine.cpuModel}), ${f(machine.totalMemGB, 0)} GB RAM, Node ${machine.node}, ${machine.platform}; ` +
      `GC exposed for memory figures: ${machine.gcExposed ? 'yes' : 'no'}. The machine is shared with other work: absolute times are noisy ` +
      '(the load averages are printed with each size), ratios measured in the same run are the figures to trust.' +
      (machine.runSeconds ? ` The whole run took ${f(machine.runSeconds, 0)} s.` : ''),
    '',
    '## How it is measured',
    '',
    ...notes.map((n) => `- ${n}`),
    '',
    '## Summary',
    '',
    summaryTable(results),
    '',
    '## Per size',
    '',
    ...results.map(sizeSection),
  ].join('\n');
}
