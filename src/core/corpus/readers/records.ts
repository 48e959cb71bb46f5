import type { Diagnostic } from '../../util/diagnostics';
import { type Steps, runSync } from '../../util/cooperative';
import { type NumberedLine, splitLines } from '../../util/text-file';
import { JsonSyntaxError, parseJsonWithLocations } from '../../util/json-source';
import type { Document } from '../document';
import { mapRecord } from '../record-mapper';
import { finishDocument } from './common';
import type { ReaderContext, ReadResult } from './types';

function recordToDocument(value: unknown, line: number, ctx: ReaderContext, diagnostics: Diagnostic[]): Document | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    diagnostics.push({ file: ctx.path, line, severity: 'error', message: 'record is not a JSON object; skipped' });
    return undefined;
  }
  const mapped = mapRecord(value as Record<string, unknown>, ctx.settings, { takeBody: true });
  return finishDocument(mapped, mapped.body, undefined, ctx, line, diagnostics);
}

/**
 * JSON Lines, one record per line (also the BEIR `corpus.jsonl` layout: `_id`, `title`, `text`, `metadata`).
 * A malformed line is reported and skipped; the other lines are kept.
 */
export function readJsonl(text: string, ctx: ReaderContext): ReadResult {
  const out: ReadResult = { docs: [], diagnostics: [] };
  runSync(jsonlSteps(splitLines(text), ctx, out));
  return out;
}

/** Lines between pauses: a pause costs a clock read, a line of JSON a few microseconds. */
const LINES_PER_STEP = 256;

/**
 * `readJsonl` over lines from anywhere (a streamed file: read-file.ts), into `out`; yields every few hundred
 * lines so a cooperative caller can pause. Returns whether any line was not blank.
 */
export function* jsonlSteps(lines: Iterable<NumberedLine>, ctx: ReaderContext, out: ReadResult): Steps<boolean> {
  let content = false;
  let n = 0;
  for (const { line, text: raw } of lines) {
    if (++n % LINES_PER_STEP === 0) yield;
    if (raw.trim() === '') continue;
    content = true;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      out.diagnostics.push({ file: ctx.path, line, severity: 'error', message: `malformed JSON: ${(e as Error).message}; line skipped` });
      continue;
    }
    const doc = recordToDocument(value, line, ctx, out.diagnostics);
    if (doc) out.docs.push(doc);
  }
  return content;
}

/** A JSON file holding an array of records, or `{ "documents": [...] }`. */
export function readJsonRecords(text: string, ctx: ReaderContext): ReadResult {
  const diagnostics: Diagnostic[] = [];
  let parsed: ReturnType<typeof parseJsonWithLocations>;
  try {
    parsed = parseJsonWithLocations(text, { maxDepth: 2 });
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    diagnostics.push({ file: ctx.path, line: e.line, severity: 'error', message: `invalid JSON: ${e.message}; file skipped` });
    return { docs: [], diagnostics };
  }
  const { value, locations } = parsed;
  let records: unknown[];
  let prefix: string;
  if (Array.isArray(value)) {
    records = value;
    prefix = '';
  } else if (value && typeof value === 'object' && Array.isArray((value as { documents?: unknown }).documents)) {
    records = (value as { documents: unknown[] }).documents;
    prefix = '/documents';
  } else {
    diagnostics.push({
      file: ctx.path,
      line: 1,
      severity: 'error',
      message: 'expected an array of records or { "documents": [...] }; file skipped',
    });
    return { docs: [], diagnostics };
  }
  const docs: Document[] = [];
  records.forEach((record, k) => {
    const line = locations.values.get(`${prefix}/${k}`)?.line ?? 1;
    const doc = recordToDocument(record, line, ctx, diagnostics);
    if (doc) docs.push(doc);
  });
  return { docs, diagnostics };
}
