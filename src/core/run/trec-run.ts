import { existsSync } from 'node:fs';
import { type Diagnostic, InputError } from '../util/diagnostics';
import { fingerprint } from '../util/fingerprint';
import { readFileSync } from 'node:fs';
import { decodeText, splitColumns, splitLines } from '../util/text-file';
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
 * Reads a TREC run (`qid Q0 docid rank score tag`, whitespace separated; `#` comments allowed).
 * Follows trec_eval: per query, documents are ordered by score descending, ties by docid descending;
 * the rank column is ignored. A duplicate docid within a query is reported and its later line dropped.
 */
export function readTrecRun(path: string): TrecRunFile {
  if (!existsSync(path)) throw new InputError(`${path}: run file not found`);
  const bytes = readFileSync(path);
  const lines = splitLines(decodeText(bytes));
  const diagnostics: Diagnostic[] = [];
  const run: Run = new Map();
  const seen = new Map<string, Map<string, number>>();
  let tag = '';
  for (const { line, text } of lines) {
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const cols = splitColumns(trimmed);
    if (cols.length !== 6) {
      diagnostics.push({ file: path, line, severity: 'error', message: `expected 6 columns "qid Q0 docid rank score tag", found ${cols.length}; line skipped` });
      continue;
    }
    const [qid, , docid, , scoreText, runTag] = cols;
    const score = Number(scoreText);
    if (!Number.isFinite(score)) {
      diagnostics.push({ file: path, line, severity: 'error', message: `score "${scoreText}" is not a number; line skipped` });
      continue;
    }
    const docsSeen = seen.get(qid) ?? new Map<string, number>();
    seen.set(qid, docsSeen);
    const firstLine = docsSeen.get(docid);
    if (firstLine !== undefined) {
      diagnostics.push({ file: path, line, severity: 'error', message: `duplicate document "${docid}" for query "${qid}" (first at line ${firstLine}); line skipped` });
      continue;
    }
    docsSeen.set(docid, line);
    if (!tag) tag = runTag;
    let list = run.get(qid);
    if (!list) run.set(qid, (list = []));
    list.push({ id: docid, score });
  }
  if (run.size === 0) throw new InputError(`${path}: no valid run line`, diagnostics);
  for (const list of run.values()) sortTrecOrder(list);
  return { run, tag, fingerprint: fingerprint([bytes]), diagnostics };
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
    if (/\s/.test(qid) || qid === '') throw new InputError(`query id ${JSON.stringify(qid)} cannot be written as a TREC run line (white space)`);
    docs.forEach((d: RankedDoc, i) => {
      if (/\s/.test(d.id) || d.id === '') throw new InputError(`document id ${JSON.stringify(d.id)} (query ${qid}) cannot be written as a TREC run line (white space)`);
      out.push(`${qid} Q0 ${d.id} ${i + 1} ${d.score} ${safeTag}`);
    });
  }
  return out.join('\n') + (out.length ? '\n' : '');
}

