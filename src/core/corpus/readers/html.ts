import { convert } from 'html-to-text';
import type { Diagnostic } from '../../util/diagnostics';
import { mapRecord } from '../record-mapper';
import { finishDocument } from './common';
import type { ReaderContext, ReadResult } from './types';

const headings = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }));

/**
 * Visible text only: script, style and noscript contents and every attribute value (href, src, alt,
 * event handlers) stay out of the body, so markup can never leak code or URLs into the index.
 */
const BODY_OPTIONS = {
  wordwrap: false,
  selectors: [
    ...headings,
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
    { selector: 'template', format: 'skip' },
    { selector: 'head', format: 'skip' },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
};

const INLINE_OPTIONS = { wordwrap: false, selectors: BODY_OPTIONS.selectors };

/**
 * HTML page: title from <title>, else the first <h1>; `<meta name=".." content="..">` tags are read like
 * front matter (id, tenant, groups, public, other keys to meta).
 */
export function readHtml(html: string, ctx: ReaderContext): ReadResult {
  const diagnostics: Diagnostic[] = [];
  const record: Record<string, unknown> = metaTags(html);
  const mapped = mapRecord(record, ctx.settings, { takeBody: false });
  if (!mapped.title) mapped.title = elementText(html, 'title') || elementText(html, 'h1');
  const body = convert(html, BODY_OPTIONS).trim();
  const doc = finishDocument(mapped, body, ctx.path, ctx, undefined, diagnostics, (field) => metaLine(html, field));
  return { docs: doc ? [doc] : [], diagnostics };
}

/** Line of the first `<meta name="field">` (or property=) tag, for diagnostics; 1 when not found. */
function metaLine(html: string, field: string): number {
  for (const m of html.matchAll(/<meta\b([^>]*)>/gi)) {
    const attrs = parseAttributes(m[1] ?? '');
    if ((attrs.name ?? attrs.property) === field) return html.slice(0, m.index).split('\n').length;
  }
  return 1;
}

function elementText(html: string, tag: string): string {
  const m = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}\\s*>`, 'i').exec(html);
  return m
    ? convert(`<p>${m[1] ?? ''}</p>`, INLINE_OPTIONS)
        .replace(/\s+/g, ' ')
        .trim()
    : '';
}

function metaTags(html: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of html.matchAll(/<meta\b([^>]*)>/gi)) {
    const attrs = parseAttributes(m[1] ?? '');
    const name = attrs.name ?? attrs.property;
    if (name && attrs.content !== undefined && !(name in out)) out[name] = decodeEntities(attrs.content);
  }
  return out;
}

function parseAttributes(s: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [, name = '', double, single, bare] of s.matchAll(/([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/g)) {
    attrs[name.toLowerCase()] = double ?? single ?? bare ?? '';
  }
  return attrs;
}

function decodeEntities(s: string): string {
  return s.includes('&') ? convert(`<p>${s.replace(/</g, '&lt;')}</p>`, INLINE_OPTIONS).trim() : s;
}
