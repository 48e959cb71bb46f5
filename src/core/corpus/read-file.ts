import { readFileSync } from 'node:fs';
import type { Diagnostic } from '../util/diagnostics';
import { type Steps, runSync } from '../util/cooperative';
import { binaryReason, decodeText, readHead } from '../util/text-file';
import { fileLines } from '../util/text-lines';
import type { Document } from './document';
import { readHtml } from './readers/html';
import { readMarkdown } from './readers/markdown';
import { jsonlSteps, readJsonl, readJsonRecords } from './readers/records';
import { readText } from './readers/text';
import type { CorpusReader, ReadResult } from './readers/types';
import type { CorpusSettings } from './settings';

/** Reader by lower-case file extension. */
export const READERS: Record<string, CorpusReader> = {
  '.md': readMarkdown,
  '.markdown': readMarkdown,
  '.txt': readText,
  '.html': readHtml,
  '.htm': readHtml,
  '.json': readJsonRecords,
  '.jsonl': readJsonl,
};

const RECORD_EXTENSIONS = new Set(['.json', '.jsonl']);

export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

export interface FileReadResult {
  docs: Document[];
  diagnostics: Diagnostic[];
  /** The configured field names (settings.fields) some record of the file has. */
  fieldsSeen: string[];
  /** False when the file could not be read at all (worth retrying next time even if its mtime is unchanged). */
  readable: boolean;
}

/**
 * Reads one corpus file: size and binary checks, decoding, then the reader for its extension.
 * `relPath` names the file in ids and diagnostics; `size` comes from the caller's stat.
 */
export function readCorpusFile(
  absPath: string,
  relPath: string,
  size: number,
  settings: CorpusSettings,
  chunkBytes?: number,
): FileReadResult {
  return runSync(readCorpusFileSteps(absPath, relPath, size, settings, chunkBytes));
}

/**
 * Above this a file cannot be decoded into one string (V8's limit is 2^29 - 24 UTF-16 units, and a UTF-8
 * byte is at most one unit): JSON Lines are then streamed, a JSON array file is refused with advice.
 */
export const MAX_WHOLE_FILE_BYTES = (1 << 29) - 24;

/** `readCorpusFile` as steps: a JSON Lines file is streamed in chunks, pausing every few hundred lines. */
export function* readCorpusFileSteps(
  absPath: string,
  relPath: string,
  size: number,
  settings: CorpusSettings,
  chunkBytes?: number,
): Steps<FileReadResult> {
  const ext = extensionOf(relPath);
  const reader = READERS[ext];
  const problem = (message: string, severity: Diagnostic['severity'] = 'warning'): FileReadResult => ({
    docs: [],
    diagnostics: [{ file: relPath, line: 0, severity, message }],
    fieldsSeen: [],
    readable: true,
  });
  const unreadable = (e: unknown): FileReadResult => ({
    ...problem(`cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}; skipped`, 'error'),
    readable: false,
  });
  if (!reader) return problem(`unsupported file type "${ext || '(none)'}"; skipped`);
  const limit = RECORD_EXTENSIONS.has(ext) ? settings.maxRecordFileBytes : settings.maxFileBytes;
  if (size > limit) return problem(`file is ${formatBytes(size)}, over the ${formatBytes(limit)} limit; skipped`);
  if (ext === '.jsonl') {
    let binary: string | undefined;
    try {
      binary = binaryReason(readHead(absPath));
    } catch (e) {
      return unreadable(e);
    }
    if (binary) return problem(`file ${binary}; looks binary, skipped`);
    const fieldsSeen = new Set<string>();
    const out: ReadResult = { docs: [], diagnostics: [] };
    let content: boolean;
    try {
      content = yield* jsonlSteps(fileLines(absPath, chunkBytes), { path: relPath, settings, fieldsSeen }, out);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === undefined) throw e; // not an I/O error
      return unreadable(e);
    }
    if (!content) return problem('file is empty; skipped');
    return { ...out, fieldsSeen: [...fieldsSeen], readable: true };
  }
  if (size > MAX_WHOLE_FILE_BYTES) {
    return problem(
      `file is ${formatBytes(size)}, too large to read as one JSON value (at most ${formatBytes(MAX_WHOLE_FILE_BYTES)}); write its records as JSON Lines (.jsonl), which are read line by line; skipped`,
    );
  }
  let buf: Buffer;
  try {
    buf = readFileSync(absPath);
  } catch (e) {
    return unreadable(e);
  }
  const binary = binaryReason(buf);
  if (binary) return problem(`file ${binary}; looks binary, skipped`);
  const text = decodeText(buf);
  if (text.trim() === '') return problem('file is empty; skipped');
  const fieldsSeen = new Set<string>();
  const { docs, diagnostics } = reader(text, { path: relPath, settings, fieldsSeen });
  return { docs, diagnostics, fieldsSeen: [...fieldsSeen], readable: true };
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}
