/**
 * The user action "compare runs", as `ranklab compare` and `ranklab gate` ask for it: each side a run already made
 * (a saved run, a TREC run) or a config run now (its saved run reused when nothing changed), then one baseline
 * against every candidate (compareMany: one Holm correction over all of them), and the moved documents' reasons
 * when both sides are configs of the built-in pipeline. The signal is honoured while a side runs, between the
 * statistics' tests and while reasons are found; progress says which side is done. Plain data out: the CLI formats it.
 */
import type { RankConfig } from '../config';
import { type ComparisonSide, type ManyComparison, biggestChanges, compareManySliced } from '../experiment/compare';
import { refuseIncomplete } from '../experiment/run-store';
import type { ExcludedQuery, JudgmentSet } from '../judgments';
import type { EvaluateOptions as MetricOptions, MetricSpec } from '../metrics';
import { evaluateConfig } from '../session/evaluate';
import { addMoveReasons } from '../session/explain';
import type { RanklabSession } from '../session/session';
import { Work } from '../util/cooperative';
import { InputError } from '../util/diagnostics';

/** One side: a run already made, or a config to run now (`name`: what the report calls it). */
export type CompareSide = { kind: 'run'; side: ComparisonSide } | { kind: 'config'; config: RankConfig; name: string };

export interface CompareRunsInput {
  baseline: CompareSide;
  candidates: CompareSide[];
  specs: MetricSpec[];
  metricOptions: MetricOptions;
  split: 'tune' | 'holdout' | 'all';
  /** Configs run as this principal (and their moved documents explained as them). */
  runAs?: string;
  /** The judgments are scored as this principal sees them (unless `judgments` is given). */
  principal?: string;
  /** Judgments given (a qrels file): used as they are; else the session's, of `split`, as `principal` sees them. */
  judgments?: JudgmentSet;
  classSlices?: boolean;
  allowMixedPrincipals?: boolean;
  /**
   * Moved documents to explain, per candidate: 'all' changed queries, N (the N biggest losses and wins), or 0
   * (none; each moved document costs two searches).
   */
  explain: number | 'all';
}

export type CompareRunsProgress =
  | { type: 'queries'; config: string; done: number; total: number }
  | { type: 'reused'; config: string; path: string }
  /** A side is ready: `from` is where a config's run is saved. */
  | { type: 'side'; role: 'baseline' | 'candidate'; name: string; from?: string };

export interface CompareRunsHooks {
  signal?: AbortSignal;
  progress?: (event: CompareRunsProgress) => void;
}

export interface CompareRunsResult {
  many: ManyComparison;
  /** Under a principal: queries left out because every relevant document is invisible to them. */
  excluded: ExcludedQuery[];
}

/**
 * A config that fails at run time (a provider that cannot be reached) is an InputError naming the side (and, for a
 * candidate, where the baseline's run was saved, so it is not lost). Runs made as different principals are refused
 * (MixedPrincipalsError) unless `allowMixedPrincipals`.
 */
export async function compareRuns(
  session: RanklabSession | undefined,
  input: CompareRunsInput,
  hooks: CompareRunsHooks = {},
): Promise<CompareRunsResult> {
  const { signal, progress } = hooks;
  const sides: Array<ComparisonSide & { from?: string }> = [];
  for (const [i, side] of [input.baseline, ...input.candidates].entries()) {
    const role = i === 0 ? 'baseline' : 'candidate';
    const done: ComparisonSide & { from?: string } =
      side.kind === 'run' ? side.side : { ...(await runSide(role, side, session, input, hooks, sides[0]?.from)), name: side.name };
    sides.push(done);
    progress?.({ type: 'side', role, name: done.name, from: done.from });
  }
  let judgments = input.judgments;
  let excluded: ExcludedQuery[] = [];
  if (!judgments)
    ({ judgments, excluded } = session!.judgmentsAs({
      split: input.split,
      principal: input.principal,
      relevanceThreshold: input.metricOptions.relevanceThreshold,
    }));
  const work = session?.work(signal) ?? new Work({ signal });
  const [baselineSide, ...candidateSides] = sides;
  if (!baselineSide) throw new Error('compareRuns: no baseline side'); // the loop above always pushes it
  const many = await compareManySliced(
    baselineSide,
    candidateSides,
    judgments,
    input.specs,
    input.metricOptions,
    work.phase('statistics', 0),
    {
      classSlices: !!input.classSlices,
      allowMixedPrincipals: input.allowMixedPrincipals,
    },
  );
  const builtIn = (s: CompareSide): s is Extract<CompareSide, { kind: 'config' }> => s.kind === 'config' && !s.config.engine;
  if (session && builtIn(input.baseline) && input.explain !== 0) {
    for (const [i, c] of input.candidates.entries()) {
      if (!builtIn(c)) continue;
      const cmp = many.comparisons[i]!; // one comparison per candidate, in order
      const shown =
        input.explain === 'all'
          ? cmp
          : (({ losses, wins }) => ({ queryDeltas: [...losses, ...wins] }))(biggestChanges(cmp.queryDeltas, input.explain));
      await addMoveReasons(session, input.baseline.config, c.config, shown, { principal: input.runAs, signal });
    }
  }
  return { many, excluded };
}

/** A config side run now (or its saved run reused when nothing changed). */
async function runSide(
  role: 'baseline' | 'candidate',
  side: Extract<CompareSide, { kind: 'config' }>,
  session: RanklabSession | undefined,
  input: CompareRunsInput,
  hooks: CompareRunsHooks,
  baselineFrom?: string,
): Promise<ComparisonSide & { from?: string }> {
  const { config } = side;
  if (!session) throw new InputError(`${role} "${config.name}" is a config: comparing configs needs a workspace`);
  try {
    const r = await evaluateConfig(session, config, {
      specs: input.specs,
      metricOptions: input.metricOptions,
      split: input.split,
      principal: input.runAs,
      reuse: true,
      signal: hooks.signal,
      onProgress: hooks.progress && ((done, total) => hooks.progress!({ type: 'queries', config: config.name, done, total })),
    });
    if (r.reused) hooks.progress?.({ type: 'reused', config: config.name, path: r.path! });
    refuseIncomplete(config.name, r.failed);
    return { name: config.name, run: r.run, latencies: r.latencies, stageIds: r.stageIds, principal: input.runAs ?? null, from: r.path };
  } catch (e) {
    if (!(e instanceof InputError) || hooks.signal?.aborted) throw e;
    throw new InputError(
      `${role} "${config.name}" not run: ${e.message}${baselineFrom ? ` (the baseline's run is in ${baselineFrom})` : ''}`,
      e.diagnostics,
    );
  }
}
