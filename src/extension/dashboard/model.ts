/**
 * Builds the dashboard's view model (src/protocol/dashboard.ts) from saved runs. No `vscode` import.
 * Metric values are read as saved or computed by the core (compareRuns, checkGates); this picks baseline and
 * candidate, names runs ("config · principal · time · headline"), spells out metric variants, lists the queries
 * with their change, and turns a core comparison into the verdict and the figures the page shows.
 */
import type {
  AclView, ClassesView, ComparisonRefusal, ComparisonView, DashboardModel, DocRow, MatrixView, MetricColumn, Outcome, QueryDetail, QueryRow, RunSummary, VerdictView,
} from '../../protocol/dashboard';
import { type Comparison, type ComparisonStatistics, type EvaluatedSide, MixedPrincipalsError, type SliceComparison, compareManySliced, compareRunsSliced, compareStatistics } from '../../core/experiment/compare';
import { type GateResult, type GateSettings, checkGates, withGateMetrics } from '../../core/experiment/gates';
import { comparisonSideOf, runOfSaved, savedTitle } from '../../core/experiment/run-store';
import { QUERY_CLASSES } from '../../core/experiment/stage-recall';
import { type VerdictInput, verdictOf } from '../../core/experiment/verdict';
import { type ComparisonCacheKey, type RunFileStamp, readCachedComparison, runFileStamp, writeCachedComparison } from '../../core/experiment/comparison-cache';
import { type RunEvaluation, readRunEvaluation, runEvaluationOf, writeRunEvaluation } from '../../core/experiment/evaluation-cache';
import { type MetricSpec, evaluateRun } from '../../core/metrics';
import type { JudgmentSet } from '../../core/judgments/types';
import type { MetricOptions } from '../../core/metrics/context';
import { describeMetric, explainMetric, parseMetric, parseMetricList } from '../../core/metrics/spec';
import type { SavedQueryResult } from '../../core/run/types';
import { type Slicer, Work } from '../../core/util/cooperative';
import type { StoredRun } from '../run-store';
import { reasonsOf } from './move-reasons';
import { metricOptionsOf } from '../../core/workspace/settings';

/** Significance level of the verdict (after the correction). */
export const ALPHA = 0.05;
/** A per-query difference within this is a tie, as the core's winsLossesTies counts it. */
const TIE_EPSILON = 1e-9;

export interface ModelInput {
  workspaceName: string;
  runsFolder: string;
  runs: StoredRun[];
  problems: string[];
  metricOptions: MetricOptions;
  /** Config name from ranklab.json `baseline`. */
  baselineConfig?: string;
  /** Explicit choices (user picked them); ignored when the run no longer exists. */
  baselineRunId?: string;
  candidateRunId?: string;
  primaryMetric?: string;
  comparison?: ComparisonView;
  refusal?: ComparisonRefusal;
  comparisonNote?: string;
  allowMixedPrincipals?: boolean;
  /** Tags and split of a query, from the judgments (for the slice filter when there is no comparison). */
  queryInfo?: (qid: string) => { tags: string[]; split?: string } | undefined;
  /** The core comparison of the chosen pair (or its statistics), when there is one: per-query figures then come from it. */
  core?: ComparisonStatistics;
  /** With `core`: each side's queries its figures leave out. */
  sides?: DashboardComparison['sides'];
  /** The comparison is being computed: the per-query table waits for its figures (the runs are not read for it). */
  comparing?: boolean;
  acl?: AclView;
}

export const ACL_UNAVAILABLE: AclView = {
  status: 'not-run',
  message: 'Not checked yet: run "Ranklab: Check Access Control" to search every query (and its typing prefixes) as every principal and verify each result against the source files.',
};

export function metricColumn(spec: string, options: MetricOptions): MetricColumn {
  try {
    const parsed = parseMetric(spec);
    return { spec, label: describeMetric(parsed, options), definition: explainMetric(parsed) };
  } catch {
    return { spec, label: spec };
  }
}

/** Who a run was made as: a principal's name, or null (no principal: every document). */
export function principalOf(r: StoredRun): string | null {
  return r.summary.principal ?? null;
}

/** How a principal is named next to a run or a comparison. */
export function principalText(p: string | null): string {
  return p === null ? 'unrestricted' : `as ${p}`;
}

/**
 * Baseline: explicit pick, else the newest run of the configured baseline config (made without a principal when
 * there is one: runs as a principal are compared when asked for), else the oldest run.
 */
export function chooseBaseline(runs: StoredRun[], explicit?: string, baselineConfig?: string): StoredRun | undefined {
  const picked = explicit ? runs.find((r) => r.id === explicit) : undefined;
  if (picked) return picked;
  const ofConfig = baselineConfig ? runs.filter((r) => r.summary.provenance.config === baselineConfig) : [];
  const unrestricted = ofConfig.filter((r) => principalOf(r) === null);
  return unrestricted[unrestricted.length - 1] ?? ofConfig[ofConfig.length - 1] ?? runs[0];
}

/**
 * Candidate: explicit pick, else the newest other run made as the baseline's principal (a comparison with it is
 * possible), else the newest other run.
 */
export function chooseCandidate(runs: StoredRun[], baseline: StoredRun | undefined, explicit?: string): StoredRun | undefined {
  const picked = explicit ? runs.find((r) => r.id === explicit) : undefined;
  if (picked) return picked;
  const others = runs.filter((r) => r !== baseline);
  const same = baseline ? others.filter((r) => principalOf(r) === principalOf(baseline)) : others;
  return same[same.length - 1] ?? others[others.length - 1];
}

/** Local time to the minute, "2026-12-03 14:13" (the ISO string itself when it is not a date). */
export function runTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** "config · principal · time · headline metric", e.g. "title-boost-3 · unrestricted · 2026-12-03 14:13 · ndcg@10 0.787". */
export function runLabel(r: StoredRun, headline?: string): string {
  const v = headline ? r.summary.metrics[headline] : undefined;
  const parts = [r.summary.provenance.config, principalText(principalOf(r)), runTime(r.summary.provenance.createdAt)];
  if (headline && typeof v === 'number') parts.push(`${headline} ${v.toFixed(3)}`);
  return parts.join(' · ');
}

/** A run as the pickers and tables show it: from its summary (the run index), never its file. */
export function summarize(r: StoredRun, headline?: string): RunSummary {
  const { provenance, queryCount, metrics, latency, annRecall } = r.summary;
  const label = runLabel(r, headline);
  const principal = principalOf(r);
  return {
    id: r.id,
    config: provenance.config,
    principal,
    label,
    time: runTime(provenance.createdAt),
    createdAt: provenance.createdAt,
    tool: provenance.tool,
    queryCount,
    metrics,
    latency: latency ?? {},
    annRecall,
    search: [label, r.id, provenance.createdAt, principal ?? 'no principal'].join(' ').toLowerCase(),
  };
}

export function outcomeOf(delta: number): Outcome {
  return delta > TIE_EPSILON ? 'win' : delta < -TIE_EPSILON ? 'loss' : 'tie';
}

/**
 * Every query of either run, worst change first; rows without a delta go last, by qid. With the core comparison
 * the figures are its own (on the current judgments; a query one run lacks gets no delta), and neither run is read;
 * otherwise the values saved with the runs.
 */
export function perQueryRows(
  baseline: StoredRun | undefined,
  candidate: StoredRun | undefined,
  metric: string,
  info?: ModelInput['queryInfo'],
  core?: ComparisonStatistics,
  sides?: DashboardComparison['sides'],
): QueryRow[] {
  const rows = core ? rowsOfComparison(core, metric, sides, info) : rowsOfRuns(baseline, candidate, metric, info);
  return rows.sort((x, y) => {
    if (x.delta === undefined || y.delta === undefined) {
      if (x.delta !== y.delta) return x.delta === undefined ? 1 : -1;
      return x.qid.localeCompare(y.qid);
    }
    return x.delta - y.delta || x.qid.localeCompare(y.qid);
  });
}

function rowsOfComparison(core: ComparisonStatistics, metric: string, sides: DashboardComparison['sides'], info: ModelInput['queryInfo']): QueryRow[] {
  const missing = new Set([...(sides?.baseline.missing ?? []), ...(sides?.candidate.missing ?? [])]);
  const stages = isComplete(core) ? core.stageRecall : undefined;
  const rows: QueryRow[] = [];
  for (const [qid, figures] of Object.entries(core.perQuery)) {
    const about = core.queryInfo[qid];
    const row: QueryRow = { qid, text: about?.text ?? '', tags: about?.tags ?? [] };
    if (about?.split) row.split = about.split;
    const classes = stages && { baseline: stages.baseline.perQuery[qid]?.class, candidate: stages.candidate.perQuery[qid]?.class };
    if (classes && (classes.baseline || classes.candidate)) row.classes = classes;
    const v = figures[metric];
    if (v) {
      row.baseline = v.baseline;
      row.candidate = v.candidate;
      if (!missing.has(qid)) {
        row.delta = v.candidate - v.baseline;
        row.outcome = outcomeOf(row.delta);
      }
    }
    rows.push(row);
  }
  // The runs' queries the comparison did not score (no judgments): listed, without figures.
  const seen = new Set(Object.keys(core.perQuery));
  for (const q of [...(sides?.baseline.notEvaluated ?? []), ...(sides?.candidate.notEvaluated ?? [])]) {
    if (seen.has(q.qid)) continue;
    seen.add(q.qid);
    const about = info?.(q.qid);
    rows.push({ qid: q.qid, text: q.text, tags: about?.tags ?? [], ...(about?.split && { split: about.split }) });
  }
  return rows;
}

function rowsOfRuns(baseline: StoredRun | undefined, candidate: StoredRun | undefined, metric: string, info: ModelInput['queryInfo']): QueryRow[] {
  const base = new Map(baseline?.run.queries.map((q) => [q.qid, q]) ?? []);
  const cand = new Map(candidate?.run.queries.map((q) => [q.qid, q]) ?? []);
  const rows: QueryRow[] = [];
  for (const qid of new Set([...base.keys(), ...cand.keys()])) {
    const b = base.get(qid);
    const c = cand.get(qid);
    const bv = b?.metrics[metric];
    const cv = c?.metrics[metric];
    const about = info?.(qid);
    const row: QueryRow = { qid, text: (c ?? b)!.text ?? '', tags: about?.tags ?? [] };
    if (about?.split) row.split = about.split;
    if (typeof bv === 'number') row.baseline = bv;
    if (typeof cv === 'number') row.candidate = cv;
    if (typeof bv === 'number' && typeof cv === 'number') {
      row.delta = cv - bv;
      row.outcome = outcomeOf(row.delta);
    }
    rows.push(row);
  }
  return rows;
}

/**
 * The per-query filter's slices: every tag in use (sorted), then the two splits when both occur, then the
 * baseline's query classes in use (`class:hit`, ..., as `ranklab compare --class-slices` slices by them).
 */
export function sliceNames(rows: QueryRow[]): string[] {
  const tags = new Set<string>();
  const splits = new Set<string>();
  const classes = new Set<string>();
  for (const r of rows) {
    for (const t of r.tags) tags.add(t);
    if (r.split) splits.add(r.split);
    if (r.classes?.baseline) classes.add(r.classes.baseline);
  }
  return [
    ...[...tags].sort(),
    ...(splits.size > 1 ? [...splits].sort().reverse().map((s) => `split:${s}`) : []),
    ...QUERY_CLASSES.filter((c) => classes.has(c)).map((c) => `class:${c}`),
  ];
}

export function buildDashboardModel(input: ModelInput): DashboardModel {
  const { runs } = input;
  const baseline = chooseBaseline(runs, input.baselineRunId, input.baselineConfig);
  const candidate = chooseCandidate(runs, baseline, input.candidateRunId);
  const specs: string[] = [];
  for (const r of runs) for (const s of r.summary.metricSpecs) if (!specs.includes(s)) specs.push(s);
  const metricColumns = specs.map((s) => metricColumn(s, input.metricOptions));
  const primarySpec =
    (input.primaryMetric && specs.includes(input.primaryMetric) ? input.primaryMetric : undefined) ??
    candidate?.summary.metricSpecs[0] ??
    specs[0];
  const primaryMetric = metricColumns.find((c) => c.spec === primarySpec);
  const perQuery = primarySpec && !input.comparing ? perQueryRows(baseline, candidate, primarySpec, input.queryInfo, input.core, input.sides) : [];
  return {
    workspaceName: input.workspaceName,
    runsFolder: input.runsFolder,
    runs: runs.map((r) => summarize(r, primarySpec)),
    metricColumns,
    baselineRunId: baseline?.id,
    candidateRunId: candidate?.id,
    primaryMetric,
    perQuery,
    ...(input.comparing && { comparing: true }),
    sliceNames: sliceNames(perQuery),
    problems: input.problems,
    comparison: input.comparison,
    refusal: input.refusal,
    comparisonNote: input.comparisonNote,
    allowMixedPrincipals: input.allowMixedPrincipals ?? false,
    acl: input.acl ?? ACL_UNAVAILABLE,
  };
}

/** Title and snippet of a document from the current corpus (runs saved without titles get them at display time). */
export type DocLookup = (id: string) => { title?: string; snippet?: string } | undefined;

function docRows(r: StoredRun, q: SavedQueryResult, limit: number, qrels: ReadonlyMap<string, number> | undefined, other: SavedQueryResult | undefined, lookup?: DocLookup): DocRow[] {
  const otherRanks = new Map(other?.docs.slice(0, limit).map((d, i) => [d.id, i + 1]) ?? []);
  return q.docs.slice(0, limit).map((d, i) => {
    const found = lookup?.(d.id);
    // The title the run stored (as at run time), else the current corpus's.
    const row: DocRow = { rank: i + 1, id: d.id, title: d.title ?? savedTitle(r.run, d.id) ?? found?.title, score: d.score };
    if (found?.snippet) row.snippet = found.snippet;
    const g = qrels?.get(d.id);
    if (g !== undefined) row.grade = g;
    const o = otherRanks.get(d.id);
    if (o !== undefined) row.otherRank = o;
    return row;
  });
}

export interface ComparisonSettings {
  metrics: string[];
  gain: MetricOptions['gain'];
  relevanceThreshold: number;
  judgedOnly?: boolean;
  gates: GateSettings;
}

export interface DashboardComparison<C extends ComparisonStatistics = Comparison> {
  view?: ComparisonView;
  /**
   * The core's comparison behind `view` (per-query figures for the table), without its `bounds` (the verdict's: in
   * `view`); only its statistics while the ranked lists are still being compared (`view.pending`).
   */
  core?: C;
  /** Each side's queries the figures leave out (for the per-query table, without reading the runs). */
  sides?: { baseline: SideQueries; candidate: SideQueries };
  refusal?: ComparisonRefusal;
  /** The figures came from the comparison cache (computed before from the same inputs). */
  cached?: boolean;
}

/** Of one run: the evaluated queries it does not have, and its queries that were not evaluated. */
export type SideQueries = Pick<RunEvaluation, 'missing' | 'notEvaluated'>;

/** The whole comparison (not only its statistics): what the moved documents' reasons and the query detail need. */
export function isComplete(core: ComparisonStatistics | undefined): core is Comparison {
  return !!core && 'stageRecall' in core;
}

/** The metrics two runs are compared on (those both computed, plus every gate's) and how they are scored. */
function comparisonSpecs(runs: StoredRun[], settings: ComparisonSettings): { specs: MetricSpec[]; options: MetricOptions } {
  const common = runs[0].summary.metricSpecs.filter((s) => runs.every((r) => r.summary.metricSpecs.includes(s)));
  return {
    specs: withGateMetrics(parseMetricList(common.length ? common : settings.metrics), settings.gates), // every gate can be evaluated
    options: metricOptionsOf(settings),
  };
}

/** A slicer for the core's statistics: pauses every 50 ms so the editor stays responsive, stops on `signal`. */
function statisticsSlicer(signal?: AbortSignal): Slicer {
  return new Work({ signal }).phase('statistics', 0);
}

/** What the comparison cache keeps of a pair (before the moved documents' reasons, which depend on the corpus). */
interface CachedComparison {
  /** Without its bounds: the verdict, kept with it, is what reads them (half of the entry at 1,000 queries). */
  core: Comparison;
  gates: GateResult[];
  verdict: VerdictView;
  sides: { baseline: SideQueries; candidate: SideQueries };
  /** The titles the runs stored for the documents the view lists (the runs are not read again on a warm open). */
  titles: Record<string, string>;
}

export interface DashboardComparisonOptions {
  allowMixedPrincipals?: boolean;
  stale?: boolean;
  signal?: AbortSignal;
  lookup?: DocLookup;
  reasons?: (cmp: Comparison) => Promise<void>;
  /** The runs folder: the comparison cache (pairs) and the run evaluations (runs) live there. */
  cacheDir?: string;
  log?: (message: string) => void;
  /**
   * Called first with the statistics alone (the verdict, the metrics, the per-query figures) when the pair is compared
   * now: from both runs' cached per-query values (core evaluation-cache.ts; no run file read), else from their files;
   * shown while the ranked lists are compared (moved documents, query classes, judged@k, what unjudged documents
   * could change).
   */
  onStatistics?: (first: DashboardComparison<ComparisonStatistics>) => void;
}

/** Queries of the moved-documents list the view shows. */
const MOVED_SHOWN = 20;

/** What the view says while the ranked lists are still being compared. */
export const DETAILS_PENDING = 'Reading the ranked lists: moved documents, query classes, judged@k and what unjudged documents could change follow.';

/**
 * Baseline vs candidate for the dashboard, through the core (compareRuns + checkGates + verdictOf) on `judgments`.
 * Runs made as different principals get the core's refusal instead of figures, unless `allowMixedPrincipals` (then
 * the view says MIXED PRINCIPALS). `stale`: the judgments changed since one of the runs was made.
 * `cacheDir` (the runs folder): the comparison, gates and verdict are read from the core's comparison cache when
 * computed before from exactly these inputs, and written to it otherwise (`cached` says which); a cached comparison
 * reads neither run file.
 */
export async function dashboardComparison(
  b: StoredRun,
  c: StoredRun,
  judgments: JudgmentSet,
  settings: ComparisonSettings,
  opts: DashboardComparisonOptions = {},
): Promise<DashboardComparison> {
  const { specs, options } = comparisonSpecs([b, c], settings);
  const dir = opts.cacheDir;
  const key = dir !== undefined ? cacheKey(b, c, judgments, specs, options, settings.gates, opts.allowMixedPrincipals ?? false) : undefined;
  let entry = key && readCachedComparison<CachedComparison>(dir!, key);
  const cached = !!entry;
  try {
    if (!entry) {
      const first = opts.onStatistics && await statisticsFirst(b, c, judgments, specs, options, settings, opts);
      if (first) opts.onStatistics!(first);
      entry = await computeComparison(b, c, judgments, specs, options, settings, opts);
      // Written before the reasons are added to it: they are not statistics, and are asked for on every open.
      if (key) writeCachedComparison(dir!, key, entry, opts.log);
      if (dir !== undefined && !first) {
        // Both runs' per-query values, for the statistics of their next new pair (statisticsFirst keeps them otherwise).
        for (const [r, side] of [[b, 'baseline'], [c, 'candidate']] as const) {
          const stamp = fileStamp(r);
          if (stamp) writeRunEvaluation(dir, { run: stamp, judgments: judgments.fingerprint, options }, { values: sideValues(entry.core, side), ...entry.sides[side] }, opts.log);
        }
      }
    }
  } catch (e) {
    if (e instanceof MixedPrincipalsError) return { refusal: { message: e.message, baselinePrincipal: principalOf(b), candidatePrincipal: principalOf(c) } };
    throw e;
  }
  const { core: cmp, gates, verdict, sides, titles } = entry;
  // The moved documents' one-line reasons (core session/explain.ts), when the caller can still reproduce both runs.
  // They are an extra: a config that no longer builds (a model gone) leaves the comparison without them, not without figures.
  if (opts.reasons && !cmp.principals.mixed) await opts.reasons(cmp).catch(() => undefined);
  const titleOf = (id: string) => (Object.prototype.hasOwnProperty.call(titles, id) ? titles[id] : undefined) ?? opts.lookup?.(id)?.title;
  return { view: { runIds: { baseline: b.id, candidate: c.id }, ...comparisonView(cmp, gates, titleOf, opts.stale ?? false, options, MOVED_SHOWN, verdict) }, core: cmp, sides, cached };
}

/** The comparison in full from both runs' ranked lists (each run file read once), with what the cache keeps. */
async function computeComparison(b: StoredRun, c: StoredRun, judgments: JudgmentSet, specs: MetricSpec[], options: MetricOptions, settings: ComparisonSettings, opts: DashboardComparisonOptions): Promise<CachedComparison> {
  const cmp = await compareRunsSliced(comparisonSideOf(b.run), comparisonSideOf(c.run), judgments, specs, options, statisticsSlicer(opts.signal), { allowMixedPrincipals: opts.allowMixedPrincipals });
  const gates = checkGates(settings.gates, cmp);
  const verdict = verdictView(cmp, gates, options);
  const { bounds: _bounds, ...core } = cmp;
  const stored = titlesOf([b, c]);
  const titles: Record<string, string> = {};
  for (const q of core.queryDeltas.slice(0, MOVED_SHOWN)) for (const d of q.moved) if (stored.has(d.id)) titles[d.id] = stored.get(d.id)!;
  const sideOf = (r: StoredRun, side: 'baseline' | 'candidate'): SideQueries => {
    const { missing, notEvaluated } = runEvaluationOf(sideValues(core, side), r.run);
    return { missing, notEvaluated };
  };
  return { core, gates, verdict, sides: { baseline: sideOf(b, 'baseline'), candidate: sideOf(c, 'candidate') }, titles };
}

/**
 * The statistics of a pair from both runs' per-query values: cached (core evaluation-cache.ts: no run file read), or
 * evaluated now from a run's file and kept (the judgments changed since, or an older run); undefined for a run with
 * failed queries (its refusal comes with the full comparison).
 */
async function statisticsFirst(b: StoredRun, c: StoredRun, judgments: JudgmentSet, specs: MetricSpec[], options: MetricOptions, settings: ComparisonSettings, opts: DashboardComparisonOptions): Promise<DashboardComparison<ComparisonStatistics> | undefined> {
  if (b.summary.failedQueries > 0 || c.summary.failedQueries > 0) return undefined;
  const names = specs.map((s) => s.name);
  const evaluation = (r: StoredRun): RunEvaluation => {
    const stamp = opts.cacheDir !== undefined ? fileStamp(r) : undefined;
    const key = stamp && { run: stamp, judgments: judgments.fingerprint, options };
    const cached = key && readRunEvaluation(opts.cacheDir!, key, names);
    if (cached) return cached;
    const evaluated = runEvaluationOf(evaluateRun(runOfSaved(r.run).run, judgments, specs, options).perQuery, r.run);
    if (key) writeRunEvaluation(opts.cacheDir!, key, evaluated, opts.log);
    return evaluated;
  };
  const [eb, ec] = [evaluation(b), evaluation(c)];
  const side = (r: StoredRun, e: RunEvaluation): EvaluatedSide => ({ name: r.summary.provenance.config, principal: principalOf(r), values: e.values });
  const stats = await compareStatistics(side(b, eb), side(c, ec), judgments, specs, options, statisticsSlicer(opts.signal), { allowMixedPrincipals: opts.allowMixedPrincipals });
  const gates = checkGates(settings.gates, stats);
  const view = comparisonView(stats, gates, () => undefined, opts.stale ?? false, options, MOVED_SHOWN, verdictView(stats, gates, options));
  const sides = { baseline: { missing: eb.missing, notEvaluated: eb.notEvaluated }, candidate: { missing: ec.missing, notEvaluated: ec.notEvaluated } };
  return { view: { runIds: { baseline: b.id, candidate: c.id }, ...view }, core: stats, sides, cached: false };
}

/** One side's per-query values in a comparison. */
function sideValues(cmp: ComparisonStatistics, side: 'baseline' | 'candidate'): Map<string, Record<string, number>> {
  return new Map(Object.entries(cmp.perQuery).map(([q, m]) => [q, Object.fromEntries(Object.entries(m).map(([spec, v]) => [spec, v[side]]))]));
}

/** The run file's stamp now, or undefined for a run held only in memory (no file: nothing is cached for it). */
function fileStamp(r: StoredRun): RunFileStamp | undefined {
  try {
    return runFileStamp(r.id, r.file);
  } catch {
    return undefined;
  }
}

/** Every input of dashboardComparison's figures, for the comparison cache (stale, titles and reasons are added after). */
function cacheKey(b: StoredRun, c: StoredRun, judgments: JudgmentSet, specs: MetricSpec[], options: MetricOptions, gates: GateSettings, allowMixed: boolean): ComparisonCacheKey | undefined {
  const [baseline, candidate] = [fileStamp(b), fileStamp(c)];
  return baseline && candidate ? { baseline, candidate, judgments: judgments.fingerprint, specs, options, gates, allowMixedPrincipals: allowMixed, extra: { alpha: ALPHA } } : undefined;
}

/** Document titles as the runs stored them. */
function titlesOf(runs: StoredRun[]): Map<string, string> {
  const titles = new Map<string, string>();
  for (const r of runs) {
    for (const [id, title] of Object.entries(r.run.titles ?? {})) if (typeof title === 'string' && title) titles.set(id, title);
    for (const q of r.run.queries) for (const d of q.docs) if (d.title) titles.set(d.id, d.title);
  }
  return titles;
}

/** The dashboard's view of a core comparison: every figure as computed by compareRuns / checkGates / verdictOf. */
export function comparisonView(
  cmp: Comparison | ComparisonStatistics,
  gates: GateResult[],
  titleOf: (id: string) => string | undefined,
  staleJudgments: boolean,
  metricOptions: MetricOptions,
  maxMoved = 20,
  verdict = verdictView(cmp, gates, metricOptions),
): Omit<ComparisonView, 'runIds'> {
  const primary = cmp.primaryMetric;
  const slice = (name: string, sc: SliceComparison) => {
    const m = sc.metrics[primary];
    return { name, queries: sc.queries, baseline: m.baseline, candidate: m.candidate, delta: m.delta, ci95: m.ci95, pAdjusted: m.pAdjusted };
  };
  return {
    baseline: cmp.baseline,
    candidate: cmp.candidate,
    primaryMetric: primary,
    queries: cmp.queries,
    correction: cmp.correction,
    metrics: Object.entries(cmp.metrics).map(([spec, m]) => ({
      spec, baseline: m.baseline, candidate: m.candidate, delta: m.delta, ci95: m.ci95, p: m.pPermutation, pAdjusted: m.pAdjusted,
      wins: cmp.wins[spec] ?? 0, losses: cmp.losses[spec] ?? 0, ties: cmp.ties[spec] ?? 0,
    })),
    slices: Object.entries(cmp.slices).map(([name, sc]) => slice(name, sc)),
    splits: (['tune', 'holdout'] as const).flatMap((k) => (cmp.splits[k] ? [slice(k, cmp.splits[k]!)] : [])),
    moved: isComplete(cmp) ? cmp.queryDeltas.slice(0, maxMoved).map((q) => ({
      qid: q.qid, text: q.text, delta: q.delta,
      docs: q.moved.map((d) => ({ ...d, title: titleOf(d.id) })),
    })) : [],
    gates: gates.map((g) => ({ gate: g.gate, passed: g.passed, actual: Number.isFinite(g.actual) ? g.actual : null, queries: g.queries.slice(0, 5).map((q) => q.qid) })),
    warnings: cmp.warnings.map((w) => w.message),
    staleJudgments,
    principals: { baseline: cmp.principals.baseline ?? null, candidate: cmp.principals.candidate ?? null, mixed: cmp.principals.mixed },
    verdict,
    ...(isComplete(cmp) ? { judged: cmp.judged, classes: classesView(cmp) } : { pending: DETAILS_PENDING }),
  };
}

/** The core's query classes of both sides (stage recall), and the first `maxChanged` queries whose class changed. */
export function classesView(cmp: Comparison, maxChanged = 20): ClassesView {
  const { baseline, candidate, changed } = cmp.stageRecall;
  return {
    k: baseline.k,
    counts: { baseline: { ...baseline.counts }, candidate: { ...candidate.counts } },
    complete: { baseline: baseline.complete, candidate: candidate.complete },
    changed: changed.slice(0, maxChanged).map((c) => ({ ...c, text: cmp.queryInfo[c.qid]?.text ?? '' })),
    changedTotal: changed.length,
  };
}

const signed = (x: number) => (x > 0 ? '+' : x < 0 ? '−' : '±') + Math.abs(x).toFixed(4);

/** The core's verdict (verdictOf) as the dashboard shows it: a short headline, one line per metric, the facts. */
export function verdictView(cmp: VerdictInput, gates: GateResult[], metricOptions: MetricOptions): VerdictView {
  const v = verdictOf(cmp, gates, { alpha: ALPHA });
  const status = v.outcome === 'no significant change' ? 'no-change' : v.outcome;
  const on = (names: string[]) => `${names.length === 1 ? names[0] : `${names.length} metrics`}`;
  const what = {
    'no-change': 'no significant change',
    improved: `significant gain on ${on(v.improved)}`,
    regressed: `significant drop on ${on(v.regressed)}`,
    mixed: `significant gain on ${on(v.improved)}, drop on ${on(v.regressed)}`,
  }[status];
  const failed = gates.filter((g) => !g.passed).map((g) => g.gate);
  const gateText = gates.length === 0 ? 'no gates' : failed.length ? `${failed.length} of ${gates.length} gates fail` : `${gates.length}/${gates.length} gates pass`;
  const primary = v.metrics[0];
  const notes = cmp.warnings.map((w) => w.message);
  for (const m of v.metrics) {
    if (m.couldFlip) notes.push(`Unjudged documents could flip ${m.metric}: graded otherwise, Δ could be anywhere from ${signed(m.couldFlip.low)} to ${signed(m.couldFlip.high)} (${m.couldFlip.deciding} query–document pairs decide it).`);
  }
  return {
    status,
    headline: `${cmp.candidate}: ${what} · ${gateText}`,
    coreHeadline: v.headline,
    lines: v.metrics.map((m) => ({
      metric: m.metric, label: metricColumn(m.metric, metricOptions).label,
      baseline: m.baseline, candidate: m.candidate, delta: m.delta, ci95: m.ci95, p: cmp.metrics[m.metric].pPermutation, pAdjusted: m.pAdjusted,
      significant: m.significant, gates: { passed: m.gates.passed, total: m.gates.total }, mde: m.mde.value,
      ...(m.couldFlip && { couldFlip: { low: m.couldFlip.low, high: m.couldFlip.high } }),
      text: m.line,
    })),
    gates: { passed: v.gates.passed, total: v.gates.total, failed },
    worstSlice: primary?.worstSlice && { name: primary.worstSlice.name, queries: primary.worstSlice.queries, delta: primary.worstSlice.delta, significant: primary.worstSlice.significant },
    mde: primary && { metric: primary.metric, queries: primary.mde.queries, value: primary.mde.value, detect: primary.mde.detect, queriesNeeded: primary.mde.queriesFor, text: primary.mde.text },
    notes,
  };
}

/** The N-way matrix's default candidates: the newest run of every other config, made as the baseline's principal. */
export function matrixCandidates(runs: StoredRun[], baseline: StoredRun): StoredRun[] {
  const newest = new Map<string, StoredRun>();
  for (const r of runs) {
    if (r === baseline || principalOf(r) !== principalOf(baseline) || r.summary.provenance.config === baseline.summary.provenance.config) continue;
    newest.set(r.summary.provenance.config, r); // runs are oldest first: the last one wins
  }
  return [...newest.values()];
}

/**
 * Several candidates against one baseline through the core's compareMany: one Holm–Bonferroni correction over
 * every candidate's tests, then the gates of each pair. Candidates made as another principal are refused (the
 * caller offers only comparable ones).
 */
export async function dashboardMatrix(
  baseline: StoredRun,
  candidates: StoredRun[],
  judgments: JudgmentSet,
  settings: ComparisonSettings,
  metricOptions: MetricOptions,
  signal?: AbortSignal,
): Promise<MatrixView> {
  const { specs, options } = comparisonSpecs([baseline, ...candidates], settings);
  const many = await compareManySliced(comparisonSideOf(baseline.run), candidates.map((c) => comparisonSideOf(c.run)), judgments, specs, options, statisticsSlicer(signal));
  const shown = specs.map((s) => s.name);
  return {
    baselineRunId: baseline.id,
    baseline: runLabel(baseline),
    metrics: shown.map((s) => metricColumn(s, metricOptions)),
    correction: many.correction,
    queries: many.queries,
    rows: many.comparisons.map((cmp, i) => {
      const gates = checkGates(settings.gates, cmp);
      return {
        runId: candidates[i].id,
        label: runLabel(candidates[i], cmp.primaryMetric),
        gates: { passed: gates.filter((g) => g.passed).length, total: gates.length },
        cells: shown.map((metric) => {
          const m = cmp.metrics[metric];
          return { metric, candidate: m.candidate, delta: m.delta, ci95: m.ci95, pAdjusted: m.pAdjusted, significant: m.pAdjusted < ALPHA };
        }),
      };
    }),
  };
}

/** One query side by side in both runs: the top `limit` of each with grades, the other list's rank, and the moves. */
export function buildQueryDetail(
  qid: string,
  baseline: StoredRun | undefined,
  candidate: StoredRun | undefined,
  metric: string | undefined,
  limit = 10,
  qrels?: ReadonlyMap<string, number>,
  info?: { tags: string[] },
  core?: ComparisonStatistics,
  lookup?: DocLookup,
): QueryDetail {
  const find = (r: StoredRun | undefined) => r?.run.queries.find((x) => x.qid === qid);
  const qb = find(baseline);
  const qc = find(candidate);
  // The core's figures (current judgments) when the pair was compared, else the values saved with the run.
  const fromCore = metric ? core?.perQuery[qid]?.[metric] : undefined;
  const side = (r: StoredRun | undefined, q: SavedQueryResult | undefined, other: SavedQueryResult | undefined, which: 'baseline' | 'candidate') =>
    r && q ? { runId: r.id, label: runLabel(r), docs: docRows(r, q, limit, qrels, other, lookup), metric: fromCore ? fromCore[which] : metric ? q.metrics[metric] : undefined } : undefined;
  const b = side(baseline, qb, qc, 'baseline');
  const c = side(candidate, qc, qb, 'candidate');
  // Why each moved document moved (the comparison's one-line reasons), on its rows in both lists.
  const reasons = reasonsOf(isComplete(core) ? core : undefined, qid);
  for (const d of [...(b?.docs ?? []), ...(c?.docs ?? [])]) {
    const reason = reasons.get(d.id);
    if (reason !== undefined) d.reason = reason;
  }
  const moves = { entered: 0, left: 0, up: 0, down: 0 };
  for (const d of c?.docs ?? []) {
    if (d.otherRank === undefined) moves.entered++;
    else if (d.otherRank > d.rank) moves.up++;
    else if (d.otherRank < d.rank) moves.down++;
  }
  if (c) for (const d of b?.docs ?? []) if (d.otherRank === undefined) moves.left++;
  const detail: QueryDetail = { qid, text: qc?.text ?? qb?.text ?? '', tags: info?.tags ?? [], baseline: b, candidate: c, moves };
  if (b?.metric !== undefined && c?.metric !== undefined) detail.delta = c.metric - b.metric;
  return detail;
}
