/**
 * What the per-query table shows: the rows that pass the filters (slice, outcome, text), in the chosen order, and
 * which of them are in the scrolled window. Pure (no DOM): unit-tested in plain Node.
 */
import type { QueryRow, QueryViewState, RunSummary } from '../../src/protocol/dashboard';

export const DEFAULT_QUERY_VIEW: QueryViewState = { sort: 'delta', descending: false, slice: '', outcome: '', text: '' };

/** Does a row belong to a slice? A slice is a query tag, `split:tune` / `split:holdout`, or `class:<name>` (the baseline's class). */
export function inSlice(row: QueryRow, slice: string): boolean {
  if (!slice) return true;
  if (slice.startsWith('split:')) return row.split === slice.slice('split:'.length);
  if (slice.startsWith('class:')) return row.classes?.baseline === slice.slice('class:'.length);
  return row.tags.includes(slice);
}

function matchesOutcome(row: QueryRow, outcome: QueryViewState['outcome']): boolean {
  if (!outcome) return true;
  if (outcome === 'changed') return row.outcome === 'win' || row.outcome === 'loss';
  return row.outcome === outcome;
}

/** Every whitespace-separated word of `query` occurs (case-insensitively) in `haystack`. */
export function matchesWords(haystack: string, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const h = haystack.toLowerCase();
  return words.every((w) => h.includes(w));
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The rows the filters keep, sorted. Rows without the sort value (a query missing from one run) go last whatever
 * the direction; ties keep the qid order so the order is stable.
 */
export function visibleRows(rows: readonly QueryRow[], view: QueryViewState): QueryRow[] {
  const keep = rows.filter(
    (r) => inSlice(r, view.slice) && matchesOutcome(r, view.outcome) && (!view.text || matchesWords(`${r.qid} ${r.text}`, view.text)),
  );
  const dir = view.descending ? -1 : 1;
  const key = view.sort;
  keep.sort((a, b) => {
    let c: number;
    if (key === 'qid' || key === 'text') c = byText(a[key], b[key]) * dir;
    else {
      const x = a[key];
      const y = b[key];
      if (x === undefined || y === undefined) c = x === y ? 0 : x === undefined ? 1 : -1;
      else c = (x - y) * dir;
    }
    return c || byText(a.qid, b.qid);
  });
  return keep;
}

/** Wins, losses and ties among rows. */
export function outcomeCounts(rows: readonly QueryRow[]): { wins: number; losses: number; ties: number } {
  const n = { wins: 0, losses: 0, ties: 0 };
  for (const { outcome: o } of rows) {
    if (o === 'win') n.wins++;
    else if (o === 'loss') n.losses++;
    else if (o === 'tie') n.ties++;
  }
  return n;
}

/**
 * The rows to draw for a scroll position: [first, end) with `overscan` rows either side, clamped to `count`.
 * With a fixed row height the window is all a list of any length needs.
 */
export function windowRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  count: number,
  overscan = 8,
): { first: number; end: number } {
  if (count === 0 || rowHeight <= 0) return { first: 0, end: 0 };
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((scrollTop + Math.max(0, viewportHeight)) / rowHeight) + overscan);
  return { first: Math.min(first, end), end };
}

/** The scrollTop that brings row `index` into view (unchanged when it already is). */
export function scrollToShow(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return scrollTop;
}

/** Runs whose label, id, time or principal hold every typed word. */
export function matchRuns(runs: readonly RunSummary[], query: string): RunSummary[] {
  return runs.filter((r) => matchesWords(r.search, query));
}
