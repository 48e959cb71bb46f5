/**
 * Ranklab sweep view (runs in the webview): the tune and holdout curves of one varied setting with the 95% CI band of
 * the holdout score (BASE's holdout + the CI of the gain), or a heatmap of the tune score for two settings. Clicking
 * a point (or a cell) shows that combination's per-query diff against BASE; "Save as config" asks the host to write
 * it as a new *.rank.json. Text only (textContent); protocol: src/protocol/sweep.ts over webview/ipc.ts.
 */
import { Chart, Filler, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip } from 'chart.js';
import {
  type QueryDiff,
  type SweepMessages,
  type SweepPoint,
  type SweepState,
  type SweepView,
  sweepProtocol,
} from '../../src/protocol/sweep';
import { cssVar, h } from '../dom';
import { WebviewClient } from '../ipc';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend, Filler);

const client = new WebviewClient<SweepMessages, SweepState>(sweepProtocol, {
  show: (params) => render(params.view),
});
const app = document.getElementById('app')!;
let chart: Chart | undefined;
const fmt = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(4));
const signed = (x: number) => (Number.isNaN(x) ? '-' : `${x >= 0 ? '+' : ''}${x.toFixed(4)}`);
/** One varied setting of the sweep. */
type SweepParameter = SweepView['parameters'][number];

const label = (p: SweepPoint) =>
  Object.entries(p.values)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');

function render(view: SweepView): void {
  client.state = { view };
  chart?.destroy();
  chart = undefined;
  const best = view.points.find((p) => p.index === view.best)!;
  const detail = h(
    'section',
    { id: 'detail' },
    h('p', { class: 'muted' }, 'Click a point to see that combination against BASE, per query.'),
  );
  app.replaceChildren(
    h(
      'header',
      {},
      h('h1', {}, `Sweep of ${view.base} on ${view.objective}`),
      h('p', { class: 'muted', id: 'split' }, `${view.split}; BASE scores ${fmt(view.baseTune)} tune, ${fmt(view.baseHoldout)} holdout.`),
      h(
        'ul',
        { class: 'params' },
        ...view.parameters.map((p) => h('li', {}, h('code', {}, p.path), ` (${p.kind}): ${p.values.length} values`)),
      ),
      h(
        'p',
        { id: 'best' },
        'Best on tune: ',
        h('strong', {}, label(best)),
        ` — tune ${fmt(best.tune)}, holdout ${fmt(best.holdout)}, holdout gain ${signed(best.gain)} (95% CI ${signed(best.ci[0])}..${signed(best.ci[1])}, p ${Number.isNaN(best.p) ? '-' : best.p.toFixed(3)})`,
      ),
      ...view.warnings.map((w) => h('p', { class: 'warning', role: 'alert' }, `⚠ ${w}`)),
    ),
    chartOf(view, (p) => void showDiff(p, detail)),
    detail,
  );
}

/** A curve over the one varied parameter, a heatmap over the first two (a sweep varies at least one). */
function chartOf(view: SweepView, onPick: (p: SweepPoint) => void): HTMLElement {
  const [x, y] = view.parameters;
  if (!x) return h('p', { class: 'warning' }, 'No parameter was varied.');
  return y ? heatmap(view, x, y, onPick) : curve(view, x, onPick);
}

function curve(view: SweepView, { path }: SweepParameter, onPick: (p: SweepPoint) => void): HTMLElement {
  const canvas = h('canvas', { id: 'curve' });
  const wrap = h('div', { class: 'chart' }, canvas);
  const points = [...view.points].sort((a, b) => Number(a.values[path]) - Number(b.values[path]));
  const xy = (f: (p: SweepPoint) => number) => points.map((p) => ({ x: Number(p.values[path]), y: f(p) }));
  requestAnimationFrame(() => {
    if (!canvas.isConnected) return;
    const fg = cssVar('--vscode-foreground', '#888');
    const grid = cssVar('--vscode-panel-border', 'rgba(128,128,128,0.3)');
    const blue = cssVar('--vscode-charts-blue', '#3794ff');
    const orange = cssVar('--vscode-charts-orange', '#d18616');
    chart = new Chart(canvas, {
      type: 'line',
      data: {
        datasets: [
          { label: 'tune', data: xy((p) => p.tune), borderColor: blue, backgroundColor: blue, pointRadius: 4 },
          { label: 'holdout', data: xy((p) => p.holdout), borderColor: orange, backgroundColor: orange, pointRadius: 4 },
          {
            label: 'holdout 95% CI',
            data: xy((p) => view.baseHoldout + p.ci[0]),
            borderColor: 'transparent',
            backgroundColor: 'transparent',
            pointRadius: 0,
            fill: false,
          },
          {
            label: 'holdout 95% CI (upper)',
            data: xy((p) => view.baseHoldout + p.ci[1]),
            borderColor: 'transparent',
            backgroundColor: withAlpha(orange),
            pointRadius: 0,
            fill: '-1',
          },
        ],
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        scales: {
          x: { type: 'linear', title: { display: true, text: path, color: fg }, ticks: { color: fg }, grid: { color: grid } },
          y: { title: { display: true, text: view.objective, color: fg }, ticks: { color: fg }, grid: { color: grid } },
        },
        plugins: { legend: { labels: { color: fg, filter: (item) => !item.text.endsWith('(upper)') } } },
        onClick: (_e, elements) => {
          const hit = elements.find((el) => el.datasetIndex <= 1);
          const p = hit && points[hit.index];
          if (p) onPick(p);
        },
      },
    });
  });
  // The same points as buttons: reachable by keyboard, and what tests click.
  const list = h(
    'div',
    { class: 'points', id: 'points' },
    ...points.map((p) => {
      const b = h(
        'button',
        { class: p.index === view.best ? 'best' : '', attrs: { 'data-index': String(p.index) } },
        String(p.values[path]),
      );
      b.addEventListener('click', () => onPick(p));
      return b;
    }),
  );
  return h('section', { id: 'curve-section' }, wrap, list);
}

function heatmap(view: SweepView, a: SweepParameter, b: SweepParameter, onPick: (p: SweepPoint) => void): HTMLElement {
  const byKey = new Map(view.points.map((p) => [`${p.values[a.path]}\0${p.values[b.path]}`, p]));
  const scores = view.points.map((p) => p.tune);
  const lo = Math.min(...scores);
  const hi = Math.max(...scores);
  const table = h(
    'table',
    { class: 'heatmap', id: 'heatmap' },
    h('thead', {}, h('tr', {}, h('th', {}, `${a.path} \\ ${b.path}`), ...b.values.map((v) => h('th', {}, String(v))))),
    h(
      'tbody',
      {},
      ...a.values.map((va) =>
        h(
          'tr',
          {},
          h('th', {}, String(va)),
          ...b.values.map((vb) => {
            const p = byKey.get(`${va}\0${vb}`);
            if (!p) return h('td', { class: 'missing' }, '-');
            const cell = h(
              'td',
              {
                class: p.index === view.best ? 'best' : '',
                title: `${label(p)}: tune ${fmt(p.tune)}, holdout ${fmt(p.holdout)}`,
                attrs: { 'data-index': String(p.index), tabindex: '0', role: 'button' },
              },
              fmt(p.tune),
            );
            cell.style.setProperty('--heat', String(hi > lo ? (p.tune - lo) / (hi - lo) : 1));
            cell.addEventListener('click', () => onPick(p));
            // Reachable by keyboard as the curve's value buttons are: Tab to a cell, Enter or Space.
            cell.addEventListener('keydown', (e) => {
              if (e.key !== 'Enter' && e.key !== ' ') return;
              e.preventDefault();
              onPick(p);
            });
            return cell;
          }),
        ),
      ),
    ),
  );
  return h(
    'section',
    { id: 'heatmap-section' },
    h('p', { class: 'muted' }, 'Tune score per combination (darker = higher); hover for the holdout score.'),
    table,
  );
}

async function showDiff(p: SweepPoint, into: HTMLElement): Promise<void> {
  into.replaceChildren(h('p', { class: 'muted' }, `Loading ${label(p)}…`));
  let diff: QueryDiff;
  try {
    diff = await client.request('getQueryDiff', { index: p.index });
  } catch (e) {
    into.replaceChildren(h('p', { class: 'error' }, (e as Error).message));
    return;
  }
  const save = h('button', { id: 'save-config' }, 'Save as config');
  const status = h('span', { class: 'muted', id: 'save-status' });
  save.addEventListener('click', () => {
    save.disabled = true;
    void client.request('saveConfig', { index: p.index }).then(
      (r) => (status.textContent = ` saved ${r.path}`),
      (e: unknown) => {
        status.textContent = ` ${(e as Error).message}`;
        save.disabled = false;
      },
    );
  });
  const changed = diff.rows.filter((r) => Math.abs(r.delta) > 1e-12);
  into.replaceChildren(
    h('h2', { id: 'detail-title' }, diff.label),
    h(
      'p',
      {},
      `tune ${fmt(p.tune)}, holdout ${fmt(p.holdout)}, holdout gain ${signed(p.gain)} (95% CI ${signed(p.ci[0])}..${signed(p.ci[1])}); ${changed.length} of ${diff.rows.length} queries change. `,
      save,
      status,
    ),
    h(
      'table',
      { class: 'diff', id: 'diff' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'query'),
          h('th', {}, 'text'),
          h('th', {}, 'split'),
          h('th', {}, 'BASE'),
          h('th', {}, 'this'),
          h('th', {}, 'Δ'),
        ),
      ),
      h(
        'tbody',
        {},
        ...changed
          .slice(0, 200)
          .map((r) =>
            h(
              'tr',
              { class: r.delta > 0 ? 'win' : 'loss' },
              h('td', {}, r.qid),
              h('td', { dir: 'auto', title: r.text }, r.text),
              h('td', {}, r.split),
              h('td', { class: 'num' }, fmt(r.base)),
              h('td', { class: 'num' }, fmt(r.value)),
              h('td', { class: 'num' }, signed(r.delta)),
            ),
          ),
      ),
    ),
  );
}

/** A colour made translucent for the CI band (hex or rgb from a theme variable). */
function withAlpha(color: string): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(color.trim());
  if (hex) return `#${hex[1]}33`;
  const rgb = /^rgba?\(([^)]+)\)$/.exec(color.trim());
  return rgb?.[1] ? `rgba(${rgb[1].split(',').slice(0, 3).join(',')}, 0.2)` : color;
}

if (client.state?.view) render(client.state.view);
client.ready();
