import { formatExplanation } from '../../core/report/explain';
import { STEP_EXPLAINS, STEP_NAMES } from '../../core/run/stages';
import { explainDocument } from '../../core/session/explain';
import { formatChoice, parse, required } from '../args';
import type { Io } from '../io';
import { InputError } from '../../core/util/diagnostics';
import {
  WORKSPACE_OPTIONS,
  interruptSignal,
  openWorkspace,
  principalsOf,
  reportInterrupted,
  requireConfigs,
  usableConfigs,
} from '../workspace-options';

export const EXPLAIN_USAGE = `ranklab explain [--workspace DIR] --config NAME [--baseline NAME] --query QID_OR_TEXT --doc ID [--as PRINCIPAL]
                [--format table|json] [--strict]
  Why a document is where it is for one query: each step of the pipeline in turn:
${STEP_NAMES.map((s) => `    ${s}: ${STEP_EXPLAINS[s]}`).join('\n')}
  A document not ranked: the step it fell out at (not matched, below depth, filtered by access). --baseline: both
  configs side by side and the one-line reason the rank changed. --as: a document the principal may not see is only
  reported as not visible. --query is a query id of the judgments, or the query text.`;

export async function explainCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...WORKSPACE_OPTIONS,
    config: { type: 'string', short: 'c' },
    baseline: { type: 'string', short: 'b' },
    query: { type: 'string', short: 'q' },
    doc: { type: 'string', short: 'd' },
    as: { type: 'string' },
    format: { type: 'string', short: 'f' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return (io.out(EXPLAIN_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  required(values.config, '--config');
  const query = required(values.query, '--query');
  const doc = required(values.doc, '--doc');
  const { session, report } = openWorkspace(values, io);
  const entry = session.configEntry(values.config);
  const entries = [entry, ...(values.baseline ? [session.configEntry(values.baseline)] : [])];
  const choice = usableConfigs(session, report, entries);
  if (values.as) principalsOf(session, report, [values.as]);
  // Query ids come from the judgments; their problems are reported, but a workspace without any still explains text.
  report.add('judgments', session.judgmentDiagnostics());
  report.stopIfStrict();
  const [failed] = choice.failed;
  if (failed)
    throw new InputError(`config ${failed.name} cannot run (its problems are listed above)`, [], {
      key: failed.name === entry.name ? '--config' : '--baseline',
    });
  // None failed: the config, then the baseline when one is given.
  const config = requireConfigs(choice);
  const baseline = choice.configs[1];
  const { signal, dispose } = interruptSignal(io);
  try {
    const r = await explainDocument(session, { config, baseline, query, doc, principal: values.as, signal });
    if (format === 'json') io.out(JSON.stringify(r, null, 2) + '\n');
    else io.out(formatExplanation(r));
  } catch (e) {
    if (signal.aborted) return reportInterrupted(io, 'steps', [], ['explain']);
    throw e;
  } finally {
    dispose();
  }
  return 0;
}
