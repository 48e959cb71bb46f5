import { extname } from 'node:path';
import { shortText } from '../../core/util/visible-text';
import { type ExcludedQuery, type JudgmentSet, splitSourceOf, withoutQueries } from '../../core/judgments';
import { describeMetric } from '../../core/metrics';
import { type StageRecallReport, classSliceMeans, stageRecall } from '../../core/experiment/stage-recall';
import { stageRecallTable } from '../../core/report/stage-recall';
import { formatTrecRun } from '../../core/run/trec-run';
import { STAGE_NAMES } from '../../core/run/types';
import { type EvaluateConfigsResult, evaluateConfigs } from '../../core/actions/evaluate-configs';
import { describeSharing } from '../../core/session/evaluate';
import { markdownTable, textTable, type Cell } from '../../core/report/table';
import { modeLabel } from '../../core/config';
import type { Corpus } from '../../core/corpus';
import { InputError } from '../../core/util/diagnostics';
import { METRICS_HELP, METRIC_OPTIONS, formatChoice, metricChoice, parse } from '../args';
import type { Io } from '../io';
import { type Output, checkOutputs, writeOutput } from '../outputs';
import {
  WORKSPACE_OPTIONS,
  configEntriesOf,
  interruptSignal,
  judgmentsOf,
  openWorkspace,
  principalsOf,
  progressReporter,
  readCorpus,
  enginesOnly,
  reportInterrupted,
  requireConfigs,
  usableConfigs,
} from '../workspace-options';

export const EVAL_USAGE = `ranklab eval [--workspace DIR] [--config NAME|FILE]... [--split tune|holdout|all] [--as PRINCIPAL]
             [--metrics ...] [--gain exp|linear] [--relevance-threshold N] [--judged-only] [--format table|json|markdown]
             [--trec-run OUT [--force]] [--per-query] [--class-slices] [--no-save] [--strict]
  Runs every labeled query under each config (default: every config of the workspace) and prints the
  metrics, latency p50/p99 per stage and ANN recall; each run is saved under .ranklab/runs/.
  --class-slices: the metrics per query class as slices (class:hit, class:ranking-miss, class:retrieval-miss, …).
  --trec-run OUT writes the TREC run (OUT.<config>.ext for several configs; an existing derived file is
  replaced only with --force). --strict: any error in the inputs stops before anything runs.
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
    'class-slices': { type: 'boolean' },
    'no-save': { type: 'boolean' },
    force: { type: 'boolean' },
  });
  if (values.help) return (io.out(EVAL_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json', 'markdown'] as const, 'table');
  const split = formatChoice(values.split, SPLITS, 'all', '--split');
  const { session, report } = openWorkspace(values, io);
  const settings = session.workspace.settings;
  const { specs, options, warnings } = metricChoice(values, {
    metrics: settings.metrics,
    gain: settings.gain,
    relevanceThreshold: settings.relevanceThreshold,
    judgedOnly: settings.judgedOnly,
  });
  report.add('--relevance-threshold', warnings);
  const entries = configEntriesOf(session, values.config);
  const outputs = values['trec-run']
    ? trecRunOutputs(
        values['trec-run'],
        entries.map((e) => e.name),
      )
    : [];
  checkOutputs(outputs, { inputs: session.inputFiles(), force: !!values.force });
  const { signal, dispose } = interruptSignal(io);
  const failed: { name: string; message: string }[] = [];
  let outcome: EvaluateConfigsResult = { results: [], failed: [], notRun: [] };
  let interrupted: boolean;
  try {
    const need = { optional: enginesOnly(entries) };
    await readCorpus(session, report, signal, need);
    const judgments = judgmentsOf(session, report, split, need);
    if (values.as) principalsOf(session, report, [values.as]);
    const choice = usableConfigs(session, report, entries);
    if (outputs.length) checkTrecIds(session.corpus(), judgments);
    report.stopIfStrict();
    requireConfigs(choice);
    failed.push(...choice.failed);
    const reporters = new Map<string, (done: number, total: number) => void>();
    outcome = await evaluateConfigs(
      session,
      { configs: choice.configs, specs, metricOptions: options, split, principal: values.as, save: !values['no-save'] },
      {
        signal,
        progress: (p) => {
          if (p.type === 'queries') {
            if (!reporters.has(p.config))
              reporters.set(p.config, progressReporter(io, `${p.config}${values.as ? ` as ${values.as}` : ''}`));
            reporters.get(p.config)!(p.done, p.total);
          } else if (p.type === 'evaluated') {
            for (const note of p.result.notes) io.err(`${p.config}: ${note}\n`);
          } else if (p.type === 'failed') {
            io.err(`ranklab eval: config ${p.config} not run: ${p.message}\n`);
          }
        },
      },
    );
    failed.push(...outcome.failed);
    interrupted = outcome.stopped !== undefined;
  } catch (e) {
    if (!signal.aborted) throw e;
    interrupted = true; // Ctrl-C while the inputs were read
  } finally {
    dispose();
  }
  const results = outcome.results;
  if (interrupted) {
    const primary = specs[0].name;
    const completed = results.map(
      (r) => `${r.config.name} (${primary} ${r.evaluation.means[primary]?.toFixed(4)}, ${r.path ? `saved ${r.path}` : 'not saved'})`,
    );
    const notRun = entries.map((e) => e.name).filter((n) => !results.some((r) => r.config.name === n) && !failed.some((f) => f.name === n));
    return reportInterrupted(io, 'configs', completed, [...failed.map((f) => `${f.name} (failed)`), ...notRun]);
  }
  const [first] = results;
  if (!first) throw new InputError(`no config could be run (${failed.map((f) => `${f.name}: ${f.message}`).join('; ')})`);
  for (const r of results) {
    const out = outputs.find((o) => o.config === r.config.name);
    if (!out) continue;
    writeOutput(out, formatTrecRun(r.run, r.config.name));
    io.err(`TREC run of ${r.config.name} written to ${out.path}\n`);
  }

  const metricNames = specs.map((s) => s.name);
  // Per result: where its relevant documents are lost and, with --class-slices, its metrics per query class.
  const perResult = results.map((r) => {
    const stages = stageRecall(
      r.run,
      r.stageIds,
      withoutQueries(
        session.judgmentsFor({ split, principal: values.as }),
        r.failed.map((f) => f.qid),
      ),
      options,
      specs[0].k ?? 10,
    );
    return { r, stages, slices: values['class-slices'] ? classSliceMeans(stages, r.evaluation.perQuery, metricNames) : undefined };
  });
  // A run with queries the engine could not answer is incomplete: exit 2, as for a config that could not run.
  const incomplete = results.filter((r) => r.failed.length);
  const code = failed.length || incomplete.length ? 2 : 0;
  if (format === 'json') {
    io.out(
      JSON.stringify(
        {
          runs: perResult.map(({ r, stages, slices }) => ({
            config: r.config.name,
            configHash: r.config.configHash,
            mode: modeLabel(r.config),
            principal: values.as,
            split,
            metrics: r.evaluation.means,
            residuals: r.evaluation.residuals.means,
            perQuery: Object.fromEntries(r.evaluation.perQuery),
            stageRecall: stages,
            ...(slices && { slices }),
            queries: r.evaluation.queries,
            excludedQueries: r.excluded,
            failedQueries: r.failed,
            latency: r.saved.latency,
            annRecall: r.saved.annRecall ?? null,
            corpus: r.saved.provenance.corpus,
            judgments: r.saved.provenance.judgments,
            saved: r.path ?? null,
            sharing: r.sharing ?? null,
          })),
          failed,
          variant: Object.fromEntries(specs.map((s) => [s.name, describeMetric(s, options)])),
          splitQueries: splitQueries(session.judgmentsFor({ split }), split),
        },
        null,
        2,
      ) + '\n',
    );
    return code;
  }
  const table = format === 'markdown' ? markdownTable : textTable;
  const out: string[] = [];
  out.push(
    `Workspace ${session.root}: ${session.corpus().docs.length} documents (${first.saved.provenance.corpus}), ${first.evaluation.queries} queries (${split}${values.as ? `, as ${values.as}` : ''}; judgments ${first.saved.provenance.judgments})`,
    '',
  );
  if (first.excluded.length) out.push(excludedLine(first.excluded, values.as!), '');
  out.push(
    table(
      ['config', 'mode', ...specs.map((s) => s.name)],
      results.map((r) => [r.config.name, modeLabel(r.config), ...specs.map((s) => r.evaluation.means[s.name])] as Cell[]),
    ),
  );
  out.push('', ...specs.map((s) => `  ${s.name}: ${describeMetric(s, options)}`));
  for (const r of results) {
    for (const [name, mean] of Object.entries(r.evaluation.residuals.means))
      out.push(`  ${r.config.name} ${name} residual +${mean.toFixed(4)} (the most it could rise if every unjudged document were relevant)`);
  }
  for (const r of results) {
    const shared = r.sharing && describeSharing(r.sharing);
    if (shared) out.push(`  ${r.config.name}: ${shared}`);
  }
  const st = stageRecallTable(perResult.map(({ r, stages }): [string, StageRecallReport] => [r.config.name, stages]));
  out.push('', `Where relevant documents are lost (${st.legend}):`);
  out.push(table(st.headers, st.rows), ...st.notes.map((n) => `  ${n}`));
  // Engine configs add the round trip measured here and the query embedding beside what the engine says it took.
  const stages = [...STAGE_NAMES, 'embed', 'request', 'total'].filter(
    (s) => !['embed', 'engine', 'request'].includes(s) || results.some((r) => r.saved.latency[s]),
  );
  out.push(
    '',
    table(
      ['config', ...stages.map((s) => `${s} p50/p99 ms`), 'ANN recall@10', 'saved'],
      results.map((r) => [
        r.config.name,
        ...stages.map((s) => {
          const l = r.saved.latency[s];
          return l ? `${l.p50.toFixed(2)} / ${l.p99.toFixed(2)}` : '-';
        }),
        r.saved.annRecall === undefined ? '-' : r.saved.annRecall.toFixed(3),
        r.reused ? `reused ${r.path}` : (r.path ?? 'not saved'),
      ]),
    ),
  );
  if (values['class-slices']) {
    out.push('', 'Metrics per query class (class slices):');
    out.push(
      table(
        ['config', 'slice', 'queries', ...metricNames],
        perResult.flatMap(({ r, slices }) =>
          Object.entries(slices ?? {}).map(
            ([tag, sl]) => [r.config.name, tag, String(sl.queries), ...metricNames.map((m) => sl.metrics[m] ?? NaN)] as Cell[],
          ),
        ),
      ),
    );
  }
  if (values['per-query']) {
    for (const r of results) {
      out.push('', `${r.config.name}, per query:`);
      out.push(
        table(
          ['query', 'text', ...specs.map((s) => s.name)],
          [...r.evaluation.perQuery].map(
            ([qid, v]) => [qid, shortText(session.judgments().queries.get(qid)?.text ?? '', 50), ...specs.map((s) => v[s.name])] as Cell[],
          ),
        ),
      );
    }
  }
  for (const r of incomplete) {
    out.push(
      '',
      `INCOMPLETE: ${r.config.name}: ${r.failed.length} quer${r.failed.length === 1 ? 'y' : 'ies'} failed and ${r.failed.length === 1 ? 'is' : 'are'} left out of the scores (the means are over ${r.evaluation.queries}):`,
    );
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

/** The TREC run file of each config: OUT itself for one config, else OUT.<config>.ext (derived: needs --force to replace). */
function trecRunOutputs(out: string, configs: string[]): Array<Output & { config: string }> {
  const ext = extname(out);
  return configs.map((config) => ({
    flag: '--trec-run',
    config,
    path: configs.length === 1 ? out : `${out.slice(0, out.length - ext.length)}.${config}${ext || '.txt'}`,
    named: configs.length === 1,
  }));
}

/**
 * TREC run lines are whitespace-separated, so a document or query id holding white space cannot be written:
 * refused before the work, naming where each such id comes from.
 */
function checkTrecIds(corpus: Corpus, judgments: JudgmentSet): void {
  const docs = corpus.docs.filter((d) => /\s/.test(d.id));
  const queries = [...judgments.queries.keys()].filter((q) => /\s/.test(q));
  if (docs.length === 0 && queries.length === 0) return;
  const diagnostics = [
    ...docs.map((d) => ({
      file: d.source.path,
      line: d.source.line ?? 0,
      severity: 'error' as const,
      message: `document id ${JSON.stringify(d.id)} holds white space`,
    })),
    ...queries.map((q) => ({
      file: judgments.queryLocations?.get(q)?.file ?? '',
      line: judgments.queryLocations?.get(q)?.line ?? 0,
      severity: 'error' as const,
      message: `query id ${JSON.stringify(q)} holds white space`,
    })),
  ];
  throw new InputError(`${diagnostics.length} id(s) hold white space and cannot be written as TREC run lines (listed below)`, diagnostics, {
    key: '--trec-run',
    hint: 'rename them, or leave out --trec-run',
  });
}

/** The judged queries of the split asked for, and what decided it: the ids `sweep` holds out are `--split holdout`'s. */
function splitQueries(judgments: JudgmentSet, split: (typeof SPLITS)[number]) {
  return { split, source: splitSourceOf(judgments), ids: [...judgments.qrels.keys()] };
}
