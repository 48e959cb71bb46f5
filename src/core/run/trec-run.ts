import { existsSync, readFileSync } from 'node:fs';
import { type Diagnostic, InputError } from '../util/diagnostics';
import { fingerprint } from '../util/fingerprint';
import { compareIdBytes } from '../util/id-order';
import { describeInvalidUtf8, invalidUtf8At } from '../util/text-file';
import { parseCNumber } from './c-number';
import { sortTrecOrder } from './trec-order';
import type { RankedDoc, Run } from './types';

export interface TrecRunFile {
  run: Run;
  /** The run tag (6th column) of the first line. */
  tag: string;
  fingerprint: string;
  diagnostics: Diagnostic[];
}

/**
 * Reads a TREC run (`qid Q0 docid rank score tag`; `#` comment lines allowed) the way trec_eval does:
 * columns are separated by C whitespace (space, tab, CR, VT, FF); the score is read like C's atof (so "0x10"
 * is 16, "1e-3" and ".5" are numbers: see c-number.ts); per query, documents are ordered by score
 * descending, ties by docid descending; the rank column is ignored. Stricter than trec_eval, which stops
 * at the first malformed line and reads any score text as its numeric prefix (or 0): a line without exactly
 * 6 columns, with a score that is not wholly a number ("12abc", "x") or not finite ("inf", "1e999"), or
 * with a docid already seen for its query is reported with its line and skipped; the rest is kept.
 */
export function readTrecRun(path: string): TrecRunFile {
  if (!existsSync(path)) throw new InputError(`${path}: run file not found`);
  const bytes = readFileSync(path);
  const { run, tag, diagnostics } = parseTrecRun(bytes, path);
  if (run.size === 0) throw new InputError(`${path}: no valid run line`, diagnostics);
  let hash: string | undefined;
  return {
    run,
    tag,
    diagnostics,
    // hashed on first use: hashing a large run costs as much as a good part of reading it
    get fingerprint() {
      return (hash ??= fingerprint([bytes]));
    },
  };
}

/** The byte at `i`, or -1 past the end (no byte test matches it: the loops stop there). */
function byteAt(b: Buffer, i: number): number {
  return b[i] ?? -1;
}

/** C's isspace in the C locale: space, \t, \n, \v, \f, \r. */
function isBlank(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k); // exact in float64 up to 10^22

/**
 * The value of a plain decimal score (`[+-]digits[.digits][e[+-]digits]`) with at most 15 digits and a
 * power of ten up to 22, else NaN (the caller then asks parseCNumber). Within those bounds the digits
 * are an exact integer and 10^k is exact, so one division or multiplication rounds correctly: the same
 * double as strtod's (Clinger's fast path), without making a string.
 */
function fastDecimal(b: Buffer, start: number, end: number): number {
  let i = start;
  let c = byteAt(b, i);
  const negative = c === 45;
  if (c === 45 || c === 43) c = byteAt(b, ++i);
  let mantissa = 0;
  let digits = 0;
  let exponent = 0;
  while (i < end && c >= 48 && c <= 57) {
    mantissa = mantissa * 10 + (c - 48);
    digits++;
    c = byteAt(b, ++i);
  }
  if (i < end && c === 46) {
    c = byteAt(b, ++i);
    while (i < end && c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      digits++;
      exponent--;
      c = byteAt(b, ++i);
    }
  }
  if (digits === 0 || digits > 15) return NaN;
  if (i < end && (c === 101 || c === 69)) {
    c = byteAt(b, ++i);
    const negativeExponent = c === 45;
    if (c === 45 || c === 43) c = byteAt(b, ++i);
    let e = 0;
    let expDigits = 0;
    while (i < end && c >= 48 && c <= 57 && expDigits < 5) {
      e = e * 10 + (c - 48);
      expDigits++;
      c = byteAt(b, ++i);
    }
    if (expDigits === 0) return NaN;
    exponent += negativeExponent ? -e : e;
  }
  if (i !== end || exponent < -22 || exponent > 22) return NaN;
  const value = exponent < 0 ? mantissa / POWERS_OF_TEN[-exponent]! : mantissa * POWERS_OF_TEN[exponent]!; // |exponent| ≤ 22 (above)
  return negative ? -value : value;
}

interface QueryList {
  qid: string;
  /** Order of first appearance; stamps the documents seen for this query. */
  index: number;
  list: RankedDoc[];
  /** [from, to) ranges of entry numbers: where this query's lines are (more than one when they are interleaved). */
  segments: number[];
}

/** A growable Int32Array. */
class IntList {
  data = new Int32Array(1 << 12);
  set(i: number, v: number): void {
    if (i >= this.data.length) {
      const grown = new Int32Array(Math.max(i + 1, this.data.length * 2));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[i] = v;
  }
}

/**
 * Document ids interned by their bytes: a repeated id (the same documents come back for many queries) costs
 * a hash probe and a byte comparison instead of a new string, and gets a number that duplicate detection
 * can index.
 */
class DocIds {
  readonly strings: string[] = [];
  /** Per id: -1 when its bytes are UTF-8, else the offset of the first byte that is not (see invalidUtf8At). */
  readonly invalidAt: number[] = [];
  /** Where each id's bytes are (its first occurrence): start, end. */
  private readonly at: number[] = [];
  /** Open addressing, two ints a slot: id number + 1 (0 = empty) and the id's hash. */
  private slots = new Int32Array(2 << 12);

  constructor(private readonly b: Buffer) {}

  intern(start: number, end: number, hash: number): number {
    const { b, slots } = this;
    const mask = (slots.length >> 1) - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[2 * slot]!; // slot ≤ mask: within the table
      if (entry === 0) {
        this.strings.push(b.toString('utf8', start, end));
        this.invalidAt.push(invalidUtf8At(b, start, end));
        this.at.push(start, end);
        slots[2 * slot] = this.strings.length;
        slots[2 * slot + 1] = hash;
        if (this.strings.length * 4 > slots.length) this.grow();
        return this.strings.length - 1;
      }
      if (slots[2 * slot + 1] === hash) {
        // entry is an id's number + 1: at holds its start and end.
        const from = this.at[2 * entry - 2]!;
        if (this.at[2 * entry - 1]! - from === end - start && sameBytes(b, from, start, end - start)) return entry - 1;
      }
    }
  }

  /** Doubles the table (kept at most half full). */
  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = (slots.length >> 1) - 1;
    for (let i = 0; i < old.length; i += 2) {
      const entry = old[i]!; // i < old.length, which is even
      const hash = old[i + 1]!;
      if (entry === 0) continue;
      let slot = hash & mask;
      while (slots[2 * slot] !== 0) slot = (slot + 1) & mask;
      slots[2 * slot] = entry;
      slots[2 * slot + 1] = hash;
    }
    this.slots = slots;
  }
}

function sameBytes(b: Buffer, x: number, y: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (b[x + k] !== b[y + k]) return false;
  return true;
}

/**
 * The parser behind readTrecRun, over the file's bytes (`file` names it in diagnostics). One pass, no line
 * or column strings: a qid becomes a string when it changes, a docid the first time it is seen, a score only
 * off the fast path. Duplicates are found by stamping each document number with the query it was last seen
 * in (restamped from the query's earlier entries when its lines resume after another query's).
 */
function parseTrecRun(b: Buffer, file: string): { run: Run; tag: string; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byQid = new Map<string, QueryList>();
  const run: Run = new Map();
  const ids = new DocIds(b);
  const stampQuery = new IntList(); // per document number: index + 1 of the query that last had it
  const stampLine = new IntList(); // ... and the line
  const entryDoc = new IntList(); // per entry (accepted line): document number
  const entryLine = new IntList(); // ... and line
  let entries = 0;
  let current: QueryList | undefined;
  let currentStart = 0; // where the current qid's bytes are
  let currentEnd = 0;
  let tag = '';
  const n = b.length;
  // Lines end at \n; a file with none but with CRs (old Mac) ends them at CR.
  const eol = b.indexOf(10) < 0 && b.indexOf(13) >= 0 ? 13 : 10;
  type Six = [number, number, number, number, number, number]; // one per column of a valid line
  const starts: Six = [0, 0, 0, 0, 0, 0];
  const ends: Six = [0, 0, 0, 0, 0, 0];
  let line = 0;
  for (let pos = b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0; pos < n; ) {
    line++;
    let columns = 0;
    let docHash = 0;
    let i = pos;
    let c = byteAt(b, i);
    for (;;) {
      while (i < n && c !== eol && isBlank(c)) c = byteAt(b, ++i);
      if (i >= n || c === eol) break;
      const s = i;
      if (columns === 2) {
        let h = 0x811c9dc5; // FNV-1a over the docid's bytes
        while (i < n && c !== eol && !isBlank(c)) {
          h = Math.imul(h ^ c, 0x01000193);
          c = byteAt(b, ++i);
        }
        docHash = h;
      } else {
        while (i < n && c !== eol && !isBlank(c)) c = byteAt(b, ++i);
      }
      if (columns < 6) {
        starts[columns] = s;
        ends[columns] = i;
      }
      columns++;
    }
    pos = i + 1;
    if (columns === 0 || b[starts[0]] === 35 /* # */) continue;
    if (columns !== 6) {
      diagnostics.push({
        file,
        line,
        severity: 'error',
        message: `expected 6 columns "qid Q0 docid rank score tag", found ${columns}; line skipped`,
      });
      continue;
    }
    let score = fastDecimal(b, starts[4], ends[4]);
    if (Number.isNaN(score)) {
      const scoreText = b.toString('utf8', starts[4], ends[4]);
      const parsed = parseCNumber(scoreText);
      if (parsed.length !== scoreText.length) {
        diagnostics.push({ file, line, severity: 'error', message: `score "${scoreText}" is not a number; line skipped` });
        continue;
      }
      if (!Number.isFinite(parsed.value)) {
        diagnostics.push({ file, line, severity: 'error', message: `score "${scoreText}" is not a finite number; line skipped` });
        continue;
      }
      score = parsed.value;
    }
    // Runs are grouped by query: compare with the previous qid's bytes before making a string.
    if (!current || currentEnd - currentStart !== ends[0] - starts[0] || !sameBytes(b, currentStart, starts[0], ends[0] - starts[0])) {
      const badQid = invalidUtf8At(b, starts[0], ends[0]);
      if (badQid >= 0) {
        diagnostics.push(notUtf8(file, line, 'query id', b, starts[0], badQid));
        continue;
      }
      const qid = b.toString('utf8', starts[0], ends[0]);
      currentStart = starts[0];
      currentEnd = ends[0];
      if (current) current.segments.push(entries); // the previous query's segment ends here
      current = byQid.get(qid);
      if (!current) {
        byQid.set(qid, (current = { qid, index: byQid.size, list: [], segments: [] }));
      } else {
        // This query's lines resume: documents seen for it may have been stamped by another query since.
        // Its segments are [from, to) pairs now (it was left, which closed the last), over entries already stored.
        for (let k = 0; k < current.segments.length; k += 2) {
          for (let e = current.segments[k]!; e < current.segments[k + 1]!; e++) {
            stampQuery.set(entryDoc.data[e]!, current.index + 1);
            stampLine.set(entryDoc.data[e]!, entryLine.data[e]!);
          }
        }
      }
      current.segments.push(entries);
    }
    const doc = ids.intern(starts[2], ends[2], docHash);
    const invalidAt = ids.invalidAt[doc]!; // doc is an interned id's number
    if (invalidAt >= 0) {
      diagnostics.push(notUtf8(file, line, 'document id', b, starts[2], invalidAt));
      continue;
    }
    const docid = ids.strings[doc]!;
    if (doc < stampQuery.data.length && stampQuery.data[doc] === current.index + 1) {
      diagnostics.push({
        file,
        line,
        severity: 'error',
        message: `duplicate document "${docid}" for query "${current.qid}" (first at line ${stampLine.data[doc]}); line skipped`,
      });
      continue;
    }
    stampQuery.set(doc, current.index + 1);
    stampLine.set(doc, line);
    entryDoc.set(entries, doc);
    entryLine.set(entries, line);
    entries++;
    if (!tag) tag = b.toString('utf8', starts[5], ends[5]);
    if (current.list.length === 0) run.set(current.qid, current.list);
    current.list.push({ id: docid, score });
  }
  for (const list of run.values()) if (!inTrecOrder(list)) sortTrecOrder(list);
  return { run, tag, diagnostics };
}

/**
 * An id that is not UTF-8 would decode to U+FFFD like any other such id: two different documents would both
 * match one judgment. The line is refused instead.
 */
function notUtf8(file: string, line: number, what: string, b: Buffer, idStart: number, offset: number): Diagnostic {
  let lineStart = idStart;
  while (lineStart > 0 && b[lineStart - 1] !== 10 && b[lineStart - 1] !== 13) lineStart--;
  const column = idStart + offset - lineStart + 1;
  return {
    file,
    line,
    severity: 'error',
    message: `${what}: ${describeInvalidUtf8({ column, byte: byteAt(b, idStart + offset) })} (ids are compared as UTF-8 text, where different bytes would read as the same id); line skipped`,
  };
}

/** Engines write runs best first, so most lists need no sort: one pass, without a comparator call per pair. */
function inTrecOrder(list: RankedDoc[]): boolean {
  let a: RankedDoc | undefined;
  for (const b of list) {
    if (a && (a.score < b.score || (a.score === b.score && compareIdBytes(a.id, b.id) < 0))) return false;
    a = b;
  }
  return true;
}

/**
 * Writes a run in the standard TREC format, ranks 1..n in list order. The columns are whitespace-separated, so a
 * query or document id holding white space cannot be written: an InputError naming it (never a broken line).
 * The tag is ours to choose: white space in it (a config named "my config") becomes "_".
 */
export function formatTrecRun(run: Run, tag: string): string {
  const safeTag = tag.replace(/\s+/g, '_') || 'ranklab';
  const out: string[] = [];
  for (const [qid, docs] of run) {
    if (/\s/.test(qid) || qid === '')
      throw new InputError(`query id ${JSON.stringify(qid)} cannot be written as a TREC run line (white space)`);
    docs.forEach((d: RankedDoc, i) => {
      if (/\s/.test(d.id) || d.id === '')
        throw new InputError(`document id ${JSON.stringify(d.id)} (query ${qid}) cannot be written as a TREC run line (white space)`);
      out.push(`${qid} Q0 ${d.id} ${i + 1} ${d.score} ${safeTag}`);
    });
  }
  return out.join('\n') + (out.length ? '\n' : '');
}
