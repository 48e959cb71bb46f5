// The corpus snapshot's JSON Lines format (ranklab-corpus-snapshot@2), as src/core/corpus/snapshot.ts was before the
// binary format (@3): kept only so that bench/snapshot.ts measures the old reader and writer beside the new ones.
import { createHash } from 'node:crypto';
import { writeFileAtomicChunks } from '../../src/core/util/atomic-write';
import { ContentHashMismatch } from '../../src/core/util/content-hash';
import { fileLines } from '../../src/core/util/text-lines';
import type { CorpusSnapshot, SnapshotFile } from '../../src/core/corpus/load';

/**
 * The corpus snapshot on disk, as JSON Lines: a header line, then per file one line of its stat, diagnostics
 * and fields seen, followed by one line per document; a last line counts the files and carries the sha256 of
 * every line before it (each as UTF-8 followed by "\n": the file's bytes up to that line, as written). Written
 * and read line by line, hashed as it goes, so its size is not bounded by V8's ~512 MB string limit (the
 * single-JSON format of before could not be written for a corpus over that size: issue 32). The snapshot holds
 * the documents of unchanged files, so one edited after it was written would put documents in the corpus that
 * no file has: a hash that does not match, a file cut short (no last line) and the older formats (from before
 * this one, or before hashes) are not used; every corpus file is then read again.
 */
const FORMAT = 'ranklab-corpus-snapshot@2';

type FileLine = {
  path: string;
  mtimeMs: number;
  size: number;
  diagnostics: SnapshotFile['diagnostics'];
  fieldsSeen: string[];
  docs: number;
};
type LastLine = { end: number; sha256: string };

/** The lines of a snapshot, without line ends and without the last line. */
function* contentLines(snapshot: CorpusSnapshot): Generator<string, void, void> {
  yield JSON.stringify({ format: FORMAT, settingsKey: snapshot.settingsKey });
  for (const [path, f] of snapshot.files) {
    const head: FileLine = {
      path,
      mtimeMs: f.mtimeMs,
      size: f.size,
      diagnostics: f.diagnostics,
      fieldsSeen: f.fieldsSeen,
      docs: f.docs.length,
    };
    yield JSON.stringify(head);
    for (const doc of f.docs) yield JSON.stringify(doc);
  }
}

/** Every line with its "\n", hashed as it goes, then the last line with that hash. */
function* snapshotChunks(snapshot: CorpusSnapshot): Generator<string, void, void> {
  const hash = createHash('sha256');
  for (const line of contentLines(snapshot)) {
    const chunk = `${line}\n`;
    hash.update(chunk);
    yield chunk;
  }
  const last: LastLine = { end: snapshot.files.size, sha256: hash.digest('hex') };
  yield `${JSON.stringify(last)}\n`;
}

/** The text of a snapshot file (small corpora, tests); files are written with `writeSnapshotFile`. */
export function serializeSnapshot(snapshot: CorpusSnapshot): string {
  return [...snapshotChunks(snapshot)].join('');
}

/** Writes the snapshot atomically, line by line; throws what the file system throws. */
export function writeSnapshotFile(path: string, snapshot: CorpusSnapshot): void {
  writeFileAtomicChunks(path, snapshotChunks(snapshot));
}

/**
 * Reads a snapshot file; undefined when it is not one that can be used (then the corpus is read from scratch).
 * `log` is told why when the file is one of this format that was changed or cut short after it was written.
 */
export function readSnapshotFile(path: string, log?: (message: string) => void): CorpusSnapshot | undefined {
  const lines = fileLines(path);
  const first = lines.next();
  if (first.done || !isHeader(first.value.text)) {
    lines.return(); // an older format (or none): not read further
    return undefined;
  }
  return fromLines(first.value.text, texts(lines), log);
}

function* texts(lines: Iterator<{ text: string }>): Generator<string, void, void> {
  for (let r = lines.next(); !r.done; r = lines.next()) yield r.value.text;
}

/** `readSnapshotFile` of a snapshot's text (`serializeSnapshot`). */
export function parseSnapshot(text: string, log?: (message: string) => void): CorpusSnapshot | undefined {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const header = lines[0] ?? '';
  return isHeader(header) ? fromLines(header, lines.slice(1), log) : undefined;
}

function isHeader(line: string): boolean {
  return line.startsWith(`{"format":"${FORMAT}"`);
}

/** The snapshot of a header and the lines after it; every line is hashed (even past a broken one) and checked first. */
function fromLines(header: string, rest: Iterable<string>, log?: (message: string) => void): CorpusSnapshot | undefined {
  const hash = createHash('sha256').update(`${header}\n`);
  const parsed = new SnapshotParser(header);
  let held: string | undefined; // the line last read: content once another follows, else the last line
  for (const line of rest) {
    if (held !== undefined) {
      hash.update(`${held}\n`);
      parsed.take(held);
    }
    held = line;
  }
  const last = lastLine(held);
  const notReused = (why: string) => {
    log?.(`corpus snapshot not reused: ${why}; every file is read again`);
    return undefined;
  };
  if (!last) return notReused('it ends before its last line (cut short after it was written)');
  const actual = hash.digest('hex');
  if (actual !== last.sha256) return notReused(new ContentHashMismatch(last.sha256, actual).message);
  return parsed.result(last.end);
}

function lastLine(line: string | undefined): LastLine | undefined {
  try {
    const v = JSON.parse(line ?? '') as Partial<LastLine>;
    return typeof v?.sha256 === 'string' && typeof v.end === 'number' ? (v as LastLine) : undefined;
  } catch {
    return undefined;
  }
}

/** The file and document lines, in order; anything unexpected makes it no snapshot (it never throws). */
class SnapshotParser {
  private readonly settingsKey: string | undefined;
  private readonly files = new Map<string, SnapshotFile>();
  private current: SnapshotFile | undefined;
  /** Document lines still to come for `current`. */
  private expected = 0;
  private broken = false;

  constructor(header: string) {
    try {
      const h = JSON.parse(header) as { format?: unknown; settingsKey?: unknown };
      if (h.format === FORMAT && typeof h.settingsKey === 'string') this.settingsKey = h.settingsKey;
    } catch {
      // not a header: broken below
    }
    this.broken = this.settingsKey === undefined;
  }

  take(line: string): void {
    if (this.broken) return;
    try {
      if (this.expected > 0) {
        this.current!.docs.push(JSON.parse(line) as SnapshotFile['docs'][number]);
        this.expected--;
        return;
      }
      const f = JSON.parse(line) as FileLine;
      if (
        typeof f?.path !== 'string' ||
        typeof f.mtimeMs !== 'number' ||
        typeof f.size !== 'number' ||
        !Number.isInteger(f.docs) ||
        f.docs < 0
      ) {
        this.broken = true;
        return;
      }
      this.current = {
        mtimeMs: f.mtimeMs,
        size: f.size,
        docs: [],
        diagnostics: Array.isArray(f.diagnostics) ? f.diagnostics : [],
        fieldsSeen: Array.isArray(f.fieldsSeen) ? f.fieldsSeen : [],
      };
      this.files.set(f.path, this.current);
      this.expected = f.docs;
    } catch {
      this.broken = true;
    }
  }

  /** The snapshot, when every line was as expected and `files` files were read. */
  result(files: number): CorpusSnapshot | undefined {
    if (this.broken || this.expected > 0 || files !== this.files.size) return undefined;
    return { settingsKey: this.settingsKey!, files: this.files };
  }
}
