// Tune view speed (issue 31): a slider move → its figures, beside the old loop (a saved config edit → its CodeLens).
// A generated workspace (test/helpers/synthetic-workspace, as bench/sweep.ts: short documents from a Zipf-like
// vocabulary, 1,000 judged queries, a quarter in the holdout split, five topic tags) and a lexical config, served by
// the real Ranklab worker thread (src/extension/worker/main.ts, under tsx) through the RPC the extension uses, so each
// figure includes the thread crossing. Measured in the same run, per size:
// - warm-up: the config's first CodeLens evaluation (`evaluateAgainstBaseline`: index built, both runs saved);
// - prepare: `tunePrepare` (the Tuner: baseline values, every judged query's BM25 candidates read once);
// - (a) quick: `tuneQuick` of a move, the view's first stage (means, per-query Δ, W/L/T, tune vs holdout, overfitting);
// - (b) quick + evaluate: then `tuneEvaluate` of the same settings (compare's CI, p, verdict, gates): the full answer;
// - (c) old path: the move written to the config file, then what the editor does on save for its CodeLens: the host
//   parses the file (parseRankConfig) and the worker's `evaluateAgainstBaseline` evaluates it and the baseline
//   (saved runs reused), compares and checks the gates; index warm.
// Moves: random, one setting at a time (a field boost, k1, b, d or the depth) to a point of the slider's grid.
// Run: node --import tsx bench/tune.ts [--docs 50000] [--moves 200] [--old-moves 20] (npm run bench:tune);
// 10,000 documents always, and each size given with --docs (comma-separated) after it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRankConfig } from '../src/core/config';
import { percentile } from '../src/core/experiment/stats';
import type { TuneSettings } from '../src/core/tuning/tuner';
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

/** MOVES random moves, one slider at a time, each to a point of its grid (the depth kept ≤ 200, a boost not all 0). */
function randomMoves(sliders: RanklabMethods['tunePrepare']['result']['sliders']): Array<{ path: string; settings: TuneSettings }> {
  const rng = new Mulberry32(31);
  const uniform = () => rng.nextUint32() / 2 ** 32;
  const settings: TuneSettings = {};
  const moves: Array<{ path: string; settings: TuneSettings }> = [];
  for (let i = 0; i < MOVES; i++) {
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
    let t = performance.now();
    await codeLens();
    const warm = performance.now() - t;
    t = performance.now();
    const { sliders } = await client.request('tunePrepare', { ...folder, file });
    const prepare = performance.now() - t;

    const moves = randomMoves(sliders);
    const quick: number[] = [];
    const full: number[] = [];
    for (const move of moves) {
      const t0 = performance.now();
      await client.request('tuneQuick', { ...folder, file, settings: move.settings });
      quick.push(performance.now() - t0);
      await client.request('tuneEvaluate', { ...folder, file, settings: move.settings });
      full.push(performance.now() - t0);
    }

    const old: number[] = [];
    for (const move of moves.slice(0, OLD_MOVES)) {
      writeFileSync(file, configText(move.settings));
      const t0 = performance.now();
      client.notify({ type: 'changed', root: dir, kinds: ['config'] });
      await codeLens();
      old.push(performance.now() - t0);
    }
    writeFileSync(file, configText({}));

    console.log(`first CodeLens (index built, runs saved, once)  ${ms(warm)}`);
    console.log(`tunePrepare (once)                              ${ms(prepare)}`);
    row('(a) move → first stage (tuneQuick)', quick, `   target ≤ ${docs <= 10_000 ? 100 : 300} ms`);
    row('(b) move → full answer (+ tuneEvaluate)', full);
    row('(c) old: saved edit → CodeLens figures', old, '   target ≤ 500 ms at 10k');
    console.log(`load average after ${load()}`);
  } finally {
    await client.terminate();
    rmSync(root, { recursive: true, force: true });
  }
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
