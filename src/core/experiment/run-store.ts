import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../util/diagnostics';
import { writeFileAtomic } from '../util/atomic-write';
import type { Run, SavedRun } from '../run/types';

/** Saved runs live in `.ranklab/runs/<config>[@principal]-<timestamp>.json`; the newest matching one can be reused. */
export function saveRun(runsDir: string, saved: SavedRun): string {
  const stamp = saved.provenance.createdAt.replace(/[:.]/g, '-');
  const who = saved.principal ? `@${saved.principal}` : '';
  const path = join(runsDir, `${safeName(saved.provenance.config)}${who}-${stamp}.json`);
  writeFileAtomic(path, JSON.stringify(saved, null, 1) + '\n');
  return path;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_');
}

export function isSavedRunFile(path: string): boolean {
  if (!path.endsWith('.json') || !existsSync(path)) return false;
  try {
    const head = readFileSync(path, 'utf8').slice(0, 200);
    return head.includes('"ranklab-run@1"');
  } catch {
    return false;
  }
}

export function loadSavedRun(path: string): SavedRun {
  let data: SavedRun;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new InputError(`${path}: not a readable saved run (${(e as Error).message})`);
  }
  if (data?.format !== 'ranklab-run@1' || !Array.isArray(data.queries)) throw new InputError(`${path}: not a Ranklab saved run (format ranklab-run@1)`);
  return data;
}

/** The ranked lists and per-query latencies of a saved run. */
export function runOfSaved(saved: SavedRun): { run: Run; latencies: Map<string, Record<string, number>> } {
  const run: Run = new Map();
  const latencies = new Map<string, Record<string, number>>();
  for (const q of saved.queries) {
    run.set(q.qid, q.docs);
    latencies.set(q.qid, q.latencyMs);
  }
  return { run, latencies };
}

/** Saved run files, newest first. */
export function listSavedRuns(runsDir: string): string[] {
  if (!existsSync(runsDir)) return [];
  return readdirSync(runsDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(runsDir, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
}

/**
 * The newest saved run computed from exactly these inputs (config hash, corpus and judgment
 * fingerprints, principal), so `compare` can reuse it instead of running the config again.
 */
export function findCachedRun(runsDir: string, key: { configHash: string; corpus: string; judgments: string; principal?: string }): { path: string; saved: SavedRun } | undefined {
  for (const path of listSavedRuns(runsDir)) {
    let saved: SavedRun;
    try {
      saved = loadSavedRun(path);
    } catch {
      continue;
    }
    const p = saved.provenance;
    if (p.configHash === key.configHash && p.corpus === key.corpus && p.judgments === key.judgments && (saved.principal ?? undefined) === key.principal) return { path, saved };
  }
  return undefined;
}
