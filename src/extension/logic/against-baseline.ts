/**
 * A config evaluated against the baseline, as the editor's background evaluation shows it (CodeLens, diagnostics,
 * the Testing view): the config's run and the baseline's (saved runs reused when their inputs are unchanged),
 * compared, and checked against the gates. No `vscode` import: it runs in the Ranklab worker (worker/main.ts), and
 * its result is plain data that crosses the thread whole.
 */
import { basename } from 'node:path';
import type { RankConfig } from '../../core/config';
import { type RunSummary, summaryOf } from '../../core/experiment/run-index';
import { runIdOfFile } from '../../core/run/run-files';
import { type Comparison, compareRuns, compareStatistics } from '../../core/experiment/compare';
import { type GateResult, checkGates, withGateMetrics } from '../../core/experiment/gates';
import type { JudgmentSet } from '../../core/judgments/types';
import type { MetricOptions } from '../../core/metrics/context';
import { type Evaluation, evaluateRun } from '../../core/metrics';
import { metricNames, parseMetricList } from '../../core/metrics/spec';
import { type ConfigEvaluation, evaluateConfig } from '../../core/session/evaluate';
import type { RanklabSession } from '../../core/session/session';
import type { Run } from '../../core/run/types';
import { Work } from '../../core/util/cooperative';
import { metricOptionsOf } from '../../core/workspace/settings';

/** How much of each ranked list the editor keeps: the Testing view's expected / actual lists (formatResultList). */
export const LIST_TOP = 10;

/**
 * A config's evaluation as the editor keeps it: its figures, latencies, saved run's path, and the top LIST_TOP of
 * each list. Not the saved run's copy of the lists, the whole lists nor each stage's output: the host never reads
 * them, and cloning them back from the worker thread was most of a saved edit's time (about 0.35 s per side and per
 * copy at 10k documents × 1,000 queries; docs/benchmarks.md, Tune).
 */
export interface EditorEvaluation extends Omit<ConfigEvaluation, 'saved' | 'stageIds' | 'run'> {
  /** The first LIST_TOP documents of each query's list. */
  top: Run;
}

function forEditor({ saved: _saved, stageIds: _stages, run, ...rest }: ConfigEvaluation): EditorEvaluation {
  return { ...rest, top: new Map([...run].map(([qid, docs]) => [qid, docs.slice(0, LIST_TOP)])) };
}

export interface ConfigResult {
  file: string;
  name: string;
  config: RankConfig;
  /** The metrics' names; the first is the one the Testing view and the CodeLens tooltip judge by. */
  specs: [string, ...string[]];
  metricOptions: MetricOptions;
  candidate: EditorEvaluation;
  /** Absent when this config is the baseline. */
  baseline?: EditorEvaluation;
  comparison?: Comparison;
  gates: GateResult[];
  judgments: JudgmentSet;
  evaluatedAt: Date;
  /** The early answer given before this evaluation ended, and whether this evaluation's figures equal it. */
  early?: { source: EarlySource; ms: number; matched: boolean };
}

/** Where an early answer came from: a prepared Tuner (lens-tuner.ts), or the search before the run is saved. */
export type EarlySource = 'tuner' | 'search';

/**
 * What the CodeLens shows of an evaluation: every metric's mean for the config and the baseline, and the gates. The
 * early answer (lens-tuner.ts) gives these before the full evaluation; the full one must give the same.
 */
export interface LensFigures {
  name: string;
  specs: [string, ...string[]];
  candidate: Record<string, number>;
  /** Absent when this config is the baseline. */
  baseline?: Record<string, number>;
  gates: GateResult[];
}

export function lensFiguresOf(r: ConfigResult): LensFigures {
  return { name: r.name, specs: r.specs, candidate: r.candidate.evaluation.means, baseline: r.baseline?.evaluation.means, gates: r.gates };
}

/** The evaluation's hooks: its progress, and the baseline's run once it is known (for the Tuner the worker prepares). */
export interface AgainstBaselineHooks {
  onProgress?: (done: number, total: number) => void;
  onBaseline?: (baseline: { name: string; run: Run }) => void;
  /**
   * The CodeLens's figures as soon as the config's queries are scored, before its run is saved and compared in full
   * (not called when its saved run is reused: the whole evaluation is quick then).
   */
  onFigures?: (figures: LensFigures) => void;
  /** The config's run once saved: its file and summary (the host's run index takes it without decoding the file). */
  onSaved?: (path: string, summary: RunSummary) => void;
}

/** Evaluates a config and the baseline (reusing saved runs when inputs are unchanged), compares, checks gates. */
export async function evaluateAgainstBaseline(
  session: RanklabSession,
  config: RankConfig,
  file: string,
  signal?: AbortSignal,
  { onProgress, onBaseline, onFigures, onSaved }: AgainstBaselineHooks = {},
): Promise<ConfigResult> {
  const settings = session.workspace.settings;
  const specs = withGateMetrics(parseMetricList(settings.metrics), settings.gates); // every gate can be evaluated
  const metricOptions: MetricOptions = metricOptionsOf(settings);
  const common = { specs, metricOptions, reuse: true, save: true, signal };
  const judgments = session.judgments();
  let baseConfig: RankConfig | undefined;
  try {
    baseConfig = session.baselineConfig();
  } catch {
    baseConfig = undefined; // an unusable baseline: show the figures without a comparison
  }
  if (baseConfig?.name === config.name && baseConfig.configHash === config.configHash) baseConfig = undefined; // the baseline itself
  // The baseline first (its saved run is reused after the first time), so that the config's figures can be answered
  // as soon as its queries are scored.
  const baseline = baseConfig && (await evaluateConfig(session, baseConfig, common));
  if (baseConfig && baseline) onBaseline?.({ name: baseConfig.name, run: baseline.run });
  const onScored =
    onFigures &&
    (async ({ evaluation, run }: { evaluation: Evaluation; run: Run }) => {
      let gates: GateResult[] = [];
      if (baseConfig && baseline) {
        // The gates read means, deltas, per-query values and which slices exist, none of which compare's resampling
        // changes: one resample each (as Tuner.quickWithGates), on the values compareRuns computes (evaluateRun).
        // evaluateConfig has just computed them, on these judgments, specs and options, unless a query failed (its
        // evaluation then leaves the query out, compareRuns does not): only then are they computed again.
        const values = (e: Evaluation, r: Run) =>
          e.perQuery.size === judgments.qrels.size ? e.perQuery : evaluateRun(r, judgments, specs, metricOptions).perQuery;
        const statistics = await compareStatistics(
          { name: baseConfig.name, values: values(baseline.evaluation, baseline.run) },
          { name: config.name, values: values(evaluation, run) },
          judgments,
          specs,
          metricOptions,
          new Work({ signal }).phase('statistics', 0),
          { bootstrapSamples: 1, permutationSamples: 1 },
        );
        gates = checkGates(settings.gates, statistics);
      }
      onFigures({ name: config.name, specs: metricNames(specs), candidate: evaluation.means, baseline: baseline?.evaluation.means, gates });
    });
  const candidate = await evaluateConfig(session, config, {
    ...common,
    onProgress,
    onScored,
    onSaved: onSaved && ((path, saved) => onSaved(path, summaryOf(runIdOfFile(basename(path))!, saved))),
  });
  let comparison: Comparison | undefined;
  let gates: GateResult[] = [];
  if (baseConfig && baseline) {
    comparison = compareRuns(
      { name: baseConfig.name, run: baseline.run, latencies: baseline.latencies },
      { name: config.name, run: candidate.run, latencies: candidate.latencies },
      judgments,
      specs,
      metricOptions,
    );
    gates = checkGates(settings.gates, comparison);
  }
  return {
    file,
    name: config.name,
    config,
    specs: metricNames(specs),
    metricOptions,
    candidate: forEditor(candidate),
    baseline: baseline && forEditor(baseline),
    comparison,
    gates,
    judgments,
    evaluatedAt: new Date(),
  };
}
