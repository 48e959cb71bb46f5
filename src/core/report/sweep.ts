import { type SweepResult, combinationLabel } from '../tuning/sweep';
import { type HoldoutScore, signed } from '../tuning/scoring';
import { type Cell, markdownTable, textTable } from './table';

const fixed = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(4));
const ci = (h: HoldoutScore) => `${signed(h.ci[0])}..${signed(h.ci[1])}`;
const pValue = (p: number) => (p < 0.001 ? '<0.001' : p.toFixed(3));

/** The sweep as JSON (`ranklab sweep --format json`; shape in docs/formats.md). */
export function sweepJson(r: SweepResult, objective: string, written?: string): unknown {
  const holdout = (h: HoldoutScore | undefined) =>
    h && { score: h.score, base: h.base, gain: h.gain, ci95: h.ci, p: h.p, queries: h.queries };
  return {
    base: r.base.config.name,
    baseConfigHash: r.base.config.configHash,
    objective,
    search: r.search,
    gridSize: r.gridSize,
    evaluated: r.rows.length,
    parameters: r.variations.map((v) => ({ path: v.path, kind: v.kind, values: v.values })),
    ...(r.split ? { split: r.split } : { folds: r.folds }),
    baseScore: r.base,
    results: r.rows.map((row, i) => ({
      rank: i + 1,
      values: row.values,
      configHash: r.combinations.find((c) => c.index === row.index)!.config.configHash,
      tune: row.tune,
      tuneGain: row.tuneGain,
      ...(row.holdout !== undefined ? { holdout: row.holdout } : {}),
      ...(row.holdoutStats ? { holdoutVsBase: holdout(row.holdoutStats) } : {}),
      ...(row.chosenInFolds !== undefined ? { chosenInFolds: row.chosenInFolds } : {}),
    })),
    best: r.rows[0]!.values, // runSweep throws when no combination could be scored
    estimate: { ...holdout(r.estimate), tuneGain: r.chosenTuneGain },
    warnings: r.warnings,
    skipped: r.skipped,
    notes: r.notes,
    writtenBest: written ?? null,
  };
}

/** The sweep as text or Markdown: the parameters with their cost, the split, the best `top` rows, the estimate and warnings. */
export function sweepText(r: SweepResult, objective: string, opts: { markdown: boolean; top: number; written?: string }): string {
  const table = opts.markdown ? markdownTable : textTable;
  const out: string[] = [];
  out.push(
    `Sweep of ${r.base.config.name} on ${objective}: ${r.rows.length} combinations evaluated${r.search.kind === 'random' ? ` (random sample of ${r.gridSize}, seed ${r.search.seed})` : ''}`,
  );
  out.push(
    '',
    table(
      ['parameter', 'values', 'cost of a new value'],
      r.variations.map((v) => [
        v.path,
        v.values.length <= 8 ? v.values.join(', ') : `${v.values[0]} .. ${v.values[v.values.length - 1]} (${v.values.length})`,
        v.kind,
      ]),
    ),
  );
  out.push('');
  if (r.split) {
    out.push(
      `Tuning split: ${r.split.tune} tune / ${r.split.holdout} holdout queries (${r.split.source === 'judgments' ? 'the judgments\' "split" field' : 'hash of the query id: no query has a split field'}); BASE scores ${fixed(r.base.tune)} tune, ${fixed(r.base.holdout)} holdout.`,
    );
    const rows = r.rows
      .slice(0, opts.top)
      .map(
        (row, i) =>
          [
            String(i + 1),
            combinationLabel(row.values),
            fixed(row.tune),
            signed(row.tuneGain),
            fixed(row.holdout),
            row.holdoutStats ? signed(row.holdoutStats.gain) : '-',
            row.holdoutStats ? ci(row.holdoutStats) : '-',
            row.holdoutStats ? pValue(row.holdoutStats.p) : '-',
          ] as Cell[],
      );
    out.push('', table(['#', 'values', 'tune', 'tune gain', 'holdout', 'holdout gain', '95% CI', 'p'], rows));
  } else {
    out.push(
      `${r.folds!.length}-fold cross-validation over ${r.folds!.reduce((a, b) => a + b, 0)} queries (folds of ${r.folds!.join(', ')}); tune = mean over folds of the score on the other folds. BASE scores ${fixed(r.base.tune)}.`,
    );
    const rows = r.rows
      .slice(0, opts.top)
      .map(
        (row, i) =>
          [
            String(i + 1),
            combinationLabel(row.values),
            fixed(row.tune),
            signed(row.tuneGain),
            `${row.chosenInFolds}/${r.folds!.length}`,
          ] as Cell[],
      );
    out.push('', table(['#', 'values', 'tune', 'tune gain', 'chosen in folds'], rows));
  }
  const e = r.estimate;
  const best = r.rows[0]!; // a sweep with no scored combination throws before it is reported
  out.push('', `Best: ${combinationLabel(best.values)}.`);
  out.push(
    `${r.split ? 'On the holdout queries' : 'Cross-validated (each fold scored by the best of the other folds)'}: ${fixed(e.score)} vs BASE ${fixed(e.base)}, gain ${signed(e.gain)} (95% CI ${ci(e)}, p ${pValue(e.p)}, ${e.queries} queries); tuning gain ${signed(r.chosenTuneGain)}.`,
  );
  for (const w of r.warnings) out.push('', `WARNING: ${w}`);
  if (r.skipped.length)
    out.push(
      '',
      `${r.skipped.length} combination(s) not evaluated: ${r.skipped
        .slice(0, 3)
        .map((s) => `${combinationLabel(s.values)}: ${s.reason}`)
        .join('; ')}${r.skipped.length > 3 ? ' …' : ''}`,
    );
  for (const n of r.notes) out.push(`note: ${n}`);
  if (opts.written) out.push('', `Best config written to ${opts.written}`);
  return out.join('\n') + '\n';
}
