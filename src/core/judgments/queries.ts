import type { Diagnostic } from '../util/diagnostics';
import { parseJsonWithLines } from '../util/json-source';
import type { NumberedLine } from '../util/text-file';
import { JudgmentBuilder } from './builder';
import { idField, isRecord, splitField, tagsField, textField } from './fields';
import type { ReadOptions } from './qrels';
import { type SourceLines, noValidLineError, readSourceLines } from './source';
import type { Query, SourceLocation } from './types';

export interface QueriesReadResult {
  queries: Map<string, Query>;
  diagnostics: Diagnostic[];
  locations: Map<string, SourceLocation>;
}

export type QueriesFormat = 'tsv' | 'jsonl';

/**
 * Queries as TSV (`qid<TAB>text`, an `id<TAB>text` header line is skipped) or JSONL
 * (`{"id","text","tags"?,"split"?}`; BEIR's `_id` is accepted too). The format comes from the first
 * non-blank line (`{` = JSONL, a tab = TSV), else from the extension (.jsonl/.json vs .tsv/.txt).
 */
export function readQueries(path: string, options: ReadOptions = {}): QueriesReadResult {
  const file = options.displayPath ?? path;
  const builder = new JudgmentBuilder();
  parseQueriesInto(builder, readSourceLines(path, file, builder), file);
  return { queries: builder.queries, diagnostics: builder.diagnostics, locations: builder.queryLocations };
}

/** `source`: the file's lines streamed (source.ts readSourceLines; its `first` is the first non-blank line, which tells the format). */
export function parseQueriesInto(builder: JudgmentBuilder, source: SourceLines, file: string): void {
  builder.addSource(file);
  const lines = source.lines;
  const format = queriesFormatOf(source.first?.text.trim() ?? '', file);
  let valid = 0;
  let first = true;
  for (const nl of lines) {
    if (nl.text.trim() === '') continue;
    const at = { file, line: nl.line };
    const query = format === 'jsonl' ? parseJsonLine(nl, builder, at) : parseTsvLine(nl, builder, at, first);
    first = false;
    if (query === 'header') continue;
    if (!query) continue;
    builder.addQuery(query, at);
    valid++;
  }
  if (valid === 0) throw noValidLineError(file, 'query line', builder.diagnostics);
}

function queriesFormatOf(firstLine: string, file: string): QueriesFormat {
  if (firstLine.startsWith('{')) return 'jsonl';
  if (firstLine.includes('\t')) return 'tsv';
  return /\.jsonl?$/i.test(file) ? 'jsonl' : 'tsv';
}

function parseTsvLine(nl: NumberedLine, builder: JudgmentBuilder, at: SourceLocation, first: boolean): Query | 'header' | undefined {
  const tab = nl.text.indexOf('\t');
  if (tab < 0) {
    builder.report(at, 'error', 'expected "qid<TAB>text": no tab found; line skipped');
    return undefined;
  }
  const id = nl.text.slice(0, tab).trim();
  // Extra columns are taken as part of the text: a query text may legitimately contain a tab.
  const text = nl.text
    .slice(tab + 1)
    .replace(/\t/g, ' ')
    .trim();
  if (first && /^(q(uery)?[-_ ]?id|id)$/i.test(id) && /^(text|query)\b/i.test(text)) return 'header';
  if (id === '') {
    builder.report(at, 'error', 'empty query id; line skipped');
    return undefined;
  }
  if (text === '') {
    builder.report(at, 'error', `query "${id}" has empty text; line skipped`);
    return undefined;
  }
  return { id, text, tags: [] };
}

function parseJsonLine(nl: NumberedLine, builder: JudgmentBuilder, at: SourceLocation): Query | undefined {
  let record: unknown;
  try {
    record = JSON.parse(nl.text);
  } catch {
    const err = parseJsonWithLines(nl.text, nl.line);
    const detail = err.ok ? 'unreadable' : `column ${err.column}: ${err.message}`;
    builder.report(at, 'error', `invalid JSON at ${detail}; line skipped`);
    return undefined;
  }
  if (!isRecord(record)) {
    builder.report(at, 'error', 'expected a JSON object {"id", "text"}; line skipped');
    return undefined;
  }
  const id = idField(record, ['id', '_id']);
  const text = textField(record, ['text', 'query']);
  const tags = tagsField(record);
  const split = splitField(record);
  const problems: string[] = [];
  if (id.ok && id.value === undefined) problems.push('missing "id"');
  for (const f of [id, text, tags, split]) if (!f.ok) problems.push(f.message);
  if (!id.ok || !text.ok || !tags.ok || !split.ok || id.value === undefined) {
    builder.report(at, 'error', `${problems.join('; ')}; line skipped`);
    return undefined;
  }
  const query: Query = { id: id.value, text: text.value, tags: tags.value };
  if (split.value) query.split = split.value;
  return query;
}
