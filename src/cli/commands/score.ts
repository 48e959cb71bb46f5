import { loadJudgments } from '../../core/judgments';
import { evaluateRun } from '../../core/metrics';
import { tieReport } from '../../core/experiment/ties';
import { evaluationJson, formatEvaluation } from '../../core/report/evaluation';
import { readTrecRun } from '../../core/run/trec-run';
import { METRICS_HELP, METRIC_OPTIONS, formatChoice, metricChoice, parse, required } from '../args';
import { type Io, reportDiagnostics } from '../io';
import { judgmentSpecFor } from '../judgment-spec';

export const SCORE_USAGE = `ranklab score --qrels FILE --run FILE [--queries FILE] [--metrics ndcg@10,mrr@10,p@5,recall@100]
              [--gain exp|linear] [--relevance-threshold 1] [--exclude-no-relevant] [--judged-only] [--per-query]
              [--format table|json|markdown]
  Scores an existing TREC run (from any engine) against judgments, as trec_eval does.
${METRICS_HELP}`;

export async function scoreCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, { ...METRIC_OPTIONS, qrels: { type: 'string' }, run: { type: 'string' }, queries: { type: 'string' }, 'per-query': { type: 'boolean' } });
  if (values.help) return io.out(SCORE_USAGE + '\n'), 0;
  const format = formatChoice(values.format, ['table', 'json', 'markdown'] as const, 'table');
  const { specs, options } = metricChoice(values);
  const qrelsPath = required(values.qrels, '--qrels');
  const runPath = required(values.run, '--run');
  const judgments = loadJudgments(judgmentSpecFor(qrelsPath, values.queries));
  reportDiagnostics(io, judgments.diagnostics.filter((d) => d.severity !== 'info'));
  const run = readTrecRun(runPath);
  reportDiagnostics(io, run.diagnostics);
  const ev = evaluateRun(run.run, judgments, specs, options);
  const ties = tieReport(run.run, judgments, specs, options);
  if (format === 'json') {
    io.out(JSON.stringify(evaluationJson(ev, { run: { file: runPath, tag: run.tag, fingerprint: run.fingerprint }, ties }), null, 2) + '\n');
  } else {
    io.out(formatEvaluation(ev, format, { perQuery: !!values['per-query'], title: `Run ${runPath} (${run.tag || 'no tag'}) scored on ${qrelsPath}`, ties }));
  }
  return 0;
}
