/**
 * Reads saved runs (`<workspace>/.ranklab/runs/*.json`, format `ranklab-run@1`) and the few
 * `ranklab.json` settings the editor needs (baseline, gain, relevance threshold).
 * No `vscode` import (unit-testable). The checks and settings come from the core; this adds the listing with
 * problems per file that the dashboard shows.
 * A broken file is reported (file: message) and skipped; the other runs still load.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { SavedRun } from '../core/run/types';
import type { MetricOptions } from '../core/metrics/context';
import { checkSavedRun } from '../core/experiment/run-store';
import { formatDiagnostic } from '../core/util/diagnostics';
import { SETTINGS_FILE, loadWorkspace } from '../core/workspace';

export const DEFAULT_RUNS_FOLDER = '.ranklab/runs';

export interface StoredRun {
  /** File name without `.json`: stable id used by the dashboard and commands. */
  id: string;
  file: string;
  run: SavedRun;
}

export interface RunStoreResult {
  runs: StoredRun[];
  problems: string[];
}

export function readSavedRuns(workspaceRoot: string, runsFolder = DEFAULT_RUNS_FOLDER): RunStoreResult {
  const dir = path.resolve(workspaceRoot, runsFolder);
  const result: RunStoreResult = { runs: [], problems: [] };
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return result;
  const names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  for (const name of names) {
    const file = path.join(dir, name);
    const rel = path.relative(workspaceRoot, file);
    try {
      const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      const problem = checkSavedRun(value);
      if (problem) {
        result.problems.push(`${rel}: ${problem}; file skipped`);
        continue;
      }
      result.runs.push({ id: name.slice(0, -'.json'.length), file, run: value as SavedRun });
    } catch (e) {
      result.problems.push(`${rel}: ${(e as Error).message}; file skipped`);
    }
  }
  // Oldest first, so "latest run" is the last one.
  result.runs.sort((a, b) => a.run.provenance.createdAt.localeCompare(b.run.provenance.createdAt) || a.id.localeCompare(b.id));
  return result;
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
    out.metricOptions = { gain: settings.gain, relevanceThreshold: settings.relevanceThreshold, ...(settings.judgedOnly && { judgedOnly: true }) };
    out.problems = ws.diagnostics.filter((d) => d.severity === 'error').map(formatDiagnostic);
  } catch (e) {
    out.problems.push(`${SETTINGS_FILE}: ${(e as Error).message}`);
  }
  return out;
}
