/**
 * Ranklab dashboard (runs in the webview). The answer first: the run pickers and the verdict, then the per-query
 * view (chart, filters, windowed table, detail), the N-way matrix, and the figures in full. Builds DOM with text
 * nodes only: run data holds corpus text (titles, queries) and is never parsed as HTML. Talks to the host through
 * its protocol (src/protocol/dashboard.ts) over the shared client (webview/ipc.ts).
 */
import {
  type DashboardMessages,
  type DashboardModel,
  type DashboardState,
  type MatrixView,
  type QueryViewState,
  dashboardProtocol,
} from '../../src/protocol/dashboard';
import { WebviewClient } from '../ipc';
import { destroyCharts } from './charts';
import { renderDetail } from './detail';
import { button, data, h } from '../dom';
import { type PerQueryView, perQueryView } from './per-query';
import { DEFAULT_QUERY_VIEW } from './query-view';
import { runPicker } from './run-picker';
import { aclSection, classesSection, comparisonSection, latencySection, matrixSection, metricsSection, verdictSection } from './sections';

// ---------------------------------------------------------------- messaging and state

const client = new WebviewClient<DashboardMessages, DashboardState>(dashboardProtocol, {
  init: (params) => showModel(params.model),
  runsUpdated: (params) => showModel(params.model),
  focusRuns: (params) => {
    state = { ...state, ...params, allowMixedPrincipals: false, selectedQid: undefined };
    void refresh();
  },
});
const restored = client.state;
// A state written by another protocol version may not match today's types: start afresh.
let state: DashboardState = restored?.version === dashboardProtocol.version ? restored : { version: dashboardProtocol.version };
const app = document.getElementById('app')!;
let perQuery: PerQueryView | undefined;
let showAllRuns = false;
let matrix: { key: string; result: { matrix?: MatrixView; note?: string } | 'loading' } | undefined;

function save(): void {
  client.state = { ...state, version: dashboardProtocol.version };
}

/** A model pushed by the host: keep the user's choice of runs if they still exist; otherwise take the host's defaults. */
function showModel(model: DashboardModel): void {
  const ids = new Set(model.runs.map((r) => r.id));
  const keep = (id: string | undefined, hostId: string | undefined) => id !== undefined && ids.has(id) && id !== hostId;
  if (
    keep(state.baselineRunId, model.baselineRunId) ||
    keep(state.candidateRunId, model.candidateRunId) ||
    (state.allowMixedPrincipals ?? false) !== model.allowMixedPrincipals
  ) {
    void refresh();
  } else {
    setModel(model);
  }
}

/** Bumped by every refresh: an answer to an earlier one (a slower comparison) is dropped, never shown over a newer pick. */
let refreshes = 0;

async function refresh(): Promise<void> {
  const mine = ++refreshes;
  try {
    const model = await client.request('getDashboard', {
      baselineRunId: state.baselineRunId,
      candidateRunId: state.candidateRunId,
      allowMixedPrincipals: state.allowMixedPrincipals,
    });
    if (mine === refreshes) setModel(model);
  } catch (e) {
    showError(e);
  }
}

function setModel(model: DashboardModel): void {
  state = {
    ...state,
    model,
    baselineRunId: model.baselineRunId,
    candidateRunId: model.candidateRunId,
    allowMixedPrincipals: model.allowMixedPrincipals,
  };
  // While the comparison is on its way the table is empty: the selection waits for its rows (a reload keeps it).
  if (!model.comparing) {
    if (state.selectedQid && !model.perQuery.some((q) => q.qid === state.selectedQid)) state.selectedQid = undefined;
    const [first] = model.perQuery;
    if (!state.selectedQid && first) state.selectedQid = first.qid;
  }
  save();
  render(model);
}

function showError(e: unknown): void {
  app.prepend(h('p', { class: 'error' }, `Error: ${(e as Error).message ?? String(e)}`));
}

// ---------------------------------------------------------------- the page

function render(model: DashboardModel): void {
  const scrollY = window.scrollY;
  destroyCharts();
  perQuery = undefined;
  const runEval = button('Run Evaluation', () => client.command('runEvaluation', {}), { class: 'secondary' });
  app.replaceChildren(
    h(
      'header',
      { class: 'top' },
      h('h1', {}, 'Ranklab — ', data(model.workspaceName)),
      h('span', { class: 'muted' }, `${model.runs.length} saved run(s) in `, data(model.runsFolder)),
      runEval,
    ),
  );
  if (model.problems.length) {
    app.append(
      h('section', { class: 'problems' }, h('h2', {}, 'Problems'), h('ul', {}, ...model.problems.map((p) => h('li', {}, data(p))))),
    );
  }
  if (model.runs.length === 0) {
    app.append(h('p', { id: 'empty' }, 'No saved runs yet. "Run Evaluation" evaluates every config of the workspace and saves the runs.'));
    return;
  }
  app.append(
    pickers(model),
    verdictSection(model, {
      allowMixed: (allow) => {
        state.allowMixedPrincipals = allow;
        void refresh();
      },
    }),
  );
  perQuery = perQueryView(model, state.queryView ?? DEFAULT_QUERY_VIEW, state.selectedQid, {
    select: selectQuery,
    openQuery: (qid) => client.command('openQuery', { qid }),
    viewChanged: (view: QueryViewState) => {
      state.queryView = view;
      save();
    },
  });
  app.append(perQuery.element);
  if (model.comparison?.classes) app.append(classesSection(model.comparison.classes, openClassQuery));
  app.append(matrixPlaceholder());
  if (model.comparison) app.append(comparisonSection(model.comparison));
  app.append(
    metricsSection(model, showAllRuns, () => {
      showAllRuns = !showAllRuns;
      render(model);
    }),
    latencySection(model),
    aclSection(model.acl, () => client.command('checkAccessControl', {})),
  );
  if (state.selectedQid) void showQuery(state.selectedQid);
  void loadMatrix(model);
  window.scrollTo({ top: scrollY });
}

function selectQuery(qid: string): void {
  state.selectedQid = qid;
  save();
  void showQuery(qid);
}

/** A query named in the classes section: select it in the per-query table and show its detail. */
function openClassQuery(qid: string): void {
  perQuery?.setSelected(qid, true);
  perQuery?.detail.scrollIntoView({ block: 'nearest' });
  selectQuery(qid);
}

function pickers(model: DashboardModel): HTMLElement {
  const base = model.runs.find((r) => r.id === model.baselineRunId);
  const pick = (which: 'baselineRunId' | 'candidateRunId') => (id: string) => {
    state[which] = id;
    state.selectedQid = undefined;
    state.allowMixedPrincipals = false;
    void refresh();
  };
  return h(
    'section',
    { class: 'pickers', attrs: { 'aria-label': 'Runs compared' } },
    runPicker({ id: 'pick-baseline', label: 'Baseline', runs: model.runs, value: model.baselineRunId, onPick: pick('baselineRunId') }),
    runPicker({
      id: 'pick-candidate',
      label: 'Candidate',
      runs: model.runs,
      value: model.candidateRunId,
      onPick: pick('candidateRunId'),
      note: (r) =>
        base && r.principal !== base.principal
          ? '(another principal than the baseline: not comparable)'
          : r.id === model.baselineRunId
            ? '(the baseline)'
            : undefined,
    }),
    model.baselineRunId
      ? button('Set as default baseline', () => client.command('setBaseline', { runId: model.baselineRunId! }), {
          class: 'secondary',
          title: 'Use the baseline picked here in the status bar, CodeLens and Testing view too',
        })
      : null,
  );
}

// ---------------------------------------------------------------- query detail

async function showQuery(qid: string): Promise<void> {
  const box = perQuery?.detail;
  if (!box) return;
  try {
    const detail = await client.request('getQueryDetail', {
      qid,
      baselineRunId: state.baselineRunId,
      candidateRunId: state.candidateRunId,
    });
    if (state.selectedQid !== qid || perQuery?.detail !== box) return; // a later click won, or the page was redrawn
    renderDetail(box, detail, state.model?.primaryMetric?.spec, {
      openDocument: (docId, runId) => client.command('openDocument', { docId, runId }),
      openQuery: (q) => client.command('openQuery', { qid: q }),
      judge: (q, docId) =>
        client.command('judge', { qid: q, docId, baselineRunId: state.baselineRunId, candidateRunId: state.candidateRunId }),
      explain: (docId) =>
        client.request('explainDocument', { qid, docId, baselineRunId: state.baselineRunId, candidateRunId: state.candidateRunId }),
    });
  } catch (e) {
    box.replaceChildren(h('p', { class: 'error' }, (e as Error).message));
  }
}

// ---------------------------------------------------------------- N-way matrix (asked for after the page is drawn)

function matrixPlaceholder(): HTMLElement {
  return h('section', { id: 'matrix' }, h('h2', {}, 'All candidates against the baseline'), h('p', { class: 'muted' }, 'Comparing…'));
}

async function loadMatrix(model: DashboardModel): Promise<void> {
  const baselineRunId = model.baselineRunId;
  if (!baselineRunId) return;
  const key = JSON.stringify([baselineRunId, state.matrixRunIds ?? null, model.runs.map((r) => r.id)]);
  const draw = () => {
    const old = document.getElementById('matrix');
    if (old && matrix && matrix.result !== 'loading') {
      old.replaceWith(
        matrixSection(model, matrix.result, state.matrixRunIds, {
          choose: (ids) => {
            state.matrixRunIds = ids;
            save();
            void loadMatrix(model);
          },
        }),
      );
    }
  };
  if (matrix?.key === key) {
    draw();
    return;
  }
  matrix = { key, result: 'loading' };
  let result: { matrix?: MatrixView; note?: string };
  try {
    result = await client.request('getMatrix', { baselineRunId, candidateRunIds: state.matrixRunIds });
  } catch (e) {
    result = { note: (e as Error).message };
  }
  if (matrix?.key !== key) return;
  matrix = { key, result };
  draw();
}

// Redraw (charts take their colours from the theme) when the theme changes: VS Code swaps body classes.
new MutationObserver(() => {
  if (state.model) render(state.model);
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });

// Draw the last known state at once (panel restored after hide/reload), then ask the host for fresh data.
if (state.model) render(state.model);
client.ready();
