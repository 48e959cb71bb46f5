import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadJudgments } from '../../core/judgments';
import { RanklabSession } from '../../core/session/session';
import { SETTINGS_FILE } from '../../core/workspace';
import { DEFAULT_BOT_RULES } from '../../core/judging/bots';
import { BUILT_IN_PII, loadPiiPatterns } from '../../core/judging/personal-data';
import { type QueriesNeeded, queriesNeeded } from '../../core/judging/queries-needed';
import { type LogField, parseColumnsFlag, readQueryLog } from '../../core/judging/query-log';
import { SCHEMES, cleanQueries, goldenSetText, sampleQueries, strataReport } from '../../core/judging/query-sample';
import { normalizeQuery } from '../../core/judging/query-text';
import { InputError, plural } from '../../core/util/diagnostics';
import { readUserText } from '../../core/util/text-file';
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
  if (sub === undefined || sub === '--help' || sub === '-h') return io.out(QUERIES_USAGE + '\n'), sub ? 0 : 2;
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
  if (values.help) return io.out(QUERIES_USAGE + '\n'), 0;
  const logPath = required(values.log, '--log');
  const outPath = required(values.out, '--out');
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const scheme = formatChoice(values.scheme, SCHEMES, 'stratified', '--scheme');
  const seed = intFlag(values.seed, '--seed', 0) ?? 1;
  const given = parseColumnsFlag(values.columns);
  const needed = values['for-effect'] !== undefined ? forEffect(values) : undefined;
  const n = intFlag(values.n, '--n', 1) ?? (needed && Number.isFinite(needed.queries) ? needed.queries : undefined);
  if (n === undefined) throw new InputError(needed ? 'the pilot gives no finite query count; give --n' : 'is required (or --for-effect with --pilot)', [], { key: '--n' });
  const excludes = values.exclude ?? [];
  const pii = [...BUILT_IN_PII, ...(values['pii-patterns'] ? loadPiiPatterns(values['pii-patterns']) : [])];
  const bots = { ...DEFAULT_BOT_RULES, maxPerSession: intFlag(values['max-per-session'], '--max-per-session', 1) ?? DEFAULT_BOT_RULES.maxPerSession };

  const report = new InputReport(io, !!values.strict);
  const exclude = new Set<string>();
  const inputs = [logPath, ...excludes, ...(values.pilot ? [values.pilot] : [])];
  for (const path of excludes) {
    // A workspace folder: its judgments as ranklab.json lists them (never overwritten by --out); else a golden set
    // or a BEIR folder.
    let set;
    if (existsSync(join(path, SETTINGS_FILE))) {
      const session = RanklabSession.open(path);
      inputs.push(...session.workspace.judgmentSpecs.flatMap((j) => [j.qrels, j.queries, j.golden].filter((f): f is string => f !== undefined)));
      set = session.judgments();
    } else set = loadJudgments(judgmentSpecFor(path));
    report.add(path, set.diagnostics);
    for (const q of set.queries.values()) exclude.add(normalizeQuery(q.text, values.loose));
  }
  checkOutputs([{ flag: '--out', path: outPath, named: true }], { inputs, force: false });
  const log = readQueryLog(readUserText(logPath), logPath, given);
  report.add(logPath, log.diagnostics);
  report.stopIfStrict();
  const { queries, report: cleaned } = cleanQueries(log.records, { pii, bots, loose: values.loose, exclude });
  const sample = sampleQueries(queries, n, scheme, seed);
  writeOutput({ flag: '--out', path: outPath, named: true }, goldenSetText(sample));

  const result = {
    log: { file: logPath, format: log.format, columns: log.mapping as Partial<Record<LogField, string>>, lines: log.lines, skipped: log.lines - log.records.length },
    ...cleaned,
    strata: strataReport(queries, sample),
    scheme,
    seed,
    n,
    sampled: sample.length,
    out: outPath,
    ...(needed ? { forEffect: needed } : {}),
  };
  if (format === 'json') io.out(JSON.stringify(result, (_, v: unknown) => (v === Infinity ? 'Infinity' : v), 2) + '\n');
  else io.out(sampleText(result));
  return 0;
}

function forEffect(values: { 'for-effect'?: string; pilot?: string; metric?: string; power?: string }): QueriesNeeded {
  const effect = Number(values['for-effect']);
  if (!(effect > 0 && effect < 1e9)) throw new InputError(`must be a positive number (a metric change, e.g. 0.02), not "${values['for-effect']}"`, [], { key: '--for-effect' });
  const power = values.power === undefined ? 0.8 : Number(values.power);
  if (!(power > 0 && power < 1)) throw new InputError(`must be a number between 0 and 1, not "${values.power}"`, [], { key: '--power' });
  return queriesNeeded(required(values.pilot, '--pilot'), effect, { metric: values.metric, power });
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const counted = (m: Record<string, number | undefined>) => Object.entries(m).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
const sum = (m: Record<string, number | undefined>) => Object.values(m).reduce<number>((s, v) => s + (v ?? 0), 0);

function sampleText(r: {
  log: { file: string; format: string; columns: Record<string, string | undefined>; lines: number; skipped: number };
  records: number; searches: number; personal: Record<string, number>; bots: Record<string, number | undefined>; botSessions: number;
  empty: number; excluded: number; duplicates: number; distinct: number;
  strata: ReturnType<typeof strataReport>; scheme: string; seed: number; n: number; sampled: number; out: string; forEffect?: QueriesNeeded;
}): string {
  const out: string[] = [];
  out.push(`log: ${r.log.file} (${r.log.format}; columns: ${Object.entries(r.log.columns).map(([f, c]) => `${f} <- ${c}`).join(', ')})`);
  out.push(`read: ${r.log.lines} lines, ${r.records} records (${r.searches} searches); ${plural(r.log.skipped, "line")} skipped (listed above)`);
  out.push(`removed: personal data ${sum(r.personal)} (${counted(r.personal)}); bot-like ${sum(r.bots)} (${counted(r.bots)}; ${r.botSessions} sessions); empty ${r.empty}; already judged ${r.excluded}`);
  out.push(`distinct queries: ${r.distinct} (${r.duplicates} duplicate records merged)`);
  for (const s of r.strata) out.push(`  ${s.stratum.padEnd(5)}  ${String(s.queries).padStart(7)} queries  ${pct(s.trafficShare).padStart(6)} of searches  ${s.sampled} sampled`);
  if (r.forEffect) {
    const f = r.forEffect;
    out.push(`queries to detect ${f.metric} ${f.effect} (power ${f.power}, alpha ${f.alpha}): ${f.queries} (pilot: ${f.pilotQueries} queries, s_d ${f.sdOfDifferences.toFixed(4)} from ${f.source === 'deltas' ? 'compare deltas' : 'one run, times sqrt 2'})`);
  }
  out.push(`sampled ${r.sampled} of ${r.n} asked (${r.scheme}, seed ${r.seed}) -> ${r.out}`);
  if (r.sampled < r.n) out.push(`warning: only ${r.sampled} distinct queries were left to sample`);
  return out.join('\n') + '\n';
}
