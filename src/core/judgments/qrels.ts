import type { Diagnostic } from '../util/diagnostics';
import { type NumberedLine, splitLines } from '../util/text-file';
import { JudgmentBuilder } from './builder';
import { isBlankOrComment, noValidLineError, parseGrade, readSourceLines } from './source';
import type { SourceLocation } from './types';

export interface QrelsReadResult {
  qrels: Map<string, Map<string, number>>;
  diagnostics: Diagnostic[];
  /** Keyed by `judgmentKey(qid, docid)`. */
  locations: Map<string, SourceLocation>;
}

export interface ReadOptions {
  /** Name used in diagnostics instead of the path that is read (e.g. the path as written in ranklab.json). */
  displayPath?: string;
}

/**
 * TREC qrels: `qid iter docid rel`, exactly 4 whitespace-separated columns, `iter` ignored (as trec_eval does).
 * `#` comment lines and blank lines are allowed. Every bad line is reported and skipped.
 */
export function readQrels(path: string, options: ReadOptions = {}): QrelsReadResult {
  const file = options.displayPath ?? path;
  const builder = new JudgmentBuilder();
  const { lines, first } = readSourceLines(path, file, builder, (t) => !isBlankOrComment(t));
  parseQrelsInto(builder, lines, file, qrelsFormatOf(first));
  return { qrels: builder.qrels, diagnostics: builder.diagnostics, locations: builder.locations };
}

/**
 * `trec`: 4 columns. `beir`: `query-id<TAB>corpus-id<TAB>score` with an optional header line, and also the
 * 4-column TREC form (the shared collections' qrels.tsv is `qid 0 docid rel`, space separated).
 * Throws InputError when no line is usable.
 */
export function parseQrelsInto(
  builder: JudgmentBuilder,
  text: string | Iterable<NumberedLine>,
  file: string,
  format: 'trec' | 'beir',
): void {
  builder.addSource(file);
  let valid = 0;
  let seenContent = false;
  for (const { line, text: raw } of typeof text === 'string' ? splitLines(text) : text) {
    if (isBlankOrComment(raw)) continue;
    const at = { file, line };
    const cols = splitColumns(raw, format);
    if (format === 'beir' && !seenContent && isBeirHeader(cols)) {
      seenContent = true;
      continue;
    }
    seenContent = true;
    let qid: string, docId: string, rawGrade: string;
    if (cols.length === 4) {
      [qid, , docId, rawGrade] = cols as [string, string, string, string];
    } else if (cols.length === 3 && format === 'beir') {
      [qid, docId, rawGrade] = cols as [string, string, string];
    } else {
      const expected =
        format === 'trec'
          ? 'expected 4 columns "qid iter docid rel"'
          : 'expected 3 columns "query-id corpus-id score" (or 4 TREC columns "qid iter docid rel")';
      builder.report(at, 'error', `${expected}, found ${cols.length}; line skipped`);
      continue;
    }
    if (qid === '' || docId === '') {
      builder.report(at, 'error', 'empty query id or document id; line skipped');
      continue;
    }
    const grade = parseGrade(rawGrade);
    if (typeof grade === 'string') {
      builder.report(at, 'error', grade);
      continue;
    }
    builder.addJudgment(qid, docId, grade, at);
    valid++;
  }
  if (valid === 0) throw noValidLineError(file, 'judgment line', builder.diagnostics);
}

/** TREC unless the first non-comment line is a BEIR header (`query-id corpus-id score`). */
export function sniffQrelsFormat(text: string): 'trec' | 'beir' {
  return qrelsFormatOf(splitLines(text).find((l) => !isBlankOrComment(l.text)));
}

/** The format a qrels file's first non-comment line tells. */
export function qrelsFormatOf(first: NumberedLine | undefined): 'trec' | 'beir' {
  return first && isBeirHeader(splitColumns(first.text, 'beir')) ? 'beir' : 'trec';
}

/** BEIR files are tab separated (ids may then contain spaces); anything else splits on runs of whitespace. */
function splitColumns(raw: string, format: 'trec' | 'beir'): string[] {
  if (format === 'beir' && raw.includes('\t'))
    return raw
      .trim()
      .split('\t')
      .map((c) => c.trim());
  return raw.trim().split(/\s+/);
}

function isBeirHeader(cols: string[]): boolean {
  return /^(query[-_ ]?id|qid)$/i.test(cols[0] ?? '') && parseGradeIsError(cols[cols.length - 1] ?? '');
}

function parseGradeIsError(raw: string): boolean {
  return typeof parseGrade(raw) === 'string';
}
