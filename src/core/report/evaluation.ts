import type { TieReport } from '../experiment/ties';
import { describeMetric, type Evaluation } from '../metrics';
import { markdownTable, textTable, type Cell } from './table';
import { tieSummary } from './ties';

export type ReportFormat = 'table' | 'json' | 'markdown';

/** The JSON shape of `ranklab score --format json` (documented in docs/cli.md). */
export function evaluationJson(ev: Evaluation, extra: Record<string, unknown> = {}) {
  const perQuery: Record<string, Record<string, number>> = Object.fromEntries(ev.perQuery); // "__proto__" stays a key
  return {
    metrics: ev.means,
    perQuery,
    queries: ev.queries,
    skipped: ev.unjudgedRunQueries,
    missingFromRun: ev.missingFromRun,
    noRelevant: ev.noRelevant,
    judgments: ev.judgments,
    variant: {
      gain: ev.options.gain,
      relevanceThreshold: ev.options.relevanceThreshold,
      excludeNoRelevant: !!ev.options.excludeNoRelevant,
      judgedOnly: !!ev.options.judgedOnly,
      metrics: Object.fromEntries(ev.specs.map((s) => [s.name, describeMetric(s, ev.options)])),
    },
    residuals: Object.fromEntries(
      Object.entries(ev.residuals.means).map(([name, mean]) => [
        name,
        {
          mean,
          perQuery: Object.fromEntries([...ev.residuals.perQuery].map(([qid, v]) => [qid, v[name]])),
        },
      ]),
    ),
    ...extra,
  };
}

/** Human-readable report: means with the variant of each metric spelled out, optional per-query rows, and what was skipped. */
export function formatEvaluation(
  ev: Evaluation,
  format: Exclude<ReportFormat, 'json'>,
  opts: { perQuery?: boolean; title?: string; ties?: TieReport } = {},
): string {
  const table = format === 'markdown' ? markdownTable : textTable;
  const out: string[] = [];
  if (opts.title) out.push(format === 'markdown' ? `## ${opts.title}` : opts.title, '');
  const residual = (name: string): Cell[] => {
    const r = ev.residuals.means[name];
    return r !== undefined ? [`+${r.toFixed(4)}`] : Object.keys(ev.residuals.means).length ? [''] : [];
  };
  const residualHead = Object.keys(ev.residuals.means).length ? ['residual'] : [];
  out.push(
    table(
      ['metric', 'mean', ...residualHead, 'variant'],
      ev.specs.map((s) => [s.name, ev.means[s.name] ?? NaN, ...residual(s.name), describeMetric(s, ev.options)]),
    ),
  );
  out.push('', `${ev.queries} queries averaged; judgments ${ev.judgments}`);
  if (ev.options.judgedOnly)
    out.push('Condensed lists (--judged-only): unjudged documents were removed from every list before scoring (trec_eval -J).');
  if (residualHead.length)
    out.push('residual: the most the mean could rise if every unjudged document (and every rank below the list) were relevant.');
  if (opts.ties) out.push(tieSummary(opts.ties));
  if (ev.missingFromRun.length)
    out.push(`${ev.missingFromRun.length} judged queries have no results in the run and score 0: ${preview(ev.missingFromRun)}`);
  if (ev.noRelevant.length)
    out.push(
      `${ev.noRelevant.length} queries have no relevant document${ev.options.excludeNoRelevant ? ' (excluded)' : ' (scored 0, counted)'}: ${preview(ev.noRelevant)}`,
    );
  if (ev.unjudgedRunQueries.length)
    out.push(`${ev.unjudgedRunQueries.length} run queries have no judgments and were ignored: ${preview(ev.unjudgedRunQueries)}`);
  if (opts.perQuery) {
    const names = ev.specs.map((s) => s.name);
    out.push(
      '',
      table(
        ['query', ...names],
        [...ev.perQuery].map(([qid, v]) => [qid, ...names.map((n) => v[n] ?? NaN)]),
      ),
    );
  }
  return out.join('\n') + '\n';
}

function preview(ids: string[], max = 10): string {
  return ids.length <= max ? ids.join(', ') : `${ids.slice(0, max).join(', ')} … (+${ids.length - max})`;
}
