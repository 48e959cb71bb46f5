/**
 * The dashboard's sections besides the per-query view: the verdict (or why there is none), the N-way matrix, the
 * comparison in full (every metric, gates, slices, splits, moved documents), metrics and latency per run, access
 * control. Every symbol is explained in a legend line under the element that uses it.
 */
import type {
  AclView,
  ClassesView,
  ComparisonView,
  DashboardModel,
  MatrixView,
  QueryClassName,
  RunSummary,
  SliceDelta,
} from '../../src/protocol/dashboard';
import { Chart, axes, drawLater } from './charts';
import { type Child, button, data, h, legend, linkButton, tip } from '../dom';
import { fmt, fmtCI, fmtCount, fmtDelta, fmtMs, fmtP } from './format';
import { gradeCell } from './detail';

const deltaClass = (d: number) => (d > 1e-9 ? 'better' : d < -1e-9 ? 'worse' : '');
const principalText = (p: string | null) => (p === null ? 'unrestricted' : `as ${p}`);

function runName(model: DashboardModel, id: string | undefined): RunSummary | undefined {
  return model.runs.find((r) => r.id === id);
}

// ---------------------------------------------------------------- verdict

const STATUS_MARK = { improved: '▲', regressed: '▼', 'no-change': '●', mixed: '◆' } as const;

export interface VerdictCallbacks {
  allowMixed: (allow: boolean) => void;
}

/** The first thing on the page: the answer, or why two runs are not compared. */
export function verdictSection(model: DashboardModel, cb: VerdictCallbacks): HTMLElement {
  const b = runName(model, model.baselineRunId);
  const c = runName(model, model.candidateRunId);
  const pair =
    b && c && b !== c
      ? h(
          'p',
          { class: 'verdict-pair' },
          h('span', { class: 'role' }, 'candidate '),
          data(c.label),
          h('span', { class: 'role' }, ' vs baseline '),
          data(b.label),
        )
      : null;
  if (model.refusal) {
    const r = model.refusal;
    return h(
      'section',
      { id: 'verdict', class: 'verdict refused', attrs: { 'aria-live': 'polite' } },
      pair,
      h(
        'h2',
        { class: 'verdict-headline' },
        h('span', { class: 'mark', attrs: { 'aria-hidden': 'true' } }, '⊘'),
        ' Not compared: the runs were made as different principals',
      ),
      h('p', { class: 'refusal-message' }, data(r.message)),
      h(
        'p',
        {},
        `Baseline ${principalText(r.baselinePrincipal)}, candidate ${principalText(r.candidatePrincipal)}. Pick a candidate made ${principalText(r.baselinePrincipal)} (the candidate picker marks the others), evaluate again with the same principal ("Ranklab: Run Evaluation" asks for one), or compare them anyway, labelled:`,
      ),
      button('Compare anyway (labelled MIXED PRINCIPALS)', () => cb.allowMixed(true), { id: 'allow-mixed' }),
    );
  }
  const cmp = model.comparison;
  if (!cmp) {
    return h(
      'section',
      { id: 'verdict', class: 'verdict none' },
      pair,
      h('h2', { class: 'verdict-headline' }, 'No comparison'),
      h('p', { class: 'muted' }, model.comparisonNote ?? 'Pick a baseline and a candidate run.'),
    );
  }
  const v = cmp.verdict;
  const lines = h(
    'table',
    { class: 'grid verdict-lines', id: 'verdict-lines' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Metric'),
        h('th', {}, 'Verdict'),
        h('th', { class: 'num', title: 'baseline mean → candidate mean' }, 'Baseline → candidate'),
        h('th', { class: 'num', title: 'candidate − baseline' }, 'Δ'),
        h('th', { class: 'num', title: 'paired bootstrap 95% confidence interval of Δ' }, '95% CI'),
        h('th', { class: 'num', title: 'permutation p after the Holm–Bonferroni correction' }, 'p (Holm)'),
      ),
    ),
    h(
      'tbody',
      {},
      ...v.lines.map((l, i) =>
        h(
          'tr',
          { class: `${l.significant ? 'significant' : ''}${i === 0 ? ' primary' : ''}`, attrs: { 'data-metric': l.metric } },
          h('td', { title: l.label }, l.metric),
          h(
            'td',
            { class: l.significant ? deltaClass(l.delta) : 'muted' },
            l.significant ? (l.delta > 0 ? '▲ significant gain' : '▼ significant drop') : 'no significant change',
          ),
          h('td', { class: 'num' }, `${fmt(l.baseline)} → ${fmt(l.candidate)}`),
          h('td', { class: `num ${deltaClass(l.delta)}` }, fmtDelta(l.delta)),
          h('td', { class: 'num muted' }, fmtCI(l.ci95)),
          h('td', { class: 'num' }, fmtP(l.pAdjusted)),
        ),
      ),
    ),
  );
  const primary = cmp.metrics.find((m) => m.spec === cmp.primaryMetric);
  const facts: Child[] = [
    h(
      'li',
      { id: 'verdict-gates', class: v.gates.failed.length ? 'worse' : '' },
      v.gates.total === 0
        ? 'No gates declared in ranklab.json.'
        : v.gates.failed.length
          ? `✗ ${v.gates.failed.length} of ${v.gates.total} gates fail: ${v.gates.failed.slice(0, 3).join('; ')}${v.gates.failed.length > 3 ? '; …' : ''}`
          : `✓ ${v.gates.passed}/${v.gates.total} gates pass`,
    ),
    v.worstSlice
      ? h(
          'li',
          { id: 'verdict-worst-slice' },
          'Worst slice: ',
          data(v.worstSlice.name),
          ` (${v.worstSlice.queries} queries) `,
          h('span', { class: 'worse nowrap' }, fmtDelta(v.worstSlice.delta)),
          ` ${cmp.primaryMetric}, ${v.worstSlice.significant ? 'significant' : 'not significant'} after the correction`,
        )
      : h('li', { id: 'verdict-worst-slice' }, `No slice drops on ${cmp.primaryMetric}.`),
    primary
      ? h(
          'li',
          {},
          `${cmp.primaryMetric}: ${primary.wins} wins, ${primary.losses} losses, ${primary.ties} ties over ${cmp.queries} queries`,
        )
      : null,
    v.mde ? h('li', { id: 'verdict-mde' }, 'Smallest detectable change: ', v.mde.text) : null,
  ];
  return h(
    'section',
    {
      id: 'verdict',
      class: `verdict status-${v.status}${cmp.principals.mixed ? ' mixed-principals' : ''}`,
      attrs: { 'data-status': v.status },
    },
    pair,
    cmp.principals.mixed
      ? h(
          'p',
          { class: 'mixed-banner' },
          h('strong', {}, 'MIXED PRINCIPALS'),
          ` — baseline ${principalText(cmp.principals.baseline)}, candidate ${principalText(cmp.principals.candidate)}: the difference mixes access with ranking. `,
          button('Stop comparing', () => cb.allowMixed(false), { id: 'disallow-mixed' }),
        )
      : null,
    h(
      'h2',
      { class: 'verdict-headline', id: 'verdict-headline' },
      h('span', { class: 'mark', attrs: { 'aria-hidden': 'true' } }, STATUS_MARK[v.status]),
      ' ',
      data(v.headline),
    ),
    h(
      'p',
      { class: 'muted' },
      `${cmp.queries} queries${!cmp.principals.mixed && cmp.principals.candidate !== null ? `, judged as ${cmp.principals.candidate} sees them` : ''}.`,
    ),
    cmp.staleJudgments
      ? h('p', { class: 'error' }, 'The judgments changed since one of these runs was made; every figure uses the current judgments.')
      : null,
    lines,
    h('ul', { class: 'verdict-facts' }, ...facts),
    v.notes.length ? h('ul', { class: 'warnings' }, ...v.notes.map((n) => h('li', {}, data(n)))) : null,
    cmp.pending ? h('p', { class: 'muted pending', id: 'verdict-pending', attrs: { 'aria-busy': 'true' } }, cmp.pending) : null,
    legend(
      'Δ = candidate − baseline (mean over queries). 95% CI: the range the true Δ lies in with 95% confidence (paired bootstrap over queries). ',
      'p (Holm): chance of a Δ at least this large if the change did nothing (paired permutation test), corrected with Holm–Bonferroni for all the tests in this comparison (',
      cmp.correction,
      '). ▲ / ▼ significant: p (Holm) < 0.05; ● no significant change. ',
      v.mde
        ? 'Smallest detectable change: below it, a real change cannot be told from query-to-query noise with this many queries (95% confidence, 80% power).'
        : '',
    ),
  );
}

// ---------------------------------------------------------------- N-way matrix

export interface MatrixCallbacks {
  choose: (runIds: string[] | undefined) => void;
}

export function matrixSection(
  model: DashboardModel,
  result: { matrix?: MatrixView; note?: string } | 'loading',
  chosen: string[] | undefined,
  cb: MatrixCallbacks,
): HTMLElement {
  const section = h('section', { id: 'matrix' }, h('h2', {}, 'All candidates against the baseline'));
  if (result === 'loading') {
    section.append(h('p', { class: 'muted' }, 'Comparing…'));
    return section;
  }
  if (!result.matrix) {
    section.append(h('p', { class: 'muted' }, result.note ?? 'No other runs to compare.'));
    return section;
  }
  const m = result.matrix;
  const table = h(
    'table',
    { class: 'grid', id: 'matrix-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Candidate'),
        ...m.metrics.map((c) => h('th', { class: 'num', title: c.definition ? `${c.label}: ${c.definition}` : c.label }, c.spec)),
        h('th', { class: 'num', title: 'gates passed of gates declared' }, 'Gates'),
      ),
    ),
    h(
      'tbody',
      {},
      ...m.rows.map((r) =>
        h(
          'tr',
          { attrs: { 'data-run': r.runId } },
          h('td', { dir: 'auto', title: r.runId }, r.label),
          ...r.cells.map((cell) =>
            h(
              'td',
              {
                class: `num ${cell.significant ? `significant ${deltaClass(cell.delta)}` : ''}`,
                title: `${cell.metric}: ${fmt(cell.candidate)} (Δ ${fmtDelta(cell.delta)}, 95% CI ${fmtCI(cell.ci95)}, p (Holm) ${fmtP(cell.pAdjusted)})`,
              },
              fmtDelta(cell.delta),
              ' ',
              h('span', { class: 'sig-mark' }, cell.significant ? (cell.delta > 0 ? '▲' : '▼') : '·'),
            ),
          ),
          h(
            'td',
            { class: `num ${r.gates.total && r.gates.passed < r.gates.total ? 'worse' : ''}` },
            r.gates.total ? `${r.gates.passed}/${r.gates.total}` : '–',
          ),
        ),
      ),
    ),
  );
  // Which runs: every run made as the baseline's principal, except the baseline.
  const base = runName(model, m.baselineRunId);
  const eligible = model.runs.filter((r) => r.id !== m.baselineRunId && r.principal === (base?.principal ?? null)).reverse();
  const inMatrix = new Set(m.rows.map((r) => r.runId));
  const boxes = eligible.map((r) => {
    const box = h('input', { attrs: { type: 'checkbox', 'data-run': r.id } });
    box.checked = inMatrix.has(r.id);
    return h('label', { class: 'check' }, box, ' ', data(r.label));
  });
  const apply = button('Compare these', () => {
    const ids = boxes
      .map((l) => l.querySelector('input')!)
      .filter((i) => i.checked)
      .map((i) => i.dataset.run!);
    cb.choose(ids);
  });
  const reset = button('Newest run of each config', () => cb.choose(undefined));
  section.append(
    h(
      'p',
      { class: 'muted' },
      'Baseline ',
      data(m.baseline),
      `, ${m.queries} queries. `,
      chosen ? 'Runs chosen by you.' : 'The newest run of every other config made as the same principal.',
    ),
    h('div', { class: 'scroll-x' }, table),
    legend(
      'Each cell: Δ = candidate − baseline mean. ▲ / ▼: significant gain / drop, p (Holm) < 0.05 after one Holm–Bonferroni correction over the whole matrix (',
      m.correction,
      '); · not significant. Hover a cell for its value, 95% CI and p. Gates: gates passed / declared in ranklab.json.',
    ),
    h(
      'details',
      { class: 'matrix-choose' },
      h('summary', {}, `Choose runs (${eligible.length} made ${principalText(base?.principal ?? null)})`),
      h('div', { class: 'checks' }, ...boxes),
      apply,
      ' ',
      reset,
    ),
  );
  return section;
}

// ---------------------------------------------------------------- query classes

/** Where each run loses the relevant documents (core stage recall), and the queries whose class changed (a click opens the query's detail). */
export function classesSection(c: ClassesView, openQuery: (qid: string) => void): HTMLElement {
  // The classes, their order (better first) and labels come with the view, from the core's one table.
  const rank = (name: QueryClassName) => c.classes.findIndex((x) => x.name === name);
  const label = (name: QueryClassName) => c.classes[rank(name)]?.label ?? name;
  const side = (name: 'baseline' | 'candidate') =>
    h(
      'tr',
      { attrs: { 'data-side': name } },
      h('th', { attrs: { scope: 'row' } }, name === 'baseline' ? 'Baseline' : 'Candidate', c.complete[name] ? '' : ' *'),
      ...c.classes.map((cls) => h('td', { class: 'num', attrs: { 'data-class': cls.name } }, String(c.counts[name][cls.name]))),
    );
  const table = h(
    'table',
    { class: 'grid', id: 'classes-table' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Run'), ...c.classes.map((cls) => h('th', { class: 'num' }, cls.label)))),
    h('tbody', {}, side('baseline'), side('candidate')),
  );
  const changed = c.changed.length
    ? h(
        'ul',
        { id: 'classes-changed', class: 'class-changes' },
        ...c.changed.map((q) =>
          h(
            'li',
            { attrs: { 'data-qid': q.qid } },
            linkButton(data(q.qid), "Show this query's result lists", () => openQuery(q.qid)),
            ' ',
            h(
              'span',
              { class: `nowrap ${rank(q.candidate) < rank(q.baseline) ? 'better' : 'worse'}` },
              `${label(q.baseline)} → ${label(q.candidate)}`,
            ),
            ' — ',
            h('span', { title: tip(q.text) }, data(q.text)),
          ),
        ),
      )
    : h('p', { class: 'muted', id: 'classes-changed' }, 'No query changed class.');
  const incomplete = !c.complete.baseline || !c.complete.candidate;
  return h(
    'section',
    { id: 'classes' },
    h('h2', {}, 'Where relevant documents are lost'),
    h('div', { class: 'scroll-x' }, table),
    legend(
      c.classes.map((cls) => `${cls.label}: ${cls.means}`).join('; ') + '. ',
      incomplete ? '* stage outputs not stored (TREC run or older saved run): classed from the final list only. ' : '',
      "The per-query filter offers these classes as slices (class:…, the baseline's class).",
    ),
    h('h3', {}, `Class changed (${c.changedTotal})`),
    changed,
    c.changedTotal > c.changed.length
      ? h(
          'p',
          { class: 'muted' },
          `The first ${c.changed.length} of ${c.changedTotal}; the per-query filter's class slices show every query of a class.`,
        )
      : null,
    c.changed.length
      ? legend(
          'Baseline class → candidate class; ',
          h('span', { class: 'better' }, 'green'),
          ' = closer to a hit, ',
          h('span', { class: 'worse' }, 'red'),
          ' = further. Click an id to see both result lists.',
        )
      : null,
  );
}

// ---------------------------------------------------------------- the comparison in full

function sliceTable(id: string, rows: SliceDelta[], label: string): HTMLElement {
  return h(
    'table',
    { class: 'grid', id },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, label),
        h('th', { class: 'num' }, 'Queries'),
        h('th', { class: 'num' }, 'Baseline'),
        h('th', { class: 'num' }, 'Candidate'),
        h('th', { class: 'num' }, 'Δ'),
        h('th', { class: 'num' }, '95% CI'),
        h('th', { class: 'num' }, 'p (Holm)'),
      ),
    ),
    h(
      'tbody',
      {},
      ...rows.map((r) =>
        h(
          'tr',
          { class: r.pAdjusted < 0.05 ? 'significant' : '' },
          h('td', { dir: 'auto' }, r.name),
          h('td', { class: 'num' }, String(r.queries)),
          h('td', { class: 'num' }, fmt(r.baseline)),
          h('td', { class: 'num' }, fmt(r.candidate)),
          h('td', { class: `num ${deltaClass(r.delta)}` }, fmtDelta(r.delta)),
          h('td', { class: 'num muted' }, fmtCI(r.ci95)),
          h('td', { class: 'num' }, fmtP(r.pAdjusted)),
        ),
      ),
    ),
  );
}

export function comparisonSection(c: ComparisonView): HTMLElement {
  const metrics = h(
    'table',
    { class: 'grid', id: 'comparison-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Metric'),
        h('th', { class: 'num' }, 'Baseline'),
        h('th', { class: 'num' }, 'Candidate'),
        h('th', { class: 'num' }, 'Δ'),
        h('th', { class: 'num' }, '95% CI'),
        h('th', { class: 'num' }, 'p'),
        h('th', { class: 'num' }, 'p (Holm)'),
        h('th', { class: 'num', title: 'queries where the candidate is better / worse / equal' }, 'W / L / T'),
      ),
    ),
    h(
      'tbody',
      {},
      ...c.metrics.map((m) =>
        h(
          'tr',
          { class: m.pAdjusted < 0.05 ? 'significant' : '' },
          h('td', {}, m.spec),
          h('td', { class: 'num' }, fmt(m.baseline)),
          h('td', { class: 'num' }, fmt(m.candidate)),
          h('td', { class: `num ${deltaClass(m.delta)}` }, fmtDelta(m.delta)),
          h('td', { class: 'num muted' }, fmtCI(m.ci95)),
          h('td', { class: 'num' }, fmtP(m.p)),
          h('td', { class: 'num' }, fmtP(m.pAdjusted)),
          h('td', { class: 'num' }, `${m.wins} / ${m.losses} / ${m.ties}`),
        ),
      ),
    ),
  );
  const gates = c.gates.length
    ? h(
        'ul',
        { id: 'gates', class: 'gates' },
        ...c.gates.map((g) =>
          h(
            'li',
            { class: g.passed ? 'better' : 'worse' },
            g.passed ? '✓ ' : '✗ ',
            data(g.gate),
            ` (actual ${g.actual === null ? 'n/a' : g.actual.toFixed(4)})`,
            !g.passed && g.queries.length
              ? h('span', {}, ' — worst queries: ', ...g.queries.flatMap((q, i) => [i ? ', ' : '', data(q)]))
              : '',
          ),
        ),
      )
    : h('p', { class: 'muted' }, 'No gates declared in ranklab.json.');
  const sliceCanvas = h('canvas', { id: 'chart-slices' });
  if (c.slices.length) {
    drawLater(
      sliceCanvas,
      (col) =>
        new Chart(sliceCanvas, {
          type: 'bar',
          data: {
            labels: c.slices.map((s) => s.name),
            datasets: [
              {
                label: `Δ ${c.primaryMetric}`,
                data: c.slices.map((s) => s.delta),
                backgroundColor: c.slices.map((s) => (s.delta < 0 ? col.loss : col.win)),
              },
            ],
          },
          options: {
            indexAxis: 'y',
            responsive: true,
            maintainAspectRatio: false,
            animation: false,
            scales: axes(col),
            plugins: { legend: { display: false } },
          },
        }),
    );
  }
  return h(
    'section',
    { id: 'comparison' },
    h('h2', {}, 'Comparison in full: ', data(c.candidate), ' vs ', data(c.baseline), ` (${c.queries} queries)`),
    h('div', { class: 'scroll-x' }, metrics),
    legend(
      'p: permutation test before correction; p (Holm): after it (',
      c.correction,
      '); highlighted rows: p (Holm) < 0.05. W / L / T: queries where the candidate is better / worse / equal. ',
      c.judged
        ? `judged@${c.judged.k}: share of the top ${c.judged.k} that is judged — baseline ${fmt(c.judged.baseline, 3)}, candidate ${fmt(c.judged.candidate, 3)}.`
        : '',
    ),
    c.warnings.length ? h('ul', { class: 'warnings' }, ...c.warnings.map((w) => h('li', {}, data(w)))) : null,
    h('h3', {}, 'Gates'),
    gates,
    c.gates.length ? legend('✓ passed, ✗ failed; actual: the value the gate tested.') : null,
    h('h3', {}, `Tune / holdout (${c.primaryMetric})`),
    c.splits.length
      ? h('div', { class: 'scroll-x' }, sliceTable('splits-table', c.splits, 'Split'))
      : h('p', { class: 'muted' }, 'All queries are in one split.'),
    h('h3', {}, `Slices (${c.primaryMetric})`),
    c.slices.length
      ? h(
          'div',
          { class: 'split' },
          h('div', { class: 'scroll-x' }, sliceTable('slices-table', c.slices, 'Slice')),
          h('figure', {}, h('figcaption', {}, 'Δ per slice (green: better, red: worse)'), h('div', { class: 'chart-box' }, sliceCanvas)),
        )
      : h('p', { class: 'muted' }, 'No slice has enough queries (3).'),
    movedSection(c),
  );
}

function movedSection(c: ComparisonView): HTMLElement | null {
  if (c.pending)
    return h(
      'div',
      { id: 'moved' },
      h('h3', {}, 'Documents that moved'),
      h('p', { class: 'muted pending', id: 'moved-pending' }, c.pending),
    );
  if (c.moved.length === 0 || !c.judged) return null;
  const arrow = { in: 'in', out: 'out', up: '▲', down: '▼' } as const;
  return h(
    'div',
    { id: 'moved' },
    h('h3', {}, 'Documents that moved'),
    legend(
      `Top-${c.judged.k} changes for the queries whose ${c.primaryMetric} changed most, worst first. Move: in = entered the candidate's list, out = left it, ▲ / ▼ = moved up / down; green when a relevant document gained, red when it lost; unjudged documents count as not relevant.`,
    ),
    ...c.moved.map((q) =>
      h(
        'details',
        { class: 'moved-query' },
        h(
          'summary',
          {},
          data(q.qid),
          ' ',
          h('span', { class: `nowrap ${deltaClass(q.delta)}` }, fmtDelta(q.delta)),
          ' — ',
          h('span', { class: 'clip-inline', title: tip(q.text) }, data(q.text)),
        ),
        h(
          'div',
          { class: 'scroll-x' },
          h(
            'table',
            { class: 'grid' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                h('th', {}, 'Document'),
                h('th', {}, 'Title'),
                h('th', { class: 'num' }, 'Grade'),
                h('th', { class: 'num' }, 'Baseline #'),
                h('th', { class: 'num' }, 'Candidate #'),
                h('th', {}, 'Move'),
                h('th', {}, 'Why'),
              ),
            ),
            h(
              'tbody',
              {},
              ...q.docs.map((d) =>
                h(
                  'tr',
                  {},
                  h('td', { dir: 'auto', class: 'clip-cell' }, d.id),
                  h('td', { class: 'doc-title', dir: 'auto' }, d.title ?? ''),
                  gradeCell(d.grade),
                  h('td', { class: 'num' }, d.baselineRank === null ? '–' : String(d.baselineRank)),
                  h('td', { class: 'num' }, d.candidateRank === null ? '–' : String(d.candidateRank)),
                  h(
                    'td',
                    { class: (d.grade ?? 0) > 0 ? (d.change === 'out' || d.change === 'down' ? 'worse' : 'better') : 'muted' },
                    arrow[d.change],
                  ),
                  h('td', { class: 'moved-reason', dir: 'auto', title: tip(d.reason ?? '') }, d.reason ? data(d.reason) : '–'),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

// ---------------------------------------------------------------- runs

export function metricsSection(model: DashboardModel, showAll: boolean, toggle: () => void): HTMLElement {
  // By default the newest run of each config and principal, plus the two compared; all runs on request.
  const newest = new Map<string, RunSummary>();
  for (const r of model.runs) newest.set(`${r.config}\u0000${r.principal ?? ''}`, r);
  const keep = new Set([...newest.values()].map((r) => r.id));
  for (const id of [model.baselineRunId, model.candidateRunId]) if (id) keep.add(id);
  const runs = showAll ? model.runs : model.runs.filter((r) => keep.has(r.id));
  const head = h(
    'tr',
    {},
    h('th', {}, 'Run'),
    h('th', { class: 'num' }, 'Queries'),
    ...model.metricColumns.map((c) => h('th', { class: 'num', title: c.definition ? `${c.label}: ${c.definition}` : c.label }, c.spec)),
  );
  const rows = runs.map((r) => {
    const role = r.id === model.baselineRunId ? 'baseline' : r.id === model.candidateRunId ? 'candidate' : '';
    return h(
      'tr',
      { class: role, attrs: { 'data-run': r.id } },
      h(
        'td',
        { dir: 'auto', title: r.id },
        data(r.config),
        h('span', { class: 'muted' }, ` · ${principalText(r.principal)} · ${r.time}`),
        role ? h('span', { class: `badge ${role}` }, role) : null,
      ),
      h('td', { class: 'num' }, fmtCount(r.queryCount)),
      ...model.metricColumns.map((c) => h('td', { class: 'num' }, fmt(r.metrics[c.spec]))),
    );
  });
  const canvas = h('canvas', { id: 'chart-metric-by-config' });
  const latest = [...newest.values()];
  drawLater(
    canvas,
    (col) =>
      new Chart(canvas, {
        type: 'bar',
        data: {
          labels: latest.map((r) => (r.principal === null ? r.config : `${r.config} (${r.principal})`)),
          datasets: model.metricColumns.slice(0, 6).map((c, i) => ({
            label: c.spec,
            data: latest.map((r) => r.metrics[c.spec] ?? NaN),
            backgroundColor: col.palette[i % col.palette.length],
          })),
        },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: axes(col),
          plugins: { legend: { labels: { color: col.fg } } },
        },
      }),
  );
  const hidden = model.runs.length - runs.length;
  return h(
    'section',
    { id: 'metrics' },
    h('h2', {}, 'Metrics per run'),
    h('div', { class: 'scroll-x' }, h('table', { class: 'grid', id: 'metrics-table' }, h('thead', {}, head), h('tbody', {}, ...rows))),
    hidden > 0 || showAll
      ? button(
          showAll ? 'Show the newest run of each config only' : `Show all ${model.runs.length} runs (${hidden} older hidden)`,
          toggle,
          { class: 'secondary' },
        )
      : null,
    h(
      'ul',
      { class: 'metric-legend' },
      ...model.metricColumns.map((c) =>
        h('li', {}, h('code', {}, c.spec), ': ', c.label, c.definition ? h('span', { class: 'muted' }, ` — ${c.definition}`) : null),
      ),
    ),
    h('figure', {}, h('figcaption', {}, 'Metric by config (newest run of each)'), h('div', { class: 'chart-box' }, canvas)),
  );
}

export function latencySection(model: DashboardModel): HTMLElement {
  const newest = new Map<string, RunSummary>();
  for (const r of model.runs) newest.set(`${r.config}\u0000${r.principal ?? ''}`, r);
  const runs = [...newest.values()];
  const stages: string[] = [];
  for (const r of runs) for (const s of Object.keys(r.latency)) if (!stages.includes(s)) stages.push(s);
  stages.sort((a, b) => (a === 'total' ? 1 : b === 'total' ? -1 : 0));
  const head = h(
    'tr',
    {},
    h('th', {}, 'Run'),
    ...stages.map((s) => h('th', { class: 'num', title: `${s}: median / 99th percentile over queries` }, `${s} p50 / p99`)),
  );
  const rows = runs.map((r) =>
    h(
      'tr',
      {},
      h('td', { dir: 'auto' }, data(r.config), h('span', { class: 'muted' }, r.principal === null ? '' : ` · as ${r.principal}`)),
      ...stages.map((s) =>
        h('td', { class: 'num' }, fmtMs(r.latency[s]?.p50), h('span', { class: 'muted' }, ' / '), fmtMs(r.latency[s]?.p99)),
      ),
    ),
  );
  const canvas = h('canvas', { id: 'chart-latency' });
  drawLater(
    canvas,
    (col) =>
      new Chart(canvas, {
        type: 'bar',
        data: {
          labels: runs.map((r) => r.config),
          datasets: [
            { label: 'total p50 (ms)', data: runs.map((r) => r.latency.total?.p50 ?? NaN), backgroundColor: col.palette[0] },
            { label: 'total p99 (ms)', data: runs.map((r) => r.latency.total?.p99 ?? NaN), backgroundColor: col.palette[1] },
          ],
        },
        options: {
          responsive: true,
          maintainAspectRatio: false,
          animation: false,
          scales: axes(col),
          plugins: { legend: { labels: { color: col.fg } } },
        },
      }),
  );
  return h(
    'section',
    { id: 'latency' },
    h('h2', {}, 'Latency per query'),
    h(
      'div',
      { class: 'split' },
      h('div', { class: 'scroll-x' }, h('table', { class: 'grid', id: 'latency-table' }, h('thead', {}, head), h('tbody', {}, ...rows))),
      h('figure', {}, h('figcaption', {}, 'Latency by config (total, ms)'), h('div', { class: 'chart-box' }, canvas)),
    ),
    legend("p50: median over the run's queries; p99: the 99th percentile (the slowest 1%). Newest run of each config."),
  );
}

// ---------------------------------------------------------------- access control

export function aclSection(acl: AclView, check: () => void): HTMLElement {
  const btn = button('Check Access Control', check);
  if (acl.status !== 'checked')
    return h('section', { id: 'acl' }, h('h2', {}, 'Access control'), h('p', { class: 'muted' }, acl.message), btn);
  const violations = acl.violations.length;
  const status = violations ? 'violations' : acl.notChecked.length ? 'incomplete' : 'passed';
  return h(
    'section',
    { id: 'acl' },
    h(
      'h2',
      {},
      'Access control ',
      h(
        'span',
        { class: `badge acl-${status}` },
        status === 'violations'
          ? `${violations} violation(s)`
          : status === 'incomplete'
            ? 'no violation, not every config checked'
            : 'passed',
      ),
    ),
    acl.notChecked.length
      ? h(
          'ul',
          { class: 'warnings', id: 'acl-not-checked' },
          ...acl.notChecked.map((n) => h('li', {}, 'Not checked: ', data(n.config), ' — ', data(n.message))),
        )
      : null,
    h(
      'table',
      { class: 'grid', id: 'acl-principals' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'Principal'),
          h('th', { class: 'num' }, 'Violations'),
          h('th', { class: 'num', title: 'mean share of a result page filled with documents the principal may see' }, 'Page fill'),
        ),
      ),
      h(
        'tbody',
        {},
        ...acl.principals.map((p) =>
          h(
            'tr',
            {},
            h('td', { dir: 'auto' }, p.name),
            h('td', { class: `num ${p.violations ? 'worse' : ''}` }, String(p.violations)),
            h('td', { class: 'num' }, p.pageFill === undefined ? '–' : fmt(p.pageFill, 3)),
          ),
        ),
      ),
    ),
    violations
      ? h(
          'ul',
          { class: 'violations' },
          ...acl.violations
            .slice(0, 50)
            .map((v) =>
              h(
                'li',
                { class: 'worse' },
                data(v.principal),
                ': "',
                data(v.query),
                '" → ',
                data(v.docId),
                v.rank ? ` at rank ${v.rank}` : '',
                v.config ? h('span', {}, ' (', data(v.config), ')') : '',
              ),
            ),
        )
      : null,
    legend(
      `Checked ${new Date(acl.checkedAt).toLocaleString()}. A violation: a document shown to a principal who may not see it. Page fill: mean share of a result page filled after access filtering.`,
    ),
    btn,
  );
}
