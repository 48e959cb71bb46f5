import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadJudgments } from '../../core/judgments';
import { RanklabSession } from '../../core/session/session';
import { SETTINGS_FILE } from '../../core/workspace';
import { sampleQueryLog } from '../../core/actions/sample-queries';
import { loadPiiPatterns } from '../../core/judging/personal-data';
import { type QueriesNeeded, queriesNeeded } from '../../core/judging/queries-needed';
import { parseColumnsFlag } from '../../core/judging/query-log';
import { SCHEMES } from '../../core/judging/query-sample';
import { formatQuerySample } from '../../core/report/query-sample';
import { InputError } from '../../core/util/diagnostics';
import { formatChoice, intFlag, parse, required } from '../args';
import { InputReport } from '../input-report';
import type { Io } from '../io';
import { judgmentSpecFor } from '../judgment-spec';
import { checkOutputs, writeOutput } from '../outputs';

export const QUERIES_USAGE = `ranklab queries sample --log FILE (--n N | --for-effect D --pilot FILE) --out FILE [--scheme uniform|stratified|pps]
              [--seed S] [--columns query=COL,count=COL,...] [--loose] [--exclude FILE]... [--pii-patterns FILE]
              [--max-per-session N] [--metric M] [--power 0.8] [--format table|json] [--strict]
  Samples queries to judge from a query log (JSONL, CSV with a header, OpenSearch UBI ubi_queries exported as JSONL):
  personal data and bot-like traffic removed and counted, text normalised (NFC, case, white space; --loose also
  accents and punctuation), duplicates merged, the queries of --exclude (a golden set, a BEIR folder, or a workspace
  folder: its judgments) left out, then N drawn by the scheme (default stratified over head/torso/tail by traffic)
  from the seed (default 1). --out gets a golden set (id, query, tags: [stratum]) for ranklab.json "judgments"; the
  report goes to stdout.
  --for-effect D: N = the queries needed to detect a change of D (power --power, alpha 0.05) at the per-query
  spread of --pilot (the JSON of ranklab compare, score or eval). See docs/logs.md.`;

export async function queriesCommand(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === 'sample') return sampleCommand(rest, io);
  if (sub === undefined || sub === '--help' || sub === '-h') return (io.out(QUERIES_USAGE + '\n'), sub ? 0 : 2);
  throw new InputError(`unknown subcommand "${sub}" (ranklab queries sample)`, [], { hint: 'see ranklab queries --help' });
}

async function sampleCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    log: { type: 'string' },
    n: { type: 'string' },
    out: { type: 'string' },
    scheme: { type: 'string' },
    seed: { type: 'string' },
    columns: { type: 'string' },
    loose: { type: 'boolean' },
    exclude: { type: 'string', multiple: true },
    'pii-patterns': { type: 'string' },
    'max-per-session': { type: 'string' },
    'for-effect': { type: 'string' },
    pilot: { type: 'string' },
    metric: { type: 'string' },
    power: { type: 'string' },
    format: { type: 'string', short: 'f' },
    strict: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return (io.out(QUERIES_USAGE + '\n'), 0);
  const logPath = required(values.log, '--log');
  const outPath = required(values.out, '--out');
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const scheme = formatChoice(values.scheme, SCHEMES, 'stratified', '--scheme');
  const seed = intFlag(values.seed, '--seed', 0) ?? 1;
  const given = parseColumnsFlag(values.columns);
  const needed = values['for-effect'] !== undefined ? forEffect(values) : undefined;
  const n = intFlag(values.n, '--n', 1) ?? (needed && Number.isFinite(needed.queries) ? needed.queries : undefined);
  if (n === undefined)
    throw new InputError(needed ? 'the pilot gives no finite query count; give --n' : 'is required (or --for-effect with --pilot)', [], {
      key: '--n',
    });
  const excludes = values.exclude ?? [];
  const piiPatterns = values['pii-patterns'] ? loadPiiPatterns(values['pii-patterns']) : [];
  const maxPerSession = intFlag(values['max-per-session'], '--max-per-session', 1);

  const report = new InputReport(io, !!values.strict);
  const exclude: string[] = [];
  const inputs = [logPath, ...excludes, ...(values.pilot ? [values.pilot] : [])];
  for (const path of excludes) {
    // A workspace folder: its judgments as ranklab.json lists them (never overwritten by --out); else a golden set
    // or a BEIR folder.
    let set;
    if (existsSync(join(path, SETTINGS_FILE))) {
      const session = RanklabSession.open(path);
      inputs.push(
        ...session.workspace.judgmentSpecs.flatMap((j) => [j.qrels, j.queries, j.golden].filter((f): f is string => f !== undefined)),
      );
      set = session.judgments();
    } else set = loadJudgments(judgmentSpecFor(path));
    report.add(path, set.diagnostics);
    for (const q of set.queries.values()) exclude.push(q.text);
  }
  checkOutputs([{ flag: '--out', path: outPath, named: true }], { inputs, force: false });
  const sampled = sampleQueryLog({
    log: logPath,
    n,
    scheme,
    seed,
    columns: given,
    loose: values.loose,
    exclude,
    piiPatterns,
    maxPerSession,
  });
  report.add(logPath, sampled.diagnostics);
  report.stopIfStrict();
  writeOutput({ flag: '--out', path: outPath, named: true }, sampled.golden);

  const result = { ...sampled.report, out: outPath, ...(needed ? { forEffect: needed } : {}) };
  if (format === 'json') io.out(JSON.stringify(result, (_, v: unknown) => (v === Infinity ? 'Infinity' : v), 2) + '\n');
  else io.out(formatQuerySample(result));
  return 0;
}

function forEffect(values: { 'for-effect'?: string; pilot?: string; metric?: string; power?: string }): QueriesNeeded {
  const effect = Number(values['for-effect']);
  if (!(effect > 0 && effect < 1e9))
    throw new InputError(`must be a positive number (a metric change, e.g. 0.02), not "${values['for-effect']}"`, [], {
      key: '--for-effect',
    });
  const power = values.power === undefined ? 0.8 : Number(values.power);
  if (!(power > 0 && power < 1)) throw new InputError(`must be a number between 0 and 1, not "${values.power}"`, [], { key: '--power' });
  return queriesNeeded(required(values.pilot, '--pilot'), effect, { metric: values.metric, power });
}
