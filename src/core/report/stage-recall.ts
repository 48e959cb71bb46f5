import { queryClassLegend, queryClassTexts } from '../experiment/query-classes';
import type { StageRecallReport } from '../experiment/stage-recall';
import { STAGE_NAMES } from '../run/types';
import type { Cell } from './table';

const pct = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));

/** One row per run: class counts, then mean recall of each stage and of the final list; `legend`: what each class means. */
export function stageRecallTable(rows: [string, StageRecallReport][]): {
  headers: string[];
  rows: Cell[][];
  notes: string[];
  legend: string;
} {
  const stages = STAGE_NAMES.filter((s) => rows.some(([, r]) => r.stages.includes(s)));
  const k = rows[0]?.[1].k ?? 10;
  const classes = queryClassTexts(k);
  const headers = ['run', ...classes.map((c) => c.label), ...stages.map((s) => `recall ${s}`), 'recall final'];
  const notes = rows
    .filter(([, r]) => !r.complete)
    .map(([name]) => `${name}: stage outputs not stored (TREC run or older saved run): recall of the final list only`);
  return {
    headers,
    rows: rows.map(([name, r]) => [
      name,
      ...classes.map((c) => String(r.counts[c.name])),
      ...stages.map((s) => pct(r.meanRecall[s])),
      pct(r.meanRecall.final),
    ]),
    notes,
    legend: queryClassLegend(k),
  };
}
