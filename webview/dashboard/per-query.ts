/**
 * The per-query view: a chart of every query's change sorted from worst to best (wins, losses, ties; a click opens
 * the query), filters (slice, win/loss/tie, text) and a sortable, windowed table beside the detail of the selected
 * query, which stays in view while the page scrolls.
 */
import type { DashboardModel, QueryRow, QueryViewState } from '../../src/protocol/dashboard';
import { Chart, axes, drawLater } from './charts';
import { button, h, legend, linkButton, tip } from '../dom';
import { fmt, fmtCount, fmtDelta } from './format';
import { outcomeCounts, visibleRows } from './query-view';
import { VirtualList } from './virtual-list';

export const ROW_HEIGHT = 26;

export interface PerQueryCallbacks {
  /** The user selected a query (row, bar or keyboard). */
  select: (qid: string) => void;
  openQuery: (qid: string) => void;
  /** Sort or filters changed (to persist). */
  viewChanged: (view: QueryViewState) => void;
}

export interface PerQueryView {
  element: HTMLElement;
  /** The detail panel the caller fills. */
  detail: HTMLElement;
  /** Marks `qid` selected; `reveal` scrolls its row (and the section) into view. */
  setSelected: (qid: string | undefined, reveal?: boolean) => void;
  /** Rows drawn right now (for tests and the performance figure). */
  aliveRows: () => number;
}

const COLUMNS: { key: QueryViewState['sort']; label: string; title: string; num?: boolean }[] = [
  { key: 'qid', label: 'Query', title: 'Query id; click it to open the query in the judgments' },
  { key: 'text', label: 'Text', title: 'Query text' },
  { key: 'baseline', label: 'Baseline', title: 'Baseline run, this query', num: true },
  { key: 'candidate', label: 'Candidate', title: 'Candidate run, this query', num: true },
  { key: 'delta', label: 'Δ', title: 'Δ = candidate − baseline on this query', num: true },
];

const OUTCOMES: { value: QueryViewState['outcome']; label: string; title: string }[] = [
  { value: '', label: 'All', title: 'every query' },
  { value: 'loss', label: 'Losses', title: 'candidate worse than baseline' },
  { value: 'win', label: 'Wins', title: 'candidate better than baseline' },
  { value: 'tie', label: 'Ties', title: 'no change (|Δ| ≤ 1e-9)' },
  { value: 'changed', label: 'Changed', title: 'wins and losses' },
];

export function perQueryView(
  model: DashboardModel,
  initial: QueryViewState,
  selectedQid: string | undefined,
  cb: PerQueryCallbacks,
): PerQueryView {
  const rows = model.perQuery;
  const metric = model.primaryMetric;
  let view = { ...initial };
  let selected = selectedQid;
  let shown: QueryRow[] = [];
  let position = new Map<string, number>();
  let chart: Chart | undefined;
  let chartOrder: QueryRow[] = [];

  // ---- filters
  const sliceSelect = h('select', { id: 'pq-slice', attrs: { 'aria-label': 'Slice' } });
  for (const name of ['', ...model.sliceNames]) {
    const o = h('option', {}, name ? name : 'All slices');
    o.value = name;
    o.selected = name === view.slice;
    sliceSelect.append(o);
  }
  sliceSelect.addEventListener('change', () => update({ slice: sliceSelect.value }));
  const outcomeButtons = OUTCOMES.map((o) => {
    const b = button(o.label, () => update({ outcome: o.value }), { class: 'segment', title: o.title, attrs: { 'data-outcome': o.value } });
    return b;
  });
  const search = h('input', {
    id: 'pq-text',
    attrs: { type: 'search', placeholder: 'filter by id or text', 'aria-label': 'Filter queries by id or text', spellcheck: 'false' },
  });
  search.value = view.text;
  let typing = 0;
  search.addEventListener('input', () => {
    // What was typed is state at once (a redraw meanwhile — runs or judgments changed — starts from it); only the
    // filtering waits for a pause in typing.
    view = { ...view, text: search.value };
    cb.viewChanged(view);
    clearTimeout(typing);
    typing = window.setTimeout(apply, 120);
  });
  const count = h('span', { id: 'pq-count', class: 'muted nowrap' });
  const controls = h(
    'div',
    { class: 'pq-controls' },
    h('label', {}, 'Slice ', sliceSelect),
    h('span', { class: 'segments', role: 'group', attrs: { 'aria-label': 'Outcome' } }, ...outcomeButtons),
    search,
    count,
  );

  // ---- table
  const headerCells = COLUMNS.map((c) => {
    const b = button(
      c.label,
      () =>
        update(
          view.sort === c.key ? { descending: !view.descending } : { sort: c.key, descending: c.key === 'delta' ? false : c.num === true },
        ),
      { class: 'sort', title: `${c.title}. Click to sort.` },
    );
    return h('div', { class: `vt-cell${c.num ? ' num' : ''}`, role: 'columnheader', attrs: { 'data-key': c.key } }, b);
  });
  const header = h('div', { class: 'vt-row vt-head', role: 'row' }, ...headerCells);
  const list = new VirtualList({ rowHeight: ROW_HEIGHT, header, label: 'Queries', renderRow: (i) => renderRow(shown[i]!, i) }); // it draws rows below its count
  const table = h(
    'div',
    { id: 'per-query-table', class: 'vt', role: 'grid', attrs: { 'aria-label': 'Queries', 'aria-rowcount': String(rows.length + 1) } },
    list.viewport,
  );

  function renderRow(q: QueryRow, i: number): HTMLElement {
    const cls = q.outcome === 'win' ? 'better' : q.outcome === 'loss' ? 'worse' : '';
    const row = h(
      'div',
      {
        class: `vt-row clickable${q.qid === selected ? ' selected' : ''}`,
        role: 'row',
        attrs: { 'data-qid': q.qid, 'aria-rowindex': String(i + 2), 'aria-selected': String(q.qid === selected) },
      },
      h(
        'div',
        { class: 'vt-cell clip', role: 'gridcell', dir: 'auto', title: tip(q.qid) },
        linkButton(q.qid, 'Open in the judgments', () => cb.openQuery(q.qid)),
      ),
      h('div', { class: 'vt-cell clip', role: 'gridcell', dir: 'auto', title: tip(q.text) }, q.text),
      h('div', { class: 'vt-cell num', role: 'gridcell' }, fmt(q.baseline)),
      h('div', { class: 'vt-cell num', role: 'gridcell' }, fmt(q.candidate)),
      h('div', { class: `vt-cell num delta ${cls}`, role: 'gridcell' }, fmtDelta(q.delta)),
    );
    row.addEventListener('click', () => choose(q.qid, false));
    return row;
  }

  list.viewport.addEventListener('keydown', (e) => {
    const at = selected !== undefined ? (position.get(selected) ?? -1) : -1;
    const step = { ArrowDown: 1, ArrowUp: -1, PageDown: list.pageSize, PageUp: -list.pageSize, Home: -Infinity, End: Infinity }[e.key];
    if (step === undefined || shown.length === 0) return;
    e.preventDefault();
    const next = Math.max(0, Math.min(shown.length - 1, at < 0 ? 0 : at + step));
    choose(shown[next]!.qid, true); // next is clamped to shown's indices
  });

  // ---- chart: the filtered queries with a change value, sorted worst to best
  const canvas = h('canvas', { id: 'chart-query-delta', attrs: { role: 'img', 'aria-label': 'Per-query change, sorted' } });
  const chartCaption = h('figcaption', {});
  const figure = h(
    'figure',
    { class: 'delta-chart' },
    chartCaption,
    h('div', { class: 'chart-box short' }, canvas),
    legend(
      h('span', { class: 'better' }, '■ win'),
      ': candidate better on the query; ',
      h('span', { class: 'worse' }, '■ loss'),
      ': worse; ',
      h('span', { class: 'muted' }, '■ tie'),
      ': |Δ| ≤ 1e-9. Bars run from the worst change (left) to the best (right); click a bar to open its query.',
    ),
  );

  function colours(c: { win: string; loss: string; tie: string; selected: string }): string[] {
    return chartOrder.map((r) => (r.qid === selected ? c.selected : r.outcome === 'win' ? c.win : r.outcome === 'loss' ? c.loss : c.tie));
  }
  let chartColours: { win: string; loss: string; tie: string; selected: string } | undefined;
  drawLater(
    canvas,
    (c) => {
      chartColours = c;
      return new Chart(canvas, {
        type: 'bar',
        data: {
          labels: [],
          datasets: [{ label: 'Δ', data: [], backgroundColor: [], barPercentage: 1, categoryPercentage: 1, minBarLength: 2 }],
        },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: axes(c, { hideX: true }),
          plugins: {
            legend: { display: false },
            tooltip: {
              callbacks: {
                title: (items) => items.map((it) => tip(String(chartOrder[it.dataIndex]?.qid ?? ''), 60)),
                label: (it) => `Δ ${fmtDelta(Number(it.raw))} — ${tip(chartOrder[it.dataIndex]?.text ?? '', 80)}`,
              },
            },
          },
          onClick: (event, _elements, ch) => {
            const hit = ch.getElementsAtEventForMode(event.native as Event, 'index', { intersect: false }, false)[0];
            const q = hit && chartOrder[hit.index];
            if (q) choose(q.qid, true);
          },
        },
      });
    },
    (ch) => {
      chart = ch;
      fillChart();
    },
  );

  function fillChart(): void {
    chartOrder = shown.filter((r) => r.delta !== undefined).sort((a, b) => a.delta! - b.delta! || (a.qid < b.qid ? -1 : 1));
    const n = outcomeCounts(chartOrder);
    const count = (k: number, one: string, many: string) => `${fmtCount(k)} ${k === 1 ? one : many}`;
    chartCaption.replaceChildren(
      `Δ ${metric ? metric.spec : ''} per query (candidate − baseline), sorted: `,
      h('span', { class: 'worse nowrap' }, count(n.losses, 'loss', 'losses')),
      ' · ',
      h('span', { class: 'muted nowrap' }, count(n.ties, 'tie', 'ties')),
      ' · ',
      h('span', { class: 'better nowrap' }, count(n.wins, 'win', 'wins')),
    );
    if (!chart) return;
    const [bars] = chart.data.datasets; // the one dataset made with the chart
    if (!bars) return;
    chart.data.labels = chartOrder.map((r) => r.qid);
    bars.data = chartOrder.map((r) => r.delta!);
    bars.backgroundColor = chartColours ? colours(chartColours) : [];
    chart.update('none');
  }

  function recolour(): void {
    const bars = chart?.data.datasets[0];
    if (!chart || !bars || !chartColours) return;
    bars.backgroundColor = colours(chartColours);
    chart.update('none');
  }

  // ---- behaviour
  function update(patch: Partial<QueryViewState>): void {
    view = { ...view, ...patch };
    cb.viewChanged(view);
    apply();
  }

  function apply(): void {
    shown = visibleRows(rows, view);
    position = new Map(shown.map((r, at) => [r.qid, at]));
    for (const b of outcomeButtons) b.setAttribute('aria-pressed', String(b.dataset.outcome === view.outcome));
    for (const cell of headerCells) {
      const key = cell.dataset.key;
      cell.setAttribute('aria-sort', key === view.sort ? (view.descending ? 'descending' : 'ascending') : 'none');
    }
    count.textContent = model.comparing
      ? 'Comparing the runs…'
      : shown.length === rows.length
        ? `${fmtCount(rows.length)} queries`
        : `${fmtCount(shown.length)} of ${fmtCount(rows.length)} queries`;
    list.setCount(shown.length);
    fillChart();
  }

  function choose(qid: string, reveal: boolean): void {
    setSelected(qid, reveal);
    cb.select(qid);
  }

  function setSelected(qid: string | undefined, reveal = false): void {
    selected = qid;
    list.refresh();
    recolour();
    const at = qid !== undefined ? position.get(qid) : undefined;
    if (reveal && at !== undefined) {
      list.show(at);
      list.viewport.focus({ preventScroll: true });
      table.scrollIntoView({ block: 'nearest' });
    }
  }

  const detail = h('aside', { id: 'query-detail', class: 'detail', attrs: { 'aria-label': 'Selected query' } });
  const element = h(
    'section',
    { id: 'per-query' },
    h('h2', {}, 'Per query'),
    figure,
    controls,
    h(
      'div',
      { class: 'pq-split' },
      h(
        'div',
        { class: 'pq-left' },
        table,
        legend(
          'Δ = candidate − baseline on ',
          metric ? metric.spec : 'the primary metric',
          ' for one query; ',
          h('span', { class: 'better' }, 'green'),
          ' = win, ',
          h('span', { class: 'worse' }, 'red'),
          ' = loss. Click a header to sort, a row to see both result lists, an id to open the query in the judgments; ↑ ↓ move the selection.',
        ),
      ),
      detail,
    ),
  );
  apply();
  // Scroll the initial selection into the window once the list has its size.
  requestAnimationFrame(() => {
    const at = selected !== undefined ? position.get(selected) : undefined;
    if (at !== undefined) list.show(at);
  });
  return { element, detail, setSelected, aliveRows: () => list.aliveCount };
}
