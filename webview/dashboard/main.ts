/**
 * Ranklab dashboard (runs in the webview). Builds DOM with textContent only: run data contains corpus
 * text (titles, queries) and is never parsed as HTML. Talks to the host through its protocol
 * (src/protocol/dashboard.ts) over the shared client (webview/ipc.ts).
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from 'chart.js';
import {
  type ComparisonView,
  type SliceDelta,
  type DashboardMessages,
  type DashboardModel,
  type DashboardState,
  type DocRow,
  dashboardProtocol,
  type QueryDetail,
} from '../../src/protocol/dashboard';
import { h } from '../dom';
import { WebviewClient } from '../ipc';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

// ---------------------------------------------------------------- messaging

const client = new WebviewClient<DashboardMessages, DashboardState>(dashboardProtocol, {
  init: (params) => showModel(params.model),
  runsUpdated: (params) => showModel(params.model),
  focusRuns: (params) => {
    state = { ...state, ...params, selectedQid: undefined };
    void refresh();
  },
});
let state: DashboardState = client.state ?? {};
const app = document.getElementById('app')!;
const charts: Chart[] = [];

/** A model pushed by the host: keep the user's choice of runs if they still exist; otherwise take the host's defaults. */
function showModel(model: DashboardModel): void {
  const ids = new Set(model.runs.map((r) => r.id));
  if (state.baselineRunId && ids.has(state.baselineRunId) && state.baselineRunId !== model.baselineRunId) {
    void refresh();
  } else if (state.candidateRunId && ids.has(state.candidateRunId) && state.candidateRunId !== model.candidateRunId) {
    void refresh();
  } else {
    setModel(model);
  }
}

async function refresh(): Promise<void> {
  try {
    setModel(await client.request('getDashboard', { baselineRunId: state.baselineRunId, candidateRunId: state.candidateRunId }));
  } catch (e) {
    showError(e);
  }
}

function setModel(model: DashboardModel): void {
  state = { ...state, model, baselineRunId: model.baselineRunId, candidateRunId: model.candidateRunId };
  if (state.selectedQid && !model.perQuery.some((q) => q.qid === state.selectedQid)) state.selectedQid = undefined;
  if (!state.selectedQid && model.perQuery.length) state.selectedQid = model.perQuery[0].qid;
  client.state = state;
  render(model);
}

// ---------------------------------------------------------------- DOM helpers (text only): ../dom.ts

const fmt = (v: number | undefined, digits = 4) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '–');
const fmtDelta = (v: number | undefined) => (typeof v === 'number' ? (v > 0 ? '+' : v < 0 ? '−' : '±') + Math.abs(v).toFixed(4) : '–');
const fmtMs = (v: number | undefined) => (typeof v === 'number' ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : '–');

function showError(e: unknown): void {
  app.prepend(h('p', { class: 'error' }, `Error: ${(e as Error).message ?? String(e)}`));
}

// ---------------------------------------------------------------- rendering

function render(model: DashboardModel): void {
  for (const c of charts.splice(0)) c.destroy();
  app.replaceChildren();
  app.append(
    h('header', {},
      h('h1', {}, 'Ranklab — ', model.workspaceName),
      h('p', { class: 'muted' }, `${model.runs.length} saved run(s) in ${model.runsFolder}`),
    ),
  );
  if (model.problems.length) {
    app.append(h('section', { class: 'problems' }, h('h2', {}, 'Problems'), h('ul', {}, ...model.problems.map((p) => h('li', {}, p)))));
  }
  if (model.runs.length === 0) {
    const btn = h('button', {}, 'Run Evaluation');
    btn.addEventListener('click', () => client.command('runEvaluation', {}));
    app.append(h('p', { id: 'empty' }, 'No saved runs yet. '), btn);
    return;
  }
  app.append(pickers(model), metricsTable(model), comparisonSection(model), latencyTable(model), chartsSection(model), perQuerySection(model), ...[movedSection(model.comparison)].filter((x): x is HTMLElement => x !== null), aclSection(model));
  if (state.selectedQid) void showQuery(state.selectedQid);
}

function runLabel(model: DashboardModel, id: string | undefined): string {
  const r = model.runs.find((x) => x.id === id);
  return r ? `${r.label} (${r.id})` : '–';
}

function pickers(model: DashboardModel): HTMLElement {
  const select = (label: string, value: string | undefined, onChange: (id: string) => void) => {
    const s = h('select', {});
    for (const r of [...model.runs].reverse()) {
      const o = h('option', {}, `${r.label} — ${r.createdAt} (${r.id})`);
      o.value = r.id;
      o.selected = r.id === value;
      s.append(o);
    }
    s.addEventListener('change', () => onChange(s.value));
    return h('label', {}, label, ' ', s);
  };
  return h('section', { class: 'pickers' },
    select('Baseline', model.baselineRunId, (id) => { state.baselineRunId = id; state.selectedQid = undefined; void refresh(); }),
    select('Candidate', model.candidateRunId, (id) => { state.candidateRunId = id; state.selectedQid = undefined; void refresh(); }),
  );
}

function metricsTable(model: DashboardModel): HTMLElement {
  const head = h('tr', {}, h('th', {}, 'Config'), h('th', {}, 'Run'), h('th', {}, 'Queries'),
    ...model.metricColumns.map((c) => h('th', { class: 'num', title: c.label }, c.spec)));
  const rows = model.runs.map((r) => {
    const role = r.id === model.baselineRunId ? 'baseline' : r.id === model.candidateRunId ? 'candidate' : '';
    const tr = h('tr', { class: role },
      h('td', {}, r.label, role && h('span', { class: `badge ${role}` }, role)),
      h('td', { class: 'muted' }, r.id),
      h('td', { class: 'num' }, String(r.queryCount)),
      ...model.metricColumns.map((c) => h('td', { class: 'num' }, fmt(r.metrics[c.spec]))));
    return tr;
  });
  const legend = h('ul', { class: 'metric-legend' }, ...model.metricColumns.map((c) => h('li', {}, h('code', {}, c.spec), ': ', c.label)));
  return h('section', { id: 'metrics' }, h('h2', {}, 'Metrics per config'),
    h('table', { class: 'grid', id: 'metrics-table' }, h('thead', {}, head), h('tbody', {}, ...rows)), legend);
}

function latencyTable(model: DashboardModel): HTMLElement {
  const stages: string[] = [];
  for (const r of model.runs) for (const s of Object.keys(r.latency)) if (!stages.includes(s)) stages.push(s);
  stages.sort((a, b) => (a === 'total' ? 1 : b === 'total' ? -1 : 0));
  const head = h('tr', {}, h('th', {}, 'Config'), ...stages.flatMap((s) => [h('th', { class: 'num' }, `${s} p50`), h('th', { class: 'num' }, `${s} p99`)]));
  const rows = model.runs.map((r) =>
    h('tr', {}, h('td', {}, r.config), ...stages.flatMap((s) => [h('td', { class: 'num' }, fmtMs(r.latency[s]?.p50)), h('td', { class: 'num' }, fmtMs(r.latency[s]?.p99))])));
  const canvas = h('canvas', { id: 'chart-latency' });
  requestAnimationFrame(() => {
    const { fg, grid, palette } = chartColors();
    charts.push(new Chart(canvas, {
      type: 'bar',
      data: {
        labels: model.runs.map((r) => r.config),
        datasets: [
          { label: 'total p50 (ms)', data: model.runs.map((r) => r.latency.total?.p50 ?? NaN), backgroundColor: palette[0] },
          { label: 'total p99 (ms)', data: model.runs.map((r) => r.latency.total?.p99 ?? NaN), backgroundColor: palette[1] },
        ],
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false, scales: { x: { ticks: { color: fg }, grid: { color: grid } }, y: { ticks: { color: fg }, grid: { color: grid } } }, plugins: { legend: { labels: { color: fg } } } },
    }));
  });
  return h('section', { id: 'latency' }, h('h2', {}, 'Latency per query'),
    h('div', { class: 'split' }, h('table', { class: 'grid' }, h('thead', {}, head), h('tbody', {}, ...rows)),
      h('figure', {}, h('figcaption', {}, 'Latency by config (total, ms)'), h('div', { class: 'chart-box' }, canvas))));
}

function chartColors(): { fg: string; grid: string; palette: string[] } {
  const fg = cssVar('--vscode-foreground', '#888');
  const grid = cssVar('--vscode-panel-border', 'rgba(128,128,128,0.3)');
  const palette = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-yellow', '--vscode-charts-red']
    .map((v, i) => cssVar(v, ['#3794ff', '#d18616', '#89d185', '#b180d7', '#cca700', '#f14c4c'][i]));
  return { fg, grid, palette };
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function chartsSection(model: DashboardModel): HTMLElement {
  const metric = model.primaryMetric;
  const byConfig = h('canvas', { id: 'chart-metric-by-config' });
  const deltas = h('canvas', { id: 'chart-query-delta' });
  const section = h('section', { id: 'charts', class: 'charts' },
    h('figure', {}, h('figcaption', {}, 'Metric by config'), h('div', { class: 'chart-box' }, byConfig)),
    h('figure', {}, h('figcaption', {}, `Per-query delta, ${metric ? metric.label : ''} (candidate − baseline)`), h('div', { class: 'chart-box' }, deltas)),
  );
  // Charts need the canvas in the document; draw after this frame.
  requestAnimationFrame(() => {
    const fg = cssVar('--vscode-foreground', '#888');
    const grid = cssVar('--vscode-panel-border', 'rgba(128,128,128,0.3)');
    const palette = ['--vscode-charts-blue', '--vscode-charts-orange', '--vscode-charts-green', '--vscode-charts-purple', '--vscode-charts-yellow', '--vscode-charts-red']
      .map((v, i) => cssVar(v, ['#3794ff', '#d18616', '#89d185', '#b180d7', '#cca700', '#f14c4c'][i]));
    const scales = { x: { ticks: { color: fg }, grid: { color: grid } }, y: { ticks: { color: fg }, grid: { color: grid } } };
    charts.push(new Chart(byConfig, {
      type: 'bar',
      data: {
        labels: model.runs.map((r) => r.config),
        datasets: model.metricColumns.slice(0, 6).map((c, i) => ({ label: c.spec, data: model.runs.map((r) => r.metrics[c.spec] ?? NaN), backgroundColor: palette[i % palette.length] })),
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false, scales, plugins: { legend: { labels: { color: fg } } } },
    }));
    const withDelta = model.perQuery.filter((q) => q.delta !== undefined);
    const pos = palette[2];
    const neg = palette[5];
    charts.push(new Chart(deltas, {
      type: 'bar',
      data: {
        labels: withDelta.map((q) => q.qid),
        datasets: [{ label: 'delta', data: withDelta.map((q) => q.delta!), backgroundColor: withDelta.map((q) => (q.delta! < 0 ? neg : pos)) }],
      },
      options: { responsive: true, maintainAspectRatio: false, animation: false, scales, plugins: { legend: { display: false } } },
    }));
  });
  return section;
}

function perQuerySection(model: DashboardModel): HTMLElement {
  const metric = model.primaryMetric;
  const head = h('tr', {}, h('th', {}, 'Query'), h('th', {}, 'Text'), h('th', { class: 'num' }, 'Baseline'), h('th', { class: 'num' }, 'Candidate'), h('th', { class: 'num' }, 'Δ'));
  const rows = model.perQuery.map((q) => {
    const qidLink = h('a', { title: 'Open in judgments' }, q.qid);
    qidLink.href = '#';
    qidLink.addEventListener('click', (e) => { e.preventDefault(); e.stopPropagation(); client.command('openQuery', { qid: q.qid }); });
    const tr = h('tr', { class: `clickable${q.qid === state.selectedQid ? ' selected' : ''}` },
      h('td', {}, qidLink), h('td', {}, q.text), h('td', { class: 'num' }, fmt(q.baseline)), h('td', { class: 'num' }, fmt(q.candidate)),
      h('td', { class: `num ${q.delta === undefined ? '' : q.delta < 0 ? 'worse' : q.delta > 0 ? 'better' : ''}` }, fmtDelta(q.delta)));
    tr.dataset.qid = q.qid;
    tr.tabIndex = 0;
    const select = () => {
      state.selectedQid = q.qid;
      client.state = state;
      for (const other of Array.from(tr.parentElement?.children ?? [])) other.classList.toggle('selected', other === tr);
      void showQuery(q.qid);
    };
    tr.addEventListener('click', select);
    tr.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); select(); } });
    return tr;
  });
  return h('section', { id: 'per-query' },
    h('h2', {}, 'Per query, sorted by Δ vs baseline'),
    h('p', { class: 'muted' }, metric ? metric.label : 'no metric', ' — baseline ', runLabel(model, model.baselineRunId), ', candidate ', runLabel(model, model.candidateRunId)),
    h('div', { class: 'split' },
      h('table', { class: 'grid', id: 'per-query-table' }, h('thead', {}, head), h('tbody', {}, ...rows)),
      h('div', { id: 'query-detail' })));
}

async function showQuery(qid: string): Promise<void> {
  const box = document.getElementById('query-detail');
  if (!box) return;
  let detail: QueryDetail;
  try {
    detail = await client.request('getQueryDetail', { qid, baselineRunId: state.baselineRunId, candidateRunId: state.candidateRunId });
  } catch (e) {
    box.replaceChildren(h('p', { class: 'error' }, (e as Error).message));
    return;
  }
  if (state.selectedQid !== qid) return; // a later click won
  const docsTable = (label: string, side: QueryDetail['baseline']) =>
    h('div', { class: 'docs' },
      h('h3', {}, label, side ? ` — ${side.runId}${side.metric !== undefined ? `, ${fmt(side.metric)}` : ''}` : ' — not in this run'),
      side && h('table', { class: 'grid' },
        h('thead', {}, h('tr', {}, h('th', { class: 'num' }, '#'), h('th', {}, 'Document'), h('th', {}, 'Title'), h('th', { class: 'num' }, 'Grade'), h('th', { class: 'num' }, 'Score'), h('th', { class: 'num', title: 'rank in the other list' }, 'Other'))),
        h('tbody', {}, ...side.docs.map((d) => docRow(d, side.runId, qid)))));
  box.replaceChildren(
    h('h2', {}, 'Query ', qid),
    h('p', { class: 'query-text' }, detail.text),
    h('div', { class: 'side-by-side' }, docsTable('Candidate', detail.candidate), docsTable('Baseline', detail.baseline)),
  );
}

function docRow(d: DocRow, runId: string, qid: string): HTMLElement {
  const link = h('a', { title: 'Open document' }, d.id);
  link.href = '#';
  link.addEventListener('click', (e) => { e.preventDefault(); client.command('openDocument', { docId: d.id, runId }); });
  const grade = gradeCell(d.grade);
  if (d.grade === undefined) {
    // Unjudged: grade it now in the judging view (pooling this comparison's two configs).
    const judge = h('button', { class: 'judge-action', title: `Grade ${d.id} for ${qid}` }, 'judge');
    judge.dataset.docId = d.id;
    judge.addEventListener('click', (e) => { e.stopPropagation(); client.command('judge', { qid, docId: d.id, baselineRunId: state.baselineRunId, candidateRunId: state.candidateRunId }); });
    grade.append(' ', judge);
  }
  return h('tr', {}, h('td', { class: 'num' }, String(d.rank)), h('td', {}, link), h('td', { class: 'doc-title' }, d.title ?? ''),
    grade, h('td', { class: 'num' }, fmt(d.score, 3)), h('td', { class: 'num muted' }, d.otherRank === undefined ? '–' : String(d.otherRank)));
}

function gradeCell(grade: number | null | undefined): HTMLElement {
  return grade === undefined || grade === null
    ? h('td', { class: 'num unjudged', title: 'not judged: counts as not relevant' }, 'unjudged')
    : h('td', { class: `num grade grade-${Math.min(grade, 3)}` }, String(grade));
}

const fmtP = (p: number) => (p < 0.001 ? '<0.001' : p.toFixed(3));
const fmtCI = (ci: [number, number]) => `[${fmtDelta(ci[0])}, ${fmtDelta(ci[1])}]`;

function sliceTable(id: string, rows: SliceDelta[], label: string): HTMLElement {
  return h('table', { class: 'grid', id },
    h('thead', {}, h('tr', {}, h('th', {}, label), h('th', { class: 'num' }, 'Queries'), h('th', { class: 'num' }, 'Baseline'), h('th', { class: 'num' }, 'Candidate'), h('th', { class: 'num' }, 'Δ'), h('th', { class: 'num' }, '95% CI'), h('th', { class: 'num' }, 'p (adj.)'))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, h('td', {}, r.name), h('td', { class: 'num' }, String(r.queries)), h('td', { class: 'num' }, fmt(r.baseline)), h('td', { class: 'num' }, fmt(r.candidate)),
      h('td', { class: `num ${r.delta < 0 ? 'worse' : r.delta > 0 ? 'better' : ''}` }, fmtDelta(r.delta)), h('td', { class: 'num muted' }, fmtCI(r.ci95)), h('td', { class: 'num' }, fmtP(r.pAdjusted))))));
}

function comparisonSection(model: DashboardModel): HTMLElement {
  const c = model.comparison;
  if (!c) return h('section', { id: 'comparison' }, h('h2', {}, 'Comparison'), h('p', { class: 'muted' }, model.comparisonNote ?? 'No comparison.'));
  const metrics = h('table', { class: 'grid', id: 'comparison-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Metric'), h('th', { class: 'num' }, c.baseline), h('th', { class: 'num' }, c.candidate), h('th', { class: 'num' }, 'Δ'), h('th', { class: 'num' }, '95% CI (bootstrap)'), h('th', { class: 'num' }, 'p'), h('th', { class: 'num' }, 'p (Holm)'), h('th', { class: 'num' }, 'W/L/T'))),
    h('tbody', {}, ...c.metrics.map((m) => h('tr', { class: m.pAdjusted < 0.05 ? 'significant' : '' }, h('td', {}, m.spec), h('td', { class: 'num' }, fmt(m.baseline)), h('td', { class: 'num' }, fmt(m.candidate)),
      h('td', { class: `num ${m.delta < 0 ? 'worse' : m.delta > 0 ? 'better' : ''}` }, fmtDelta(m.delta)), h('td', { class: 'num muted' }, fmtCI(m.ci95)), h('td', { class: 'num' }, fmtP(m.p)), h('td', { class: 'num' }, fmtP(m.pAdjusted)),
      h('td', { class: 'num' }, `${m.wins}/${m.losses}/${m.ties}`)))));
  const gates = c.gates.length
    ? h('ul', { id: 'gates', class: 'gates' }, ...c.gates.map((g) => h('li', { class: g.passed ? 'better' : 'worse' }, g.passed ? '✓ ' : '✗ ', g.gate, ` (actual ${g.actual === null ? 'n/a' : g.actual.toFixed(4)})`, !g.passed && g.queries.length ? ` — ${g.queries.join(', ')}` : '')))
    : h('p', { class: 'muted' }, 'No gates declared in ranklab.json.');
  const sliceCanvas = h('canvas', { id: 'chart-slices' });
  const section = h('section', { id: 'comparison' },
    h('h2', {}, `Comparison: ${c.candidate} vs ${c.baseline} (${c.queries} queries)`),
    c.staleJudgments ? h('p', { class: 'error' }, 'The judgments changed since one of these runs was made; figures use the current judgments.') : null,
    metrics,
    h('p', { class: 'muted' }, c.correction, `; judged@${c.judged.k}: baseline ${fmt(c.judged.baseline, 3)}, candidate ${fmt(c.judged.candidate, 3)}`),
    c.warnings.length ? h('ul', { class: 'warnings' }, ...c.warnings.map((w) => h('li', {}, w))) : null,
    h('h3', {}, 'Gates'), gates,
    h('h3', {}, `Tune / holdout (${c.primaryMetric})`),
    c.splits.length ? sliceTable('splits-table', c.splits, 'Split') : h('p', { class: 'muted' }, 'All queries are in one split.'),
    h('h3', {}, `Slices (${c.primaryMetric})`),
    c.slices.length ? h('div', { class: 'split' }, sliceTable('slices-table', c.slices, 'Slice'), h('figure', {}, h('figcaption', {}, 'Δ per slice'), h('div', { class: 'chart-box' }, sliceCanvas))) : h('p', { class: 'muted' }, 'No slice has enough queries (3).'),
  );
  if (c.slices.length) {
    requestAnimationFrame(() => {
      const { fg, grid, palette } = chartColors();
      charts.push(new Chart(sliceCanvas, {
        type: 'bar',
        data: { labels: c.slices.map((s) => s.name), datasets: [{ label: `Δ ${c.primaryMetric}`, data: c.slices.map((s) => s.delta), backgroundColor: c.slices.map((s) => (s.delta < 0 ? palette[5] : palette[2])) }] },
        options: { indexAxis: 'y', responsive: true, maintainAspectRatio: false, animation: false, scales: { x: { ticks: { color: fg }, grid: { color: grid } }, y: { ticks: { color: fg }, grid: { color: grid } } }, plugins: { legend: { display: false } } },
      }));
    });
  }
  return section;
}

function movedSection(c: ComparisonView | undefined): HTMLElement | null {
  if (!c || c.moved.length === 0) return null;
  const arrow = { in: '→ in', out: 'out →', up: '▲', down: '▼' } as const;
  return h('section', { id: 'moved' },
    h('h2', {}, 'Documents that moved'),
    h('p', { class: 'muted' }, `Top-k changes for the queries whose ${c.primaryMetric} changed, worst first; unjudged documents count as not relevant.`),
    ...c.moved.map((q) => h('details', { class: 'moved-query' },
      h('summary', {}, `${q.qid} `, h('span', { class: q.delta < 0 ? 'worse' : 'better' }, fmtDelta(q.delta)), ` — ${q.text}`),
      h('table', { class: 'grid' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Document'), h('th', {}, 'Title'), h('th', { class: 'num' }, 'Grade'), h('th', { class: 'num' }, 'Baseline'), h('th', { class: 'num' }, 'Candidate'), h('th', {}, 'Move'))),
        h('tbody', {}, ...q.docs.map((d) => h('tr', {}, h('td', {}, d.id), h('td', { class: 'doc-title' }, d.title ?? ''), gradeCell(d.grade),
          h('td', { class: 'num' }, d.baselineRank === null ? '–' : String(d.baselineRank)), h('td', { class: 'num' }, d.candidateRank === null ? '–' : String(d.candidateRank)),
          h('td', { class: (d.grade ?? 0) > 0 ? (d.change === 'out' || d.change === 'down' ? 'worse' : 'better') : 'muted' }, arrow[d.change]))))))));
}

function aclSection(model: DashboardModel): HTMLElement {
  const acl = model.acl;
  const btn = h('button', {}, 'Check Access Control');
  btn.addEventListener('click', () => client.command('checkAccessControl', {}));
  if (!acl || acl.status !== 'checked') return h('section', { id: 'acl' }, h('h2', {}, 'Access control'), h('p', { class: 'muted' }, acl?.message ?? 'Not checked yet.'), btn);
  return h('section', { id: 'acl' },
    h('h2', {}, 'Access control ', h('span', { class: `badge ${acl.passed ? 'baseline' : 'candidate'}` }, acl.passed ? 'passed' : 'violations')),
    h('table', { class: 'grid', id: 'acl-principals' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Principal'), h('th', { class: 'num' }, 'Violations'), h('th', { class: 'num' }, 'Page fill'))),
      h('tbody', {}, ...acl.principals.map((p) => h('tr', {}, h('td', {}, p.name), h('td', { class: `num ${p.violations ? 'worse' : ''}` }, String(p.violations)), h('td', { class: 'num' }, p.pageFill === undefined ? '–' : fmt(p.pageFill, 3)))))),
    acl.violations.length ? h('ul', { class: 'violations' }, ...acl.violations.slice(0, 50).map((v) => h('li', { class: 'worse' }, `${v.principal}: "${v.query}" → ${v.docId}${v.rank ? ` at rank ${v.rank}` : ''}${v.config ? ` (${v.config})` : ''}`))) : null,
    btn);
}

// Redraw charts when the theme changes (VS Code swaps body classes: vscode-light / vscode-dark / vscode-high-contrast).
new MutationObserver(() => { if (state.model) render(state.model); }).observe(document.body, { attributes: true, attributeFilter: ['class'] });

// Draw the last known state at once (panel restored after hide/reload), then ask the host for fresh data.
if (state.model) render(state.model);
client.ready();
