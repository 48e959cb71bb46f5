import matter from 'gray-matter';
import type { Diagnostic } from '../../util/diagnostics';
import { mapRecord, toJsonSafe } from '../record-mapper';
import { finishDocument } from './common';
import type { ReaderContext, ReadResult } from './types';

/**
 * Markdown with optional YAML front matter. Front matter keys map like record fields (id, title, text
 * fields, ACL, the rest to meta); the title falls back to the first level-1 heading; the body is the
 * Markdown text without the front matter.
 */
export function readMarkdown(text: string, ctx: ReaderContext): ReadResult {
  const diagnostics: Diagnostic[] = [];
  let data: Record<string, unknown> = {};
  let content: string;
  let unreadable = false;
  try {
    // Passing an options object keeps gray-matter from caching every file it has seen.
    const parsed = matter(text, {});
    content = parsed.content;
    const raw = toJsonSafe(parsed.data);
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) data = raw as Record<string, unknown>;
    else unreadable = true;
  } catch (e) {
    const mark = (e as { mark?: { line?: number } }).mark;
    // js-yaml counts lines from 0 inside the front matter, which starts on the line after the opening ---.
    const line = typeof mark?.line === 'number' ? mark.line + 1 : 1;
    const reason = (e as { reason?: string }).reason ?? (e as Error).message;
    diagnostics.push({ file: ctx.path, line, severity: 'error', message: `invalid front matter: ${reason}; file skipped` });
    return { docs: [], diagnostics };
  }

  const mapped = mapRecord(data, ctx.settings, { takeBody: false });
  if (unreadable) {
    // Its access fields cannot be read, so it must not pass for a document without any: fail closed.
    mapped.invalidAcl.push('front matter');
    mapped.problems.push({
      field: '',
      severity: 'error',
      message:
        'front matter is not a key/value mapping, so its access fields cannot be read; the document is visible to nobody until it is fixed',
    });
  }
  if (!mapped.title) mapped.title = firstHeading(content);
  const body = content.replace(/^\s*\n/, '').trimEnd();
  const doc = finishDocument(mapped, body, ctx.path, ctx, undefined, diagnostics, (field) => frontMatterLine(text, field));
  return { docs: doc ? [doc] : [], diagnostics };
}

/** The first level-1 heading (ATX `# x` or setext `x\n===`), ignoring fenced code blocks. */
export function firstHeading(markdown: string): string {
  const lines = markdown.split(/\r\n|\n|\r/);
  let fence: string | undefined;
  for (const [k, line] of lines.entries()) {
    const f = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      const mark = f[1]?.[0];
      if (!fence) fence = mark;
      else if (mark === fence) fence = undefined;
      continue;
    }
    if (fence) continue;
    const atx = /^\s{0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1]?.trim();
    if (atx) return atx;
    const next = lines[k + 1];
    if (line.trim() && next !== undefined && /^\s{0,3}=+\s*$/.test(next)) return line.trim();
  }
  return '';
}

/** Line of `field:` inside the front matter, for diagnostics; 1 when not found. */
function frontMatterLine(text: string, field: string): number {
  const lines = text.split(/\r\n|\n|\r/, 200);
  const [key = ''] = field.split('.');
  for (const [k, line] of lines.entries()) {
    if (k === 0) continue;
    if (/^---\s*$/.test(line)) break;
    if (line.startsWith(`${key}:`) || line.startsWith(`"${key}":`)) return k + 1;
  }
  return 1;
}
