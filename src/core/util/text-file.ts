import { readFileSync } from 'node:fs';

/** One line of a text file, with its 1-based number. */
export interface NumberedLine {
  line: number;
  text: string;
}

/** Decodes a user text file: strips a UTF-8 BOM, accepts LF, CRLF and lone CR line ends. */
export function decodeText(buf: Buffer | string): string {
  const s = typeof buf === 'string' ? buf : buf.toString('utf8');
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

export function splitLines(text: string): NumberedLine[] {
  const parts = text.split(/\r\n|\n|\r/);
  // A trailing newline yields one empty last element that is not a line of the file.
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((t, i) => ({ line: i + 1, text: t }));
}

export function readLines(path: string): NumberedLine[] {
  return splitLines(decodeText(readFileSync(path)));
}
