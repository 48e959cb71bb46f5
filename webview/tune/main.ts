/**
 * Ranklab Tune view (runs in the webview): one slider and number box per recombinable setting of a config, the fixed
 * settings with the reason they are not sliders, and at each move the headline metric, every metric (baseline,
 * current, Δ) on all / tune / holdout queries, the per-query Δ chart, wins/losses/ties, the verdict after the
 * correction and the overfitting warning. A move comes in two stages: the figures the ranking gives at once
 * (`result`, the gates with them), the statistics (CI, adjusted p, verdict, warnings) marked "computing…" until `stats` of the same move. "Apply to config" and "Save as new config" ask the host to write the
 * settings. Text only (textContent); protocol: src/protocol/tune.ts over webview/ipc.ts.
 */
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import {
  type TuneGate,
  type TuneMessages,
  type TuneSettingsMsg,
  type TuneSetup,
  type TuneState,
  type TuneView,
  tuneProtocol,
} from '../../src/protocol/tune';
import { cssVar, h } from '../dom';
import { WebviewClient } from '../ipc';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

const client = new WebviewClient<TuneMessages, TuneState>(tuneProtocol, {
  setup: (p) => drawSetup(p.setup),
  result: (p) => {
    if (p.seq >= shownSeq) drawResult(p.view, p.seq);
  },
  stats: (p) => {
    if (p.seq === shownSeq && shown) drawStats({ ...shown, stats: p.stats }, p.seq);
  },
  status: (p) => {
    status.textContent = p.text;
    status.className = p.error ? 'error' : 'muted';
  },
});
const app = document.getElementById('app')!;
const status = h('p', { class: 'muted', id: 'status', role: 'status' });
const results = h('section', { id: 'results' });
// The parts of the results the second stage fills in (kept across draws: drawResult places them, drawStats fills them).
const headlineStats = h('span', { id: 'headline-stats' });
const verdict = h('p', { id: 'verdict', class: 'verdict' });
const basis = h('p', { class: 'muted', id: 'basis' });
const statsExtra = h('div', { id: 'stats-extra' });
let chart: Chart<'bar'> | undefined;
let settings: TuneSettingsMsg = {};
let seq = 0;
let shownSeq = 0;
/** The view drawn (its first stage, and its statistics once they came). */
let shown: TuneView | undefined;

const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(4) : '-');
const signed = (x: number) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(4)}` : '-');

function move(path: string, value: number): void {
  settings = { ...settings, [path]: value };
  seq++;
  status.textContent = 'computing…';
  status.className = 'muted';
  client.command('move', { settings, seq });
}

function drawSetup(s: TuneSetup): void {
  settings = {};
  shown = undefined;
  client.state = { ...client.state, setup: s, view: undefined };
  const sliders = s.sliders.map((sl) => {
    const range = h('input', { id: `range-${sl.path}`, attrs: { type: 'range', 'aria-label': sl.path, 'data-path': sl.path } });
    const box = h('input', { id: `box-${sl.path}`, attrs: { type: 'number', 'aria-label': `${sl.path} value`, 'data-path': sl.path } });
    for (const el of [range, box]) {
      el.min = String(sl.min);
      el.max = String(sl.max);
      el.step = String(sl.step);
      el.value = String(sl.value);
    }
    range.addEventListener('input', () => {
      box.value = range.value;
      move(sl.path, Number(range.value));
    });
    box.addEventListener('change', () => {
      const v = Number(box.value);
      if (box.value === '' || !Number.isFinite(v) || v < sl.min || v > sl.max) {
        status.textContent = `${sl.path}: a number from ${sl.min} to ${sl.max}`;
        status.className = 'error';
        return;
      }
      range.value = box.value;
      move(sl.path, v);
    });
    return h('div', { class: 'slider' }, h('label', { attrs: { for: range.id } }, h('code', {}, sl.path)), range, box);
  });
  const apply = h('button', { id: 'apply' }, 'Apply to config');
  const saveAs = h('button', { id: 'save-as', class: 'secondary' }, 'Save as new config');
  const written = h('span', { class: 'muted', id: 'written' });
  const write = (button: HTMLButtonElement, method: 'apply' | 'saveAs', verb: string) =>
    button.addEventListener('click', () => {
      button.disabled = true;
      void client.request(method, { settings }).then(
        (r) => {
          written.textContent = ` ${verb} ${r.path}`;
          button.disabled = false;
        },
        (e: unknown) => {
          written.textContent = ` ${(e as Error).message}`;
          button.disabled = false;
        },
      );
    });
  write(apply, 'apply', 'applied to');
  write(saveAs, 'saveAs', 'saved');
  app.replaceChildren(
    h('header', {}, h('h1', {}, `Tune ${s.config}`), h('p', { class: 'muted' }, s.file)),
    h('section', { id: 'sliders' }, ...sliders),
    ...(s.fixed.length
      ? [
          h(
            'details',
            { id: 'fixed' },
            h('summary', {}, `${s.fixed.length} setting(s) not offered as sliders`),
            h('ul', {}, ...s.fixed.map((f) => h('li', {}, h('code', {}, f.path), `: ${f.reason}`))),
          ),
        ]
      : []),
    h('p', { class: 'actions' }, apply, ' ', saveAs, written),
    status,
    results,
  );
  chart?.destroy();
  chart = undefined;
  results.replaceChildren(h('p', { class: 'muted' }, 'Computing the config’s own settings…'));
}

function drawResult(view: TuneView, at: number): void {
  shownSeq = at;
  // After a reload (or the state restored) the host's latest move is newer than the app's: the sliders follow it.
  if (at >= seq) {
    seq = at;
    settings = { ...view.settings };
    for (const [path, value] of Object.entries(settings))
      for (const el of app.querySelectorAll<HTMLInputElement>(`input[data-path="${CSS.escape(path)}"]`)) el.value = String(value);
  }
  const hl = view.headline;
  const table = h(
    'table',
    { id: 'metrics', class: 'metrics' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'metric'),
        ...(['all', 'tune', 'holdout'] as const).map((side) =>
          h('th', { attrs: { colspan: '3' } }, `${side} (${view.queries[side]} queries)`),
        ),
      ),
      h('tr', {}, h('th', {}), ...[0, 1, 2].flatMap(() => [h('th', {}, 'baseline'), h('th', {}, 'current'), h('th', {}, 'Δ')])),
    ),
    h(
      'tbody',
      {},
      ...view.metrics.map((m) =>
        h(
          'tr',
          { attrs: { 'data-metric': m.metric } },
          h('th', {}, m.metric),
          ...(['all', 'tune', 'holdout'] as const).flatMap((side) => [
            h('td', { class: 'num' }, fmt(m[side].baseline)),
            h('td', { class: 'num' }, fmt(m[side].current)),
            h('td', { class: `num ${m[side].delta > 0 ? 'win' : m[side].delta < 0 ? 'loss' : ''}` }, signed(m[side].delta)),
          ]),
        ),
      ),
    ),
  );
  const canvas = h('canvas', { id: 'deltas' });
  results.replaceChildren(
    h(
      'p',
      { id: 'headline', class: 'headline' },
      `${hl.metric} `,
      h('strong', {}, fmt(hl.current)),
      ` (${signed(hl.delta)} vs ${view.baseline} ${fmt(hl.baseline)}; `,
      headlineStats,
      ')',
    ),
    h('p', { id: 'wlt' }, `${view.wins} wins · ${view.losses} losses · ${view.ties} ties`),
    verdict,
    basis,
    ...(view.overfitting ? [h('p', { class: 'warning', id: 'overfitting', role: 'alert' }, `⚠ ${view.overfitting}`)] : []),
    statsExtra,
    h('h2', {}, `Δ ${hl.metric} per query`),
    h('div', { class: 'chart' }, canvas),
    h('h2', {}, 'Every metric'),
    table,
  );
  drawChart(canvas, view);
  drawStats(view, at);
}

/** The statistics of the view drawn, or "computing…" until they come; the status line says which stage is shown. */
function drawStats(view: TuneView, at: number): void {
  shown = view;
  client.state = { ...client.state, view };
  const st = view.stats;
  results.dataset.stage = st ? 'full' : 'quick';
  headlineStats.className = st ? '' : 'computing';
  if (at === seq) {
    status.textContent = st ? `computed in ${view.ms} ms, statistics in ${st.ms} ms` : `figures in ${view.ms} ms · statistics computing…`;
    status.className = 'muted';
  }
  if (!st) {
    headlineStats.textContent = '95% CI and adjusted p computing…';
    verdict.className = 'verdict computing muted';
    verdict.replaceChildren(h('strong', {}, 'verdict'), ': computing…');
    basis.textContent = '';
    // The gates come with the first stage (they need no resampling); the warnings wait for the statistics.
    statsExtra.replaceChildren(
      ...(view.gates ? gatesList(view.gates) : [h('p', { class: 'muted', id: 'gates-pending' }, 'gates: computing…')]),
      h('p', { class: 'muted', id: 'warnings-pending' }, 'warnings: computing…'),
    );
    return;
  }
  headlineStats.textContent = `95% CI ${signed(st.ci[0])}..${signed(st.ci[1])}, adjusted p ${fmt(st.pAdjusted)}`;
  verdict.className = `verdict ${st.verdict.outcome.replace(/ /g, '-')}`;
  verdict.replaceChildren(h('strong', {}, st.verdict.outcome), ` — ${st.verdict.headline}`);
  basis.textContent = st.verdict.basis;
  statsExtra.replaceChildren(...st.warnings.map((w) => h('p', { class: 'warning' }, `⚠ ${w}`)), ...gatesList(st.gates));
}

/** The gates, passed or not (nothing when the workspace has none). */
function gatesList(gates: TuneGate[]): HTMLElement[] {
  if (!gates.length) return [];
  return [
    h(
      'details',
      { id: 'gates' },
      h('summary', {}, `gates: ${gates.filter((g) => g.passed).length} of ${gates.length} pass`),
      h('ul', {}, ...gates.map((g) => h('li', { class: g.passed ? 'win' : 'loss' }, `${g.passed ? '✓' : '✗'} ${g.gate}`))),
    ),
  ];
}

/** The per-query Δ bars (largest gain first), drawn once and then updated in place at each move. */
function drawChart(canvas: HTMLCanvasElement, view: TuneView): void {
  const green = cssVar('--vscode-charts-green', '#388a34');
  const red = cssVar('--vscode-charts-red', '#e51400');
  const fg = cssVar('--vscode-foreground', '#888');
  const grid = cssVar('--vscode-panel-border', 'rgba(128,128,128,0.3)');
  const deltas = view.perQuery.map((q) => q.delta);
  // What the e2e test reads to see the chart change (the canvas has no text).
  canvas.setAttribute('data-deltas', deltas.map((d) => d.toFixed(4)).join(','));
  chart?.destroy();
  chart = new Chart(canvas, {
    type: 'bar',
    data: {
      labels: view.perQuery.map((q) => q.qid),
      datasets: [{ label: `Δ ${view.headline.metric}`, data: deltas, backgroundColor: deltas.map((d) => (d >= 0 ? green : red)) }],
    },
    options: {
      animation: false,
      maintainAspectRatio: false,
      scales: {
        x: { ticks: { display: false }, grid: { display: false } },
        y: { ticks: { color: fg }, grid: { color: grid } },
      },
      plugins: { legend: { display: false } },
    },
  });
}

if (client.state?.setup) {
  drawSetup(client.state.setup);
  if (client.state.view) drawResult(client.state.view, 0);
}
client.ready();
