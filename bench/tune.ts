// Tune view speed (issue 31): a slider move → its figures, beside the old loop (a saved config edit → its CodeLens).
// A generated workspace (test/helpers/synthetic-workspace, as bench/sweep.ts: short documents from a Zipf-like
// vocabulary, 1,000 judged queries, a quarter in the holdout split, five topic tags) and a lexical config, served by
// the real Ranklab worker thread (src/extension/worker/main.ts, under tsx) through the RPC the extension uses, so each
// figure includes the thread crossing. Measured in the same run, per size:
// - warm-up: the config's first CodeLens evaluation (`evaluateAgainstBaseline`: index built, both runs saved);
// - prepare: `tunePrepare` (the Tuner: baseline values, every judged query's BM25 candidates read once), after the
//   edits below: the CodeLens's Tuner, which answered them, reaches the file's last edit and is taken (no preparation;
//   the line says so), else one is prepared;
// - (a) quick: `tuneQuick` of a move, the view's first stage (means, per-query Δ, W/L/T, tune vs holdout, overfitting,
//   the gates: Tuner.quickWithGates);
// - (b) quick + evaluate: then `tuneEvaluate` of the same settings (compare's CI, p, verdict): the full answer;
// - (c) a saved edit → its CodeLens, before the Tune view is ever opened: the move written to the config file, then
//   what the editor does on save: the host parses the file (parseRankConfig) and the worker's
//   `evaluateAgainstBaseline` evaluates it and the baseline (saved runs reused), compares and checks the gates; index
//   warm. Old path: the config's CodeLens Tuner dropped before each edit (the `closed` notification), so the full
//   evaluation answers: its end (old), and its figures sent once the search is scored, before the run is saved and
//   compared in full (once searched). New path (issue 31): the Tuner the worker prepared when idle after the first evaluation
//   (its time reported) answers first, as the request's progress (early), then the full evaluation ends (full); the
//   other --old-moves edits, so that no saved run is reused.
// - heap (--heap, with node --expose-gc): the prepared Tuner's heap, measured in this thread (a second prepareTune after
//   a first warmed the session; heap after GC); --heap-only measures only that.
// Moves: random, one setting at a time (a field boost, k1, b, d or the depth) to a point of the slider's grid.
// Run: node --import tsx bench/tune.ts [--docs 50000] [--moves 200] [--old-moves 20] [--heap] (npm run bench:tune);
// 10,000 documents always, and each size given with --docs (comma-separated) after it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseRankConfig } from '../src/core/config';
import { percentile } from '../src/core/experiment/stats';
import { RanklabSession } from '../src/core/session/session';
import { type TuneSettings, prepareTune, tuneSliders } from '../src/core/tuning/tuner';
import { Mulberry32 } from '../src/core/util/random';
import type { RanklabMethods, RanklabNotification } from '../src/extension/worker/protocol';
import { RpcClient } from '../src/extension/worker/rpc';
import { BM25_CONFIG, writeSyntheticWorkspace } from '../test/helpers/synthetic-workspace';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const extra = arg('docs', '')
  .split(',')
  .filter(Boolean)
  .map((s) => Number(s.replace(/_/g, '')));
for (const n of extra) if (!Number.isInteger(n) || n < 100) throw new Error(`--docs: "${n}" is not a whole number of documents ≥ 100`);
const SIZES = [...new Set([10_000, ...extra])];
const QUERIES = 1000;
const MOVES = Number(arg('moves', '200'));
const OLD_MOVES = Number(arg('old-moves', '20'));
const HEAP_ONLY = process.argv.includes('--heap-only');
const HEAP = HEAP_ONLY || process.argv.includes('--heap');
const WORKER = join(__dirname, '../test/unit/extension/fixtures/ranklab-worker.cjs');

const ms = (x: number) => `${x.toFixed(1)} ms`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' / ');
const row = (label: string, xs: number[], note = '') =>
  console.log(
    `${label.padEnd(44)} p50 ${ms(percentile(xs, 50)).padStart(10)}  p95 ${ms(percentile(xs, 95)).padStart(10)}  (n = ${xs.length})${note}`,
  );

/** `count` random moves, one slider at a time, each to a point of its grid (the depth kept ≤ 200, a boost not all 0). */
function randomMoves(
  sliders: RanklabMethods['tunePrepare']['result']['sliders'],
  count: number,
): Array<{ path: string; settings: TuneSettings }> {
  const rng = new Mulberry32(31);
  const uniform = () => rng.nextUint32() / 2 ** 32;
  const settings: TuneSettings = {};
  const moves: Array<{ path: string; settings: TuneSettings }> = [];
  for (let i = 0; i < count; i++) {
    const s = sliders[Math.floor(uniform() * sliders.length)];
    const max = s.path === 'lexical.depth' ? 200 : s.max;
    const steps = Math.round((max - s.min) / s.step);
    settings[s.path] = Number((s.min + Math.round(uniform() * steps) * s.step).toPrecision(12));
    const boosts = Object.entries(settings).filter(([p]) => p.startsWith('lexical.fields.'));
    if (s.path.startsWith('lexical.fields.') && boosts.every(([, v]) => v === 0)) settings[s.path] = 1;
    moves.push({ path: s.path, settings: { ...settings } });
  }
  return moves;
}

/** The config file as a saved edit of `settings` would leave it. */
function configText(settings: TuneSettings): string {
  const raw = structuredClone(BM25_CONFIG) as { lexical: Record<string, any> };
  for (const [path, value] of Object.entries(settings)) {
    const [, group, name] = path.split('.');
    if (group === 'fields' || group === 'bm25') (raw.lexical[group] ??= {})[name] = value;
    else raw.lexical.depth = value;
  }
  return JSON.stringify(raw, null, 2);
}

async function measure(docs: number): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'ranklab-bench-tune-'));
  const client = new RpcClient<RanklabMethods, RanklabNotification>({ entry: WORKER });
  try {
    const dir = join(root, 'ws');
    mkdirSync(dir);
    const file = join(dir, 'configs', 'candidate.rank.json');
    writeSyntheticWorkspace(dir, { docs, queries: QUERIES, layout: 'jsonl', configs: { baseline: BM25_CONFIG, candidate: BM25_CONFIG } });
    const folder = { root: dir, trusted: true };
    console.log(`\n== ${docs.toLocaleString('en')} documents × ${QUERIES.toLocaleString('en')} queries; load average before ${load()}`);

    const codeLens = async () => {
      const parsed = parseRankConfig(file);
      if (!parsed.config) throw new Error(`bench: ${file} does not parse: ${parsed.diagnostics.map((d) => d.message).join('; ')}`);
      return client.request('evaluateAgainstBaseline', { ...folder, file, config: parsed.config });
    };
    if (HEAP_ONLY) return void (await heap(dir, file));
    let t = performance.now();
    await codeLens();
    const warm = performance.now() - t;

    // (c) before the Tune view is opened. The moves: the sliders the view would show, moved at random.
    const moves = randomMoves(tuneSliders(parseRankConfig(file).config!).sliders, Math.max(MOVES, 2 * OLD_MOVES));
    const lensKept = async () => (await client.request('status', {})).lensTuners.includes(file);
    // The worker prepares the CodeLens Tuner IDLE_MS after the evaluation: waited for, not measured as an edit.
    t = performance.now();
    while (!(await lensKept())) await sleep(10);
    const lensPrepare = performance.now() - t;
    const { lensCandidates } = await client.request('status', {});
    const forget = () => client.notify({ type: 'closed', root: dir, file });
    forget();
    while (await lensKept()) await sleep(10);
    const old: number[] = [];
    const searched: number[] = [];
    for (const move of moves.slice(0, OLD_MOVES)) {
      writeFileSync(file, configText(move.settings));
      const t0 = performance.now();
      client.notify({ type: 'changed', root: dir, kinds: ['config'] });
      let first: number | undefined;
      const r = await client.request(
        'evaluateAgainstBaseline',
        { ...folder, file, config: parseRankConfig(file).config! },
        { onProgress: (p) => p.type === 'early' && (first ??= performance.now() - t0) },
      );
      old.push(performance.now() - t0);
      if (r.result.early?.source !== 'search' || first === undefined)
        throw new Error('bench: the full path was not answered once searched');
      searched.push(first);
      forget(); // no Tuner prepared meanwhile: the next edit takes the full path too
    }
    // New path: the Tuner of the config as the old edits left it, prepared when idle.
    writeFileSync(file, configText(moves[OLD_MOVES - 1]?.settings ?? {}));
    await codeLens();
    while (!(await lensKept())) await sleep(10);
    const early: number[] = [];
    const full: number[] = [];
    let mismatched = 0;
    for (const move of moves.slice(OLD_MOVES, 2 * OLD_MOVES)) {
      writeFileSync(file, configText(move.settings));
      const t0 = performance.now();
      client.notify({ type: 'changed', root: dir, kinds: ['config'] });
      let first: number | undefined;
      const parsed = parseRankConfig(file);
      const r = await client.request(
        'evaluateAgainstBaseline',
        { ...folder, file, config: parsed.config! },
        { onProgress: (p) => p.type === 'early' && (first ??= performance.now() - t0) },
      );
      full.push(performance.now() - t0);
      if (first === undefined) throw new Error(`bench: edit ${move.path} was not answered early`);
      early.push(first);
      if (!r.result.early?.matched) mismatched++;
    }

    const preparedBefore = (await client.request('status', {})).tunerPreparations;
    t = performance.now();
    const { sliders } = await client.request('tunePrepare', { ...folder, file });
    const prepare = performance.now() - t;
    // The file holds the last edit, which the CodeLens Tuner recombines: the view takes it (LensTuners.forView).
    const reused = (await client.request('status', {})).tunerPreparations === preparedBefore;
    const quick: number[] = [];
    const full2: number[] = [];
    for (const move of randomMoves(sliders, MOVES)) {
      const t0 = performance.now();
      await client.request('tuneQuick', { ...folder, file, settings: move.settings });
      quick.push(performance.now() - t0);
      await client.request('tuneEvaluate', { ...folder, file, settings: move.settings });
      full2.push(performance.now() - t0);
    }
    writeFileSync(file, configText({}));

    console.log(`first CodeLens (index built, runs saved, once)  ${ms(warm)}`);
    console.log(
      `CodeLens Tuner prepared when idle (once)        ${ms(lensPrepare)} after the first CodeLens (incl. 250 ms idle wait); ${lensCandidates.toLocaleString('en')} candidates`,
    );
    console.log(`tunePrepare (once)                              ${ms(prepare)}${reused ? ' (the CodeLens Tuner reused)' : ''}`);
    row('(a) move → first stage (tuneQuick)', quick, `   target ≤ ${docs <= 10_000 ? 100 : 300} ms`);
    row('(b) move → full answer (+ tuneEvaluate)', full2);
    row('(c) old: saved edit → CodeLens figures', old, '   (full evaluation done)');
    row('(c) no Tuner: edit → figures once searched', searched, '   (before the run is saved)');
    row('(c) new: saved edit → early CodeLens figures', early, '   target ≤ 500 ms at 10k');
    row(
      '(c) new: saved edit → full evaluation done',
      full,
      mismatched ? `   ${mismatched} early answer(s) DIFFERED` : '   every early answer equal',
    );
    console.log(`load average after ${load()}`);
    if (HEAP) await heap(dir, file);
  } finally {
    await client.terminate();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The heap a prepared Tuner of the config holds, in this thread: a second prepareTune after a first warmed the session. */
async function heap(dir: string, file: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('bench: --heap needs node --expose-gc');
  const session = RanklabSession.open(dir);
  const baseConfig = session.resolveConfig(file);
  // The first prepare warms the session (corpus, index, baseline run); only the second one's heap is counted.
  // (In a function of its own: a value awaited here could stay referenced by this frame, and be counted as freed.)
  const warm = async () => void (await prepareTune(session, { baseConfig }));
  await warm();
  // Typed arrays (most of a Tuner) live outside the JS heap: counted with arrayBuffers.
  const used = () => {
    const m = process.memoryUsage();
    return { heap: m.heapUsed, buffers: m.arrayBuffers };
  };
  gc();
  const before = used();
  const tuner = await prepareTune(session, { baseConfig });
  gc();
  const after = used();
  const heap = after.heap - before.heap;
  const buffers = after.buffers - before.buffers;
  const mib = (x: number) => `${(x / 2 ** 20).toFixed(1)} MiB`;
  console.log(
    `prepared Tuner: ${mib(heap + buffers)} (JS heap ${mib(heap)}, array buffers ${mib(buffers)}) for ${tuner.candidates.toLocaleString('en')} candidates (${((heap + buffers) / tuner.candidates).toFixed(0)} B each)`,
  );
}

async function main(): Promise<void> {
  console.log(
    `tune benchmark: ${MOVES} slider moves, ${OLD_MOVES} saved edits; ${process.platform} ${process.arch}, node ${process.version}; ${new Date().toISOString()}`,
  );
  for (const docs of SIZES) await measure(docs);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
