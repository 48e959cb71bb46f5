/**
 * The user action "evaluate configs": each config run over the judged queries of a split, one after the other,
 * its run saved. The one loop behind `ranklab eval` and the extension's Run Evaluation (its worker handler).
 * A config that fails with bad input (an InputError: a model not available offline, an engine that refuses) is
 * reported as data and the others still run; anything else is a bug and is thrown. The signal is honoured between
 * configs and inside each one (the core pauses every ~50 ms): the config it stopped saves nothing.
 */
import type { RankConfig } from '../config';
import { type EvaluateOptions as MetricOptions, type MetricSpec, parseMetricList } from '../metrics';
import { type ConfigEvaluation, evaluateConfig } from '../session/evaluate';
import type { RanklabSession } from '../session/session';
import type { WorkProgress } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { metricOptionsOf } from '../workspace/settings';

export interface EvaluateConfigsInput {
  configs: readonly RankConfig[];
  specs: MetricSpec[];
  metricOptions: MetricOptions;
  split?: 'tune' | 'holdout' | 'all';
  principal?: string;
  /** Save each run under .ranklab/runs (default true). */
  save?: boolean;
}

/** Which config of how many the action is on (index 0-based). */
export interface ConfigStep {
  index: number;
  count: number;
}

/** What the action reports as it goes; every event names its config and step. */
export type EvaluateConfigsProgress = { config: string; step: ConfigStep } & (
  | { type: 'work'; work: WorkProgress }
  | { type: 'queries'; done: number; total: number }
  | { type: 'evaluated'; result: ConfigEvaluation; ms: number }
  | { type: 'failed'; message: string }
);

export interface EvaluateConfigsHooks {
  signal?: AbortSignal;
  progress?: (event: EvaluateConfigsProgress) => void;
}

export interface EvaluateConfigsResult {
  /** The configs evaluated, in the order given. */
  results: ConfigEvaluation[];
  /** The configs that could not run, with the reason (bad input), in the order given. */
  failed: { name: string; message: string }[];
  /** When the signal stopped the action: the config it was on or about to start (nothing of it saved). */
  stopped?: string;
  /** The configs never started (after `stopped`). */
  notRun: string[];
}

export async function evaluateConfigs(
  session: RanklabSession,
  input: EvaluateConfigsInput,
  hooks: EvaluateConfigsHooks = {},
): Promise<EvaluateConfigsResult> {
  const { signal, progress } = hooks;
  const out: EvaluateConfigsResult = { results: [], failed: [], notRun: [] };
  const count = input.configs.length;
  const stopAt = (index: number) => {
    out.stopped = input.configs[index]?.name;
    out.notRun = input.configs.slice(index + 1).map((c) => c.name);
  };
  for (const [index, config] of input.configs.entries()) {
    const at = { config: config.name, step: { index, count } };
    if (signal?.aborted) {
      stopAt(index);
      break;
    }
    const t0 = Date.now();
    try {
      const result = await evaluateConfig(session, config, {
        specs: input.specs,
        metricOptions: input.metricOptions,
        split: input.split,
        principal: input.principal,
        save: input.save ?? true,
        signal,
        onWork: progress && ((work) => progress({ ...at, type: 'work', work })),
        onProgress: progress && ((done, total) => progress({ ...at, type: 'queries', done, total })),
      });
      out.results.push(result);
      progress?.({ ...at, type: 'evaluated', result, ms: Date.now() - t0 });
    } catch (e) {
      if (signal?.aborted) {
        stopAt(index);
        break;
      }
      if (!(e instanceof InputError)) throw e;
      out.failed.push({ name: config.name, message: e.message });
      progress?.({ ...at, type: 'failed', message: e.message });
    }
  }
  return out;
}

export interface WorkspaceConfigsInput {
  /** Only the configs named here (by name or by file); default every config of the workspace. */
  only?: readonly string[];
  principal?: string;
}

/** As EvaluateConfigsProgress, and first each chosen config whose file is not usable (named by file, else name). */
export type WorkspaceConfigsProgress = EvaluateConfigsProgress | { type: 'skipped'; config: string };

export interface WorkspaceConfigsResult extends EvaluateConfigsResult {
  /** How many usable configs were chosen. */
  total: number;
}

/**
 * The workspace's configs (or those of `only`) evaluated with its metrics and metric options, each run saved: the
 * editor's Run Evaluation. Configs whose file is not usable are skipped (reported first; their problems are the
 * editor's diagnostics); none usable is an InputError.
 */
export async function evaluateWorkspaceConfigs(
  session: RanklabSession,
  input: WorkspaceConfigsInput,
  hooks: { signal?: AbortSignal; progress?: (event: WorkspaceConfigsProgress) => void } = {},
): Promise<WorkspaceConfigsResult> {
  const { only } = input;
  const listed = session.configEntries().filter((e) => !only || only.includes(e.name) || (e.file && only.includes(e.file)));
  for (const e of listed) if (!e.config) hooks.progress?.({ type: 'skipped', config: e.file ?? e.name });
  const configs = listed.flatMap((e) => (e.config ? [e.config] : []));
  if (configs.length === 0) throw new InputError('no usable ranking config in the workspace');
  const settings = session.workspace.settings;
  const r = await evaluateConfigs(
    session,
    { configs, specs: parseMetricList(settings.metrics), metricOptions: metricOptionsOf(settings), principal: input.principal },
    hooks,
  );
  return { ...r, total: configs.length };
}
