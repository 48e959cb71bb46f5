import { type RankConfig, parseRankConfigText } from '../config';
import type { EvaluateOptions, MetricSpec } from '../metrics';
import { createRng } from '../util/random';
import { InputError } from '../util/diagnostics';
import { DEFAULT_SLICE_MS, type WorkProgress, yieldToEventLoop } from '../util/cooperative';
import { assertFindsSomething, scoreConfig } from '../session/evaluate';
import type { RanklabSession } from '../session/session';
import { MAX_COMBINATIONS, type SettingValue, type Variation, withSetting } from './parameters';
import { type ScoredCombination, type SweepSummary, type TuningPlan, summarizeSweep } from './scoring';
import { kFolds } from './splits';
import { type TuneHoldout, tuneHoldoutSplit } from '../judgments';
import { prepareRecombination, recombinable } from './recombination';

export type SweepSearch = { kind: 'grid' } | { kind: 'random'; n: number; seed: number };

export interface SweepOptions {
  /** BASE: the config the sweep starts from, and its JSON as written (each combination is this with its values set). */
  base: RankConfig;
  raw: Record<string, unknown>;
  variations: Variation[];
  search: SweepSearch;
  objective: MetricSpec;
  metricOptions: EvaluateOptions;
  /** A tune/holdout split (the judgments' own, else a hash split) or K-fold cross-validation over all queries. */
  folds?: number;
  /** Rows with the full holdout comparison (default 5). */
  top?: number;
  signal?: AbortSignal;
  /** After each evaluated config: how many of `total` (BASE and the combinations) are done. */
  onProgress?: (done: number, total: number, label: string) => void;
  onWork?: (progress: WorkProgress) => void;
  /**
   * false: evaluate every combination through scoreConfig even when it is a pure recombination (recombination.ts
   * gives the same values faster); for the benchmark's baseline and the parity tests. Default true.
   */
  recombine?: boolean;
}

export interface Combination {
  index: number;
  values: Record<string, SettingValue>;
  /** The combination as a config of its own (BASE with the values set), and the JSON it was parsed from. */
  config: RankConfig;
  raw: Record<string, unknown>;
}

export interface SweepResult extends SweepSummary {
  base: SweepSummary['base'] & { config: RankConfig };
  variations: Variation[];
  search: SweepSearch;
  /** How many combinations the grid has, and how many were evaluated (a random search samples). */
  gridSize: number;
  combinations: Combination[];
  /** Combinations that are no valid config (e.g. every boost 0), with the reason: not evaluated. */
  skipped: { values: Record<string, SettingValue>; reason: string }[];
  /** The objective per query (all judged queries) of BASE and of each evaluated combination (by `Combination.index`). */
  perQuery: { base: ReadonlyMap<string, number>; combinations: ReadonlyMap<number, ReadonlyMap<string, number>> };
  split?: Omit<TuneHoldout, 'tune' | 'holdout'> & { tune: number; holdout: number; holdoutQueries: string[] };
  folds?: number[];
  notes: string[];
}

/** Combinations recombined together, query by query (progress is reported after each block). */
const RECOMBINATION_BLOCK = 10;

/** Sections a setting may live in only when BASE has them (a new section would change the retrieval mode). */
const SECTIONS = ['lexical', 'vector', 'hybrid', 'rerank', 'engine'] as const;

/** The label of a combination, e.g. `lexical.fields.title=3, hybrid.k=60`. */
export function combinationLabel(values: Record<string, SettingValue>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/**
 * Every combination to evaluate, each a config of its own (parsed and checked like a `*.rank.json`): the whole grid
 * (first `--vary` outermost), or `n` distinct grid points drawn with a seeded generator (same seed, same sample).
 */
export function sweepCombinations(
  base: RankConfig,
  raw: Record<string, unknown>,
  variations: readonly Variation[],
  search: SweepSearch,
): { combinations: Combination[]; skipped: SweepResult['skipped']; gridSize: number } {
  if (variations.length === 0)
    throw new InputError('nothing to vary', [], { key: '--vary', hint: "e.g. --vary 'lexical.fields.title=1..5:0.5'" });
  const seen = new Set<string>();
  for (const v of variations) {
    if (seen.has(v.path)) throw new InputError(`${v.path} is varied twice`, [], { key: '--vary' });
    // No value would make an empty grid: nothing evaluated, and nothing skipped to say why.
    if (v.values.length === 0) throw new InputError(`${v.path}: no values`, [], { key: '--vary' });
    seen.add(v.path);
    const section = v.path.split('.')[0] as (typeof SECTIONS)[number];
    if (SECTIONS.includes(section) && !base[section]) {
      throw new InputError(`BASE ${base.name} has no "${section}" section (mode ${base.mode}), so ${v.path} has no effect there`, [], {
        key: '--vary',
        hint: `add a "${section}" section to BASE, or vary a setting it uses`,
      });
    }
  }
  const gridSize = variations.reduce((n, v) => n * v.values.length, 1);
  let indexes: number[];
  if (search.kind === 'grid') {
    if (gridSize > MAX_COMBINATIONS)
      throw new InputError(`the grid has ${gridSize} combinations (at most ${MAX_COMBINATIONS})`, [], {
        key: '--search',
        hint: 'sample it with --search random:N, or use larger steps',
      });
    indexes = Array.from({ length: gridSize }, (_, i) => i);
  } else if (!(search.n >= 1)) {
    throw new InputError(`a random search needs at least 1 combination, not ${search.n}`, [], { key: '--search' });
  } else if (search.n >= gridSize) {
    indexes = Array.from({ length: gridSize }, (_, i) => i);
  } else {
    const rng = createRng(search.seed);
    const picked = new Set<number>();
    while (picked.size < search.n) picked.add(Math.floor(rng() * gridSize));
    indexes = [...picked];
  }
  const combinations: Combination[] = [];
  const skipped: SweepResult['skipped'] = [];
  for (const index of indexes) {
    // The index in mixed radix, the last variation varying fastest; rest % n picks one of n values.
    const picks: Array<[string, SettingValue]> = [];
    let rest = index;
    for (const { path, values } of [...variations].reverse()) {
      picks.push([path, values[rest % values.length]!]);
      rest = Math.floor(rest / values.length);
    }
    const ordered = Object.fromEntries(picks.reverse()); // in variation order
    let comboRaw = raw;
    for (const [path, value] of Object.entries(ordered)) comboRaw = withSetting(comboRaw, path, value);
    const name = `${base.name}[${combinationLabel(ordered)}]`;
    const parsed = parseRankConfigText(JSON.stringify(comboRaw), name, name);
    const error = parsed.diagnostics.find((d) => d.severity === 'error');
    if (!parsed.config || error) skipped.push({ values: ordered, reason: error?.message ?? 'not a valid config' });
    else combinations.push({ index, values: ordered, config: parsed.config, raw: comboRaw });
  }
  return { combinations, skipped, gridSize };
}

/**
 * Evaluates BASE and every combination on all judged queries through the session (as `eval` would: scoreConfig, not
 * saved; combinations that only re-weight BASE's lexical scores by recombination.ts, with the same values), then
 * ranks the combinations on the tuning queries and scores the choice on held-out ones (`summarizeSweep`). Stops
 * with the abort reason when `signal` aborts; nothing is written.
 */
export async function runSweep(session: RanklabSession, opts: SweepOptions): Promise<SweepResult> {
  const { combinations, skipped, gridSize } = sweepCombinations(opts.base, opts.raw, opts.variations, opts.search);
  if (combinations.length === 0) {
    const first = skipped[0]!; // the grid has a point (sweepCombinations checks): every one was skipped
    throw new InputError(`no combination is a valid config: ${first.reason} (at ${combinationLabel(first.values)})`, [], {
      key: '--vary',
    });
  }
  const judgments = session.judgments();
  let plan: TuningPlan;
  let split: SweepResult['split'];
  let folds: number[] | undefined;
  if (opts.folds !== undefined) {
    const qids = [...judgments.qrels.keys()];
    if (opts.folds > qids.length)
      throw new InputError(`${opts.folds} folds need at least ${opts.folds} judged queries; there are ${qids.length}`, [], {
        key: '--folds',
      });
    const f = kFolds(qids, opts.folds);
    plan = { mode: 'folds', folds: f };
    folds = f.map((x) => x.length);
  } else {
    const s = tuneHoldoutSplit(judgments);
    if (s.tune.length === 0 || s.holdout.length === 0) {
      throw new InputError(`the tuning split has ${s.tune.length} tune and ${s.holdout.length} holdout queries; both are needed`, [], {
        key: '--split',
        hint: 'mark some queries "split": "holdout" in the judgments, or use --folds K',
      });
    }
    plan = { mode: 'split', tune: s.tune, holdout: s.holdout };
    split = { source: s.source, tune: s.tune.length, holdout: s.holdout.length, holdoutQueries: s.holdout };
  }
  const notes: string[] = [];
  const total = combinations.length + 1;
  let done = 0;
  const evaluate = async (config: RankConfig, label: string): Promise<Map<string, number>> => {
    const r = await scoreConfig(session, config, {
      specs: [opts.objective],
      metricOptions: opts.metricOptions,
      split: 'all',
      signal: opts.signal,
      onWork: opts.onWork,
    });
    const [failure] = r.failed;
    if (failure) notes.push(`${label}: ${r.failed.length} queries failed and are left out (${failure.error})`);
    opts.onProgress?.(++done, total, label);
    // Scored with the objective as its one metric: every query has its value.
    return new Map([...r.evaluation.perQuery].map(([q, v]) => [q, v[opts.objective.name]!]));
  };
  const base = await evaluate(opts.base, opts.base.name);
  // Boost-only sweeps of a lexical config: the cached field scores re-ranked per combination, no engine per config.
  const fast =
    opts.recombine !== false && recombinable(opts.base, opts.variations)
      ? await prepareRecombination(session, opts.base, opts.objective, opts.metricOptions, opts.signal)
      : undefined;
  const scored: ScoredCombination[] = [];
  if (fast) {
    // Blocks of combinations, each scored query by query (a query's cached scores stay in the processor's cache for
    // the whole block); progress after each block.
    const usable = combinations.filter((c) => {
      try {
        assertFindsSomething(session, c.config);
        return true;
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        skipped.push({ values: c.values, reason: e.message });
        return false;
      }
    });
    for (let i = 0; i < usable.length; i += RECOMBINATION_BLOCK) {
      const block = usable.slice(i, i + RECOMBINATION_BLOCK);
      const first = block[0]!; // i < usable.length
      const label = block.length > 1 ? `${first.config.name} and ${block.length - 1} more` : first.config.name;
      const values = await fast.score(
        block.map((c) => c.config),
        session.work(opts.signal, opts.onWork).labelled(label),
      );
      block.forEach((c, j) => {
        scored.push({ index: c.index, values: c.values, perQuery: values[j]! }); // a result per config
        opts.onProgress?.(++done, total, combinationLabel(c.values));
      });
    }
  } else {
    let turn = performance.now();
    for (const c of combinations) {
      // A combination can take less than a slice, so its query loop never pauses: the event loop gets its turn here
      // too, or a cancel (Ctrl-C, the editor's Cancel reaching the worker) would wait for the whole sweep.
      if (performance.now() - turn >= DEFAULT_SLICE_MS) {
        await yieldToEventLoop();
        turn = performance.now();
      }
      opts.signal?.throwIfAborted();
      try {
        scored.push({ index: c.index, values: c.values, perQuery: await evaluate(c.config, combinationLabel(c.values)) });
      } catch (e) {
        // A combination the corpus cannot serve (e.g. only fields no document has) is skipped, not fatal.
        if (!(e instanceof InputError) || opts.signal?.aborted) throw e;
        skipped.push({ values: c.values, reason: e.message });
      } finally {
        // The session keeps no engine per combination; BASE's (and what engines share) stays warm.
        if (c.config.configHash !== opts.base.configHash) session.releaseEngine(c.config);
      }
    }
  }
  // No combination scored: each was skipped, with its reason (there is one: the grid has a point).
  if (scored.length === 0) throw new InputError(`no combination could be evaluated: ${skipped[0]!.reason}`, [], { key: '--vary' });
  const summary = summarizeSweep(scored, base, plan, { top: opts.top, objective: opts.objective.name, seed: 42 });
  return {
    ...summary,
    base: { ...summary.base, config: opts.base },
    variations: opts.variations,
    search: opts.search,
    gridSize,
    combinations,
    skipped,
    split,
    folds,
    notes,
    perQuery: { base, combinations: new Map(scored.map((c) => [c.index, c.perQuery])) },
  };
}

/**
 * A combination (default: the best; runSweep throws when none could be scored, so there is one) as a config file's
 * text: BASE's settings with its values, a description saying where it came from.
 */
export function bestConfigText(result: SweepResult, index = result.rows[0]!.index): string {
  const combination = result.combinations.find((c) => c.index === index);
  if (!combination) throw new InputError(`no combination ${index} in this sweep`);
  const { $schema, description: _, ...rest } = combination.raw;
  const description = `${result.base.config.name} with ${combinationLabel(combination.values)} (ranklab sweep)`;
  return JSON.stringify({ ...($schema !== undefined ? { $schema } : {}), description, ...rest }, null, 2) + '\n';
}
