import type { Diagnostic } from '../../util/diagnostics';
import type { Document } from '../document';
import { hasText, makeDocument } from '../make-document';
import type { MappedRecord } from '../record-mapper';
import type { ReaderContext } from './types';

/**
 * Builds a document from mapped parts, reporting field problems and skipping records without id or text.
 * `lineOf(field)` gives the line to report a field problem at.
 */
export function finishDocument(
  mapped: MappedRecord,
  body: string,
  fallbackId: string | undefined,
  ctx: ReaderContext,
  line: number | undefined,
  diagnostics: Diagnostic[],
  lineOf: (field: string) => number = () => line ?? 1,
): Document | undefined {
  for (const p of mapped.problems) {
    diagnostics.push({
      file: ctx.path,
      line: lineOf(p.field),
      severity: p.severity ?? 'warning',
      message: p.message,
      ...(p.key ? { key: p.key } : {}),
    });
  }
  for (const f of mapped.seen ?? []) ctx.fieldsSeen?.add(f);
  const id = mapped.id ?? fallbackId;
  const where = line !== undefined ? 'record' : 'document';
  if (!id) {
    diagnostics.push({ file: ctx.path, line: line ?? 0, severity: 'error', message: `${where} has no id; skipped` });
    return undefined;
  }
  // Ids are written into TREC runs and qrels, one whitespace-separated line each: a tab or line break would
  // split or end the line, so such an id is refused here rather than escaped into something else.
  const control = /[\u0000-\u001f\u007f]/.exec(id);
  if (control) {
    const what = control[0] === '\t' ? 'a tab' : control[0] === '\n' || control[0] === '\r' ? 'a line break' : 'a control character';
    diagnostics.push({
      file: ctx.path,
      line: mapped.id !== undefined ? lineOf(idField(ctx)) : (line ?? 0),
      severity: 'error',
      message: `${where} id ${JSON.stringify(id)} holds ${what}; skipped`,
    });
    return undefined;
  }
  const parts = { title: mapped.title, body, fields: mapped.fields };
  if (!hasText(parts)) {
    diagnostics.push({ file: ctx.path, line: line ?? 0, severity: 'warning', message: `${where} "${id}" has no text; skipped` });
    return undefined;
  }
  const source: Document['source'] = line !== undefined ? { path: ctx.path, line } : { path: ctx.path };
  return makeDocument({
    id,
    ...parts,
    meta: mapped.meta,
    source,
    ...(mapped.vector ? { vector: mapped.vector } : {}),
    ...(mapped.invalidAcl.length ? { invalidAcl: mapped.invalidAcl } : {}),
  });
}

/** The field an id is read from, for the line of a front-matter id. */
function idField(ctx: ReaderContext): string {
  return ctx.settings.fields.id ?? 'id';
}
