// npm run bench:run-store [-- --runs N --queries N --depth N --rounds N --warm N]   (also the first part of `npm run bench`)
// The run store at dashboard scale: 20 saved runs x 1,000 queries at depth 100 (synthetic, fixed generator: half
// lexical-only, half hybrid as a real pipeline records them: a lexical and a vector output of 100 ids each, fused by
// RRF, per-stage ranks and scores of every final document, both outputs as stage ids; titles of the top 10). Prints,
// in the same run: the size of a run file in each format (ranklab-run@1, @2, @3, @4) by run kind, the time to read one
// comparison's two runs in each, the time to open the store (@1 read the way the editor read it before the run index:
// every file parsed in full; @4 with the run index), the comparison computed alone, and Open Dashboard as the editor
// does it (dashboardOpen below: the page, the verdict, the comparison in full, each with its model) for a pair never
// compared (runs evaluated when saved), after the judgments changed, and warm (the comparison cache). Medians of 4
// rounds by default (one per format, each round reading the formats from another one).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { RunIndex } from '../src/core/experiment/run-index';
import { checkSavedRun, comparisonSideOf, loadSavedRun, runOfSaved, saveRun } from '../src/core/experiment/run-store';
import { compareRunsSliced } from '../src/core/experiment/compare';
import { checkGates } from '../src/core/experiment/gates';
import { verdictOf } from '../src/core/experiment/verdict';
import { loadJudgments } from '../src/core/judgments';
import { DEFAULT_METRIC_OPTIONS, evaluateRun, parseMetricList } from '../src/core/metrics';
import { metricOptionsOf } from '../src/core/workspace/settings';
import { encodeRunV2 } from '../src/core/run/run-format-v2';
import { encodeRunV3 } from '../src/core/run/run-format-v3';
import { isRunFile, runFilePath, runIdOfFile } from '../src/core/run/run-files';
import type { RankedDoc, SavedQueryResult, SavedRun } from '../src/core/run/types';
import { Work } from '../src/core/util/cooperative';
import { COMPARISON_CACHE_DIR, runFileStamp } from '../src/core/experiment/comparison-cache';
import { runEvaluationOf, writeRunEvaluation } from '../src/core/experiment/evaluation-cache';
import { SavedRuns } from '../src/extension/run-store';
import { buildDashboardModel } from '../src/extension/dashboard/model';
import { dashboardComparison } from '../src/extension/dashboard/comparison';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const RUNS = opt('runs', 20);
const QUERIES = opt('queries', 1000);
const DEPTH = opt('depth', 100);
const ROUNDS = opt('rounds', 4); // at least one per format: see the read times
// Warm opens repeated after the rounds (0: none): a steadier figure of the one path the comparison cache serves.
const WARM = opt('warm', 0);
const CORPUS = 100_000;
const SPECS = ['ndcg@10', 'mrr@10', 'p@5', 'recall@100'];

let seed = 42; // mulberry32: the same runs every time (a period far beyond what is drawn, unlike a float LCG)
const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const randomId = () => `doc-${Math.floor(rnd() * CORPUS)}`;

/** `n` distinct random ids with descending scores from `top`, as one retriever's output. */
function output(n: number, top: number, step: number): { ids: string[]; scores: number[] } {
  const ids = new Set<string>();
  while (ids.size < n) ids.add(randomId());
  let score = top;
  return { ids: [...ids], scores: [...ids].map(() => (score -= rnd() * step)) };
}

function hybridQuery(): Pick<SavedQueryResult, 'docs' | 'stageIds'> {
  const lexical = output(DEPTH, 20 + rnd() * 10, 0.3);
  // The vector output shares about half of its ids with the lexical one, in another order.
  const shared = new Set(lexical.ids.filter(() => rnd() < 0.5));
  while (shared.size < DEPTH) shared.add(randomId());
  const vids = [...shared];
  for (let i = vids.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [vids[i], vids[j]] = [vids[j], vids[i]];
  }
  const vector = { ids: vids, scores: output(DEPTH, 0.9, 0.004).scores };
  const fused = new Map<string, number>();
  for (const o of [lexical, vector]) o.ids.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + 1 / (61 + i)));
  // Ties in retrieval's order (src/core/retrieval/ranking.ts compareScored: id descending).
  const ranked = [...fused].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0)).slice(0, DEPTH);
  const stage = (o: typeof lexical, id: string) => {
    const i = o.ids.indexOf(id);
    return i < 0 ? undefined : { rank: i + 1, score: o.scores[i] };
  };
  const docs = ranked.map(([id, score], i): RankedDoc => {
    const stages: RankedDoc['stages'] = { fuse: { rank: i + 1, score } };
    const l = stage(lexical, id);
    const v = stage(vector, id);
    if (l) stages.lexical = l;
    if (v) stages.vector = v;
    return { id, score, stages };
  });
  return { docs, stageIds: { lexical: lexical.ids, vector: vector.ids } };
}

function lexicalQuery(): Pick<SavedQueryResult, 'docs'> {
  const o = output(DEPTH, 20 + rnd() * 10, 0.3);
  return { docs: o.ids.map((id, i) => ({ id, score: o.scores[i], stages: { lexical: { rank: i + 1, score: o.scores[i] } } })) };
}

function makeRun(r: number): SavedRun {
  const hybrid = r % 2 === 1;
  const config = ['baseline', 'hybrid-rrf', 'title-boost', 'hybrid-rerank'][r % 4];
  const titles: Record<string, string> = {};
  const queries = Array.from({ length: QUERIES }, (_, q): SavedQueryResult => {
    const ranked = hybrid ? hybridQuery() : lexicalQuery();
    for (const d of ranked.docs.slice(0, 10)) titles[d.id] = `A document title of about forty characters ${d.id}`;
    return {
      qid: `q${q}`,
      text: `synthetic query number ${q}`,
      ...ranked,
      total: 1000 + q,
      latencyMs: hybrid ? { lexical: rnd(), vector: rnd(), fused: rnd() * 0.01, total: rnd() * 2 } : { lexical: rnd(), total: rnd() },
      metrics: Object.fromEntries(SPECS.map((s) => [s, rnd()])),
    };
  });
  return {
    format: 'ranklab-run@4',
    provenance: {
      config,
      configHash: `sha256:${'a'.repeat(64)}`,
      corpus: `sha256:${'b'.repeat(64)}`,
      judgments: `sha256:${'c'.repeat(64)}`,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, r)).toISOString(),
      tool: 'ranklab bench',
      access: { principal: null, rule: { doc: 'public', is: true }, missingAcl: 'public' },
      models: {},
    },
    config: { name: config, ...(hybrid && { hybrid: { k: 60, depth: DEPTH, weights: { lexical: 1, vector: 1 } } }) },
    metricSpecs: SPECS,
    metrics: Object.fromEntries(SPECS.map((s) => [s, rnd()])),
    latency: { total: { p50: 1, p99: 2 } },
    queries,
    titles,
  };
}

/** Judgments for the comparison: per query 20 documents of the first run's list graded 0-3, and 5 it did not find. */
function writeQrels(dir: string, first: SavedRun): string {
  const lines: string[] = [];
  for (const q of first.queries) {
    for (const d of q.docs.filter(() => rnd() < 0.2)) lines.push(`${q.qid} 0 ${d.id} ${Math.floor(rnd() * 4)}`);
    for (let i = 0; i < 5; i++) lines.push(`${q.qid} 0 ${randomId()} ${1 + Math.floor(rnd() * 3)}`);
  }
  const path = join(dir, 'qrels.txt');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** What the editor did before the run index, on every open and every watcher event: read and parse every run file. */
function openBefore(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    if (!checkSavedRun(JSON.parse(readFileSync(join(dir, name), 'utf8')))) n++;
  }
  return n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function time(fn: () => unknown, cpu?: number[]): Promise<number> {
  const t = performance.now();
  const c = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(c);
  cpu?.push((used.user + used.system) / 1000); // this process's CPU time: less moved than wall time by other processes' load
  return performance.now() - t;
}

const MB = 2 ** 20;
const FORMATS = ['v1', 'v2', 'v3', 'v4'] as const;
const dirs = Object.fromEntries(FORMATS.map((f) => [f, mkdtempSync(join(tmpdir(), `rl-bench-runs-${f}-`))])) as Record<
  (typeof FORMATS)[number],
  string
>;
const work = mkdtempSync(join(tmpdir(), 'rl-bench-qrels-'));
void main().finally(() => {
  for (const d of [...Object.values(dirs), work]) rmSync(d, { recursive: true, force: true });
});

async function main(): Promise<void> {
  console.log(
    `run store: ${RUNS} runs x ${QUERIES} queries at depth ${DEPTH} (synthetic); ${cpus().length} cores, Node ${process.version}, load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
  );
  const ids: string[] = [];
  let first: SavedRun | undefined;
  for (let r = 0; r < RUNS; r++) {
    const run = makeRun(r);
    first ??= run;
    const name = `${run.provenance.config}-${r}.json`;
    writeFileSync(join(dirs.v1, name), JSON.stringify({ ...run, format: 'ranklab-run@1' }, null, 1) + '\n'); // as @1 was written
    writeFileSync(join(dirs.v2, name), JSON.stringify(encodeRunV2(run)) + '\n'); // as @2 was written
    writeFileSync(join(dirs.v3, name), gzipSync(JSON.stringify(encodeRunV3(run)) + '\n')); // as @3 was written
    const path = saveRun(dirs.v4, run, 0);
    ids.push(runIdOfFile(path.slice(dirs.v4.length + 1))!);
  }
  // The runs the read times are taken on read back from @4 exactly as from @2 (ids, order, ties, stages, every score).
  for (const [i, v2] of [
    [0, 'baseline-0'],
    [1, 'hybrid-rrf-1'],
  ] as const) {
    const [a, b] = [loadSavedRun(join(dirs.v4, `${ids[i]}.json.gz`)), loadSavedRun(join(dirs.v2, `${v2}.json`))];
    if (!isDeepStrictEqual({ ...a, format: '' }, { ...b, format: '' }))
      throw new Error(`${v2}: the @4 file does not read back as the @2 one`);
  }
  const judgments = loadJudgments(writeQrels(work, first!));
  const sizes = (dir: string, hybrid?: boolean) =>
    readdirSync(dir)
      .filter((f) => isRunFile(f) && (hybrid === undefined || f.startsWith('hybrid') === hybrid))
      .map((f) => statSync(join(dir, f)).size);
  const perThousand = (bytes: number[]) => (bytes.reduce((a, b) => a + b, 0) / bytes.length / MB / (QUERIES / 1000)).toFixed(2);

  // A lexical-only run (ids[0]) against a hybrid one (ids[1]), as the dashboard opens on them.
  const specs = parseMetricList(SPECS);
  const gates = { maxRegression: { 'ndcg@10': 0.01 }, min: { 'recall@100': 0.1 } };
  // What the editor does on Open Dashboard, as the controller and the panel call it: (1) the page from the run index
  // (SavedRuns.list + buildDashboardModel while comparing: no run file read), (2) the verdict from the statistics of
  // both runs' cached per-query values (written when a run is saved, session/evaluate.ts; here as it does), (3) the
  // comparison in full (both run files read: moved documents, classes, bounds), each with the model built from it.
  // "new pair": never compared, runs evaluated when saved; "judgments changed": no per-query values for these
  // judgments either, so both runs are read and evaluated for the verdict; "warm": the pair's comparison from the cache;
  // "before" the open as it was until this change, measured in the same run: the page's model read every run's
  // details (its run labels and per-query rows came from the run files), then the comparison in full.
  const settings = { metrics: SPECS, ...DEFAULT_METRIC_OPTIONS, gates };
  const options = metricOptionsOf(settings);
  const compared = [ids[0], ids[1]].map((id) => {
    const saved = loadSavedRun(runFilePath(dirs.v4, id));
    return { id, evaluation: runEvaluationOf(evaluateRun(runOfSaved(saved).run, judgments, specs, options).perQuery, saved) };
  });
  const OPENS = ['before', 'new pair', 'judgments changed', 'warm'] as const;
  type Open = (typeof OPENS)[number];
  async function dashboardOpen(kind: Open): Promise<{ paint: number; verdict: number; full: number; filesAtVerdict: number }> {
    if (kind !== 'warm') rmSync(join(dirs.v4, COMPARISON_CACHE_DIR), { recursive: true, force: true });
    if (kind === 'new pair')
      for (const { id, evaluation } of compared)
        writeRunEvaluation(
          dirs.v4,
          { run: runFileStamp(id, runFilePath(dirs.v4, id)), judgments: judgments.fingerprint, options },
          evaluation,
        );
    const t0 = performance.now();
    const store = new SavedRuns(dirs.v4, dirs.v4);
    const runs = store.list().runs;
    const model = (extra: Partial<Parameters<typeof buildDashboardModel>[0]>) =>
      buildDashboardModel({
        workspaceName: 'bench',
        runsFolder: dirs.v4,
        runs,
        problems: [],
        metricOptions: options,
        baselineRunId: ids[0],
        candidateRunId: ids[1],
        ...extra,
      });
    if (kind === 'before') for (const r of runs) void r.run;
    model({ comparing: kind !== 'before' });
    const paint = performance.now() - t0;
    if (kind !== 'before' && store.filesRead !== 0) throw new Error(`the first paint read ${store.filesRead} run files`);
    const [b, c] = [runs.find((r) => r.id === ids[0])!, runs.find((r) => r.id === ids[1])!];
    let verdict: number | undefined;
    let filesAtVerdict = 0;
    const r = await dashboardComparison(b, c, judgments, settings, {
      ...(kind !== 'before' && {
        cacheDir: dirs.v4,
        onStatistics: (first) => {
          model({ comparison: first.view, core: first.core, sides: first.sides });
          verdict = performance.now() - t0;
          filesAtVerdict = store.filesRead;
        },
      }),
    });
    model({ comparison: r.view, core: r.core, sides: r.sides });
    const full = performance.now() - t0;
    if ((r.cached ?? false) !== (kind === 'warm') || (verdict === undefined) !== (kind === 'warm' || kind === 'before'))
      throw new Error(`not a ${kind} open`);
    return { paint, verdict: verdict ?? full, full, filesAtVerdict: verdict === undefined ? store.filesRead : filesAtVerdict };
  }
  const t = {
    beforeOpen: [] as number[],
    first: [] as number[],
    open: [] as number[],
    load: { v1: [] as number[], v2: [] as number[], v3: [] as number[], v4: [] as number[] },
    compare: [] as number[],
    compareCpu: [] as number[],
  };
  const opens = Object.fromEntries(
    OPENS.map((k) => [k, { paint: [] as number[], verdict: [] as number[], full: [] as number[], files: 0 }]),
  ) as Record<Open, { paint: number[]; verdict: number[]; full: number[]; files: number }>;
  for (let round = 0; round < ROUNDS; round++) {
    if (round === 0) t.beforeOpen.push(await time(() => openBefore(dirs.v1))); // minutes under load: one round
    rmSync(join(dirs.v4, '.index'), { force: true });
    t.first.push(await time(() => new RunIndex(dirs.v4).open())); // no index yet: built from every file once
    const idx = new RunIndex(dirs.v4);
    t.open.push(await time(() => idx.open()));
    // Each round starts with another format, so that none always pays for the garbage of the one before.
    for (let i = 0; i < FORMATS.length; i++) {
      const f = FORMATS[(i + round) % FORMATS.length];
      const index = f === 'v4' ? idx : new RunIndex(dirs[f]);
      index.open();
      const [b, c] = f === 'v4' ? [ids[0], ids[1]] : ['baseline-0', 'hybrid-rrf-1'];
      t.load[f].push(await time(() => [index.load(b), index.load(c)]));
    }
    const [b, c] = [comparisonSideOf(idx.load(ids[0])), comparisonSideOf(idx.load(ids[1]))];
    t.compare.push(
      await time(async () => {
        const cmp = await compareRunsSliced(b, c, judgments, specs, DEFAULT_METRIC_OPTIONS, new Work({}).phase('statistics', 0));
        verdictOf(cmp, checkGates(gates, cmp), { alpha: 0.05 });
      }, t.compareCpu),
    );
    for (const kind of OPENS) {
      const o = await dashboardOpen(kind);
      opens[kind].paint.push(o.paint);
      opens[kind].verdict.push(o.verdict);
      opens[kind].full.push(o.full);
      opens[kind].files = o.filesAtVerdict;
    }
  }
  for (let i = 0; i < WARM; i++) opens.warm.full.push((await dashboardOpen('warm')).full);
  const ms = (xs: number[], digits = 0) => `${median(xs).toFixed(digits)} ms`;
  const row = (label: string, ...cells: string[]) => console.log(`  ${label.padEnd(52)} ${cells.map((c) => c.padStart(11)).join(' ')}`);
  row('', '@1', '@2', '@3', '@4');
  row('run file, MB per 1,000 queries at depth 100', ...FORMATS.map((f) => perThousand(sizes(dirs[f]))));
  row('  lexical-only runs', ...FORMATS.map((f) => perThousand(sizes(dirs[f], false))));
  row('  hybrid runs (3 stages, 2 stage outputs)', ...FORMATS.map((f) => perThousand(sizes(dirs[f], true))));
  row("read one comparison's two runs (details)", ...FORMATS.map((f) => ms(t.load[f])));
  row('open the store: every file parsed (before the index)', ms(t.beforeOpen), '', '', '');
  row('open the store: run index (pickers, status bar)', '', '', '', ms(t.open, 1));
  row('  first open, no index yet (built from the files)', '', '', '', ms(t.first));
  row('compute the comparison (compare + gates + verdict)', '', '', '', ms(t.compare));
  row('  its CPU time (this process)', '', '', '', ms(t.compareCpu));
  console.log(
    `  Open Dashboard on a pair of ${RUNS} runs (from the command: page / verdict on screen / comparison in full; run files read by the verdict)`,
  );
  for (const [kind, o] of Object.entries(opens)) {
    console.log(
      `    ${kind.padEnd(18)} page ${ms(o.paint, 1).padStart(9)}   verdict ${ms(o.verdict).padStart(8)}   in full ${ms(o.full).padStart(8)}   ${o.files} run files read for the verdict`,
    );
  }
  // A pair's entry is named by both runs (three parts), a run's per-query values by the run alone (two).
  const entry = (parts: number) =>
    readdirSync(join(dirs.v4, COMPARISON_CACHE_DIR))
      .filter((f) => f.split('-').length === parts)
      .map((f) => statSync(join(dirs.v4, COMPARISON_CACHE_DIR, f)).size);
  console.log(
    `  comparison cache: a pair's entry ${(entry(3)[0] / 1024).toFixed(1)} KB, a run's per-query values ${(entry(2)[0] / 1024).toFixed(1)} KB (gzipped)`,
  );
  console.log(
    `  index file ${(statSync(join(dirs.v4, '.index')).size / 1024).toFixed(1)} KB; medians of ${ROUNDS} rounds (the @1 open: one${WARM ? `; warm in full: ${ROUNDS + WARM} opens` : ''}); load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
  );
}
