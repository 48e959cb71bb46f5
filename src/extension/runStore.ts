/**
 * Reads saved runs (`<workspace>/.ranklab/runs/*.json`, format `ranklab-run@1`) and the few
 * `ranklab.json` settings the editor needs (baseline, gain, relevance threshold).
 * No `vscode` import: unit-testable and usable until the core's experiment store exists.
 * A broken file is reported (file: message) and skipped; the other runs still load.
 */
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { SavedRun } from '../core/run/types';
import type { MetricOptions } from '../core/metrics/context';
import { parseJsonWithLocations } from '../core/util/json-source';

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

/** Minimal structural check of a saved run; returns what is wrong, or undefined. */
export function checkSavedRun(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return 'not a JSON object';
  const r = v as Record<string, unknown>;
  if (r.format !== 'ranklab-run@1') return `format is ${JSON.stringify(r.format)}, expected "ranklab-run@1"`;
  const prov = r.provenance as Record<string, unknown> | undefined;
  if (!prov || typeof prov.config !== 'string' || typeof prov.createdAt !== 'string') return 'provenance.config and provenance.createdAt are required';
  if (!Array.isArray(r.metricSpecs)) return 'metricSpecs must be a list';
  if (typeof r.metrics !== 'object' || r.metrics === null) return 'metrics must be an object';
  if (!Array.isArray(r.queries)) return 'queries must be a list';
  for (const [i, q] of (r.queries as unknown[]).entries()) {
    const qr = q as Record<string, unknown>;
    if (!qr || typeof qr.qid !== 'string' || !Array.isArray(qr.docs) || typeof qr.metrics !== 'object') {
      return `queries[${i}] needs qid, docs and metrics`;
    }
  }
  return undefined;
}

export interface WorkspaceSettings {
  baselineConfig?: string;
  metrics?: string[];
  metricOptions: MetricOptions;
  problems: string[];
}

/** The `ranklab.json` keys the editor reads; everything else is the core's business. */
export function readWorkspaceSettings(workspaceRoot: string): WorkspaceSettings {
  const file = path.join(workspaceRoot, 'ranklab.json');
  const out: WorkspaceSettings = { metricOptions: { gain: 'exp', relevanceThreshold: 1 }, problems: [] };
  if (!existsSync(file)) return out;
  try {
    const { value } = parseJsonWithLocations(readFileSync(file, 'utf8'), { comments: true, maxDepth: 0 });
    const v = (value ?? {}) as Record<string, unknown>;
    if (typeof v.baseline === 'string') out.baselineConfig = v.baseline;
    if (Array.isArray(v.metrics)) out.metrics = v.metrics.filter((m): m is string => typeof m === 'string');
    if (v.gain === 'linear' || v.gain === 'exp') out.metricOptions.gain = v.gain;
    if (typeof v.relevanceThreshold === 'number') out.metricOptions.relevanceThreshold = v.relevanceThreshold;
  } catch (e) {
    out.problems.push(`ranklab.json: ${(e as Error).message}`);
  }
  return out;
}
