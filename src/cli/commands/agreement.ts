import { type AgreementReport, type Conflict, agreementReport } from '../../core/judging/agreement';
import { textTable } from '../../core/report/table';
import { formatChoice, intFlag, parse } from '../args';
import type { Io } from '../io';
import { WORKSPACE_OPTIONS, openWorkspace } from '../workspace-options';

export const AGREEMENT_USAGE = `ranklab agreement [--workspace DIR] [--relevance-threshold N] [--format table|json] [--max-conflicts N]
  How far the workspace's raters agree on the pairs they both graded: per pair of raters the overlap, the share of
  equal grades, Cohen's kappa unweighted and weighted (linear |i-j| and quadratic (i-j)^2 weights), Krippendorff's
  alpha (ordinal), the confusion matrix and the pairs graded differently; overall (people only; LLM raters are
  compared with each person, never mixed in, as is the click rater "clicks") alpha, the mean pairwise kappa and the
  conflicting pairs. Beside them, kappa at a relevance threshold: relevant (grade >= N) or not, so a 0/1 rater can be
  compared with 0-3 raters (N: --relevance-threshold, else ranklab.json relevanceThreshold, else 1).`;

export async function agreementCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...WORKSPACE_OPTIONS,
    format: { type: 'string', short: 'f' },
    'max-conflicts': { type: 'string' },
    'relevance-threshold': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return (io.out(AGREEMENT_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const maxConflicts = intFlag(values['max-conflicts'], '--max-conflicts', 0) ?? 10;
  const flag = intFlag(values['relevance-threshold'], '--relevance-threshold', 1);
  const { session, report: inputs } = openWorkspace(values, io);
  const judgments = session.judgments();
  inputs.add('judgments', judgments.diagnostics);
  inputs.stopIfStrict();
  const report = agreementReport(judgments, { threshold: flag ?? Math.max(1, session.workspace.settings.relevanceThreshold) });
  if (format === 'json') {
    io.out(JSON.stringify({ merge: judgments.merge ?? null, ...report }, null, 2) + '\n');
    return 0;
  }
  io.out(formatAgreement(report, judgments.merge, maxConflicts));
  return 0;
}

const fmt = (x: number | null, digits = 3) => (x === null ? 'n/a' : x.toFixed(digits));

export function formatAgreement(r: AgreementReport, merge: string | undefined, maxConflicts: number): string {
  const out: string[] = [];
  out.push(`raters: ${r.raters.map((x) => `${x.name} (${x.grades} grade${x.grades === 1 ? '' : 's'})`).join(', ')}`);
  if (merge) out.push(`scored grades: ${merge} (ranklab.json judging.merge, judging.llmGrades)`);
  if (r.pairs.length === 0) {
    out.push('one rater: nothing to compare. Grade with another rater name (per-rater files) or run ranklab judge --llm.');
    return out.join('\n') + '\n';
  }
  const t = r.threshold;
  out.push(
    `grades ${r.scale[0]}–${r.scale[r.scale.length - 1]}; kappa weights: linear |i−j|, quadratic (i−j)²; alpha: Krippendorff, ordinal; kappa ≥${t}: relevant (grade ≥ ${t}) or not`,
    '',
  );
  out.push(
    textTable(
      [
        'rater A',
        'rater B',
        'overlap',
        'equal',
        'kappa',
        'kappa linear',
        'kappa quadratic',
        'alpha ordinal',
        `equal ≥${t}`,
        `kappa ≥${t}`,
        'conflicts',
      ],
      r.pairs.map((p) => [
        p.a,
        p.b,
        String(p.overlap),
        fmt(p.agreement),
        fmt(p.kappa),
        fmt(p.kappaLinear),
        fmt(p.kappaQuadratic),
        fmt(p.alpha),
        fmt(p.agreementBinary),
        fmt(p.kappaBinary),
        String(p.conflicts.length),
      ]),
    ),
  );
  const o = r.overall;
  out.push(
    '',
    o.people.length >= 2
      ? `overall (people: ${o.people.join(', ')}): ${o.overlap} pairs graded more than once, alpha ordinal ${fmt(o.alpha)}, mean kappa ${fmt(o.meanKappa)} (linear ${fmt(o.meanKappaLinear)}, quadratic ${fmt(o.meanKappaQuadratic)}, ≥${t} ${fmt(o.meanKappaBinary)}), ${o.conflicts.length} conflicting pair${o.conflicts.length === 1 ? '' : 's'}`
      : `overall: one person (${o.people.join(', ') || 'none'}); LLM and click raters are compared with people above`,
  );
  for (const p of r.pairs) {
    if (p.overlap === 0) continue;
    out.push('', `confusion: rows ${p.a}, columns ${p.b}`);
    out.push(
      textTable(
        ['', ...r.scale.map(String)],
        p.confusion.map((row, i) => [String(r.scale[i]), ...row.map(String)]),
      ),
    );
    const [[neither, onlyB], [onlyA, both]] = p.confusionBinary as [[number, number], [number, number]];
    out.push(`relevant (grade ≥ ${t}) for both: ${both}, neither: ${neither}, only ${p.a}: ${onlyA}, only ${p.b}: ${onlyB}`);
  }
  const conflicts = o.people.length >= 2 ? o.conflicts : r.pairs.flatMap((p) => p.conflicts);
  if (conflicts.length && maxConflicts > 0) {
    out.push('', `conflicting pairs (largest difference first; ${Math.min(maxConflicts, conflicts.length)} of ${conflicts.length}):`);
    for (const c of conflicts.slice(0, maxConflicts)) out.push(`  ${conflictLine(c)}`);
  }
  return out.join('\n') + '\n';
}

const conflictLine = (c: Conflict) =>
  `${c.qid} ${c.docId}: ${Object.entries(c.grades)
    .map(([rater, g]) => `${rater} ${g}`)
    .join(', ')}`;
