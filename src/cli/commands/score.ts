import { loadJudgments } from '../../core/judgments';
import { evaluateRun } from '../../core/metrics';
import { tieReport } from '../../core/experiment/ties';
import { evaluationJson, formatEvaluation } from '../../core/report/evaluation';
import { readTrecRun } from '../../core/run/trec-run';
import { checkUserTextFile } from '../../core/util/text-file';
import { METRICS_HELP, METRIC_OPTIONS, formatChoice, metricChoice, parse, required } from '../args';
import { InputReport } from '../input-report';
import { type Io } from '../io';
import { judgmentSpecFor } from '../judgment-spec';

export const SCORE_USAGE = `ranklab score --qrels FILE --run FILE [--queries FILE] [--metrics ndcg@10,mrr@10,p@5,recall@100]
              [--gain exp|linear] [--relevance-threshold 1] [--exclude-no-relevant] [--judged-only] [--per-query]
              [--format table|json|markdown] [--strict]
  Scores an existing TREC run (from any engine) against judgments, as trec_eval does.
${METRICS_HELP}`;

export async function scoreCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...METRIC_OPTIONS,
    qrels: { type: 'string' },
    run: { type: 'string' },
    queries: { type: 'string' },
    'per-query': { type: 'boolean' },
    strict: { type: 'boolean' },
  });
  if (values.help) return (io.out(SCORE_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json', 'markdown'] as const, 'table');
  const { specs, options, warnings } = metricChoice(values);
  const qrelsPath = required(values.qrels, '--qrels');
  const runPath = required(values.run, '--run');
  const report = new InputReport(io, !!values.strict);
  report.add('--relevance-threshold', warnings);
  checkUserTextFile(runPath);
  const judgments = loadJudgments(judgmentSpecFor(qrelsPath, values.queries));
  report.add('judgments', judgments.diagnostics);
  const run = readTrecRun(runPath);
  report.add(runPath, run.diagnostics);
  report.stopIfStrict();
  const ev = evaluateRun(run.run, judgments, specs, options);
  const ties = tieReport(run.run, judgments, specs, options);
  if (format === 'json') {
    io.out(
      JSON.stringify(evaluationJson(ev, { run: { file: runPath, tag: run.tag, fingerprint: run.fingerprint }, ties }), null, 2) + '\n',
    );
  } else {
    io.out(
      formatEvaluation(ev, format, {
        perQuery: !!values['per-query'],
        title: `Run ${runPath} (${run.tag || 'no tag'}) scored on ${qrelsPath}`,
        ties,
      }),
    );
  }
  return 0;
}
