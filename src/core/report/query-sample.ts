/** The report of `ranklab queries sample` (and of the editor's "Sample Queries from a Log"), as text. */
import type { QuerySample } from '../judging/query-sample';
import type { QueriesNeeded } from '../judging/queries-needed';
import { plural } from '../util/diagnostics';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const counted = (m: Record<string, number | undefined>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';
const sum = (m: Record<string, number | undefined>) => Object.values(m).reduce<number>((s, v) => s + (v ?? 0), 0);

/** Read, removed and why, the strata, what was sampled and where it went (`out`). */
export function formatQuerySample(r: QuerySample & { out: string; forEffect?: QueriesNeeded }): string {
  const out: string[] = [];
  out.push(
    `log: ${r.log.file} (${r.log.format}; columns: ${Object.entries(r.log.columns)
      .map(([f, c]) => `${f} <- ${c}`)
      .join(', ')})`,
  );
  out.push(
    `read: ${r.log.lines} lines, ${r.records} records (${r.searches} searches); ${plural(r.log.skipped, 'line')} skipped (listed above)`,
  );
  out.push(
    `removed: personal data ${sum(r.personal)} (${counted(r.personal)}); bot-like ${sum(r.bots)} (${counted(r.bots)}; ${r.botSessions} sessions); empty ${r.empty}; already judged ${r.excluded}`,
  );
  out.push(`distinct queries: ${r.distinct} (${r.duplicates} duplicate records merged)`);
  for (const s of r.strata)
    out.push(
      `  ${s.stratum.padEnd(5)}  ${String(s.queries).padStart(7)} queries  ${pct(s.trafficShare).padStart(6)} of searches  ${s.sampled} sampled`,
    );
  if (r.forEffect) {
    const f = r.forEffect;
    out.push(
      `queries to detect ${f.metric} ${f.effect} (power ${f.power}, alpha ${f.alpha}): ${f.queries} (pilot: ${f.pilotQueries} queries, s_d ${f.sdOfDifferences.toFixed(4)} from ${f.source === 'deltas' ? 'compare deltas' : 'one run, times sqrt 2'})`,
    );
  }
  out.push(`sampled ${r.sampled} of ${r.n} asked (${r.scheme}, seed ${r.seed}) -> ${r.out}`);
  if (r.sampled < r.n) out.push(`warning: only ${r.sampled} distinct queries were left to sample`);
  return out.join('\n') + '\n';
}
