import type { Diagnostic } from '../../util/diagnostics';
import { finishDocument } from './common';
import type { ReaderContext, ReadResult } from './types';

/** Plain text: the first non-empty line is the title, the whole text is the body; id = path. */
export function readText(text: string, ctx: ReaderContext): ReadResult {
  const diagnostics: Diagnostic[] = [];
  const title =
    text
      .split(/\r\n|\n|\r/)
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  const doc = finishDocument(
    { title, body: '', fields: {}, meta: {}, problems: [], invalidAcl: [] },
    text.trim(),
    ctx.path,
    ctx,
    undefined,
    diagnostics,
  );
  return { docs: doc ? [doc] : [], diagnostics };
}
