import { closest } from '../util/closest';
import { parseJsonWithLines, toPlain, type LocatedJson } from '../util/json-source';
import { splitLines } from '../util/text-file';
import { JudgmentBuilder } from './builder';
import { idField, splitField, tagsField, textField, type FieldResult } from './fields';
import type { ReadOptions } from './qrels';
import { noValidLineError, parseGrade, readSourceText } from './source';
import type { JudgmentSet, Query, SourceLocation } from './types';
import { crossCheckQueries } from './validate';

/**
 * A golden set: a JSON array (or JSONL, one object a line) of
 * `{"query", "relevant_doc_ids": [...]}` (grade 1 each) and/or `{"id"?, "query", "judgments": {doc: grade},
 * "tags"?, "split"?}`. Items without `id` are named q1, q2... by position (1-based, counting every item).
 */
export function readGoldenSet(path: string, options: ReadOptions = {}): JudgmentSet {
  const file = options.displayPath ?? path;
  const builder = new JudgmentBuilder();
  parseGoldenInto(builder, readSourceText(path, file), file);
  crossCheckQueries(builder, true);
  return builder.build();
}

export function parseGoldenInto(builder: JudgmentBuilder, text: string, file: string): void {
  builder.addSource(file);
  const items = goldenItems(builder, text, file);
  let valid = 0;
  for (const [index, item] of items.entries()) {
    if (item && addItem(builder, item, index + 1, file)) valid++;
  }
  if (valid === 0) throw noValidLineError(file, 'golden-set item', builder.diagnostics);
}

/** Located items in file order; `undefined` marks a JSONL line that did not parse (it still takes a position). */
function goldenItems(builder: JudgmentBuilder, text: string, file: string): Array<LocatedJson | undefined> {
  const trimmed = text.trimStart();
  const jsonl = /\.jsonl$/i.test(file);
  if (!jsonl) {
    const whole = parseJsonWithLines(text);
    if (whole.ok) {
      if (whole.value.kind === 'array') return whole.value.items;
      if (whole.value.kind === 'object') return [whole.value];
      builder.report({ file, line: whole.value.line }, 'error', 'expected a JSON array of {"query", ...} items');
      return [];
    }
    // A file of several one-line objects is JSONL even when named .json.
    const objectLines = splitLines(text).filter((l) => l.text.trim().startsWith('{')).length;
    if (trimmed.startsWith('[') || objectLines < 2) {
      builder.report({ file, line: whole.line }, 'error', `invalid JSON at line ${whole.line}, column ${whole.column}: ${whole.message}`);
      return [];
    }
  }
  const items: Array<LocatedJson | undefined> = [];
  for (const { line, text: raw } of splitLines(text)) {
    if (raw.trim() === '') continue;
    const parsed = parseJsonWithLines(raw, line);
    if (parsed.ok) items.push(parsed.value);
    else {
      builder.report({ file, line }, 'error', `invalid JSON at column ${parsed.column}: ${parsed.message}; line skipped`);
      items.push(undefined);
    }
  }
  return items;
}

function addItem(builder: JudgmentBuilder, item: LocatedJson, position: number, file: string): boolean {
  const itemAt = { file, line: item.line };
  if (item.kind !== 'object') {
    builder.report(itemAt, 'error', `item ${position} is not an object {"query", ...}; item skipped`);
    return false;
  }
  // Only the small fields are converted; the labels are read from the located entries (lines, duplicates).
  const record = toPlain({ ...item, entries: item.entries.filter((e) => !LABEL_KEYS.has(e.key)) }) as Record<string, unknown>;
  const keyAt = (key: string): SourceLocation => ({ file, line: item.entries.find((e) => e.key === key)?.keyLine ?? item.line });

  // A typo'd key ("judgement", "quey") would otherwise drop the item's labels or the item without a word.
  for (const e of item.entries) {
    if (ITEM_KEYS.includes(e.key)) continue;
    const guess = closest(e.key, ITEM_KEYS);
    builder.report(
      { file, line: e.keyLine },
      'error',
      `item ${position}: unknown key "${e.key}"${guess ? ` (did you mean "${guess}"?)` : ` (known: ${ITEM_KEYS.join(', ')})`}; ignored`,
    );
  }
  const id = idField(record, ['id']);
  const text = textField(record, ['query', 'text']);
  const tags = tagsField(record);
  const split = splitField(record);
  const failures: Array<[string, FieldResult<unknown>]> = [
    ['id', id],
    ['query', text],
    ['tags', tags],
    ['split', split],
  ];
  for (const [key, result] of failures) {
    if (result.ok) continue;
    const field = key === 'query' && !('query' in record) ? 'text' : key;
    builder.report(keyAt(field), 'error', `item ${position}: ${result.message}; item skipped`);
  }
  if (!id.ok || !text.ok || !tags.ok || !split.ok) return false;

  const query: Query = { id: id.value ?? `q${position}`, text: text.value, tags: tags.value };
  if (split.value) query.split = split.value;
  // A query is located at its id (what a duplicate-id message points at), else at its item.
  const added = builder.addQuery(query, id.value !== undefined ? keyAt('id') : itemAt);
  // Same id with other text: those labels belong to another question, so they are not merged.
  if (!added && builder.queries.get(query.id)?.text !== query.text) return false;

  for (const entry of item.entries) {
    if (entry.key === 'relevant_doc_ids') addRelevantIds(builder, query.id, entry.value, { file, line: entry.keyLine }, position);
    if (entry.key === 'judgments') addGraded(builder, query.id, entry.value, { file, line: entry.keyLine }, position);
  }
  warnEmptyLabels(builder, item, query.id, position, file);
  return true;
}

/**
 * An item whose labels are all written but empty (`"judgments": {}`, `"relevant_doc_ids": []`) leaves its query
 * without a judgment, and such a query is not scored at all: the number of queries averaged drops by one with
 * no error. A warning at the label says so (an item without any label key is the plain "has no judgments" note).
 */
function warnEmptyLabels(
  builder: JudgmentBuilder,
  item: LocatedJson & { kind: 'object' },
  qid: string,
  position: number,
  file: string,
): void {
  const labels = item.entries.filter((e) => LABEL_KEYS.has(e.key));
  const empty = (v: LocatedJson) => (v.kind === 'object' && v.entries.length === 0) || (v.kind === 'array' && v.items.length === 0);
  const first = labels[0];
  if (!first || !labels.every((e) => empty(e.value))) return;
  // Another item with the same id and text may have given it judgments already.
  for (const qrels of builder.byRater.values()) if (qrels.get(qid)?.size) return;
  const written = first.value.kind === 'object' ? '{}' : '[]';
  builder.report(
    { file, line: first.keyLine },
    'warning',
    `item ${position}: query "${qid}" has "${first.key}": ${written}, so it has no judgment and is left out of every metric (not scored 0); grade its documents, or give one a grade of 0 to count the query as having no relevant document`,
  );
}

const LABEL_KEYS = new Set(['relevant_doc_ids', 'judgments']);
const ITEM_KEYS = ['id', 'query', 'text', 'judgments', 'relevant_doc_ids', 'tags', 'split'];

function addRelevantIds(builder: JudgmentBuilder, qid: string, v: LocatedJson, at: SourceLocation, position: number): void {
  if (v.kind !== 'array') {
    builder.report(at, 'error', `item ${position}: "relevant_doc_ids" must be an array of document ids; ignored`);
    return;
  }
  for (const el of v.items) {
    const docId = docIdOf(el);
    if (docId === undefined) {
      builder.report(
        { file: at.file, line: el.line },
        'error',
        `item ${position}: document id must be a non-empty string, got ${describeLocated(el)}; skipped`,
      );
      continue;
    }
    builder.addJudgment(qid, docId, 1, { file: at.file, line: el.line });
  }
}

function addGraded(builder: JudgmentBuilder, qid: string, v: LocatedJson, at: SourceLocation, position: number): void {
  if (v.kind !== 'object') {
    builder.report(at, 'error', `item ${position}: "judgments" must be an object {"doc id": grade}; ignored`);
    return;
  }
  for (const { key, keyLine, value } of v.entries) {
    const entryAt = { file: at.file, line: keyLine };
    if (key.trim() === '') {
      builder.report(entryAt, 'error', `item ${position}: empty document id; skipped`);
      continue;
    }
    if (value.kind !== 'scalar' || typeof value.value !== 'number') {
      builder.report(
        entryAt,
        'error',
        `item ${position}: grade of "${key}" must be a non-negative integer, got ${describeLocated(value)}; skipped`,
      );
      continue;
    }
    const grade = parseGrade(String(value.value));
    if (typeof grade === 'string') {
      builder.report(entryAt, 'error', `item ${position}: document "${key}": ${grade.replace('; line skipped', '; skipped')}`);
      continue;
    }
    builder.addJudgment(qid, key.trim(), grade, entryAt);
  }
}

function docIdOf(el: LocatedJson): string | undefined {
  if (el.kind !== 'scalar') return undefined;
  if (typeof el.value === 'string' && el.value.trim() !== '') return el.value.trim();
  if (typeof el.value === 'number' && Number.isInteger(el.value)) return String(el.value);
  return undefined;
}

function describeLocated(v: LocatedJson): string {
  const s = JSON.stringify(toPlain(v));
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}
