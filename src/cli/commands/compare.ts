import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { type ComparisonSide, MixedPrincipalsError, compareRuns } from '../../core/experiment/compare';
import { type GateSettings, checkGates, gatesPassed } from '../../core/experiment/gates';
import { comparisonSideOf, isSavedRunFile, loadSavedRun } from '../../core/experiment/run-store';
import { type ExcludedQuery, loadJudgments, type JudgmentSet } from '../../core/judgments';
import { comparisonJson, formatComparison, gatesJUnit } from '../../core/report/comparison';
import { readTrecRun } from '../../core/run/trec-run';
import { evaluateConfig } from '../../core/session/evaluate';
import type { RanklabSession } from '../../core/session/session';
import { InputError } from '../../core/util/diagnostics';
import { METRICS_HELP, METRIC_OPTIONS, type MetricChoice, formatChoice, metricChoice, parse, required } from '../args';
import { type Io, reportDiagnostics } from '../io';
import { judgmentSpecFor } from '../judgment-spec';
import { WORKSPACE_OPTIONS, interruptSignal, openSession, progressReporter } from '../workspace-options';
import { SPLITS, excludedLine } from './eval';

export const COMPARE_USAGE = `ranklab compare [--workspace DIR] --baseline CONFIG_OR_RUN --candidate CONFIG_OR_RUN [--qrels FILE [--queries FILE]]
                [--metrics ...] [--gain exp|linear] [--relevance-threshold N] [--judged-only] [--split tune|holdout|all] [--as PRINCIPAL]
                [--format table|json|markdown|junit] [--fail-on-regression] [--gates FILE] [--junit FILE] [--summary FILE]
                [--class-slices] [--allow-mixed-principals]
  Paired comparison: means, 95% bootstrap CI, permutation and t-test p-values (Holm-corrected), wins/losses,
  the documents that moved, slices, tune vs holdout, latency, judged@k; the delta's interval if the unjudged
  documents were graded; score ties; stage recall and query classes (--class-slices: classes as slices). Sides are configs (run, or reused from
  .ranklab/runs when nothing changed), saved runs, or TREC run files from any engine (with --qrels: no workspace needed).
  Runs made as different principals (or one with and one without --as) are refused unless --allow-mixed-principals
  is given; the output then says so first.
${METRICS_HELP}`;

export const GATE_USAGE = `ranklab gate [--workspace DIR] --candidate CONFIG_OR_RUN [--baseline CONFIG_OR_RUN] [--gates FILE] [--junit FILE] [--summary FILE]
  Checks the quality gates of ranklab.json (or --gates FILE): minimum values and maximum regressions against
  the baseline, overall and per slice. Exit code 1 when a gate fails, naming the gate and the queries.`;

const COMPARE_OPTIONS = {
  ...METRIC_OPTIONS,
  ...WORKSPACE_OPTIONS,
  baseline: { type: 'string', short: 'b' },
  candidate: { type: 'string' },
  qrels: { type: 'string' },
  queries: { type: 'string' },
  split: { type: 'string' },
  as: { type: 'string' },
  'fail-on-regression': { type: 'boolean' },
  gates: { type: 'string' },
  junit: { type: 'string' },
  summary: { type: 'string' },
  'max-queries': { type: 'string' },
  'class-slices': { type: 'boolean' },
  'allow-mixed-principals': { type: 'boolean' },
} as const;

export async function compareCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, COMPARE_OPTIONS);
  if (values.help) return io.out(COMPARE_USAGE + '\n'), 0;
  return runComparison(values, io, { gate: !!values['fail-on-regression'] });
}

export async function gateCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, COMPARE_OPTIONS);
  if (values.help) return io.out(GATE_USAGE + '\n'), 0;
  return runComparison(values, io, { gate: true });
}

type CompareValues = ReturnType<typeof parse<typeof COMPARE_OPTIONS>>['values'];

async function runComparison(values: CompareValues, io: Io, mode: { gate: boolean }): Promise<number> {
  const format = formatChoice(values.format, ['table', 'json', 'markdown', 'junit'] as const, 'table');
  const split = formatChoice(values.split, SPLITS, 'all');
  // With --qrels and two run files, no workspace is needed at all.
  const standalone = !!values.qrels && !values.workspace;
  const session = standalone ? undefined : openSession(values, io);
  const settings = session?.workspace.settings;
  const choice = metricChoice(values, { metrics: settings?.metrics, gain: settings?.gain, relevanceThreshold: settings?.relevanceThreshold, judgedOnly: settings?.judgedOnly });
  const baselineArg = values.baseline ?? session?.workspace.baselineName;
  const candidateArg = required(values.candidate, '--candidate');
  if (!baselineArg) throw new InputError('--baseline is required (or set "baseline" in ranklab.json)');
  const { signal, dispose } = interruptSignal(io);
  let baseline: ComparisonSide;
  let candidate: ComparisonSide;
  try {
    baseline = await resolveSide(baselineArg, session, choice, { split, principal: values.as, signal }, io);
    candidate = await resolveSide(candidateArg, session, choice, { split, principal: values.as, signal }, io);
  } finally {
    dispose();
  }
  let judgments: JudgmentSet;
  let excluded: ExcludedQuery[] = [];
  if (values.qrels) {
    judgments = loadJudgments(judgmentSpecFor(values.qrels, values.queries));
    reportDiagnostics(io, judgments.diagnostics.filter((d) => d.severity !== 'info'));
  } else {
    // Two saved runs made as one principal are scored as that principal sees the judgments (as with --as).
    const common = baseline.principal === candidate.principal ? baseline.principal : undefined;
    ({ judgments, excluded } = session!.judgmentsAs({ split, principal: values.as ?? common ?? undefined, relevanceThreshold: choice.options.relevanceThreshold }));
  }
  let cmp;
  try {
    cmp = compareRuns(baseline, candidate, judgments, choice.specs, choice.options, { classSlices: !!values['class-slices'], allowMixedPrincipals: values['allow-mixed-principals'] });
  } catch (e) {
    if (e instanceof MixedPrincipalsError) throw new InputError(`${e.message} (--allow-mixed-principals)`);
    throw e;
  }
  const gateSettings = readGates(values.gates, settings?.gates);
  const gates = mode.gate || values.junit || values.summary ? checkGates(gateSettings, cmp) : [];
  if (mode.gate && gates.length === 0) io.err('no gates declared (ranklab.json "gates" or --gates FILE): nothing can fail\n');

  if (values.junit) writeFileSync(values.junit, gatesJUnit(gates, cmp));
  if (values.summary) writeFileSync(values.summary, formatComparison(cmp, 'markdown', { gates }));
  const maxQueries = values['max-queries'] ? Number(values['max-queries']) : undefined;
  if (format === 'json') io.out(JSON.stringify({ ...comparisonJson(cmp, gates), excludedQueries: excluded }, null, 2) + '\n');
  else if (format === 'junit') io.out(gatesJUnit(gates, cmp));
  else io.out((excluded.length ? `${excludedLine(excluded, values.as ?? String(baseline.principal))}\n\n` : '') + formatComparison(cmp, format, { gates, maxQueries }));

  const failed = gates.filter((g) => !g.passed);
  if (mode.gate && failed.length) {
    for (const g of failed) {
      io.err(`gate failed: ${g.gate} (actual ${Number.isNaN(g.actual) ? 'n/a: metric not computed' : g.actual.toFixed(4)}); queries: ${g.queries.slice(0, 10).map((q) => q.qid).join(', ') || '-'}\n`);
    }
    return 1;
  }
  return gatesPassed(gates) ? 0 : mode.gate ? 1 : 0;
}

/** A side is a saved run file, a TREC run file, or a config of the workspace (run now, or reused). */
async function resolveSide(arg: string, session: RanklabSession | undefined, choice: MetricChoice, opts: { split: 'tune' | 'holdout' | 'all'; principal?: string; signal: AbortSignal }, io: Io): Promise<ComparisonSide> {
  const isFile = existsSync(arg) && !arg.endsWith('.rank.json');
  if (isFile && isSavedRunFile(arg)) return comparisonSideOf(loadSavedRun(arg));
  if (isFile) {
    const trec = readTrecRun(arg);
    reportDiagnostics(io, trec.diagnostics);
    return { name: trec.tag || arg, run: trec.run };
  }
  if (!session) throw new InputError(`"${arg}" is not a run file; comparing configs needs a workspace (--workspace DIR)`);
  const config = session.resolveConfig(arg);
  const r = await evaluateConfig(session, config, {
    specs: choice.specs, metricOptions: choice.options, split: opts.split, principal: opts.principal, reuse: true, signal: opts.signal,
    onProgress: progressReporter(io, config.name),
  });
  if (r.reused) io.err(`${config.name}: reusing ${r.path} (same config, corpus, judgments, access, tool version and learned models)\n`);
  return { name: config.name, run: r.run, latencies: r.latencies, stageIds: r.stageIds, principal: opts.principal ?? null };
}

function readGates(file: string | undefined, fromWorkspace: GateSettings | undefined): GateSettings {
  if (!file) return fromWorkspace ?? {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as GateSettings;
  } catch (e) {
    throw new InputError(`${file}: cannot read gates (${(e as Error).message})`);
  }
}
