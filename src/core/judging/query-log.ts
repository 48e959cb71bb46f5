/**
 * Reading a query log: JSONL (one object a line; OpenSearch exports wrap it in `_source`, which is unwrapped) or
 * CSV with a header row (RFC 4180 quotes; a field may not hold a line break). Which column is the query text, the
 * count, the time, the session, the user and the user agent is detected from the names (first match of
 * LOG_COLUMNS, case-insensitive) unless given; the mapping is returned so that it can be shown. An OpenSearch UBI
 * query index (`ubi_queries`: `user_query`, `query_id`, `client_id`, `timestamp`, ...) is one such shape.
 * A line that cannot be read (invalid JSON, no query text, a count that is not a positive integer) is reported at
 * file:line and skipped; the reports never quote the line (it may hold personal data).
 */
import { type Diagnostic, InputError } from '../util/diagnostics';
import { splitLines } from '../util/text-file';

export type LogField = 'query' | 'count' | 'timestamp' | 'session' | 'user' | 'agent';

/** The column names each field is recognised by, in order of preference. */
export const LOG_COLUMNS: Record<LogField, readonly string[]> = {
  query: ['query', 'user_query', 'q', 'query_text', 'querytext', 'search_query', 'search_term', 'searchterm', 'keywords', 'term'],
  count: ['count', 'frequency', 'freq', 'searches', 'times'],
  timestamp: ['timestamp', '@timestamp', 'time', 'ts', 'datetime', 'date'],
  session: ['session_id', 'sessionid', 'session', 'client_id', 'clientid'],
  user: ['user_id', 'userid', 'user', 'uid'],
  agent: ['user_agent', 'useragent', 'agent', 'ua'],
};

export interface LogRecord {
  /** The query as logged (not yet normalised). */
  text: string;
  /** How many searches the line stands for (1 without a count column). */
  count: number;
  /** Milliseconds since the epoch. */
  time?: number;
  session?: string;
  user?: string;
  agent?: string;
  line: number;
}

export interface QueryLog {
  format: 'jsonl' | 'csv';
  /** Field → the column it was read from. */
  mapping: Partial<Record<LogField, string>>;
  /** Non-empty lines (CSV: after the header). */
  lines: number;
  records: LogRecord[];
  diagnostics: Diagnostic[];
}

/** A JSONL line's object, with an OpenSearch export's `_source` unwrapped. */
export function logObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const rec = value as Record<string, unknown>;
  const source = rec['_source'];
  return typeof source === 'object' && source !== null && !Array.isArray(source) ? (source as Record<string, unknown>) : rec;
}

/** `query=q,count=n`: the --columns flag, checked. */
export function parseColumnsFlag(value: string | undefined): Partial<Record<LogField, string>> {
  const out: Partial<Record<LogField, string>> = {};
  if (!value) return out;
  for (const part of value.split(',')) {
    const [field, column] = part.split('=').map((s) => s.trim());
    if (!field || !column || !(field in LOG_COLUMNS)) {
      throw new InputError(`"${part}" is not FIELD=COLUMN with FIELD one of ${Object.keys(LOG_COLUMNS).join(', ')}`, [], {
        key: '--columns',
      });
    }
    out[field as LogField] = column;
  }
  return out;
}

/** Detects each field's column among `names` (the given ones win); a missing query column is exit 2. */
export function detectMapping(
  names: readonly string[],
  given: Partial<Record<LogField, string>>,
  file: string,
): Partial<Record<LogField, string>> {
  const mapping: Partial<Record<LogField, string>> = {};
  const lower = new Map(names.map((n) => [n.toLowerCase(), n]));
  for (const field of Object.keys(LOG_COLUMNS) as LogField[]) {
    const wanted = given[field];
    if (wanted !== undefined) {
      if (!names.includes(wanted))
        throw new InputError(`no column "${wanted}" (columns: ${names.join(', ') || 'none'})`, [], { file, key: '--columns' });
      mapping[field] = wanted;
      continue;
    }
    const found = LOG_COLUMNS[field].map((c) => lower.get(c)).find((c) => c !== undefined);
    if (found !== undefined) mapping[field] = found;
  }
  if (!mapping.query) {
    throw new InputError(
      `no query column found (columns: ${names.join(', ') || 'none'}; recognised: ${LOG_COLUMNS.query.join(', ')})`,
      [],
      { file, hint: 'name it with --columns query=COLUMN' },
    );
  }
  return mapping;
}

export function readQueryLog(text: string, file: string, given: Partial<Record<LogField, string>> = {}): QueryLog {
  const lines = splitLines(text).filter((l) => l.text.trim() !== '');
  const jsonl = lines[0]?.text.trimStart().startsWith('{') ?? false;
  return jsonl ? readJsonl(lines, file, given) : readCsv(lines, file, given);
}

function readJsonl(lines: { line: number; text: string }[], file: string, given: Partial<Record<LogField, string>>): QueryLog {
  const diagnostics: Diagnostic[] = [];
  const rows: { line: number; rec: Record<string, unknown> }[] = [];
  for (const { line, text } of lines) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      diagnostics.push({ file, line, severity: 'error', message: 'invalid JSON; line skipped' });
      continue;
    }
    const rec = logObject(value);
    if (!rec) diagnostics.push({ file, line, severity: 'error', message: 'expected a JSON object; line skipped' });
    else rows.push({ line, rec });
  }
  // The keys of every row name the columns: an optional one (a user agent) may appear on few lines.
  const seen = new Set<string>();
  for (const r of rows) for (const k in r.rec) seen.add(k);
  const names = [...seen];
  const mapping = detectMapping(names, given, file);
  const records: LogRecord[] = [];
  for (const { line, rec } of rows) {
    const r = toRecord((f) => rec[f], mapping, file, line, diagnostics);
    if (r) records.push(r);
  }
  return { format: 'jsonl', mapping, lines: lines.length, records, diagnostics };
}

function readCsv(lines: { line: number; text: string }[], file: string, given: Partial<Record<LogField, string>>): QueryLog {
  const diagnostics: Diagnostic[] = [];
  const [header, ...body] = lines;
  if (!header) throw new InputError('the log is empty', [], { file });
  const names = splitCsvLine(header.text);
  if (!names) throw new InputError('the header row has an unclosed quote', [], { file, line: header.line });
  const mapping = detectMapping(names, given, file);
  const index = new Map(names.map((n, i) => [n, i]));
  const records: LogRecord[] = [];
  for (const { line, text } of body) {
    const cells = splitCsvLine(text);
    if (!cells) {
      diagnostics.push({ file, line, severity: 'error', message: 'unclosed quote (a field may not hold a line break); line skipped' });
      continue;
    }
    const r = toRecord((f) => cells[index.get(f)!], mapping, file, line, diagnostics);
    if (r) records.push(r);
  }
  return { format: 'csv', mapping, lines: body.length, records, diagnostics };
}

/** One CSV row (comma-separated, `"` quotes, `""` inside them); undefined when a quote is left open. */
export function splitCsvLine(text: string): string[] | undefined {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else cell += ch;
  }
  if (quoted) return undefined;
  cells.push(cell);
  return cells.map((c) => c.replace(/\r$/, ''));
}

function toRecord(
  get: (column: string) => unknown,
  mapping: Partial<Record<LogField, string>>,
  file: string,
  line: number,
  diagnostics: Diagnostic[],
): LogRecord | undefined {
  const q = get(mapping.query!);
  if (typeof q !== 'string' || q.trim() === '') {
    diagnostics.push({ file, line, severity: 'error', key: mapping.query, message: 'no query text; line skipped' });
    return undefined;
  }
  const rec: LogRecord = { text: q, count: 1, line };
  const c = mapping.count ? get(mapping.count) : undefined;
  // A line without the count (a key left out, an empty cell) stands for one search.
  if (mapping.count && c !== undefined && c !== null && c !== '') {
    const n = typeof c === 'number' ? c : typeof c === 'string' && /^\d+$/.test(c.trim()) ? Number(c) : NaN;
    if (!(Number.isSafeInteger(n) && n >= 1)) {
      diagnostics.push({
        file,
        line,
        severity: 'error',
        key: mapping.count,
        message: 'the count must be a positive integer; line skipped',
      });
      return undefined;
    }
    rec.count = n;
  }
  if (mapping.timestamp) {
    const t = timeOf(get(mapping.timestamp));
    if (t !== undefined) rec.time = t;
    else if (get(mapping.timestamp) !== undefined && get(mapping.timestamp) !== '') {
      diagnostics.push({
        file,
        line,
        severity: 'warning',
        key: mapping.timestamp,
        message: 'not a time (ISO 8601 or epoch seconds/milliseconds); time ignored',
      });
    }
  }
  for (const f of ['session', 'user', 'agent'] as const) {
    const v = mapping[f] ? get(mapping[f]) : undefined;
    if ((typeof v === 'string' && v !== '') || typeof v === 'number') rec[f] = String(v);
  }
  return rec;
}

/** Epoch seconds (below 1e11) or milliseconds, as a number or digits; else an ISO 8601 date. */
function timeOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  if (Number.isFinite(n)) return n < 1e11 ? n * 1000 : n;
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}
