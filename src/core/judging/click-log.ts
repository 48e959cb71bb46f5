/**
 * Logged result lists and clicks, in two shapes:
 * - JSONL, one search a line: `{"query": "...", "results": ["d1", "d2", ...], "clicks": ["d2"]}` (also
 *   `user_query` / `hits`, `query_response_hit_ids` / `clicked`; an OpenSearch export's `_source` is unwrapped);
 * - OpenSearch UBI, two JSONL exports: the query index (`query_id`, `user_query`, `query_response_hit_ids`) and the
 *   event index (`action_name`, `query_id`, `event_attributes.object.object_id`); an event whose action is one of
 *   `actions` (default `click`) is a click on that object in that query's list.
 * Lines that cannot be used are reported at file:line (never quoting them) and skipped.
 */
import type { Diagnostic } from '../util/diagnostics';
import { splitLines } from '../util/text-file';
import type { Impression } from './clicks';
import { logObject } from './query-log';

const QUERY_KEYS = ['query', 'user_query', 'q'];
const RESULT_KEYS = ['results', 'hits', 'query_response_hit_ids', 'doc_ids', 'shown'];
const CLICK_KEYS = ['clicks', 'clicked', 'clicked_ids'];

const first = (rec: Record<string, unknown>, keys: readonly string[]) => keys.find((k) => rec[k] !== undefined);
const ids = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => (typeof x === 'string' && x !== '') || typeof x === 'number') ? v.map(String) : undefined;

function jsonLines(text: string, file: string, diagnostics: Diagnostic[]): { line: number; rec: Record<string, unknown> }[] {
  const out: { line: number; rec: Record<string, unknown> }[] = [];
  for (const { line, text: raw } of splitLines(text)) {
    if (raw.trim() === '') continue;
    let rec: Record<string, unknown> | undefined;
    try {
      rec = logObject(JSON.parse(raw));
    } catch {
      rec = undefined;
    }
    if (rec) out.push({ line, rec });
    else diagnostics.push({ file, line, severity: 'error', message: 'not a JSON object; line skipped' });
  }
  return out;
}

export function readImpressions(text: string, file: string): { impressions: Impression[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const impressions: Impression[] = [];
  for (const { line, rec } of jsonLines(text, file, diagnostics)) {
    const qk = first(rec, QUERY_KEYS);
    const rk = first(rec, RESULT_KEYS);
    const ck = first(rec, CLICK_KEYS);
    const query = qk ? rec[qk] : undefined;
    const results = rk ? ids(rec[rk]) : undefined;
    const clicks = ck ? ids(rec[ck]) : [];
    const problem =
      typeof query !== 'string' || query.trim() === ''
        ? `no query text (${QUERY_KEYS.join(', ')})`
        : !results
          ? `no result list: ${RESULT_KEYS.join(', ')} must be an array of document ids`
          : !clicks
            ? `"${ck}" must be an array of document ids`
            : undefined;
    if (problem) {
      diagnostics.push({ file, line, severity: 'error', message: `${problem}; line skipped` });
      continue;
    }
    const shown = new Set(results);
    const notShown = clicks!.filter((c) => !shown.has(c));
    if (notShown.length)
      diagnostics.push({
        file,
        line,
        severity: 'warning',
        message: `${notShown.length} clicked document(s) not in the result list; those clicks ignored`,
      });
    impressions.push({ query: query as string, results: results!, clicks: new Set(clicks!.filter((c) => shown.has(c))) });
  }
  return { impressions, diagnostics: diagnostics.sort((a, b) => a.line - b.line) };
}

export function readUbi(
  queries: { text: string; file: string },
  events: { text: string; file: string },
  actions: readonly string[] = ['click'],
): { impressions: Impression[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const byId = new Map<string, Impression & { clicks: Set<string> }>();
  for (const { line, rec } of jsonLines(queries.text, queries.file, diagnostics)) {
    const id = rec['query_id'];
    const text = rec['user_query'];
    const results = ids(rec['query_response_hit_ids']);
    if (typeof id !== 'string' || id === '' || typeof text !== 'string' || text.trim() === '' || !results) {
      diagnostics.push({
        file: queries.file,
        line,
        severity: 'error',
        message: 'a UBI query needs "query_id", "user_query" and "query_response_hit_ids" (an array); line skipped',
      });
      continue;
    }
    if (byId.has(id)) {
      diagnostics.push({ file: queries.file, line, severity: 'error', key: 'query_id', message: 'a query_id seen before; line skipped' });
      continue;
    }
    byId.set(id, { query: text, results, clicks: new Set() });
  }
  for (const { line, rec } of jsonLines(events.text, events.file, diagnostics)) {
    if (!actions.includes(String(rec['action_name']))) continue;
    const imp = byId.get(String(rec['query_id']));
    const attrs = rec['event_attributes'] as { object?: { object_id?: unknown } } | undefined;
    const object = attrs?.object?.object_id;
    const where = { file: events.file, line, severity: 'warning' as const };
    if (!imp) diagnostics.push({ ...where, key: 'query_id', message: 'no query of that query_id in the query export; event ignored' });
    else if (typeof object !== 'string' && typeof object !== 'number')
      diagnostics.push({ ...where, key: 'event_attributes.object.object_id', message: 'missing; event ignored' });
    else if (!imp.results.includes(String(object)))
      diagnostics.push({ ...where, message: "the clicked object is not in that query's results; event ignored" });
    else imp.clicks.add(String(object));
  }
  return { impressions: [...byId.values()], diagnostics };
}
