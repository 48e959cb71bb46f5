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
import { type Tuner, prepareTune, rebaseTuner, tuneSliders } from '../../core/tuning/tuner';
import type { WorkProgress } from '../../core/util/cooperative';
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

/** Whether the CodeLens prepares a Tuner of `config` when the folder is idle (and so may answer its edits early). */
export function lensTunable(session: RanklabSession, config: RankConfig): boolean {
  // A reranked config's Tuner reranks every query's pool when prepared: too heavy to do unasked in the background.
  if (config.rerank || tuneSliders(config).sliders.length === 0) return false;
  return lensAnswerable(session, config);
}

/**
 * Whether a prepared Tuner may answer a save of `config`: not the baseline itself (it has no comparison; its edit
 * changes what every Tuner compares with), and a baseline that can be read. A reranked config's Tuner is prepared
 * only by the Tune view, but once there it answers as well.
 */
function lensAnswerable(session: RanklabSession, config: RankConfig): boolean {
  if (config.engine) return false;
  const baseline = baselineOf(session);
  return !!baseline && baseline.name !== config.name;
}

function baselineOf(session: RanklabSession): RankConfig | undefined {
  try {
    return session.baselineConfig();
  } catch {
    return undefined; // an unusable baseline: the full evaluation says why
  }
}

/**
 * Every prepared Tuner of one workspace folder: the CodeLens's, by config file (least recently used first), and the
 * Tune view's, pinned while the view is on it (never evicted). One Tuner per config: the view reuses the CodeLens's
 * Tuner of the same file, session and baseline whose sliders reach the file's config instead of preparing its own,
 * and the CodeLens answers from the view's. A Tuner is stale once the session (a rebuild, new settings) or the baseline config changed.
 */
export class LensTuners {
  private readonly kept = new Map<string, Kept>();
  /**
   * The Tune view's Tuner (one per folder: the config last opened in it), as kept (it may also be one of `kept`), and
   * as the view moves it: seen from the config opened (rebaseTuner) when it was prepared for another position of it.
   */
  private pinned?: { file: string; kept: Kept; view: Tuner };
  private prepared = 0;

  /** The files with a prepared Tuner, the view's included (tests, the benchmark). */
  files(): string[] {
    const files = new Set(this.kept.keys());
    if (this.pinned) files.add(this.pinned.file);
    return [...files];
  }

  /** Every Tuner held, each once. */
  private all(): Kept[] {
    const all = new Set(this.kept.values());
    if (this.pinned) all.add(this.pinned.kept);
    return [...all];
  }

  /** Candidates cached over every Tuner held. */
  candidates(): number {
    return this.all().reduce((n, k) => n + k.tuner.candidates, 0);
  }

  /** How many Tuners were prepared (by the CodeLens or the view) since the worker started: a reused one is not. */
  preparations(): number {
    return this.prepared;
  }

  /** Drops the CodeLens's Tuner of `file` (the view's stays while it is open), or every Tuner of the folder. */
  drop(file?: string): void {
    if (file !== undefined) this.kept.delete(file);
    else {
      this.kept.clear();
      this.pinned = undefined;
    }
  }

  /** Drops the view's Tuner too, when it is of `file` (a Tuner that gave other figures than the full evaluation). */
  dropAll(file: string): void {
    this.kept.delete(file);
    if (this.pinned?.file === file) this.pinned = undefined;
  }

  /** The Tuners of `file` that still fit the session and the baseline, the CodeLens's first (stale ones are dropped). */
  private usable(session: RanklabSession, file: string): Kept[] {
    const baselineHash = baselineOf(session)?.configHash;
    const fits = (k: Kept) => k.session === session && k.baselineHash === baselineHash;
    const out: Kept[] = [];
    const k = this.kept.get(file);
    if (k && fits(k)) out.push(k);
    else if (k) this.kept.delete(file);
    const p = this.pinned;
    if (p?.file === file) {
      if (!fits(p.kept)) this.pinned = undefined;
      else if (p.kept !== k) out.push(p.kept);
    }
    return out;
  }

  /** A usable Tuner of `file` that recombines `config`, and the slider positions that make it. */
  private covering(session: RanklabSession, file: string, config: RankConfig) {
    for (const k of this.usable(session, file)) {
      const settings = k.tuner.settingsOf(config);
      if (settings) return { k, settings };
    }
    return undefined;
  }

  /** Whether a save of `config` in `file` would find a prepared Tuner to answer it (else one is worth preparing). */
  covers(session: RanklabSession, file: string, config: RankConfig): boolean {
    return !!this.covering(session, file, config);
  }

  /**
   * The CodeLens's figures of `config` saved in `file` from a prepared Tuner (statistics, gates included), the view's
   * included, or undefined when none can answer it: no Tuner, a stale one, or an edit outside its sliders.
   */
  async answer(session: RanklabSession, file: string, config: RankConfig, signal?: AbortSignal): Promise<LensFigures | undefined> {
    if (!lensAnswerable(session, config)) return undefined;
    const found = this.covering(session, file, config);
    if (!found) return undefined;
    const { k, settings } = found;
    if (this.kept.get(file) === k) {
      this.kept.delete(file); // the most recently used last
      this.kept.set(file, k);
    }
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
    const view = this.pinned;
    if (view?.file === file && this.usable(session, file).includes(view.kept) && view.kept.tuner.base.configHash === config.configHash) {
      this.kept.set(file, view.kept); // the view's Tuner of this very config
      return undefined;
    }
    const tuner = await prepareTune(session, { baseConfig: config, baseline }, { signal });
    this.prepared++;
    if (tuner.candidates > LENS_MAX_CANDIDATES)
      return `too large (${tuner.candidates.toLocaleString('en')} candidates, at most ${LENS_MAX_CANDIDATES.toLocaleString('en')})`;
    this.kept.set(file, { tuner, session, baselineHash: baseConfig.configHash });
    this.evict();
    return undefined;
  }

  /**
   * The Tune view's Tuner of `config` (the current content of `file`): a usable Tuner of the file (the CodeLens's, or
   * the view's last) whose sliders reach `config` (the same config, or a saved edit it recombines: seen from `config`,
   * rebaseTuner), else a new one (against the workspace's baseline); pinned until the view opens another or it is stale.
   */
  async forView(
    session: RanklabSession,
    file: string,
    config: RankConfig,
    hooks: { signal?: AbortSignal; progress?: (p: WorkProgress) => void },
  ): Promise<Tuner> {
    const usable = this.usable(session, file);
    this.pinned = undefined;
    // The Tuner of this very config first, else one that reaches it.
    usable.sort((a, b) => Number(b.tuner.base.configHash === config.configHash) - Number(a.tuner.base.configHash === config.configHash));
    for (const kept of usable) {
      const view = rebaseTuner(kept.tuner, config);
      if (view) {
        this.pinned = { file, kept, view };
        this.evict();
        return view;
      }
    }
    const baselineHash = session.baselineConfig().configHash;
    const tuner = await prepareTune(session, { baseConfig: config }, hooks);
    this.prepared++;
    this.pinned = { file, kept: { tuner, session, baselineHash }, view: tuner };
    this.evict();
    return tuner;
  }

  /** The view's Tuner of `file`, if it is still the one of `session` (a move is answered from it). */
  viewTuner(session: RanklabSession | undefined, file: string): Tuner | undefined {
    const p = this.pinned;
    return p?.file === file && p.kept.session === session ? p.view : undefined;
  }

  /** The CodeLens's least recently used Tuners go until the folder's count and size are within the caps; the view's stays. */
  private evict(): void {
    for (const [file, k] of this.kept) {
      if (this.all().length <= LENS_MAX_TUNERS && this.candidates() <= LENS_MAX_CANDIDATES) break;
      if (k !== this.pinned?.kept) this.kept.delete(file);
    }
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
    lens.dropAll(file);
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
      lens.dropAll(file);
    }
  }
  // A Tuner that cannot answer this config's edits is dropped (the view's stays while open), and one of this config is worth preparing.
  if (lens.covers(session, file, config)) return { result };
  lens.drop(file);
  return { result, prepare: baseline && lensTunable(session, config) ? { file, config, baseline } : undefined };
}
