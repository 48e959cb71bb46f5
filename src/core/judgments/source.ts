import { type Diagnostic, InputError } from '../util/diagnostics';
import {
  type InvalidUtf8Line,
  type NumberedLine,
  checkUserTextFile,
  describeInvalidUtf8,
  readUserTextChecked,
  splitLines,
} from '../util/text-file';
import { type StreamedLine, fileLines } from '../util/text-lines';
import type { JudgmentBuilder } from './builder';

/** Why a line that is not UTF-8 is refused. */
const NOT_UTF8_WHY = 'ids are compared as UTF-8 text, where different bytes would read as the same id; save the file as UTF-8';

/** Reports a line that is not UTF-8 as an error (the line is then skipped). */
function reportNotUtf8(builder: JudgmentBuilder, file: string, bad: InvalidUtf8Line): void {
  builder.report({ file, line: bad.line }, 'error', `${describeInvalidUtf8(bad)} (${NOT_UTF8_WHY}); line skipped`);
}

/**
 * Reads a user file for a judgments reader: `path` is read, `display` names it in messages. Ids are compared
 * as the strings UTF-8 decodes to, and bytes that are not UTF-8 would all decode to U+FFFD (two different ids
 * becoming one): a line that is not UTF-8 is refused. With `builder` (line formats) each such line is
 * reported as an error and blanked, so the reader skips it; without (a JSON file, unusable in part) the
 * first one throws.
 */
export function readSourceText(path: string, display = path, builder?: JudgmentBuilder): string {
  // missing, a folder, unreadable, binary: an InputError naming it
  const { text, invalidUtf8 } = readUserTextChecked(path, display);
  if (text.trim() === '') throw fileError(display, 'file is empty');
  const first = invalidUtf8[0];
  if (!first) return text;
  if (!builder) {
    throw new InputError(describeInvalidUtf8(first), [], { file: display, line: first.line, hint: NOT_UTF8_WHY });
  }
  const lines = splitLines(text);
  for (const bad of invalidUtf8) {
    reportNotUtf8(builder, display, bad);
    const line = lines[bad.line - 1];
    if (line) line.text = '';
  }
  return lines.map((l) => l.text).join('\n');
}

/** A judgments file read line by line, and its first line of content (which tells its format). */
export interface SourceLines {
  lines: Iterable<NumberedLine>;
  first?: NumberedLine;
}

/**
 * `readSourceText` for the line formats that can be large (qrels, queries): streamed line by line
 * (util/text-lines), so that a file over V8's ~512 MB string limit is read too. The same checks (missing,
 * folder, binary, empty) and the same refusal of lines that are not UTF-8 (reported to `builder` as the line
 * is reached, and blanked); `isContent` picks the first line returned as `first`. The lines can be iterated once.
 */
export function readSourceLines(
  path: string,
  display: string,
  builder: JudgmentBuilder,
  isContent: (text: string) => boolean = (t) => t.trim() !== '',
): SourceLines {
  checkUserTextFile(path, display); // missing, a folder, unreadable, binary: an InputError naming it
  const stream = fileLines(path);
  const checked = (l: StreamedLine): NumberedLine => {
    if (!l.invalidUtf8) return l;
    reportNotUtf8(builder, display, { line: l.line, ...l.invalidUtf8 });
    return { line: l.line, text: '' };
  };
  const peeked: NumberedLine[] = [];
  let blank = true;
  let first: NumberedLine | undefined;
  for (let r = stream.next(); !r.done; r = stream.next()) {
    // a line that is not UTF-8 is not blank (the file is not empty), but is no content either
    if (r.value.text.trim() !== '') blank = false;
    const line = checked(r.value);
    peeked.push(line);
    if (isContent(line.text)) {
      first = line;
      break;
    }
  }
  if (blank) throw fileError(display, 'file is empty');
  return {
    lines: (function* () {
      yield* peeked;
      for (const l of { [Symbol.iterator]: () => stream }) yield checked(l);
    })(),
    first,
  };
}

export function fileError(file: string, problem: string): InputError {
  return new InputError(problem, [], { file });
}

/**
 * Thrown when a file had content but not one usable line: carries every diagnostic found in it (those of
 * `diagnostics` that name `file`, lines refused while reading it included).
 */
export function noValidLineError(file: string, what: string, all: readonly Diagnostic[]): InputError {
  const diagnostics = all.filter((d) => d.file === file);
  const errors = diagnostics.filter((d) => d.severity === 'error');
  return new InputError(`no valid ${what}; ${errors.length} problem${errors.length === 1 ? '' : 's'} (below)`, diagnostics, { file });
}

/** A TREC-style comment (`#`, allowed since trec_eval 10.0) or an empty line. */
export function isBlankOrComment(text: string): boolean {
  const t = text.trim();
  return t === '' || t.startsWith('#');
}

/** Parses a non-negative integer grade; returns an error message for anything else. */
export function parseGrade(raw: string): number | string {
  if (/^\d+$/.test(raw)) {
    const n = Number(raw);
    return Number.isSafeInteger(n) ? n : `grade "${raw}" is too large`;
  }
  if (/^-\d+(\.0*)?$/.test(raw)) {
    return `negative grade ${raw} (trec_eval treats negative grades as unjudged); line skipped`;
  }
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(raw)) {
    return `grade "${raw}" is not an integer (grades are non-negative integers); line skipped`;
  }
  return `grade "${raw}" is not a number (grades are non-negative integers); line skipped`;
}
