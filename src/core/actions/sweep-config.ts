/**
 * The user action "sweep" (`ranklab sweep`, the editor's Sweep Parameter through the worker): BASE, a config of the
 * workspace, and its JSON as written (comments allowed, as in any *.rank.json: each combination is that JSON with
 * its values set), evaluated with every combination of the variations (core tuning/sweep.ts runSweep) after the
 * corpus is read. Nothing is written. The signal stops it with its reason; progress comes after each evaluated config.
 */
import type { RankConfig } from '../config';
import type { EvaluateOptions as MetricOptions, MetricSpec } from '../metrics';
import type { ConfigEntry, RanklabSession } from '../session/session';
import type { Variation } from '../tuning/parameters';
import { type SweepResult, type SweepSearch, runSweep } from '../tuning/sweep';
import { parseJsonWithLocations } from '../util/json-source';
import { readUserText } from '../util/text-file';
import { metricOptionsOf } from '../workspace/settings';

/** BASE: its entry (usable or not: the caller may report its problems first) and its JSON as written. */
export interface SweepBase {
  entry: ConfigEntry;
  raw: Record<string, unknown>;
  /** The lexical fields BASE searches as written (what `--vary` paths such as lexical.fields.X are checked against). */
  fields: string[];
}

/** BASE by name or path (or its entry); a built-in config (no file) is an empty JSON object. */
export function sweepBase(session: RanklabSession, base: string | ConfigEntry): SweepBase {
  const entry = typeof base === 'string' ? session.configEntry(base) : base;
  const raw = entry.file ? rawConfig(entry.file, session.relativePath(entry.file)) : {};
  // Without fields of its own, BASE searches the default ones.
  const fields = Object.keys((raw.lexical as { fields?: object } | undefined)?.fields ?? { title: 1, body: 1 });
  return { entry, raw, fields };
}

export interface SweepConfigInput {
  /** BASE by name or path, or as sweepBase read it. */
  base: string | SweepBase;
  variations: Variation[];
  objective: MetricSpec;
  /** Default: the workspace's (ranklab.json gain, relevanceThreshold, judgedOnly). */
  metricOptions?: MetricOptions;
  /** Default: the whole grid. */
  search?: SweepSearch;
  /** K-fold cross-validation instead of the tune/holdout split. */
  folds?: number;
  /**
   * Rows with the full holdout comparison (bootstrap CI, permutation p); default every point of the grid, so the
   * whole curve has them and not only the best few.
   */
  top?: number;
}

/** After each evaluated config: how many of `total` (BASE and the combinations) are done. */
export interface SweepConfigProgress {
  done: number;
  total: number;
  label: string;
}

export interface SweepConfigHooks {
  signal?: AbortSignal;
  progress?: (event: SweepConfigProgress) => void;
}

/** BASE not usable (an error in its file) is an InputError naming the file and line, before anything is run. */
export async function sweepConfig(session: RanklabSession, input: SweepConfigInput, hooks: SweepConfigHooks = {}): Promise<SweepResult> {
  const { signal, progress } = hooks;
  const entry = typeof input.base === 'string' ? session.configEntry(input.base) : input.base.entry;
  const base: RankConfig = session.usable(entry); // its problems (file and line) before its JSON is read
  const { raw } = typeof input.base === 'string' ? sweepBase(session, entry) : input.base;
  await session.loadCorpus(session.work(signal));
  return runSweep(session, {
    base,
    raw,
    variations: input.variations,
    search: input.search ?? { kind: 'grid' },
    objective: input.objective,
    metricOptions: input.metricOptions ?? metricOptionsOf(session.workspace.settings),
    folds: input.folds,
    top: input.top ?? input.variations.reduce((n, v) => n * v.values.length, 1),
    signal,
    onProgress: progress && ((done, total, label) => progress({ done, total, label })),
  });
}

/** BASE as written; anything but an object (an error its entry reports) is taken as `{}`. */
function rawConfig(file: string, display: string): Record<string, unknown> {
  const value = parseJsonWithLocations(readUserText(file, display), { comments: true }).value;
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
