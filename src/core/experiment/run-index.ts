/**
 * The run store's index: a small file of run summaries (config, principal, time, headline metrics, query count,
 * fingerprints: what pickers and the status bar need) beside the runs, so that opening the store reads one small file
 * instead of parsing every run. Per-query details are read from a run's own file only when asked for (`load`).
 *
 * The index is a cache, never trusted over the run files: on `open` every run file is listed and its size and
 * modification time compared with the index; only new or changed files are read, entries of removed files are
 * dropped, and a missing, unreadable or older-version index is rebuilt from the files. `refresh(name)` (a file
 * watcher event) re-reads that one file. The index is written atomically, and only when it changed.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write';
import { sealJson, unsealJson } from '../util/content-hash';
import type { SavedRun } from '../run/types';
import { loadSavedRun, readSavedRun } from '../run/run-format';
import { isRunFile, runFilePath, runIdOfFile } from '../run/run-files';
import { pruneComparisonCache } from './comparison-cache';

/** Hidden: never taken for a run by anything that lists the folder (run-files.ts). */
export const RUN_INDEX_FILE = '.index';
// @2: summaries' latencies spell the stage `fuse` (stages.ts); an @1 index is dropped and its runs read again.
const INDEX_FORMAT = 'ranklab-run-index@2';

/** A saved run without its per-query details. */
export interface RunSummary
  extends Pick<SavedRun, 'format' | 'provenance' | 'metricSpecs' | 'metrics' | 'latency' | 'annRecall' | 'principal'> {
  /** File name without `.json.gz` (or `.json`): the run's id for the editor. */
  id: string;
  queryCount: number;
  failedQueries: number;
}

interface IndexEntry {
  size: number;
  mtimeMs: number;
  summary?: RunSummary;
  /** Why the file is not a usable run (kept so that an unchanged broken file is not read again). */
  problem?: string;
}

export interface RunListing {
  /** Oldest first (by creation time, then id), so "latest run" is the last one. */
  summaries: RunSummary[];
  /** `file: message` for every run file that could not be used. */
  problems: string[];
}

export function summaryOf(id: string, saved: SavedRun): RunSummary {
  const { format, provenance, metricSpecs, metrics, latency, annRecall, principal } = saved;
  return {
    id,
    format,
    provenance,
    metricSpecs,
    metrics,
    latency,
    ...(annRecall !== undefined && { annRecall }),
    ...(principal !== undefined && { principal }),
    queryCount: saved.queries.length,
    failedQueries: saved.failedQueries?.length ?? 0,
  };
}

export class RunIndex {
  private entries = new Map<string, IndexEntry>();
  private opened = false;
  /** Files read (parsed in full) since construction: what the index saves, observable by tests and logs. */
  filesRead = 0;

  constructor(
    readonly dir: string,
    private readonly log?: (message: string) => void,
  ) {}

  /** Reads the index once and brings it up to date with the folder (see the module comment). */
  open(): RunListing {
    if (!this.opened) {
      this.entries = readIndex(join(this.dir, RUN_INDEX_FILE));
      this.opened = true;
    }
    return this.reconcile();
  }

  /** Brings the index up to date with the folder: stats every run file, reads only new or changed ones. */
  reconcile(): RunListing {
    const names = existsSync(this.dir) ? readdirSync(this.dir).filter(isRunFile) : [];
    let changed = false;
    for (const name of this.entries.keys()) {
      if (!names.includes(name)) {
        this.entries.delete(name);
        changed = true;
      }
    }
    for (const name of names) changed = this.update(name) || changed;
    if (changed) {
      this.write();
      // Comparisons of runs no longer here are dropped (comparison-cache.ts).
      pruneComparisonCache(
        this.dir,
        names.map((n) => runIdOfFile(n)!),
      );
    }
    return this.listing();
  }

  /** One file (name or path) created, changed or deleted (a watcher event): only that file is read. */
  refresh(file: string): RunListing {
    if (!this.opened) return this.open();
    const name = basename(file);
    if (isRunFile(name) && this.update(name)) this.write();
    return this.listing();
  }

  /**
   * A run file this process's writer has just saved, with the summary it already has (summaryOf the SavedRun it
   * encoded): entered with the file's stat, so the watcher's event for it finds it unchanged and nothing is decoded.
   * Only once the index is open (before, `open` reads the folder anyway).
   */
  learn(file: string, summary: RunSummary): RunListing {
    const name = basename(file);
    if (!this.opened || !isRunFile(name) || summary.id !== runIdOfFile(name)) return this.opened ? this.listing() : this.open();
    try {
      const st = statSync(join(this.dir, name));
      if (!st.isFile()) throw new Error('not a file');
      const old = this.entries.get(name);
      if (old && old.size === st.size && old.mtimeMs === st.mtimeMs) return this.listing(); // the watcher came first
      this.entries.set(name, { size: st.size, mtimeMs: st.mtimeMs, summary });
      this.write();
    } catch {
      this.update(name); // gone or not a file: as a watcher event would see it
    }
    return this.listing();
  }

  listing(): RunListing {
    const summaries: RunSummary[] = [];
    const problems: string[] = [];
    for (const [name, e] of this.entries) {
      if (e.summary) summaries.push(e.summary);
      else problems.push(`${name}: ${e.problem ?? 'not a usable run'}; file skipped`);
    }
    summaries.sort((a, b) => a.provenance.createdAt.localeCompare(b.provenance.createdAt) || a.id.localeCompare(b.id));
    return { summaries, problems: problems.sort() };
  }

  /** A run's full details, read from its file now. */
  load(id: string): SavedRun {
    return this.loadChecked(id).saved;
  }

  /** load, saying whether the file carried a content hash (it was checked when it did). */
  loadChecked(id: string): { saved: SavedRun; sealed: boolean } {
    this.filesRead++;
    return readSavedRun(runFilePath(this.dir, id));
  }

  /** Updates one entry from the file's stat (reading the file only when it is new or changed); true when it changed. */
  private update(name: string): boolean {
    const path = join(this.dir, name);
    let size: number;
    let mtimeMs: number;
    try {
      const st = statSync(path);
      if (!st.isFile()) throw new Error('not a file');
      ({ size, mtimeMs } = st);
    } catch {
      return this.entries.delete(name);
    }
    const old = this.entries.get(name);
    if (old && old.size === size && old.mtimeMs === mtimeMs) return false;
    const id = runIdOfFile(name)!;
    try {
      this.filesRead++;
      this.entries.set(name, { size, mtimeMs, summary: summaryOf(id, loadSavedRun(path)) });
    } catch (e) {
      // loadSavedRun's message starts with the path; the listing names the file itself.
      this.entries.set(name, { size, mtimeMs, problem: (e as Error).message.replace(`${path}: `, '') });
    }
    return true;
  }

  private write(): void {
    try {
      writeFileAtomic(
        join(this.dir, RUN_INDEX_FILE),
        sealJson(JSON.stringify({ format: INDEX_FORMAT, runs: Object.fromEntries(this.entries) }) + '\n'),
      );
    } catch (e) {
      // A read-only folder still lists its runs; the index is only a cache.
      this.log?.(`run index not written: ${(e as Error).message}`);
    }
  }
}

/** The entries of an index file; empty (so everything is read again) when it is missing, unreadable or another version. */
function readIndex(path: string): Map<string, IndexEntry> {
  try {
    // An index edited after it was written (or from before hashes) is dropped: every run file is read again.
    const unsealed = unsealJson(readFileSync(path, 'utf8'));
    if (!unsealed.sealed) return new Map();
    const v = JSON.parse(unsealed.text) as { format?: unknown; runs?: Record<string, IndexEntry> };
    if (v.format !== INDEX_FORMAT || typeof v.runs !== 'object' || v.runs === null) return new Map();
    return new Map(
      Object.entries(v.runs).filter(
        ([name, e]) =>
          isRunFile(name) &&
          typeof e?.size === 'number' &&
          typeof e.mtimeMs === 'number' &&
          (usableSummary(name, e.summary) || (!e.summary && typeof e.problem === 'string')),
      ),
    );
  } catch {
    return new Map();
  }
}

/** An entry's summary as the editor needs it; anything else (a hand-edited index) makes the file be read again. */
function usableSummary(name: string, s: RunSummary | undefined): boolean {
  return (
    !!s &&
    s.id === runIdOfFile(name) &&
    typeof s.provenance?.config === 'string' &&
    typeof s.provenance.createdAt === 'string' &&
    typeof s.metrics === 'object' &&
    s.metrics !== null &&
    Array.isArray(s.metricSpecs) &&
    typeof s.queryCount === 'number'
  );
}
