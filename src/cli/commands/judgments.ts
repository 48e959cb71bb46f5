import { join, relative, resolve } from 'node:path';
import { type ClickModelOptions, CLICK_RATER, DEFAULT_CLICK_MODEL, clickRatingLines, coecGrades } from '../../core/judging/clicks';
import { readImpressions, readUbi } from '../../core/judging/click-log';
import { writeFileAtomic } from '../../core/util/atomic-write';
import { InputError } from '../../core/util/diagnostics';
import { readUserText } from '../../core/util/text-file';
import { formatChoice, intFlag, parse } from '../args';
import type { Io } from '../io';
import { WORKSPACE_OPTIONS, openWorkspace } from '../workspace-options';

export const JUDGMENTS_USAGE = `ranklab judgments from-clicks (--log FILE | --ubi-queries FILE --ubi-events FILE) [--workspace DIR]
              [--min-impressions 10] [--thresholds 0.5,1,2] [--click-actions click] [--dry-run] [--format table|json]
  Grades (query, document) pairs from logged result lists and clicks by COEC (clicks over the clicks expected at the
  positions shown, position bias estimated from the log), pairs shown fewer than --min-impressions times left out,
  and writes them as the rater "clicks" to <raters folder>/clicks.jsonl (replaced), for the workspace's queries
  (matched by normalised text). Click grades are not scored unless ranklab.json says judging.merge "rater:clicks";
  ranklab agreement compares them with each person. See docs/logs.md.`;

export async function judgmentsCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'from-clicks') return fromClicksCommand(rest, io);
  if (sub === undefined || sub === '--help' || sub === '-h') return (io.out(JUDGMENTS_USAGE + '\n'), sub ? 0 : 2);
  throw new InputError(`unknown subcommand "${sub}" (ranklab judgments from-clicks)`, [], { hint: 'see ranklab judgments --help' });
}

async function fromClicksCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...WORKSPACE_OPTIONS,
    log: { type: 'string' },
    'ubi-queries': { type: 'string' },
    'ubi-events': { type: 'string' },
    'min-impressions': { type: 'string' },
    thresholds: { type: 'string' },
    'click-actions': { type: 'string' },
    'dry-run': { type: 'boolean' },
    format: { type: 'string', short: 'f' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return (io.out(JUDGMENTS_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const ubi = values['ubi-queries'] !== undefined || values['ubi-events'] !== undefined;
  if (ubi === (values.log !== undefined))
    throw new InputError('give either --log FILE or both --ubi-queries and --ubi-events', [], { key: '--log' });
  if (ubi && (!values['ubi-queries'] || !values['ubi-events']))
    throw new InputError('--ubi-queries and --ubi-events go together', [], {
      key: values['ubi-queries'] ? '--ubi-events' : '--ubi-queries',
    });
  const model: ClickModelOptions = {
    minImpressions: intFlag(values['min-impressions'], '--min-impressions', 1) ?? DEFAULT_CLICK_MODEL.minImpressions,
    thresholds: values.thresholds === undefined ? DEFAULT_CLICK_MODEL.thresholds : thresholdsFlag(values.thresholds),
  };
  const actions = values['click-actions']
    ?.split(',')
    .map((a) => a.trim())
    .filter(Boolean) ?? ['click'];

  const { session, report } = openWorkspace(values, io);
  const ratersSpec = session.workspace.judgmentSpecs.find((s) => s.raters);
  if (!ratersSpec && !values['dry-run']) {
    throw new InputError(
      'click grades are written as a rater of their own: add a folder of per-rater files to "judgments", e.g. {"raters": "judgments"}',
      [],
      { file: 'ranklab.json', key: 'judgments' },
    );
  }
  const judgments = session.judgments();
  report.add('judgments', judgments.diagnostics);
  const read = ubi
    ? readUbi(
        { text: readUserText(values['ubi-queries']!), file: values['ubi-queries']! },
        { text: readUserText(values['ubi-events']!), file: values['ubi-events']! },
        actions,
      )
    : readImpressions(readUserText(values.log!), values.log!);
  report.add('clicks', read.diagnostics);
  report.stopIfStrict();
  if (read.impressions.length === 0)
    throw new InputError('no usable result list in the log (problems above)', [], { file: values.log ?? values['ubi-queries'] });

  const clicks = coecGrades(read.impressions, model);
  const lines = clickRatingLines(clicks, judgments.queries, CLICK_RATER);
  const file = join(resolve(session.root, ratersSpec?.raters ?? 'judgments'), `${CLICK_RATER}.jsonl`);
  const display = relative(process.cwd(), file).split('\\').join('/');
  if (!values['dry-run']) writeFileAtomic(file, lines.text);
  const result = {
    rater: CLICK_RATER,
    file: display,
    dryRun: !!values['dry-run'],
    impressions: clicks.impressions,
    positionCtr: clicks.ctr.slice(0, 20).map((x) => Math.round(x * 1e4) / 1e4),
    minImpressions: model.minImpressions,
    thresholds: model.thresholds,
    pairsBelowMinImpressions: clicks.belowThreshold,
    graded: lines.graded,
    queries: lines.matchedQueries,
    queriesNotInJudgments: lines.unmatchedQueries,
  };
  if (format === 'json') io.out(JSON.stringify(result, null, 2) + '\n');
  else {
    io.out(
      [
        `${result.impressions} result lists; click-through by position: ${result.positionCtr
          .slice(0, 10)
          .map((x, i) => `${i + 1}: ${x.toFixed(3)}`)
          .join(', ')}`,
        `COEC grades (thresholds ${model.thresholds.join(', ')}) for ${result.graded} pairs of ${result.queries} queries; ${result.pairsBelowMinImpressions} pairs shown fewer than ${model.minImpressions} times left out; ${result.queriesNotInJudgments} logged queries not in the judgments`,
        result.dryRun
          ? `dry run: nothing written (would replace ${display})`
          : `written as rater "${CLICK_RATER}" to ${display}; ranklab agreement compares it with each person`,
      ].join('\n') + '\n',
    );
  }
  return 0;
}

function thresholdsFlag(value: string): number[] {
  const xs = value.split(',').map((s) => Number(s.trim()));
  if (xs.some((x) => !(x > 0 && Number.isFinite(x))) || xs.some((x, i) => i > 0 && x <= xs[i - 1]!)) {
    throw new InputError(`must be increasing positive numbers separated by commas (grade g from the g-th), not "${value}"`, [], {
      key: '--thresholds',
    });
  }
  return xs;
}
