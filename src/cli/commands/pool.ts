import { type PoolConfigsInput, type PoolConfigsResult, poolConfigs } from '../../core/actions/pool-configs';
import type { Pool } from '../../core/judging/pool';
import { type PoolPairText, poolEntries, poolPairTexts } from '../../core/session/judging-pool';
import { parseMetricList } from '../../core/metrics';
import type { RanklabSession } from '../../core/session/session';
import { formatChoice, intFlag, parse } from '../args';
import type { InputReport } from '../input-report';
import type { Io } from '../io';
import {
  type ConfigChoice,
  INTERRUPTED,
  WORKSPACE_OPTIONS,
  interruptSignal,
  judgmentsOf,
  openWorkspace,
  progressReporter,
  readCorpus,
  requireConfigs,
  usableConfigs,
} from '../workspace-options';

export const POOL_USAGE = `ranklab pool [--workspace DIR] [--config NAME|FILE]... [--depth N] [--queries QIDS | --slice TAG] [--max N]
             [--metrics ...] [--format tsv|json]
  The (query, document) pairs the configs show in their top N (default 10, ranklab.json judging.depth) that nobody
  has graded: each once, those that could flip a metric of a config against the first one (the baseline by default)
  first, then those some configs show and others not, then the rest; best rank first within each. Prints judged@N of
  each config now and if the pool were graded. Saved runs are reused when config, corpus and judgments are unchanged.
  --queries: comma-separated query ids (judged@N is then over those queries); --slice: queries with this tag;
  --metrics: whose verdicts count (default: the workspace's). Each pair carries the query text, the document's title
  and the passage the judging view shows (about 700 characters with the most query terms, "…" where cut), so it
  can be graded outside the editor: TSV columns qid docid best_rank reason ranks query title passage.`;

export const POOL_OPTIONS = {
  ...WORKSPACE_OPTIONS,
  config: { type: 'string', short: 'c', multiple: true },
  depth: { type: 'string' },
  queries: { type: 'string' },
  slice: { type: 'string' },
  max: { type: 'string' },
  metrics: { type: 'string' },
  format: { type: 'string', short: 'f' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type PoolValues = ReturnType<typeof parse<typeof POOL_OPTIONS>>['values'];

export async function poolCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, POOL_OPTIONS);
  if (values.help) return (io.out(POOL_USAGE + '\n'), 0);
  const format = formatChoice(values.format, ['tsv', 'json'] as const, 'tsv');
  const { session, report } = openWorkspace(values, io);
  const { signal, dispose } = interruptSignal(io);
  let result: Awaited<ReturnType<typeof poolOfWorkspace>>;
  try {
    result = await poolOfWorkspace(session, report, values, io, signal);
  } catch (e) {
    if (signal.aborted) return INTERRUPTED;
    throw e;
  } finally {
    dispose();
  }
  const { pool } = result;
  const failed = [...result.failedEntries.map((f) => ({ config: f.name, error: f.message })), ...result.unusable, ...result.failed];
  const texts = poolPairTexts(session, pool, result.configs.find((c) => c.name === pool.configs[0])!);
  if (format === 'json') io.out(JSON.stringify(poolJson(pool, failed, texts), null, 2) + '\n');
  else {
    io.out(poolTsv(pool, texts));
    io.err(poolSummary(pool));
  }
  for (const f of result.failed) io.err(`ranklab pool: config ${f.config} not run: ${f.error}\n`);
  return failed.length ? 2 : 0;
}

/**
 * The pool of the command line's options (shared with `ranklab judge`): the numeric flags checked, corpus,
 * judgments and configs read and their problems printed once (--strict honoured), then the action poolConfigs on
 * the configs that passed. `skip` and `includeJudged` come from judge.
 */
export async function poolOfWorkspace(
  session: RanklabSession,
  report: InputReport,
  values: PoolValues,
  io: Io,
  signal: AbortSignal,
  extra: Pick<PoolConfigsInput, 'skip' | 'includeJudged'> = {},
): Promise<PoolConfigsResult & { failedEntries: ConfigChoice['failed'] }> {
  const depth = intFlag(values.depth, '--depth', 1);
  const max = intFlag(values.max, '--max', 1);
  await readCorpus(session, report, signal);
  judgmentsOf(session, report);
  const entries = poolEntries(session, values.config ?? []);
  const choice = usableConfigs(session, report, entries);
  report.stopIfStrict();
  requireConfigs(choice);
  const pooled = await poolConfigs(
    session,
    {
      // The configs whose problems (printed above) left them usable; the others are `failedEntries`.
      configs: entries.filter((e) => e.config && choice.configs.includes(e.config)),
      depth,
      queries: values.queries
        ?.split(',')
        .map((q) => q.trim())
        .filter(Boolean),
      slice: values.slice,
      max,
      specs: values.metrics ? parseMetricList(values.metrics) : undefined,
      log: values.verbose ? (m) => io.err(`[ranklab] ${m}\n`) : undefined,
      ...extra,
    },
    { signal, progress: (p) => progressReporter(io, p.config)(p.done, p.total) },
  );
  return { ...pooled, failedEntries: choice.failed };
}

/** A text as one TSV field: tabs and line breaks (and runs of white space) become one space. */
const field = (text: string) => text.replace(/\s+/g, ' ').trim();

export function poolTsv(pool: Pool, texts: PoolPairText[]): string {
  const lines = ['qid\tdocid\tbest_rank\treason\tranks\tquery\ttitle\tpassage'];
  pool.pairs.forEach((p, i) => {
    const t = texts[i]!;
    lines.push(
      [
        p.qid,
        p.docId,
        p.bestRank,
        p.reason,
        pool.configs.map((c) => `${c}:${p.ranks[c] ?? '-'}`).join(','),
        field(t.query),
        field(t.title),
        field(t.passage),
      ].join('\t'),
    );
  });
  return lines.join('\n') + '\n';
}

export function poolSummary(pool: Pool): string {
  const n = pool.pairs.length;
  const what =
    pool.alreadyJudged === undefined
      ? `${n} unjudged pairs`
      : `${n} pairs (${pool.alreadyJudged} graded already, ${n - pool.alreadyJudged} unjudged)`;
  const over = pool.scope ? ` over the ${pool.scope.size} chosen quer${pool.scope.size === 1 ? 'y' : 'ies'}` : '';
  const lines = [
    `pool: ${what} from the top ${pool.depth} of ${pool.configs.join(', ')}` +
      (pool.total > pool.pairs.length ? ` (first ${pool.pairs.length} of ${pool.total})` : '') +
      ` — ${pool.byReason.deciding} deciding, ${pool.byReason.differing} differing, ${pool.byReason.shared} shared`,
  ];
  for (const [config, j] of Object.entries(pool.judged)) {
    lines.push(`  judged@${j.k} ${config}${over}: ${j.now.toFixed(3)} now, ${j.projected.toFixed(3)} if the pool is graded`);
  }
  return lines.join('\n') + '\n';
}

export function poolJson(pool: Pool, failed: { config: string; error: string }[], texts: PoolPairText[]) {
  return {
    depth: pool.depth,
    configs: pool.configs,
    queries: pool.scope ? [...pool.scope] : null,
    total: pool.total,
    byReason: pool.byReason,
    judged: pool.judged,
    pairs: pool.pairs.map((p, i) => ({ qid: p.qid, docid: p.docId, bestRank: p.bestRank, reason: p.reason, ranks: p.ranks, ...texts[i] })),
    failed,
  };
}
