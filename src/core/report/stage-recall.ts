import { QUERY_CLASSES, type StageRecallReport } from '../experiment/stage-recall';
import { STAGE_NAMES } from '../run/types';
import type { Cell } from './table';

const pct = (x: number | undefined) => (x === undefined ? '-' : x.toFixed(3));

/** One row per run: class counts, then mean recall of each stage and of the final list. */
export function stageRecallTable(rows: [string, StageRecallReport][]): { headers: string[]; rows: Cell[][]; notes: string[] } {
  const stages = STAGE_NAMES.filter((s) => rows.some(([, r]) => r.stages.includes(s)));
  const k = rows[0]?.[1].k ?? 10;
  const headers = ['run', `hit@${k}`, 'ranking miss', 'retrieval miss', 'no relevant', ...stages.map((s) => `recall ${s}`), 'recall final'];
  const notes = rows.filter(([, r]) => !r.complete).map(([name]) => `${name}: stage outputs not stored (TREC run or older saved run): recall of the final list only`);
  return {
    headers,
    rows: rows.map(([name, r]) => [name, ...QUERY_CLASSES.map((c) => String(r.counts[c])), ...stages.map((s) => pct(r.meanRecall[s])), pct(r.meanRecall.final)]),
    notes,
  };
}
