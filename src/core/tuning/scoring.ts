import { pairedBootstrapCI, pairedPermutationTest } from '../experiment/stats';
import type { SettingValue } from './parameters';

/** One evaluated combination: its settings and the objective per query (all judged queries). */
export interface ScoredCombination {
  /** Position in the grid (or in the random sample), for stable ties. */
  index: number;
  values: Record<string, SettingValue>;
  perQuery: ReadonlyMap<string, number>;
}

/** Either a tune/holdout split or K folds (each fold held out once while the others tune). */
export type TuningPlan =
  | { mode: 'split'; tune: readonly string[]; holdout: readonly string[] }
  | { mode: 'folds'; folds: readonly (readonly string[])[] };

/** A holdout score against BASE on the same queries: gain = score - base, paired bootstrap 95% CI and permutation p of the gain. */
export interface HoldoutScore {
  score: number;
  base: number;
  gain: number;
  ci: [number, number];
  p: number;
  queries: number;
}

export interface SweepRow {
  index: number;
  values: Record<string, SettingValue>;
  /** Split: the mean over the tune queries; folds: the mean over folds of the mean over that fold's tuning queries. */
  tune: number;
  /** `tune` minus BASE's on the same queries. */
  tuneGain: number;
  /** Split only: the mean over the holdout queries (the full comparison for the best few in `holdoutStats`). */
  holdout?: number;
  holdoutStats?: HoldoutScore;
  /** Folds only: in how many folds this combination scored best on the tuning queries. */
  chosenInFolds?: number;
}

export interface SweepSummary {
  /** Best first (by `tune`; ties keep grid order). */
  rows: SweepRow[];
  base: { tune: number; holdout?: number };
  /**
   * What choosing by the tuning score gains on queries it did not see: split = the best row on the holdout queries;
   * folds = per fold the fold's own best, scored on that fold, over all queries (cross-validation).
   */
  estimate: HoldoutScore;
  /** The tuning gain of what was chosen (folds: the mean over folds), beside `estimate.gain`. */
  chosenTuneGain: number;
  warnings: string[];
}

export interface SummaryOptions {
  /** Rows that get the full holdout comparison (bootstrap and permutation; default 5). */
  top?: number;
  seed?: number;
  objective: string;
}

/** Mean of `values` over the queries of `qids` it has (a query an engine failed is left out, as in eval). */
function meanOver(values: ReadonlyMap<string, number>, qids: readonly string[]): number {
  let sum = 0;
  let n = 0;
  for (const q of qids) {
    const v = values.get(q);
    if (v === undefined) continue;
    sum += v;
    n++;
  }
  return n ? sum / n : NaN;
}

function holdoutScore(
  values: ReadonlyMap<string, number>,
  base: ReadonlyMap<string, number>,
  qids: readonly string[],
  seed: number,
): HoldoutScore {
  const paired = qids.filter((q) => values.has(q) && base.has(q));
  const a = paired.map((q) => base.get(q)!);
  const b = paired.map((q) => values.get(q)!);
  const score = meanOver(values, paired);
  const baseScore = meanOver(base, paired);
  return {
    score,
    base: baseScore,
    gain: score - baseScore,
    ci: pairedBootstrapCI(a, b, { seed }),
    p: pairedPermutationTest(a, b, { seed }),
    queries: paired.length,
  };
}

const byTune = (x: SweepRow, y: SweepRow) => y.tune - x.tune || x.index - y.index;

/**
 * Ranks the combinations by their tuning score and measures on held-out queries what choosing the best one gains
 * over BASE. Warns when the tuning gain does not carry over: positive on the tuning queries but less than half of it
 * (or nothing) on the held-out ones — the sign of parameters fitted to the tuning queries' noise.
 */
export function summarizeSweep(
  combinations: readonly ScoredCombination[],
  base: ReadonlyMap<string, number>,
  plan: TuningPlan,
  opts: SummaryOptions,
): SweepSummary {
  if (combinations.length === 0) throw new RangeError('summarizeSweep: no combination');
  const seed = opts.seed ?? 42;
  const top = opts.top ?? 5;
  let rows: SweepRow[];
  let summary: Omit<SweepSummary, 'rows' | 'warnings'>;
  if (plan.mode === 'split') {
    const baseTune = meanOver(base, plan.tune);
    const baseHoldout = meanOver(base, plan.holdout);
    rows = combinations
      .map((c) => {
        const tune = meanOver(c.perQuery, plan.tune);
        return { index: c.index, values: c.values, tune, tuneGain: tune - baseTune, holdout: meanOver(c.perQuery, plan.holdout) };
      })
      .sort(byTune);
    const byIndex = new Map(combinations.map((c) => [c.index, c]));
    for (const row of rows.slice(0, top)) row.holdoutStats = holdoutScore(byIndex.get(row.index)!.perQuery, base, plan.holdout, seed);
    const best = rows[0]!; // a row per combination, and there is one (checked above); top ≥ 1 scored its holdout
    summary = { base: { tune: baseTune, holdout: baseHoldout }, estimate: best.holdoutStats!, chosenTuneGain: best.tuneGain };
  } else {
    const all = plan.folds.flat();
    const trainOf = plan.folds.map((_, f) => plan.folds.flatMap((fold, g) => (g === f ? [] : fold)));
    const baseTrain = trainOf.map((train) => meanOver(base, train));
    const trainMeans = combinations.map((c) => trainOf.map((train) => meanOver(c.perQuery, train)));
    // trainMeans has a row per combination (i, best < combinations.length), each with a mean per fold (f).
    const chosen = plan.folds.map((_, f) => {
      let best = 0;
      for (let i = 1; i < combinations.length; i++) {
        if (
          trainMeans[i]![f]! > trainMeans[best]![f]! ||
          (trainMeans[i]![f] === trainMeans[best]![f] && combinations[i]!.index < combinations[best]!.index)
        )
          best = i;
      }
      return best;
    });
    const baseTune = mean(baseTrain);
    rows = combinations
      .map((c, i) => {
        const tune = mean(trainMeans[i]!);
        return { index: c.index, values: c.values, tune, tuneGain: tune - baseTune, chosenInFolds: chosen.filter((b) => b === i).length };
      })
      .sort(byTune);
    // Each query scored by the combination its own fold's tuning queries chose.
    const crossValidated = new Map<string, number>();
    plan.folds.forEach((fold, f) => {
      for (const q of fold) {
        const v = combinations[chosen[f]!]!.perQuery.get(q);
        if (v !== undefined) crossValidated.set(q, v);
      }
    });
    const chosenTuneGain = mean(chosen.map((i, f) => trainMeans[i]![f]! - baseTrain[f]!));
    summary = { base: { tune: baseTune }, estimate: holdoutScore(crossValidated, base, all, seed), chosenTuneGain };
  }
  const warnings: string[] = [];
  const { gain } = summary.estimate;
  const tuneGain = summary.chosenTuneGain;
  if (tuneGain > 0 && !(gain >= tuneGain / 2)) {
    const where = plan.mode === 'split' ? `the ${summary.estimate.queries} holdout queries` : 'the held-out folds';
    warnings.push(
      `overfitting: the best tuning gain (${signed(tuneGain)} ${opts.objective}) does not carry over to ${where} (${signed(gain)}, 95% CI ${signed(summary.estimate.ci[0])}..${signed(summary.estimate.ci[1])}); ` +
        'the chosen values fit the tuning queries more than they improve the ranking',
    );
  }
  return { rows, ...summary, warnings };
}

function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

export function signed(x: number): string {
  return Number.isNaN(x) ? 'n/a' : `${x >= 0 ? '+' : ''}${x.toFixed(4)}`;
}
