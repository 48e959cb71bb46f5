import type { TieReport } from '../experiment/ties';

const f4 = (x: number) => x.toFixed(4);

/** "12 of 94 queries have score ties within the top 10; a different tie order moves ndcg@10 within [0.7710, 0.7903] (8 queries)". */
export function tieSummary(report: TieReport, who = ''): string {
  const within = report.depth === null ? 'within the evaluated lists' : `within the top ${report.depth}`;
  const head = `${who}${report.queriesWithTies.length} of ${report.queries} queries have score ties ${within}`;
  if (report.queriesWithTies.length === 0) return `${head}.`;
  const moves = Object.entries(report.ranges).map(([name, r]) =>
    r.queriesAffected === 0
      ? `${name} does not change`
      : `${name} could be ${f4(r.min)}–${f4(r.max)} (reported ${f4(r.value)}; ${r.queriesAffected} ${r.queriesAffected === 1 ? 'query changes' : 'queries change'})`,
  );
  return `${head} (ordered by docid descending, as trec_eval)${moves.length ? `; under another tie order ${moves.join(', ')}` : ''}.`;
}
