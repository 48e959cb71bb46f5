/**
 * Reports of an N-way comparison (several candidates against one baseline, core compareMany + comparisonMatrix):
 * terminal table, Markdown, JSON and JUnit. Each starts with the verdict of every candidate; the matrix has one row
 * per candidate and one column per metric.
 */
import type { ManyComparison } from '../experiment/compare';
import type { GateResult } from '../experiment/gates';
import { type ComparisonMatrix, comparisonMatrix } from '../experiment/matrix';
import { verdictLegend } from '../experiment/verdict';
import { comparisonJson, gateSuite, junitDocument } from './comparison';
import { markdownTable, textTable, type Cell } from './table';

const signed = (x: number) => (Number.isNaN(x) ? 'n/a' : (x >= 0 ? '+' : '') + x.toFixed(4));

/** What a matrix cell shows; the legend printed under the matrix. */
function cellText(c: ComparisonMatrix['rows'][number]['cells'][string]): string {
  return `${c.mean.toFixed(4)} ${signed(c.delta)}${c.significant ? '*' : ''} [${signed(c.ci95[0])}, ${signed(c.ci95[1])}]`;
}

function matrixLegend(m: ComparisonMatrix): string {
  return `cell = candidate mean, delta = candidate − baseline, [95% paired bootstrap CI of the delta]; * = significant: the delta survives one Holm–Bonferroni correction over all ${m.tests} tests of the report (p adj. < ${m.alpha}); gates = passed / checked`;
}

/** The N-way comparison for people: terminal table or Markdown (a pull-request comment). */
export function formatMany(
  many: ManyComparison,
  gates: readonly (readonly GateResult[])[],
  format: 'table' | 'markdown',
  opts: { brief?: boolean } = {},
): string {
  const md = format === 'markdown';
  const table = md ? markdownTable : textTable;
  const h = (t: string) => (md ? `### ${t}` : `== ${t}`);
  const item = md ? '- ' : '  ';
  const m = comparisonMatrix(many, gates);
  const out: string[] = [];
  out.push(
    md
      ? `## Ranklab: ${m.rows.length} candidates vs ${m.baseline.name}`
      : `Ranklab compare: ${m.rows.length} candidates vs baseline ${m.baseline.name}`,
  );
  for (const cmp of many.comparisons) {
    for (const w of cmp.warnings.filter((x) => x.kind === 'mixed-principals')) out.push(md ? `> ⚠️ **${w.message}**` : `!! ${w.message}`);
  }
  const first = m.rows[0]!; // a matrix has at least one candidate (compare refuses none)
  out.push(
    '',
    md
      ? `**Verdict** (${first.verdict.basis} of ${m.rows.length} candidates)`
      : `Verdict (${first.verdict.basis} of ${m.rows.length} candidates):`,
  );
  for (const r of m.rows) {
    out.push(`${item}${md ? `**${r.verdict.headline}**` : r.verdict.headline}`);
    const primary = r.verdict.metrics[0];
    if (primary) out.push(`${md ? '    - ' : '      '}${primary.line}`, `${md ? '    - ' : '      '}${primary.mde.text}`);
  }
  out.push('', ...verdictLegend(first.verdict).map((l) => (md ? `<sub>${l.replace(/</g, '&lt;')}</sub><br>` : `  (${l})`)));

  out.push('', h(`Matrix (${m.queries} queries; significance after one Holm–Bonferroni correction over ${m.tests} tests)`));
  const rows: Cell[][] = [
    [m.baseline.name, ...m.metrics.map((n) => (m.baseline.means[n] ?? NaN).toFixed(4)), 'baseline'],
    ...m.rows.map((r) => [
      r.candidate,
      ...m.metrics.map((n) => cellText(r.cells[n]!)), // a cell per metric
      r.gates.total ? `${r.gates.passed}/${r.gates.total}` : '-',
    ]),
  ];
  out.push(table(['candidate', ...m.metrics, 'gates'], rows), `${md ? '' : '  '}${matrixLegend(m).replace(/</g, md ? '&lt;' : '<')}`);

  const failed = m.rows.flatMap((r, i) =>
    (gates[i] ?? [])
      .filter((g) => !g.passed)
      .map(
        (g) =>
          [
            r.candidate,
            g.gate,
            Number.isNaN(g.actual) ? 'n/a' : g.actual.toFixed(4),
            g.queries
              .slice(0, 5)
              .map((q) => q.qid)
              .join(', '),
          ] as Cell[],
      ),
  );
  if (failed.length) out.push('', h('Failed gates'), table(['candidate', 'gate', 'actual', 'queries'], failed));
  if (opts.brief) return out.join('\n') + '\n';

  for (const [i, r] of m.rows.entries()) {
    const cmp = many.comparisons[i]!; // one comparison per row
    out.push('', h(`${r.candidate} vs ${m.baseline.name}`));
    for (const line of r.verdict.metrics.map((x) => x.line)) out.push(`${item}${line}`);
    for (const w of cmp.warnings) out.push(`${md ? '- ⚠️' : '  !'} ${w.message}`);
  }
  out.push('', `Every candidate in full: --format json ("comparisons"), or compare one candidate at a time.`);
  return out.join('\n') + '\n';
}

/** `--format json` of an N-way comparison (see docs/comparison.md, "Several candidates at once"). */
export function manyJson(many: ManyComparison, gates: readonly (readonly GateResult[])[]) {
  const m = comparisonMatrix(many, gates);
  return {
    baseline: many.baseline,
    candidates: many.candidates,
    queries: many.queries,
    judgments: many.judgments,
    primaryMetric: many.primaryMetric,
    correction: many.correction,
    tests: many.tests,
    matrix: {
      metrics: m.metrics,
      alpha: m.alpha,
      baseline: m.baseline.means,
      rows: m.rows.map((r) => ({ candidate: r.candidate, outcome: r.verdict.outcome, cells: r.cells, gates: r.gates })),
    },
    comparisons: many.comparisons.map((cmp, i) => comparisonJson(cmp, [...(gates[i] ?? [])])),
  };
}

/** JUnit XML of an N-way comparison: one test suite per candidate ("candidate vs baseline"), one case per gate result. */
export function manyJUnit(many: ManyComparison, gates: readonly (readonly GateResult[])[]): string {
  return junitDocument(
    `ranklab gates: ${many.candidates.join(', ')} vs ${many.baseline}`,
    many.comparisons.map((cmp, i) => gateSuite(gates[i] ?? [], cmp)),
  );
}
