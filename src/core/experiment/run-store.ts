import { existsSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError } from '../util/diagnostics';
import { writeFileAtomic } from '../util/atomic-write';
import { stableStringify } from '../config/defaults';
import type { ComparisonSide } from './compare';
import type { Run, RunAccess, SavedRun } from '../run/types';
import { stageCandidatesOfSaved } from './stage-recall';
import { RUN_FORMATS, encodeRunFile, runFileText } from '../run/run-format';
import { RunIndex } from './run-index';
import { pruneComparisonCache } from './comparison-cache';
import { isRunFile, runFileName, runFilePath, runIdOfFile } from '../run/run-files';

export { UNSEALED_RUN_WARNING, checkSavedRun, loadSavedRun, readSavedRun } from '../run/run-format';

/**
 * Saved runs live in `.ranklab/runs/<config>[@principal]-<timestamp>.json.gz` (gzipped compact format, see run-format.ts;
 * older runs end in `.json`, see run-files.ts); the
 * newest matching one can be reused. Then the retention rule runs (`keep`, ranklab.json `runs.keep`); every run it
 * removes is told to `log`.
 */
export function saveRun(runsDir: string, saved: SavedRun, keep = RUNS_KEPT_PER_CONFIG, log?: (message: string) => void): string {
  const stamp = saved.provenance.createdAt.replace(/[:.]/g, '-');
  const stem = `${safeName(saved.provenance.config)}${saved.principal ? `@${safeName(saved.principal)}` : ''}`;
  const path = join(runsDir, runFileName(`${stem}-${stamp}`));
  writeFileAtomic(path, encodeRunFile(saved));
  const removed = pruneRuns(runsDir, stem, keep);
  for (const f of removed) log?.(`removed the older run ${f} (keeping the newest ${keep} of ${stem}: ranklab.json "runs.keep")`);
  if (removed.length > 0)
    pruneComparisonCache(
      runsDir,
      readdirSync(runsDir).flatMap((f) => runIdOfFile(f) ?? []),
    );
  return path;
}

/** Saved runs kept per config (and principal) unless ranklab.json `runs.keep` says otherwise; 0 keeps every run. */
export const RUNS_KEPT_PER_CONFIG = 20;

/** Pinned runs (file names; a pin holds the run whichever its extension): never removed by retention. The editor pins the run chosen as baseline. */
export const PINS_FILE = '.pins';

export function pinnedRuns(runsDir: string): Set<string> {
  try {
    const v = JSON.parse(readFileSync(join(runsDir, PINS_FILE), 'utf8')) as unknown;
    return new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Pins (or unpins) the run `id` (its file, `.json.gz` or older `.json`) so that retention never removes it. */
export function setPinned(runsDir: string, id: string, pinned: boolean): void {
  const pins = pinnedRuns(runsDir);
  const mine = [...pins].filter((f) => runIdOfFile(f) === id);
  if (mine.length > 0 === pinned) return;
  if (pinned) pins.add(basename(runFilePath(runsDir, id)));
  else for (const f of mine) pins.delete(f);
  writeFileAtomic(join(runsDir, PINS_FILE), JSON.stringify([...pins].sort()) + '\n');
}

/**
 * Retention: keeps the newest `keep` runs of one config and principal (0: all). Runs are Ranklab's own files (the
 * folder is git-ignored); only files this module named, `<stem>-<ISO time>` with a run file's extension (`.json.gz`,
 * or `.json` before), are ever removed, and never a pinned one. Returns the names removed.
 */
function pruneRuns(runsDir: string, stem: string, keep: number): string[] {
  if (keep <= 0) return [];
  const pattern = new RegExp(`^${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z$`);
  const idOf = (f: string) => runIdOfFile(f) ?? '';
  // ISO times sort by id, whichever the extension.
  const mine = readdirSync(runsDir)
    .filter((f) => pattern.test(idOf(f)))
    .sort((a, b) => idOf(a).localeCompare(idOf(b)) || a.localeCompare(b));
  const pins = new Set([...pinnedRuns(runsDir)].map(idOf));
  const removed: string[] = [];
  for (const f of mine.slice(0, Math.max(0, mine.length - keep))) {
    if (pins.has(idOf(f))) continue;
    try {
      unlinkSync(join(runsDir, f));
      removed.push(f);
    } catch {
      // already gone (another process pruned it)
    }
  }
  return removed;
}

function safeName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '_');
}

export function isSavedRunFile(path: string): boolean {
  if (!isRunFile(basename(path)) || !existsSync(path)) return false;
  try {
    const head = runFileText(readFileSync(path)).slice(0, 200);
    return RUN_FORMATS.some((f) => head.includes(`"${f}"`));
  } catch {
    return false;
  }
}

/** A saved run as one side of a comparison: its config name, ranked lists, latencies and principal (null: none). */
export function comparisonSideOf(saved: SavedRun): ComparisonSide {
  refuseIncomplete(saved.provenance.config, saved.failedQueries ?? []);
  return {
    name: saved.provenance.config,
    ...runOfSaved(saved),
    stageIds: stageCandidatesOfSaved(saved),
    principal: saved.principal ?? null,
  };
}

/**
 * A run with queries an engine could not answer is not compared (nor gated): its means are over fewer queries, so
 * the two sides would not be paired, and an outage would read as a ranking change.
 */
export function refuseIncomplete(name: string, failed: readonly { qid: string; error: string }[]): void {
  if (failed.length === 0) return;
  const shown = failed
    .slice(0, 3)
    .map((f) => `${f.qid} (${f.error})`)
    .join('; ');
  throw new InputError(
    `${name}: ${failed.length} quer${failed.length === 1 ? 'y' : 'ies'} failed against the engine, so the run is incomplete and is not compared: ${shown}${failed.length > 3 ? ' …' : ''}. Run it again when the engine answers.`,
  );
}

/** A document's title as the run stored it (`SavedRun.titles`); undefined when it has none (older runs, deeper ranks). */
export function savedTitle(saved: Pick<SavedRun, 'titles'>, id: string): string | undefined {
  const titles = saved.titles;
  // Own string values only: an id such as "constructor" must not find Object.prototype's.
  return titles && Object.prototype.hasOwnProperty.call(titles, id) && typeof titles[id] === 'string' ? titles[id] : undefined;
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

/** Everything that shapes a run's results; a saved run is reused only when all of it is equal. */
export interface RunKey {
  /** Config name (for messages; the config itself is compared by its hash). */
  config: string;
  configHash: string;
  corpus: string;
  judgments: string;
  principal?: string;
  tool: string;
  access: RunAccess;
  models: Record<string, string>;
}

/** Why `saved` cannot stand in for a run with `key` (empty: it can). */
export function reuseMismatches(saved: Pick<SavedRun, 'provenance' | 'principal'>, key: RunKey): string[] {
  const p = saved.provenance;
  const out: string[] = [];
  if (p.configHash !== key.configHash) out.push('config differs');
  if (p.corpus !== key.corpus) out.push('corpus differs');
  if (p.judgments !== key.judgments) out.push('judgments differ');
  if ((saved.principal ?? undefined) !== key.principal) out.push('principal differs');
  if (p.tool !== key.tool) out.push(`tool version differs (${p.tool})`);
  if (!p.access || !p.models) {
    out.push('no record of its access rule and learned models (saved by an earlier version)');
    return out;
  }
  if ((saved.principal ?? undefined) === key.principal && stableStringify(p.access.principal) !== stableStringify(key.access.principal))
    out.push('principal attributes differ');
  if (stableStringify(p.access.rule) !== stableStringify(key.access.rule) || p.access.missingAcl !== key.access.missingAcl)
    out.push('access rule or missingAcl differ');
  if (stableStringify(p.models) !== stableStringify(key.models)) out.push('learned models differ');
  return out;
}

/**
 * The run files findCachedRun decoded last, by path, with the file's identity and stat when read: the editor
 * re-evaluates a config on every save and reuses the same baseline run each time, and decoding it again cost ~0.1 s
 * at 1,000 queries (docs/benchmarks.md, Tune). A file whose inode, size or mtime changed is read (and its content
 * hash checked) again. Callers only read a reused SavedRun, so sharing one is safe.
 */
const lastReads = new Map<string, { stamp: string; read: { saved: SavedRun; sealed: boolean } }>();
const LAST_READS = 4;

function readOnce(index: RunIndex, id: string, path: string): { saved: SavedRun; sealed: boolean } {
  let stamp: string | undefined;
  try {
    const st = statSync(path, { bigint: true });
    stamp = `${st.ino}:${st.size}:${st.mtimeNs}`;
  } catch {
    stamp = undefined; // loadChecked says why
  }
  const kept = lastReads.get(path);
  if (stamp && kept?.stamp === stamp) return kept.read;
  const read = index.loadChecked(id);
  lastReads.delete(path);
  if (stamp) lastReads.set(path, { stamp, read });
  for (const old of lastReads.keys()) if (lastReads.size > LAST_READS) lastReads.delete(old);
  return read;
}

/**
 * The newest saved run computed from exactly these inputs (see RunKey), so `compare`, `eval` and the editor can
 * reuse it instead of running the config again. `explain` hears why the newest run of the same config and
 * principal was or was not reused (`--verbose`).
 */
export function findCachedRun(
  runsDir: string,
  key: RunKey,
  explain?: (message: string) => void,
): { path: string; saved: SavedRun } | undefined {
  // The run index has every run's provenance: only the run that matches is read in full.
  const index = new RunIndex(runsDir);
  let nearest: string | undefined;
  const listing = index.open();
  // A run of this config that cannot be read (one edited after it was written fails its content hash) is not
  // a candidate at all: said here, so that the fresh run has its reason in the log.
  const stem = safeName(key.config);
  for (const problem of listing.problems)
    if (problem.startsWith(`${stem}-`) || problem.startsWith(`${stem}@`))
      explain?.(`${key.config}: not reusing ${problem.replace(/; file skipped$/, '')}; running the config again`);
  for (const summary of listing.summaries.reverse()) {
    const path = runFilePath(runsDir, summary.id);
    const mismatches = reuseMismatches(summary, key);
    if (mismatches.length === 0) {
      let saved: SavedRun;
      try {
        const read = readOnce(index, summary.id, path);
        // A run from before content hashes cannot be shown to be Ranklab's own: like a stale cache, it is run again.
        if (!read.sealed) {
          explain?.(`${key.config}: not reusing ${path}: it has no content hash (saved by an older Ranklab); running the config again`);
          continue;
        }
        saved = read.saved;
        // The listing's summary came from the run index; the run itself must match the key too.
        if (reuseMismatches(saved, key).length > 0) continue;
      } catch (e) {
        // Gone or rewritten since it was listed, or edited after it was written (its hash does not match).
        if (existsSync(path))
          explain?.(`${key.config}: not reusing ${path}: ${(e as Error).message.replace(`${path}: `, '')}; running the config again`);
        continue;
      }
      explain?.(
        `${key.config}: reusing ${path} (same config, corpus, judgments, principal and access rule, tool version and learned models)`,
      );
      return { path, saved };
    }
    if (!nearest && summary.provenance.config === key.config && (summary.principal ?? undefined) === key.principal)
      nearest = `${path}: ${mismatches.join(', ')}`;
  }
  explain?.(
    nearest
      ? `${key.config}: not reusing ${nearest}`
      : `${key.config}: no saved run${key.principal ? ` as ${key.principal}` : ''} to reuse`,
  );
  return undefined;
}
