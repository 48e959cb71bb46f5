import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomicChunks } from '../util/atomic-write';
import { fileLines } from '../util/text-lines';
import type { CorpusSnapshot, SnapshotFile } from './load';
import { MAX_WHOLE_FILE_BYTES } from './read-file';

/**
 * The corpus snapshot on disk, as JSON Lines: a header line, then per file one line of its stat, diagnostics
 * and fields seen, followed by one line per document; a last line counts the files (a file cut short is no
 * snapshot). Written and read line by line, so its size is not
 * bounded by V8's ~512 MB string limit (the single-JSON format of before could not be written for a corpus
 * over that size: issue 32). That older format is still read.
 */
const FORMAT = 'ranklab-corpus-snapshot@2';
const OLD_FORMAT = 'ranklab-corpus-snapshot';

type FileLine = { path: string; mtimeMs: number; size: number; diagnostics: SnapshotFile['diagnostics']; fieldsSeen: string[]; docs: number };

/** The lines of a snapshot, without line ends. */
export function* snapshotLines(snapshot: CorpusSnapshot): Generator<string, void, void> {
  yield JSON.stringify({ format: FORMAT, settingsKey: snapshot.settingsKey });
  for (const [path, f] of snapshot.files) {
    const head: FileLine = { path, mtimeMs: f.mtimeMs, size: f.size, diagnostics: f.diagnostics, fieldsSeen: f.fieldsSeen, docs: f.docs.length };
    yield JSON.stringify(head);
    for (const doc of f.docs) yield JSON.stringify(doc);
  }
  yield JSON.stringify({ end: snapshot.files.size });
}

/** JSON text of a snapshot (small corpora, tests); files are written with `writeSnapshotFile`. */
export function serializeSnapshot(snapshot: CorpusSnapshot): string {
  return [...snapshotLines(snapshot)].join('\n') + '\n';
}

/** Writes the snapshot atomically, line by line; throws what the file system throws. */
export function writeSnapshotFile(path: string, snapshot: CorpusSnapshot): void {
  writeFileAtomicChunks(path, withNewlines(snapshotLines(snapshot)));
}

function* withNewlines(lines: Iterable<string>): Generator<string, void, void> {
  for (const line of lines) yield `${line}\n`;
}

/** Reads a snapshot file; undefined when it is not one (then the corpus is read from scratch). */
export function readSnapshotFile(path: string): CorpusSnapshot | undefined {
  const lines = fileLines(path);
  const first = lines.next();
  if (first.done) return undefined;
  if (!first.value.text.includes(`"${FORMAT}"`)) {
    lines.return();
    // the older single-JSON format, when it fits in one string
    return statSync(path).size <= MAX_WHOLE_FILE_BYTES ? parseSnapshot(readFileSync(path, 'utf8')) : undefined;
  }
  return fromLines(first.value.text, { [Symbol.iterator]: () => lines });
}

/** Reads a snapshot written by `serializeSnapshot` (or by the older single-JSON format); undefined when the text is not one. */
export function parseSnapshot(text: string): CorpusSnapshot | undefined {
  const lines = text.split('\n');
  if (lines[0]?.includes(`"${FORMAT}"`)) return fromLines(lines[0], lines.slice(1).filter((l) => l !== '').values());
  return parseOldSnapshot(text);
}

function fromLines(header: string, rest: Iterable<string | { text: string }>): CorpusSnapshot | undefined {
  try {
    const h = JSON.parse(header) as { format?: unknown; settingsKey?: unknown };
    if (h.format !== FORMAT || typeof h.settingsKey !== 'string') return undefined;
    const files = new Map<string, SnapshotFile>();
    let current: SnapshotFile | undefined;
    let expected = 0;
    let ended = false;
    for (const item of rest) {
      const line = typeof item === 'string' ? item : item.text;
      if (expected > 0) {
        current!.docs.push(JSON.parse(line));
        expected--;
        continue;
      }
      if (line === '') continue;
      if (ended) return undefined; // lines after the end
      const f = JSON.parse(line) as FileLine | { end: number };
      if ('end' in f) {
        if (f.end !== files.size) return undefined;
        ended = true;
        continue;
      }
      if (typeof f.path !== 'string' || typeof f.mtimeMs !== 'number' || typeof f.size !== 'number' || !Number.isInteger(f.docs)) return undefined;
      current = { mtimeMs: f.mtimeMs, size: f.size, docs: [], diagnostics: Array.isArray(f.diagnostics) ? f.diagnostics : [], fieldsSeen: Array.isArray(f.fieldsSeen) ? f.fieldsSeen : [] };
      files.set(f.path, current);
      expected = f.docs;
    }
    return ended ? { settingsKey: h.settingsKey, files } : undefined;
  } catch {
    return undefined;
  }
}

function parseOldSnapshot(text: string): CorpusSnapshot | undefined {
  try {
    const raw = JSON.parse(text) as { format?: unknown; settingsKey?: unknown; files?: unknown };
    if (raw.format !== OLD_FORMAT || typeof raw.settingsKey !== 'string') return undefined;
    if (!raw.files || typeof raw.files !== 'object') return undefined;
    const files = new Map<string, SnapshotFile>();
    for (const [path, entry] of Object.entries(raw.files as Record<string, SnapshotFile>)) {
      if (typeof entry?.mtimeMs !== 'number' || typeof entry.size !== 'number' || !Array.isArray(entry.docs)) return undefined;
      files.set(path, { mtimeMs: entry.mtimeMs, size: entry.size, docs: entry.docs, diagnostics: entry.diagnostics ?? [], fieldsSeen: Array.isArray(entry.fieldsSeen) ? entry.fieldsSeen : [] });
    }
    return { settingsKey: raw.settingsKey, files };
  } catch {
    return undefined;
  }
}
