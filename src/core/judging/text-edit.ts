/**
 * Byte-preserving edits of a user's text file: the file is taken as it is (BOM, line ends, a missing final
 * newline) and only the span an edit names changes, so every other line stays byte for byte what it was.
 */

/** A replacement of `length` characters at `offset` by `content` (offsets into the text without its BOM). */
export interface TextEdit {
  offset: number;
  length: number;
  content: string;
}

/** One line of a file with its terminator ('' for a last line without one). */
export interface RawLine {
  /** Offset of the line's first character in the text. */
  offset: number;
  text: string;
  eol: string;
}

const BOM = '\uFEFF';

/** Splits off a UTF-8 byte order mark, so edits work on the text and the mark is put back unchanged. */
export function splitBom(text: string): { bom: string; body: string } {
  return text.startsWith(BOM) ? { bom: BOM, body: text.slice(1) } : { bom: '', body: text };
}

/** Lines with their own terminators (LF, CRLF or a lone CR), in order; the concatenation is the text. */
export function rawLines(text: string): RawLine[] {
  const lines: RawLine[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 10 && c !== 13) continue;
    const eol = c === 13 && text.charCodeAt(i + 1) === 10 ? '\r\n' : text.charAt(i);
    lines.push({ offset: start, text: text.slice(start, i), eol });
    i += eol.length - 1;
    start = i + 1;
  }
  if (start < text.length) lines.push({ offset: start, text: text.slice(start), eol: '' });
  return lines;
}

/** The file's line end: the first one it uses, else LF. */
export function detectEol(text: string): string {
  const line = rawLines(text).find((l) => l.eol !== '');
  return line?.eol ?? '\n';
}

export function applyEdit(text: string, edit: TextEdit): string {
  return text.slice(0, edit.offset) + edit.content + text.slice(edit.offset + edit.length);
}
