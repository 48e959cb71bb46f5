// Tune engine speed (issue 31): a slider move → its verdict. A generated workspace (test/helpers/synthetic-workspace,
// as bench/sweep.ts: short documents from a Zipf-like vocabulary, 1,000 judged queries, a quarter in the holdout
// split, five topic tags) and a lexical config. Measured in the same run:
// - prepare: prepareTune (the baseline's run scored, every judged query's BM25 candidates read once; index warm);
// - new path: 200 random slider moves (one setting each: a field boost, k1, b, d or the depth), each timed from the
//   move to tuner.evaluate's result (every metric, per-query Δ, compare's statistics, gates and verdict);
//   split into moves that rescore BM25 (k1, b, d) and those that only re-rank (boosts, depth), and the share of
//   compare's statistics alone (compareStatistics on the same values);
// - old path: a saved config change → what the editor's worker does for the CodeLens (extension/logic/
//   against-baseline.ts evaluateAgainstBaseline's core calls, without vscode): the config file read again,
//   evaluateConfig of it and of the baseline (saved runs reused), compareRuns, checkGates; index warm.
// Run: node --import tsx bench/tune.ts [--size 10k|50k] [--moves 200] [--old-moves 20] (npm run bench:tune)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir, uptime } from 'node:os';
import { join } from 'node:path';
import { compareRuns, compareStatistics } from '../src/core/experiment/compare';
import { checkGates, withGateMetrics } from '../src/core/experiment/gates';
import { percentile } from '../src/core/experiment/stats';
import { parseMetricList } from '../src/core/metrics';
import { evaluateConfig } from '../src/core/session/evaluate';
import { RanklabSession } from '../src/core/session/session';
import { type TuneSettings, prepareTune } from '../src/core/tuning/tuner';
import { Work } from '../src/core/util/cooperative';
import { Mulberry32 } from '../src/core/util/random';
import { metricOptionsOf } from '../src/core/workspace/settings';
import { BM25_CONFIG, writeSyntheticWorkspace } from '../test/helpers/synthetic-workspace';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const SIZES: Record<string, number> = { '10k': 10_000, '50k': 50_000 };
const size = arg('size', '10k');
if (!SIZES[size]) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}`);
const DOCS = SIZES[size];
const QUERIES = 1000;
const MOVES = Number(arg('moves', '200'));
const OLD_MOVES = Number(arg('old-moves', '20'));
const ms = (x: number) => `${x.toFixed(1)} ms`;
const summary = (xs: number[]) => `p50 ${ms(percentile(xs, 50))}, p95 ${ms(percentile(xs, 95))} (n = ${xs.length})`;

const root = mkdtempSync(join(tmpdir(), 'ranklab-bench-tune-'));
const dir = join(root, 'ws');
mkdirSync(dir);
const candidateFile = join(dir, 'configs', 'candidate.rank.json');
writeSyntheticWorkspace(dir, { docs: DOCS, queries: QUERIES, layout: 'jsonl', configs: { baseline: BM25_CONFIG, candidate: BM25_CONFIG } });

async function main(): Promise<void> {
  console.log(
    `tune benchmark: ${DOCS.toLocaleString('en')} documents, ${QUERIES.toLocaleString('en')} queries, ${MOVES} slider moves (old path: ${OLD_MOVES} saved edits)`,
  );
  console.log(
    `machine: ${process.platform} ${process.arch}, node ${process.version}; load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')} (uptime ${Math.round(uptime() / 60)} min)`,
  );
  const session = RanklabSession.open(dir);
  const base = session.resolveConfig('candidate');
  const ws = session.workspace.settings;
  const specs = withGateMetrics(parseMetricList(ws.metrics), ws.gates);
  const metricOptions = metricOptionsOf(ws);
  const t0 = performance.now();
  await session.loadCorpus();
  await session.engine(base); // the index warm, as in the editor after its first CodeLens
  const warmMs = performance.now() - t0;

  const p0 = performance.now();
  const tuner = await prepareTune(session, { baseConfig: base, specs, metricOptions });
  const prepareMs = performance.now() - p0;

  // Random moves: one slider at a time to a random position on its grid (the panel's step).
  const rng = new Mulberry32(31);
  const uniform = () => rng.nextUint32() / 2 ** 32;
  const { sliders } = tuner.sliders();
  const settings: TuneSettings = {};
  const moves: Array<{ path: string; settings: TuneSettings }> = [];
  for (let i = 0; i < MOVES; i++) {
    const s = sliders[Math.floor(uniform() * sliders.length)];
    const max = s.path === 'lexical.depth' ? 200 : s.max;
    const steps = Math.round((max - s.min) / s.step);
    settings[s.path] = Number((s.min + Math.round(uniform() * steps) * s.step).toPrecision(12));
    if (
      s.path.startsWith('lexical.fields.') &&
      Object.entries(settings)
        .filter(([p]) => p.startsWith('lexical.fields.'))
        .every(([, v]) => v === 0)
    )
      settings[s.path] = 1;
    moves.push({ path: s.path, settings: { ...settings } });
  }
  const rescoring: number[] = [];
  const reranking: number[] = [];
  const statistics: number[] = [];
  const all: number[] = [];
  const verdicts = new Set<string>();
  for (const move of moves) {
    const t = performance.now();
    const result = await tuner.evaluate(move.settings);
    const took = performance.now() - t;
    all.push(took);
    (move.path.startsWith('lexical.bm25.') ? rescoring : reranking).push(took);
    verdicts.add(result.verdict.headline.replace(/^\S+ vs \S+: /, ''));
    // compare's statistics alone, on the same per-query values (where the rest of a move's time goes).
    const values = (side: 'baseline' | 'candidate') =>
      new Map(
        Object.entries(result.comparison.perQuery).map(([q, m]) => [
          q,
          Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v[side]])),
        ]),
      );
    const s = performance.now();
    await compareStatistics(
      { name: 'a', values: values('baseline') },
      { name: 'b', values: values('candidate') },
      session.judgments(),
      specs,
      metricOptions,
      new Work().phase('statistics', 0),
    );
    statistics.push(performance.now() - s);
  }

  // The old path: the config file saved with the move, then what the worker does for its CodeLens.
  const old: number[] = [];
  const baseline = session.baselineConfig();
  for (const move of moves.slice(0, OLD_MOVES)) {
    const raw = structuredClone(BM25_CONFIG) as { lexical: Record<string, any> };
    for (const [path, value] of Object.entries(move.settings)) {
      const [, group, name] = path.split('.');
      if (group === 'fields' || group === 'bm25') (raw.lexical[group] ??= {})[name] = value;
      else raw.lexical.depth = value;
    }
    writeFileSync(candidateFile, JSON.stringify(raw));
    const t = performance.now();
    const config = session.usable(session.configEntry(candidateFile));
    const common = { specs, metricOptions, reuse: true, save: true };
    const candidate = await evaluateConfig(session, config, common);
    const base = await evaluateConfig(session, baseline, common);
    const cmp = compareRuns(
      { name: baseline.name, run: base.run, latencies: base.latencies },
      { name: config.name, run: candidate.run, latencies: candidate.latencies },
      session.judgments(),
      specs,
      metricOptions,
    );
    checkGates(ws.gates, cmp);
    old.push(performance.now() - t);
  }

  console.log('');
  console.log(`corpus load + index build (once)   ${ms(warmMs)}`);
  console.log(`prepare (prepareTune)              ${ms(prepareMs)}   (baseline run scored + candidates of ${QUERIES} queries)`);
  console.log(`move → evaluate(), all moves       ${summary(all)}   target p95 ≤ ${size === '10k' ? 100 : 300} ms`);
  console.log(`  moves of k1 / b / d (rescore)    ${summary(rescoring)}`);
  console.log(`  moves of boosts / depth          ${summary(reranking)}`);
  console.log(`  of which compare's statistics    ${summary(statistics)}`);
  console.log(`old path: saved edit → CodeLens    ${summary(old)}   (evaluateConfig ×2 with reuse, compareRuns, checkGates; warm index)`);
  console.log(`verdicts seen: ${[...verdicts].slice(0, 4).join(' | ')}`);
  console.log(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
  );
}

main()
  .finally(() => rmSync(root, { recursive: true, force: true }))
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
