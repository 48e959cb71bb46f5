import { statSync } from 'node:fs';
import { join } from 'node:path';
import { type Slicer, type Steps, runSliced, runSync } from '../util/cooperative';
import type { Diagnostic } from '../util/diagnostics';
import { fingerprint } from '../util/fingerprint';
import type { Corpus, Document } from './document';
import { compareStrings, listCorpusFiles } from './discover';
import { stableJson } from './make-document';
import { readCorpusFileSteps } from './read-file';
import type { CorpusSettings } from './settings';

/** Bump when a reader changes what it produces, so older snapshots are not reused. */
const READER_VERSION = 4;

/** What one file yielded last time, keyed by its stat so an unchanged file need not be read again. */
export interface SnapshotFile {
  mtimeMs: number;
  size: number;
  docs: Document[];
  diagnostics: Diagnostic[];
  /** Configured field names (settings.fields) some record of the file has. */
  fieldsSeen: string[];
}

export interface CorpusSnapshot {
  /** Identifies the reader version and settings the entries were produced with; a mismatch discards them. */
  settingsKey: string;
  /** By path relative to the workspace root (POSIX slashes). */
  files: Map<string, SnapshotFile>;
  /**
   * The corpus fingerprint of exactly these files in this order, when no id repeats among them (every document is
   * then in the corpus). A start that reuses every file as it is takes it instead of hashing, sorting and checking
   * the ids of every document again: 2-3 s of a warm start at 1M documents.
   */
  assembled?: { fingerprint: string };
}

export interface LoadCorpusResult {
  corpus: Corpus;
  snapshot: CorpusSnapshot;
  /** Files actually read this time (the rest came from the previous snapshot). */
  reread: string[];
  /** Every file that matched the globs, sorted. */
  files: string[];
}

/**
 * Whether `next` is `previous` again: the same settings and files, every entry taken over unread (loadCorpus reuses
 * an unchanged file's entry object), so the file on disk needs no rewrite.
 */
export function sameSnapshot(previous: CorpusSnapshot | undefined, next: CorpusSnapshot): boolean {
  if (!previous || previous.settingsKey !== next.settingsKey || previous.files.size !== next.files.size) return false;
  for (const [rel, entry] of next.files) if (previous.files.get(rel) !== entry) return false;
  return true;
}

export function snapshotSettingsKey(settings: CorpusSettings): string {
  return fingerprint([
    `reader-v${READER_VERSION}`,
    stableJson({
      fields: settings.fields,
      acl: settings.aclFields,
      ruleFields: settings.aclRuleFields,
      max: settings.maxFileBytes,
      maxRecord: settings.maxRecordFileBytes,
    }),
  ]);
}

/**
 * Reads every corpus file matched by `settings.include`/`exclude` under `root` into documents.
 * With `previous`, files whose mtime and size are unchanged are taken from it instead of being re-read.
 * Problems are reported as diagnostics (file + line) and the offending file, record or line is skipped;
 * of two documents with the same id the first (in path, then line order) is kept.
 */
export function loadCorpus(root: string, settings: CorpusSettings, previous?: CorpusSnapshot): LoadCorpusResult {
  return runSync(loadCorpusSteps(root, settings, previous));
}

/** `loadCorpus` that pauses between files (see util/cooperative); stops with the slicer's abort reason. */
export function loadCorpusSliced(
  root: string,
  settings: CorpusSettings,
  slicer: Slicer,
  previous?: CorpusSnapshot,
): Promise<LoadCorpusResult> {
  return runSliced(loadCorpusSteps(root, settings, previous), slicer);
}

function* loadCorpusSteps(root: string, settings: CorpusSettings, previous?: CorpusSnapshot): Steps<LoadCorpusResult> {
  const settingsKey = snapshotSettingsKey(settings);
  const reusable = previous && previous.settingsKey === settingsKey ? previous.files : undefined;
  const files = listCorpusFiles(root, settings);
  const snapshotFiles = new Map<string, SnapshotFile>();
  const reread: string[] = [];
  const diagnostics: Diagnostic[] = [];

  for (const [i, rel] of files.entries()) {
    yield i;
    const abs = join(root, rel);
    let stat: { mtimeMs: number; size: number };
    try {
      stat = statSync(abs);
    } catch (e) {
      diagnostics.push({
        file: rel,
        line: 0,
        severity: 'error',
        message: `cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; skipped`,
      });
      continue;
    }
    const old = reusable?.get(rel);
    if (old && old.mtimeMs === stat.mtimeMs && old.size === stat.size) {
      snapshotFiles.set(rel, old);
      continue;
    }
    reread.push(rel);
    const result = yield* readCorpusFileSteps(abs, rel, stat.size, settings);
    const entry: SnapshotFile = {
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      docs: result.docs,
      diagnostics: result.diagnostics,
      fieldsSeen: result.fieldsSeen,
    };
    if (result.readable) snapshotFiles.set(rel, entry);
    else for (const d of result.diagnostics) diagnostics.push(d);
  }

  if (files.length === 0) {
    diagnostics.push({ file: '.', line: 0, severity: 'warning', message: `no corpus files match ${JSON.stringify(settings.include)}` });
  }

  // With the fingerprint of these very files known (`assembled`), no id repeats: every document is kept as it is.
  const known = previous?.assembled && reread.length === 0 && sameFiles(reusable, snapshotFiles) ? previous.assembled : undefined;
  const docs: Document[] = [];
  const firstSeen = known ? undefined : new Map<string, Document['source']>();
  const fieldsSeen = new Set<string>();
  for (const [rel, entry] of snapshotFiles) {
    for (const d of entry.diagnostics) diagnostics.push(d); // not push(...): a file may have more problems than a call has arguments
    for (const f of entry.fieldsSeen) fieldsSeen.add(f);
    if (firstSeen) keepFirstOfEachId(rel, entry.docs, firstSeen, docs, diagnostics);
    else for (const doc of entry.docs) docs.push(doc);
  }
  const fingerprint = known?.fingerprint ?? corpusFingerprint(docs);
  const assembled = known ?? (docs.length === countDocs(snapshotFiles) ? { fingerprint } : undefined);

  const corpus: Corpus = {
    docs,
    fingerprint,
    diagnostics,
    fieldsSeen: [...fieldsSeen].sort(compareStrings),
  };
  const snapshot: CorpusSnapshot = { settingsKey, files: snapshotFiles };
  if (assembled) snapshot.assembled = assembled;
  return { corpus, snapshot, reread, files };
}

const corpusFingerprint = (docs: Document[]) => fingerprint(docs.map((d) => d.hash).sort(compareStrings));

function countDocs(files: Map<string, SnapshotFile>): number {
  let n = 0;
  for (const entry of files.values()) n += entry.docs.length;
  return n;
}

/** Whether `next` holds the entries of `previous`, the same objects in the same order. */
function sameFiles(previous: Map<string, SnapshotFile> | undefined, next: Map<string, SnapshotFile>): boolean {
  if (!previous || previous.size !== next.size) return false;
  const it = previous.entries();
  for (const [rel, entry] of next) {
    const [prevRel, prevEntry] = it.next().value as [string, SnapshotFile];
    if (prevRel !== rel || prevEntry !== entry) return false;
  }
  return true;
}

/** Of two documents with the same id the first (in path, then line order) is kept; each other one is a diagnostic. */
function keepFirstOfEachId(
  rel: string,
  fileDocs: Document[],
  firstSeen: Map<string, Document['source']>,
  docs: Document[],
  diagnostics: Diagnostic[],
): void {
  for (const doc of fileDocs) {
    const first = firstSeen.get(doc.id);
    if (first) {
      diagnostics.push({
        file: rel,
        line: doc.source.line ?? 0,
        severity: 'error',
        message: `duplicate id "${doc.id}" (first at ${first.path}${first.line ? `:${first.line}` : ''}); skipped`,
      });
      continue;
    }
    firstSeen.set(doc.id, doc.source);
    docs.push(doc);
  }
}
