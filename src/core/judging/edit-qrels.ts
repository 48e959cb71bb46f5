/**
 * One grade set, changed or removed in the text of a TREC qrels file (`qid iter docid rel`) or a BEIR qrels
 * TSV (`query-id corpus-id score`, optional header), touching nothing else: a changed grade is replaced in
 * its line, a new judgment is a new line copied from a neighbour (its separators, its `iter` column) and placed
 * after the query's last line (or at the end), a removed one takes its line with it.
 */
import { InputError } from '../util/diagnostics';
import { isBlankOrComment, parseGrade } from '../judgments/source';
import { type RawLine, type TextEdit, detectEol, rawLines } from './text-edit';

export type QrelsFormat = 'trec' | 'beir';

interface Token {
  start: number;
  end: number;
  text: string;
}

interface DataLine {
  line: RawLine;
  tokens: Token[];
  qid: Token;
  doc: Token;
  grade: Token;
}

/** The edit that gives (qid, docId) the grade `grade`, or removes its judgment when `grade` is undefined; null when nothing changes. */
export function qrelsEdit(text: string, format: QrelsFormat, qid: string, docId: string, grade: number | undefined): TextEdit | null {
  checkIds(format, qid, docId);
  const lines = rawLines(text);
  const data = dataLines(lines, format);
  const existing = data.find((d) => d.qid.text === qid && d.doc.text === docId);
  if (existing) {
    if (grade === undefined) return removeLine(lines, existing.line);
    if (existing.grade.text === String(grade)) return null;
    return {
      offset: existing.line.offset + existing.grade.start,
      length: existing.grade.end - existing.grade.start,
      content: String(grade),
    };
  }
  if (grade === undefined) return null;
  const sameQuery = data.filter((d) => d.qid.text === qid);
  const after = sameQuery[sameQuery.length - 1] ?? data[data.length - 1];
  const newLine = after
    ? fromTemplate(after, qid, docId, grade)
    : format === 'beir'
      ? `${qid}\t${docId}\t${grade}`
      : `${qid} 0 ${docId} ${grade}`;
  // A query seen before goes after its last line; a new one at the end of the file.
  const anchor = sameQuery.length ? after!.line : lines[lines.length - 1];
  if (!anchor) return { offset: 0, length: 0, content: newLine + '\n' };
  const end = anchor.offset + anchor.text.length + anchor.eol.length;
  // After a last line without a line end, the file keeps ending without one.
  return { offset: end, length: 0, content: anchor.eol ? newLine + anchor.eol : detectEol(text) + newLine };
}

function dataLines(lines: RawLine[], format: QrelsFormat): DataLine[] {
  const out: DataLine[] = [];
  let first = true;
  for (const line of lines) {
    if (isBlankOrComment(line.text)) continue;
    const tokens = tokenize(line.text, format);
    const wasFirst = first;
    first = false;
    let cols: [Token, Token, Token] | undefined;
    if (tokens.length === 4) cols = [tokens[0]!, tokens[2]!, tokens[3]!];
    else if (tokens.length === 3 && format === 'beir') cols = [tokens[0]!, tokens[1]!, tokens[2]!];
    // Lines the reader skips (the BEIR header, wrong column counts, bad grades) are not judgments here either.
    if (!cols || typeof parseGrade(cols[2].text) !== 'number') continue;
    if (wasFirst && format === 'beir' && /^(query[-_ ]?id|qid)$/i.test(cols[0].text)) continue;
    out.push({ line, tokens, qid: cols[0], doc: cols[1], grade: cols[2] });
  }
  return out;
}

/** Columns with their positions: BEIR lines with a tab split on tabs (ids may hold spaces), others on runs of blanks. */
function tokenize(text: string, format: QrelsFormat): Token[] {
  const tokens: Token[] = [];
  if (format === 'beir' && text.includes('\t')) {
    let start = 0;
    for (const cell of text.split('\t')) {
      const lead = cell.length - cell.trimStart().length;
      const trimmed = cell.trim();
      if (trimmed) tokens.push({ start: start + lead, end: start + lead + trimmed.length, text: trimmed });
      start += cell.length + 1;
    }
    return tokens;
  }
  const re = /\S+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) tokens.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  return tokens;
}

/** A new line shaped like `template`: same separators and `iter` column, other values. */
function fromTemplate(template: DataLine, qid: string, docId: string, grade: number): string {
  const values = new Map<Token, string>([
    [template.qid, qid],
    [template.doc, docId],
    [template.grade, String(grade)],
  ]);
  let out = '';
  let at = 0;
  for (const t of template.tokens) {
    out += template.line.text.slice(at, t.start) + (values.get(t) ?? t.text);
    at = t.end;
  }
  return out + template.line.text.slice(at);
}

function removeLine(lines: RawLine[], line: RawLine): TextEdit {
  if (line.eol) return { offset: line.offset, length: line.text.length + line.eol.length, content: '' };
  // The last line has no line end: the one before loses its own, so the file still ends without one.
  const previous = lines[lines.indexOf(line) - 1];
  if (!previous) return { offset: line.offset, length: line.text.length, content: '' };
  const start = previous.offset + previous.text.length;
  return { offset: start, length: line.offset + line.text.length - start, content: '' };
}

function checkIds(format: QrelsFormat, qid: string, docId: string): void {
  const bad = format === 'beir' ? /[\t\r\n]/ : /\s/;
  for (const [what, id] of [
    ['query id', qid],
    ['document id', docId],
  ] as const) {
    if (id === '' || bad.test(id) || (format === 'trec' && id.startsWith('#'))) {
      throw new InputError(
        `${what} ${JSON.stringify(id)} cannot be written to a ${format === 'beir' ? 'BEIR qrels' : 'TREC qrels'} file (${format === 'beir' ? 'tabs and line breaks' : 'white space'} would split the column)`,
      );
    }
  }
}
