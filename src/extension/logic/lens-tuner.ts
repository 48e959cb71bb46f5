/**
 * The CodeLens's early answer (issue 31): after a config's evaluation the worker prepares, when idle, a Tuner of it
 * (core tuning/tuner.ts: every judged query's BM25 candidates cached once), so that a later save differing only in
 * settings the Tuner recombines (boosts, k1, b, d, depths, fusion) is answered from it in tens of milliseconds, before
 * the full evaluation (search, run saved, compare) that still follows and must give the same figures. Any other edit
 * (a field added, prefix, the analyzer, …) is answered by the full evaluation alone. No `vscode` import: it runs in
 * the worker (worker/main.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import type { RankConfig } from '../../core/config';
import { withGateMetrics } from '../../core/experiment/gates';
import { metricNames, parseMetricList } from '../../core/metrics/spec';
import type { Run } from '../../core/run/types';
import type { RanklabSession } from '../../core/session/session';
import { type Tuner, prepareTune, tuneSliders } from '../../core/tuning/tuner';
import type { RunSummary } from '../../core/experiment/run-index';
import { type ConfigResult, type EarlySource, type LensFigures, evaluateAgainstBaseline, lensFiguresOf } from './against-baseline';

/**
 * The candidates all kept Tuners of a folder may cache together: the least recently used go first, and a Tuner larger
 * than this alone is not kept. Measured (`node --expose-gc --import tsx bench/tune.ts --heap-only --docs 50000`, JS
 * heap + array buffers after GC, a two-field lexical config, 1,000 queries): 51 MiB for 0.83 M candidates at 10k
 * documents, 196 MiB for 4.3 M at 50k (48–65 B each): about 0.3 GB at this cap.
 */
export const LENS_MAX_CANDIDATES = 6_000_000;
/** Prepared Tuners kept per workspace folder at most: the configs saved last. */
export const LENS_MAX_TUNERS = 2;

interface Kept {
  tuner: Tuner;
  /** The session the Tuner's caches were read from (a rebuild or a settings change opens another). */
  session: RanklabSession;
  /** The baseline config's hash when it was prepared: the Tuner compares with that baseline's run. */
  baselineHash: string;
}

/** Why an early answer is not given: the config is not one a Tuner prepares, or no prepared Tuner fits the edit. */
export function lensTunable(session: RanklabSession, config: RankConfig): boolean {
  // A reranked config's Tuner reranks every query's pool when prepared: too heavy to do unasked in the background.
  if (config.rerank || config.engine || tuneSliders(config).sliders.length === 0) return false;
  const baseline = baselineOf(session);
  // The baseline itself has no comparison; its edit changes what every Tuner compares with.
  return !!baseline && baseline.name !== config.name;
}

function baselineOf(session: RanklabSession): RankConfig | undefined {
  try {
    return session.baselineConfig();
  } catch {
    return undefined; // an unusable baseline: the full evaluation says why
  }
}

/** The prepared Tuners of one workspace folder, by config file (least recently used first). */
export class LensTuners {
  private readonly kept = new Map<string, Kept>();

  /** The files with a prepared Tuner (tests, the benchmark). */
  files(): string[] {
    return [...this.kept.keys()];
  }

  /** Candidates cached over every kept Tuner. */
  candidates(): number {
    let n = 0;
    for (const k of this.kept.values()) n += k.tuner.candidates;
    return n;
  }

  drop(file?: string): void {
    if (file === undefined) this.kept.clear();
    else this.kept.delete(file);
  }

  /** The file's Tuner if it still fits the session and the baseline (a stale one is dropped). */
  private usable(session: RanklabSession, file: string): Kept | undefined {
    const k = this.kept.get(file);
    if (!k) return undefined;
    if (k.session !== session || baselineOf(session)?.configHash !== k.baselineHash) {
      this.kept.delete(file);
      return undefined;
    }
    return k;
  }

  /** Whether a save of `config` in `file` would find a prepared Tuner to answer it (else one is worth preparing). */
  covers(session: RanklabSession, file: string, config: RankConfig): boolean {
    return !!this.usable(session, file)?.tuner.settingsOf(config);
  }

  /**
   * The CodeLens's figures of `config` saved in `file` from its prepared Tuner (statistics, gates included), or
   * undefined when none can answer it: no Tuner, a stale one, or an edit outside its sliders.
   */
  async answer(session: RanklabSession, file: string, config: RankConfig, signal?: AbortSignal): Promise<LensFigures | undefined> {
    if (!lensTunable(session, config)) return undefined;
    const k = this.usable(session, file);
    const settings = k?.tuner.settingsOf(config);
    if (!k || !settings) return undefined;
    this.kept.delete(file); // the most recently used last
    this.kept.set(file, k);
    const r = await k.tuner.quickWithGates(settings, signal);
    const s = session.workspace.settings;
    const specs = metricNames(withGateMetrics(parseMetricList(s.metrics), s.gates));
    // An evaluation's mean over no query is 0 (metrics meansOf); the Tuner's is NaN (stats mean).
    const means = (m: Record<string, number>) =>
      r.metrics.all.queries === 0 ? Object.fromEntries(specs.map((n) => [n, 0])) : Object.fromEntries(specs.map((n) => [n, m[n]!]));
    return {
      name: config.name,
      specs,
      candidate: means(r.metrics.all.candidate),
      baseline: means(r.metrics.all.baseline),
      gates: r.gates,
    };
  }

  /**
   * Prepares and keeps the Tuner of `config` (saved in `file`) against `baseline` (the run the evaluation just
   * compared with). Returns why it was not kept, if it was not. Stops with the abort reason when `signal` aborts.
   */
  async prepare(
    session: RanklabSession,
    file: string,
    config: RankConfig,
    baseline: { name: string; run: Run },
    signal: AbortSignal,
  ): Promise<string | undefined> {
    this.kept.delete(file);
    const baseConfig = baselineOf(session);
    if (!lensTunable(session, config) || baseConfig?.name !== baseline.name) return 'not tunable';
    const tuner = await prepareTune(session, { baseConfig: config, baseline }, { signal });
    if (tuner.candidates > LENS_MAX_CANDIDATES)
      return `too large (${tuner.candidates.toLocaleString('en')} candidates, at most ${LENS_MAX_CANDIDATES.toLocaleString('en')})`;
    this.kept.set(file, { tuner, session, baselineHash: baseConfig.configHash });
    for (const old of this.kept.keys()) {
      if (this.kept.size <= LENS_MAX_TUNERS && this.candidates() <= LENS_MAX_CANDIDATES) break;
      this.kept.delete(old);
    }
    return undefined;
  }
}

/** What a CodeLens evaluation tells its caller as it goes (the worker: the request's progress and log). */
export interface LensHooks {
  signal: AbortSignal;
  /** The figures before the full evaluation ends (`ms`: time to them), from a prepared Tuner or once searched. */
  early: (answer: { source: EarlySource; figures: LensFigures; ms: number }) => void;
  saved: (path: string, summary: RunSummary) => void;
  warn: (message: string) => void;
}

/**
 * A saved config's CodeLens evaluation: the early answer first (its prepared Tuner's, else the figures once its
 * search is scored), then the full evaluation, which must agree (a warning and the Tuner dropped if not; the full
 * figures are the result). Returns the result, and the Tuner worth preparing when the folder is idle, if any.
 */
export async function evaluateForLens(
  session: RanklabSession,
  lens: LensTuners,
  { file, config }: { file: string; config: RankConfig },
  hooks: LensHooks,
): Promise<{ result: ConfigResult; prepare?: { file: string; config: RankConfig; baseline: { name: string; run: Run } } }> {
  const t0 = performance.now();
  let early: { source: EarlySource; figures: LensFigures; ms: number } | undefined;
  try {
    const figures = await lens.answer(session, file, config, hooks.signal);
    if (figures) early = { source: 'tuner', figures, ms: performance.now() - t0 };
  } catch (err) {
    if (hooks.signal.aborted) throw err;
    lens.drop(file);
    hooks.warn(`${config.name}: the tune cache could not answer (${(err as Error).message}); the full evaluation does`);
  }
  if (early) hooks.early(early);
  let baseline: { name: string; run: Run } | undefined;
  const result = await evaluateAgainstBaseline(session, config, file, hooks.signal, {
    onBaseline: (b) => (baseline = b),
    onSaved: hooks.saved,
    // No Tuner answered: the figures as soon as the search is scored, before the run is saved.
    onFigures: early
      ? undefined
      : (figures) => {
          early = { source: 'search', figures, ms: performance.now() - t0 };
          hooks.early(early);
        },
  });
  if (early) {
    const matched = isDeepStrictEqual(early.figures, lensFiguresOf(result));
    result.early = { source: early.source, ms: early.ms, matched };
    // Must not happen (tuner.property.test.ts, lens-tuner.test.ts check that they are the full evaluation's).
    if (!matched) {
      const where = early.source === 'tuner' ? 'tune cache' : 'before the run was saved';
      hooks.warn(`${config.name}: the early CodeLens figures (${where}) differed from the full evaluation's; shown: the full ones`);
      lens.drop(file);
    }
  }
  // A Tuner that cannot answer this config's edits is dropped, and one of this config is worth preparing.
  if (lens.covers(session, file, config)) return { result };
  lens.drop(file);
  return { result, prepare: baseline && lensTunable(session, config) ? { file, config, baseline } : undefined };
}
