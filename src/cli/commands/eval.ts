import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { type ExcludedQuery, withoutQueries } from '../../core/judgments';
import { describeMetric } from '../../core/metrics';
import { type StageRecallReport, stageRecall } from '../../core/experiment/stage-recall';
import { stageRecallTable } from '../../core/report/stage-recall';
import { formatTrecRun } from '../../core/run/trec-run';
import { type ConfigEvaluation, evaluateConfig } from '../../core/session/evaluate';
import { markdownTable, textTable, type Cell } from '../../core/report/table';
import { InputError } from '../../core/util/diagnostics';
import { METRICS_HELP, METRIC_OPTIONS, formatChoice, metricChoice, parse } from '../args';
import type { Io } from '../io';
import { WORKSPACE_OPTIONS, interruptSignal, openSession, progressReporter } from '../workspace-options';

export const EVAL_USAGE = `ranklab eval [--workspace DIR] [--config NAME|FILE]... [--split tune|holdout|all] [--as PRINCIPAL]
             [--metrics ...] [--gain exp|linear] [--relevance-threshold N] [--judged-only] [--format table|json|markdown]
             [--trec-run OUT] [--per-query] [--no-save]
  Runs every labeled query under each config (default: every config of the workspace) and prints the
  metrics, latency p50/p99 per stage and ANN recall; each run is saved under .ranklab/runs/.
${METRICS_HELP}`;

export const SPLITS = ['tune', 'holdout', 'all'] as const;

export async function evalCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...METRIC_OPTIONS,
    ...WORKSPACE_OPTIONS,
    config: { type: 'string', short: 'c', multiple: true },
    split: { type: 'string' },
    as: { type: 'string' },
    'trec-run': { type: 'string' },
    'per-query': { type: 'boolean' },
    'no-save': { type: 'boolean' },
  });
  if (values.help) return io.out(EVAL_USAGE + '\n'), 0;
  const format = formatChoice(values.format, ['table', 'json', 'markdown'] as const, 'table');
  const split = formatChoice(values.split, SPLITS, 'all');
  const session = openSession(values, io);
  const settings = session.workspace.settings;
  const { specs, options } = metricChoice(values, { metrics: settings.metrics, gain: settings.gain, relevanceThreshold: settings.relevanceThreshold, judgedOnly: settings.judgedOnly });
  const configs = values.config?.length
    ? values.config.map((c) => session.resolveConfig(c))
    : session.configEntries().filter((e) => e.config || (io.err(`skipping ${e.file ?? e.name}: not a usable config\n`), false)).map((e) => e.config!);
  if (configs.length === 0) throw new InputError('no usable ranking config');
  const { signal, dispose } = interruptSignal(io);
  const results: ConfigEvaluation[] = [];
  const failed: { name: string; message: string }[] = [];
  try {
    for (const config of configs) {
      try {
        const r = await evaluateConfig(session, config, {
          specs, metricOptions: options, split, principal: values.as, save: !values['no-save'], signal,
          onProgress: progressReporter(io, `${config.name}${values.as ? ` as ${values.as}` : ''}`),
        });
        for (const note of r.notes) io.err(`${config.name}: ${note}\n`);
        results.push(r);
      } catch (e) {
        // One unusable config (e.g. a model that is not available offline) does not stop the others.
        if (!(e instanceof InputError) || signal.aborted) throw e;
        failed.push({ name: config.name, message: e.message });
        io.err(`ranklab eval: config ${config.name} not run: ${e.message}\n`);
      }
    }
  } catch (e) {
    if (signal.aborted) {
      io.err(`stopped; ${results.length} of ${configs.length} configs completed\n`);
      return 130;
    }
    throw e;
  } finally {
    dispose();
  }
  if (results.length === 0) throw new InputError(`no config could be run (${failed.map((f) => f.name).join(', ')})`);
  if (values['trec-run']) writeTrecRuns(values['trec-run'], results, io);

  const stageReports = results.map((r) => [r.config.name, stageRecall(r.run, r.stageIds, withoutQueries(session.judgmentsFor({ split, principal: values.as }), r.failed.map((f) => f.qid)), options, specs[0].k ?? 10)] as [string, StageRecallReport]);
  // A run with queries the engine could not answer is incomplete: exit 2, as for a config that could not run.
  const incomplete = results.filter((r) => r.failed.length);
  const code = failed.length || incomplete.length ? 2 : 0;
  if (format === 'json') {
    io.out(JSON.stringify({ runs: results.map((r, i) => ({
      config: r.config.name,
      configHash: r.config.configHash,
      mode: r.config.mode + (r.config.rerank ? '+rerank' : ''),
      principal: values.as,
      split,
      metrics: r.evaluation.means,
      residuals: r.evaluation.residuals.means,
      perQuery: Object.fromEntries(r.evaluation.perQuery),
      stageRecall: stageReports[i][1],
      queries: r.evaluation.queries,
      excludedQueries: r.excluded,
      failedQueries: r.failed,
      latency: r.saved.latency,
      annRecall: r.saved.annRecall ?? null,
      corpus: r.saved.provenance.corpus,
      judgments: r.saved.provenance.judgments,
      saved: r.path ?? null,
    })), failed, variant: Object.fromEntries(specs.map((s) => [s.name, describeMetric(s, options)])) }, null, 2) + '\n');
    return code;
  }
  const table = format === 'markdown' ? markdownTable : textTable;
  const first = results[0];
  const out: string[] = [];
  out.push(`Workspace ${session.root}: ${session.corpus().docs.length} documents (${first.saved.provenance.corpus}), ${first.evaluation.queries} queries (${split}${values.as ? `, as ${values.as}` : ''}; judgments ${first.saved.provenance.judgments})`, '');
  if (first.excluded.length) out.push(excludedLine(first.excluded, values.as!), '');
  out.push(table(['config', 'mode', ...specs.map((s) => s.name)], results.map((r) => [r.config.name, r.config.mode + (r.config.rerank ? '+rerank' : ''), ...specs.map((s) => r.evaluation.means[s.name])] as Cell[])));
  out.push('', ...specs.map((s) => `  ${s.name}: ${describeMetric(s, options)}`));
  for (const r of results) {
    for (const [name, mean] of Object.entries(r.evaluation.residuals.means)) out.push(`  ${r.config.name} ${name} residual +${mean.toFixed(4)} (the most it could rise if every unjudged document were relevant)`);
  }
  const st = stageRecallTable(stageReports);
  out.push('', `Where relevant documents are lost (hit = relevant in the top ${stageReports[0][1].k}; ranking miss = retrieved by a stage but not in the top ${stageReports[0][1].k}; retrieval miss = no stage retrieved one):`);
  out.push(table(st.headers, st.rows), ...st.notes.map((n) => `  ${n}`));
  // Engine configs add what the engine says it took and the round trip measured here (and the query embedding).
  const stages = ['lexical', 'vector', 'fused', 'rerank', 'embed', 'engine', 'request', 'total']
    .filter((s) => !['embed', 'engine', 'request'].includes(s) || results.some((r) => r.saved.latency[s]));
  out.push('', table(['config', ...stages.map((s) => `${s} p50/p99 ms`), 'ANN recall@10', 'saved'], results.map((r) => [
    r.config.name,
    ...stages.map((s) => (r.saved.latency[s] ? `${r.saved.latency[s].p50.toFixed(2)} / ${r.saved.latency[s].p99.toFixed(2)}` : '-')),
    r.saved.annRecall === undefined ? '-' : r.saved.annRecall.toFixed(3),
    r.reused ? `reused ${r.path}` : (r.path ?? 'not saved'),
  ])));
  if (values['per-query']) {
    for (const r of results) {
      out.push('', `${r.config.name}, per query:`);
      out.push(table(['query', 'text', ...specs.map((s) => s.name)], [...r.evaluation.perQuery].map(([qid, v]) => [qid, (session.judgments().queries.get(qid)?.text ?? '').slice(0, 50), ...specs.map((s) => v[s.name])] as Cell[])));
    }
  }
  for (const r of incomplete) {
    out.push('', `INCOMPLETE: ${r.config.name}: ${r.failed.length} quer${r.failed.length === 1 ? 'y' : 'ies'} failed and ${r.failed.length === 1 ? 'is' : 'are'} left out of the scores (the means are over ${r.evaluation.queries}):`);
    for (const f of r.failed.slice(0, 10)) out.push(`  ${f.qid}: ${f.error}`);
    if (r.failed.length > 10) out.push(`  … and ${r.failed.length - 10} more (--format json lists all)`);
  }
  for (const f of failed) out.push('', `not run: ${f.name}: ${f.message}`);
  io.out(out.join('\n') + '\n');
  return code;
}

/** The queries left out under --as (every relevant document invisible), one line; shared with compare. */
export function excludedLine(excluded: readonly ExcludedQuery[], principal: string): string {
  const ids = excluded.map((x) => x.qid);
  const shown = ids.length <= 20 ? ids.join(', ') : `${ids.slice(0, 20).join(', ')} … (+${ids.length - 20})`;
  return `${excluded.length} queries left out: every relevant document is invisible to ${principal} (not scored): ${shown}`;
}

function writeTrecRuns(out: string, results: ConfigEvaluation[], io: Io): void {
  for (const r of results) {
    const ext = extname(out);
    const path = results.length === 1 ? out : `${out.slice(0, out.length - ext.length)}.${r.config.name}${ext || '.txt'}`;
    writeFileSync(path, formatTrecRun(r.run, r.config.name));
    io.err(`TREC run of ${r.config.name} written to ${path}\n`);
  }
}
