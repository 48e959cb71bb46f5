/**
 * Saved runs (`<workspace>/.ranklab/runs/*.json.gz`, older `*.json`: src/core/run/run-files.ts) for the editor, and the few `ranklab.json` settings it needs
 * (baseline, gain, relevance threshold). No `vscode` import (unit-testable).
 * The listing comes from the core's run index (src/core/experiment/run-index.ts): summaries read once and kept up
 * to date one file at a time; a run's per-query details are read from its file only when first used (`run`).
 * A broken file is reported (file: message) and skipped; the other runs still load.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { SavedRun } from '../core/run/types';
import type { MetricOptions } from '../core/metrics/context';
import { RunIndex, type RunSummary, summaryOf } from '../core/experiment/run-index';
import { runFilePath } from '../core/run/run-files';
import { formatDiagnostic } from '../core/util/diagnostics';
import { SETTINGS_FILE, loadWorkspace } from '../core/workspace';
import { metricOptionsOf } from '../core/workspace/settings';

export const DEFAULT_RUNS_FOLDER = '.ranklab/runs';

export interface StoredRun {
  /** File name without its extension (`.json.gz`, `.json`): stable id used by the dashboard and commands. */
  id: string;
  file: string;
  /** What pickers, labels and the status bar need, without the per-query details. */
  summary: RunSummary;
  /** The whole run, per-query details included: read from the file on first use, then kept. */
  readonly run: SavedRun;
}

export interface RunStoreResult {
  runs: StoredRun[];
  problems: string[];
}

/** A stored run whose details are already in memory (a run just made, a test fixture). */
export function storedRunOf(id: string, file: string, saved: SavedRun): StoredRun {
  return { id, file, summary: summaryOf(id, saved), run: saved };
}

function lazyRun(file: string, summary: RunSummary, load: () => SavedRun): StoredRun {
  let details: SavedRun | undefined;
  return {
    id: summary.id,
    file,
    summary,
    get run() {
      return (details ??= load());
    },
  };
}

/** The saved runs of one folder, listed from the run index and refreshed one file at a time. */
export class SavedRuns {
  private readonly index: RunIndex;
  /** Kept while a run's summary is unchanged, so details read once are not read again. */
  private readonly known = new Map<string, StoredRun>();

  constructor(
    readonly dir: string,
    readonly workspaceRoot: string,
    log?: (message: string) => void,
  ) {
    this.index = new RunIndex(dir, log);
  }

  /** Files parsed in full so far (index rebuilds, changed files, details on demand). */
  get filesRead(): number {
    return this.index.filesRead;
  }

  /** Every run (oldest first) and the problems of unusable files; the first call opens the index. */
  list(): RunStoreResult {
    if (!existsSync(this.dir)) return { runs: [], problems: [] };
    return this.result(this.index.open());
  }

  /** A watcher event for one file: only that file is read again. */
  refresh(file: string): RunStoreResult {
    return this.result(this.index.refresh(file));
  }

  /** A run this editor's worker just saved, with its summary: listed without decoding the file. */
  learn(file: string, summary: RunSummary): RunStoreResult {
    return this.result(this.index.learn(file, summary));
  }

  private result(listing: ReturnType<RunIndex['listing']>): RunStoreResult {
    const runs = listing.summaries.map((summary) => {
      const old = this.known.get(summary.id);
      if (old && old.summary === summary) return old;
      const run = lazyRun(runFilePath(this.dir, summary.id), summary, () => this.index.load(summary.id));
      this.known.set(summary.id, run);
      return run;
    });
    const ids = new Set(runs.map((r) => r.id));
    for (const id of this.known.keys()) if (!ids.has(id)) this.known.delete(id);
    const rel = path.relative(this.workspaceRoot, this.dir);
    return { runs, problems: listing.problems.map((p) => (rel ? `${rel}${path.sep}${p}` : p)) };
  }
}

export function readSavedRuns(workspaceRoot: string, runsFolder = DEFAULT_RUNS_FOLDER): RunStoreResult {
  return new SavedRuns(path.resolve(workspaceRoot, runsFolder), workspaceRoot).list();
}

export interface WorkspaceSettings {
  baselineConfig?: string;
  metrics?: string[];
  metricOptions: MetricOptions;
  problems: string[];
}

/** The `ranklab.json` settings the editor needs, read by the core's workspace loader (defaults applied there). */
export function readWorkspaceSettings(workspaceRoot: string): WorkspaceSettings {
  const out: WorkspaceSettings = { metricOptions: { gain: 'exp', relevanceThreshold: 1 }, problems: [] };
  if (!existsSync(path.join(workspaceRoot, SETTINGS_FILE))) return out;
  try {
    const ws = loadWorkspace(workspaceRoot);
    const { settings } = ws;
    out.baselineConfig = settings.baseline;
    out.metrics = settings.metrics;
    out.metricOptions = metricOptionsOf(settings);
    out.problems = ws.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
  } catch (e) {
    out.problems.push(`${SETTINGS_FILE}: ${(e as Error).message}`);
  }
  return out;
}
