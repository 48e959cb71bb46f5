import { type Comparison, type MetricComparison, type QueryDelta, biggestChanges } from '../experiment/compare';
import type { GateResult } from '../experiment/gates';
import { type Verdict, verdictLegend, verdictOf } from '../experiment/verdict';
import { formatNumber, markdownTable, textTable, type Cell } from './table';
import { tieSummary } from './ties';
import { stageRecallTable } from './stage-recall';
import { shortText } from '../util/visible-text';

const signed = (x: number) => (Number.isNaN(x) ? 'n/a' : (x >= 0 ? '+' : '') + x.toFixed(4));
const pct = (x: number | null) => (x === null ? 'n/a' : (x >= 0 ? '+' : '') + (x * 100).toFixed(1) + '%');
const pval = (p: number) => (Number.isNaN(p) ? 'n/a' : p < 0.0001 ? '<0.0001' : p.toFixed(4));
const ci = (c: [number, number]) => `[${signed(c[0])}, ${signed(c[1])}]`;

function metricRows(metrics: Record<string, MetricComparison>): Cell[][] {
  return Object.entries(metrics).map(([name, m]) => [
    name,
    m.baseline,
    m.candidate,
    signed(m.delta),
    pct(m.relativeDelta),
    ci(m.ci95),
    pval(m.pPermutation),
    pval(m.pTTest),
    pval(m.pAdjusted),
    String(m.n),
  ]);
}
const METRIC_HEADERS = ['metric', 'baseline', 'candidate', 'delta', 'rel.', '95% CI (bootstrap)', 'p perm.', 'p t-test', 'p adj.', 'n'];
/** The columns of METRIC_HEADERS that the verdict's legend does not explain. */
const METRIC_LEGEND =
  'rel. = delta / baseline; p perm. = two-sided paired permutation (sign-flip) test; p t-test = paired t-test; p adj. = p perm. after the Holm–Bonferroni correction; n = queries';

/**
 * The verdict block that opens every comparison report: the headline, one line per metric, the primary metric's
 * minimum detectable effect, and a legend of the terms used.
 */
export function verdictLines(v: Verdict, md: boolean): string[] {
  const out = [md ? `**Verdict: ${v.headline}**; ${v.basis}` : `Verdict: ${v.headline}; ${v.basis}`, ''];
  for (const m of v.metrics) out.push(`${md ? '- ' : '  '}${m.line}`);
  if (v.mde) out.push(`${md ? '- ' : '  '}${v.mde}`);
  if (v.unjudgedNote) out.push(`${md ? '- ' : '  '}${v.unjudgedNote}`);
  out.push('', ...verdictLegend(v).map((l) => (md ? `<sub>${l.replace(/</g, '&lt;')}</sub><br>` : `  (${l})`)));
  return out;
}

/** Biggest losses, and as many biggest wins, a table or markdown comparison prints unless told (`--max-queries`). */
export const PRINTED_QUERIES = 5;

/** The comparison for people: terminal table or Markdown (CI job summaries); `brief`: verdict, metrics and gates only. */
export function formatComparison(
  cmp: Comparison,
  format: 'table' | 'markdown',
  opts: { maxQueries?: number; gates?: GateResult[]; brief?: boolean } = {},
): string {
  const md = format === 'markdown';
  const table = md ? markdownTable : textTable;
  const h = (t: string) => (md ? `### ${t}` : `== ${t}`);
  const out: string[] = [];
  out.push(
    md ? `## Ranklab: ${cmp.candidate} vs ${cmp.baseline}` : `Ranklab compare: candidate ${cmp.candidate} vs baseline ${cmp.baseline}`,
  );
  // Runs made as different principals were compared only because it was asked for: say so before any figure.
  for (const w of cmp.warnings.filter((x) => x.kind === 'mixed-principals')) out.push(md ? `> ⚠️ **${w.message}**` : `!! ${w.message}`);
  out.push('', ...verdictLines(verdictOf(cmp, opts.gates ?? []), md));
  out.push('', `${cmp.queries} queries; judgments ${cmp.judgments}; ${cmp.correction}.`);
  if (!opts.brief) for (const [name, v] of Object.entries(cmp.variant)) out.push(`${md ? '- ' : '  '}${name}: ${v}`);
  out.push('', table(METRIC_HEADERS, metricRows(cmp.metrics)), `${md ? '' : '  '}${METRIC_LEGEND}`);
  if (opts.brief) {
    out.push(...gatesSection(opts.gates, table, h, true));
    out.push(
      '',
      `${md ? '' : '  '}(--brief: without it, the variants, wins and losses, bounds, ties, slices, latency, stage recall and the queries that changed)`,
    );
    return out.join('\n') + '\n';
  }
  out.push(
    '',
    table(
      ['metric', 'wins', 'losses', 'ties'],
      Object.keys(cmp.metrics).map((n) => [n, String(cmp.wins[n]), String(cmp.losses[n]), String(cmp.ties[n])]),
    ),
  );
  out.push(...boundsSection(cmp, md, table, h));
  out.push(
    '',
    `${md ? '- ' : '  '}${tieSummary(cmp.tieReports.baseline, 'baseline: ')}`,
    `${md ? '- ' : '  '}${tieSummary(cmp.tieReports.candidate, 'candidate: ')}`,
  );

  if (cmp.warnings.length) {
    out.push('', h('Warnings'));
    for (const w of cmp.warnings) out.push(`${md ? '- ⚠️' : '  !'} ${w.message}`);
  }
  out.push(...gatesSection(opts.gates, table, h));
  const sliceRows = Object.entries({
    ...cmp.slices,
    ...Object.fromEntries(Object.entries(cmp.splits).map(([k, v]) => [`split:${k}`, v!])),
  }).map(([slice, sc]) => {
    const m = sc.metrics[cmp.primaryMetric]!; // compareRuns compares every metric on every slice, the primary included
    return [slice, String(sc.queries), m.baseline, m.candidate, signed(m.delta), ci(m.ci95), pval(m.pAdjusted)] as Cell[];
  });
  if (sliceRows.length) {
    out.push('', h(`Slices (${cmp.primaryMetric})`));
    out.push(table(['slice', 'queries', 'baseline', 'candidate', 'delta', '95% CI', 'p adj.'], sliceRows));
  }
  const stages = [...new Set([...Object.keys(cmp.latency.baseline), ...Object.keys(cmp.latency.candidate)])];
  if (stages.length) {
    out.push('', h('Latency (ms, p50 / p99 over queries)'));
    const l = (side: Record<string, { p50: number; p99: number }>, s: string) =>
      side[s] ? `${side[s].p50.toFixed(2)} / ${side[s].p99.toFixed(2)}` : '-';
    out.push(
      table(
        ['stage', 'baseline', 'candidate'],
        stages.map((s) => [s, l(cmp.latency.baseline, s), l(cmp.latency.candidate, s)]),
      ),
    );
  }
  const st = stageRecallTable([
    ['baseline', cmp.stageRecall.baseline],
    ['candidate', cmp.stageRecall.candidate],
  ]);
  out.push('', h('Where relevant documents are lost (query classes, mean recall per stage)'), table(st.headers, st.rows));
  for (const n of st.notes) out.push(`${md ? '- ' : '  '}${n}`);
  if (cmp.stageRecall.changed.length) {
    const shown = cmp.stageRecall.changed
      .slice(0, 10)
      .map((c) => `${c.qid} ${c.baseline} → ${c.candidate}`)
      .join('; ');
    out.push(
      `${md ? '' : '  '}Class changed on ${cmp.stageRecall.changed.length} ${cmp.stageRecall.changed.length === 1 ? 'query' : 'queries'}: ${shown}${cmp.stageRecall.changed.length > 10 ? '; …' : ''}`,
    );
  }
  out.push('', `judged@${cmp.judged.k}: baseline ${cmp.judged.baseline.toFixed(3)}, candidate ${cmp.judged.candidate.toFixed(3)}`);

  const { losses, wins, lossCount, winCount } = biggestChanges(cmp.queryDeltas, opts.maxQueries ?? PRINTED_QUERIES);
  if (lossCount)
    out.push(
      '',
      h(`Biggest losses (${cmp.primaryMetric}, worst first; ${losses.length} of ${lossCount})`),
      ...losses.flatMap((q) => queryLines(q, md)),
    );
  if (winCount)
    out.push(
      '',
      h(`Biggest wins (${cmp.primaryMetric}, best first; ${wins.length} of ${winCount})`),
      ...wins.flatMap((q) => queryLines(q, md)),
    );
  return out.join('\n') + '\n';
}

/** The gates table; `failedOnly` (--brief): the failed gates, after a count of those that pass. */
function gatesSection(gates: GateResult[] | undefined, table: typeof textTable, h: (t: string) => string, failedOnly = false): string[] {
  if (!gates?.length) return [];
  const passed = gates.filter((g) => g.passed).length;
  if (failedOnly && passed === gates.length) return ['', h(`Gates: all ${gates.length} pass`)];
  const shown = failedOnly ? gates.filter((g) => !g.passed) : gates;
  return [
    '',
    h(failedOnly ? `Gates: ${gates.length - passed} of ${gates.length} fail` : 'Gates'),
    table(
      ['gate', 'actual', 'result', 'queries'],
      shown.map((g) => [
        g.gate,
        formatNumber(g.actual),
        g.passed ? 'pass' : 'FAIL',
        g.passed
          ? ''
          : g.queries
              .slice(0, 5)
              .map((q) => q.qid)
              .join(', '),
      ]),
    ),
  ];
}

/** A changed query (its text cut to one short line) and the documents that moved in its top k. */
function queryLines(q: QueryDelta, md: boolean): string[] {
  const out = [
    `${md ? '- ' : ''}${q.qid} ${signed(q.delta)} (${q.baseline.toFixed(3)} → ${q.candidate.toFixed(3)}) "${shortText(q.text)}"${q.tags.length ? ` [${q.tags.join(', ')}]` : ''}`,
  ];
  for (const d of q.moved.slice(0, 6)) {
    const grade = d.grade === null ? 'unjudged' : `grade ${d.grade}`;
    const move =
      d.change === 'in'
        ? `in at ${d.candidateRank}`
        : d.change === 'out'
          ? `out (was ${d.baselineRank})`
          : `${d.baselineRank} → ${d.candidateRank}`;
    out.push(`${md ? '    - ' : '      '}${d.id}: ${move}, ${grade}${d.reason ? ` — ${d.reason}` : ''}`);
  }
  return out;
}

/** The delta's interval if the unjudged documents were graded, beside each metric's verdict. */
function boundsSection(cmp: Comparison, md: boolean, table: typeof textTable, h: (t: string) => string): string[] {
  const b = cmp.bounds;
  if (!b) return ['', 'Bounds over unjudged documents: none (condensed lists: unjudged documents are not scored).'];
  if (b.onlyRelevantJudged)
    return ['', 'Bounds over unjudged documents: not shown (the judgments list only relevant documents; see the verdict).'];
  const rows = Object.entries(b.metrics).map(
    ([name, m]) => [name, signed(m.delta), `[${signed(m.low)}, ${signed(m.high)}]`, m.verdict] as Cell[],
  );
  const out = [
    '',
    h(`If the unjudged documents were graded (0 to ${b.maxGrade}, one grade per query and document)`),
    table(['metric', 'delta', 'delta could be', 'verdict'], rows),
  ];
  if (b.decidingCount) {
    const shown = Object.entries(b.deciding)
      .flatMap(([q, docs]) => docs.map((d) => `${q}/${d}`))
      .slice(0, 10)
      .join(', ');
    out.push(
      `${md ? '' : '  '}Judge these first (${b.decidingCount}): ${shown}${b.decidingCount > 10 ? ', …' : ''} (all in --format json "bounds.deciding")`,
    );
  }
  return out;
}

/** `--format json`: the documented machine-readable shape (see docs/comparison.md). */
export function comparisonJson(cmp: Comparison, gates?: GateResult[]) {
  return { verdict: verdictOf(cmp, gates ?? []), ...cmp, gates: gates ?? [] };
}

/** Text escaped for XML; control characters XML 1.0 cannot hold at all become U+FFFD. */
export const xml = (s: string) =>
  s
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD');

/** Queries a failed gate's JUnit failure lists by name (the rest are counted). */
const FAILURE_QUERIES = 20;

/**
 * JUnit XML: one test suite for the comparison, one test case per gate result (a per-slice gate has one per slice),
 * failing exactly when the gate fails. The queries that pull the figure down are in the failure's text, each as its
 * id and a short text. The `tests` and `failures` counts of every element are those of the elements below it.
 */
export function gatesJUnit(results: GateResult[], cmp: Comparison): string {
  return junitDocument(`ranklab gates: ${cmp.candidate} vs ${cmp.baseline}`, [gateSuite(results, cmp)]);
}

/** A <testsuites> document around suites made by gateSuite, its counts the sums of theirs. */
export function junitDocument(name: string, suites: readonly JUnitSuite[]): string {
  const tests = suites.reduce((n, s) => n + s.tests, 0);
  const failures = suites.reduce((n, s) => n + s.failures, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(name)}" tests="${tests}" failures="${failures}">\n${suites.map((s) => s.xml).join('\n')}\n</testsuites>\n`;
}

export interface JUnitSuite {
  xml: string;
  tests: number;
  failures: number;
}

/** The <testsuite> of one comparison's gates, named "candidate vs baseline". */
export function gateSuite(results: readonly GateResult[], cmp: Comparison): JUnitSuite {
  const suite = `${cmp.candidate} vs ${cmp.baseline}`;
  const cases = results.map((g) => {
    const head = `    <testcase classname="${xml(suite)}" name="${xml(g.gate)}"`;
    if (g.passed) return `${head}/>`;
    return `${head}>\n      <failure type="gate" message="${xml(`${g.gate} failed: actual ${formatNumber(g.actual)}`)}">${xml(failureDetails(g, cmp))}</failure>\n    </testcase>`;
  });
  const failures = results.filter((g) => !g.passed).length;
  return {
    tests: results.length,
    failures,
    xml: `  <testsuite name="${xml(suite)}" tests="${results.length}" failures="${failures}">\n${cases.join('\n')}\n  </testsuite>`,
  };
}

/** Why a gate failed, query by query: the queries below the minimum or losing against the baseline, worst first. */
function failureDetails(g: GateResult, cmp: Comparison): string {
  const what = g.kind === 'min' ? `below ${g.threshold} (${g.metric} of the candidate)` : `losing against the baseline (${g.metric} delta)`;
  const where = g.slice ? ` in slice ${g.slice}` : '';
  const lines = [
    `${g.gate}: actual ${formatNumber(g.actual)}. ${g.queries.length} ${g.queries.length === 1 ? 'query' : 'queries'}${where} ${what}, worst first:`,
  ];
  for (const q of g.queries.slice(0, FAILURE_QUERIES)) {
    const text = cmp.queryInfo[q.qid]?.text;
    lines.push(`  ${q.qid}${text ? ` "${shortText(text, 60)}"` : ''}: ${g.kind === 'min' ? formatNumber(q.value) : signed(q.value)}`);
  }
  if (g.queries.length > FAILURE_QUERIES) lines.push(`  … and ${g.queries.length - FAILURE_QUERIES} more (all in --format json "gates")`);
  return lines.join('\n');
}
