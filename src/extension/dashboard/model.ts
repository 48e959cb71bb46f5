/**
 * Builds the dashboard's view model (src/protocol/dashboard.ts) from saved runs and, when there is one, the
 * comparison of the chosen pair (./comparison.ts): the runs for the pickers (./runs.ts), the queries with their
 * change, the slices of the per-query filter, one query side by side. No `vscode` import.
 */
import { visibleText } from '../../core/util/visible-text';
import type {
  AclView,
  ComparisonRefusal,
  ComparisonView,
  DashboardModel,
  DocRow,
  Outcome,
  QueryDetail,
  QueryRow,
} from '../../protocol/dashboard';
import type { ComparisonStatistics } from '../../core/experiment/compare';
import { savedTitle } from '../../core/experiment/run-store';
import { QUERY_CLASSES } from '../../core/experiment/query-classes';
import type { MetricOptions } from '../../core/metrics/context';
import type { SavedQueryResult } from '../../core/run/types';
import type { StoredRun } from '../run-store';
import { reasonsOf } from './move-reasons';
import { type DocLookup, type Sides, isComplete } from './comparison';
import { chooseBaseline, chooseCandidate, metricColumn, runLabel, summarize } from './runs';

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
  sides?: Sides;
  /** The comparison is being computed: the per-query table waits for its figures (the runs are not read for it). */
  comparing?: boolean;
  acl?: AclView;
}

export const ACL_UNAVAILABLE: AclView = {
  status: 'not-run',
  message:
    'Not checked yet: run "Ranklab: Check Access Control" to search every query (and its typing prefixes) as every principal and verify each result against the source files.',
};

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
  sides?: Sides,
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

function rowsOfComparison(core: ComparisonStatistics, metric: string, sides: Sides | undefined, info: ModelInput['queryInfo']): QueryRow[] {
  const missing = new Set([...(sides?.baseline.missing ?? []), ...(sides?.candidate.missing ?? [])]);
  const stages = isComplete(core) ? core.stageRecall : undefined;
  const rows: QueryRow[] = [];
  for (const [qid, figures] of Object.entries(core.perQuery)) {
    const about = core.queryInfo[qid];
    const row: QueryRow = { qid, text: visibleText(about?.text ?? ''), tags: about?.tags ?? [] };
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
    rows.push({ qid: q.qid, text: visibleText(q.text), tags: about?.tags ?? [], ...(about?.split && { split: about.split }) });
  }
  return rows;
}

function rowsOfRuns(
  baseline: StoredRun | undefined,
  candidate: StoredRun | undefined,
  metric: string,
  info: ModelInput['queryInfo'],
): QueryRow[] {
  const base = new Map(baseline?.run.queries.map((q) => [q.qid, q]) ?? []);
  const cand = new Map(candidate?.run.queries.map((q) => [q.qid, q]) ?? []);
  const rows: QueryRow[] = [];
  for (const qid of new Set([...base.keys(), ...cand.keys()])) {
    const b = base.get(qid);
    const c = cand.get(qid);
    const bv = b?.metrics[metric];
    const cv = c?.metrics[metric];
    const about = info?.(qid);
    const row: QueryRow = { qid, text: visibleText((c ?? b)!.text ?? ''), tags: about?.tags ?? [] };
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
    ...(splits.size > 1
      ? [...splits]
          .sort()
          .reverse()
          .map((s) => `split:${s}`)
      : []),
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
  const perQuery =
    primarySpec && !input.comparing ? perQueryRows(baseline, candidate, primarySpec, input.queryInfo, input.core, input.sides) : [];
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

function docRows(
  r: StoredRun,
  q: SavedQueryResult,
  limit: number,
  qrels: ReadonlyMap<string, number> | undefined,
  other: SavedQueryResult | undefined,
  lookup?: DocLookup,
): DocRow[] {
  const otherRanks = new Map(other?.docs.slice(0, limit).map((d, i) => [d.id, i + 1]) ?? []);
  return q.docs.slice(0, limit).map((d, i) => {
    const found = lookup?.(d.id);
    // The title the run stored (as at run time), else the current corpus's.
    const title = d.title ?? savedTitle(r.run, d.id) ?? found?.title;
    const row: DocRow = { rank: i + 1, id: d.id, title: title === undefined ? undefined : visibleText(title), score: d.score };
    if (found?.snippet) row.snippet = visibleText(found.snippet);
    const g = qrels?.get(d.id);
    if (g !== undefined) row.grade = g;
    const o = otherRanks.get(d.id);
    if (o !== undefined) row.otherRank = o;
    return row;
  });
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
  const side = (
    r: StoredRun | undefined,
    q: SavedQueryResult | undefined,
    other: SavedQueryResult | undefined,
    which: 'baseline' | 'candidate',
  ) =>
    r && q
      ? {
          runId: r.id,
          label: runLabel(r),
          docs: docRows(r, q, limit, qrels, other, lookup),
          metric: fromCore ? fromCore[which] : metric ? q.metrics[metric] : undefined,
        }
      : undefined;
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
  const detail: QueryDetail = {
    qid,
    text: visibleText(qc?.text ?? qb?.text ?? ''),
    tags: info?.tags ?? [],
    baseline: b,
    candidate: c,
    moves,
  };
  if (b?.metric !== undefined && c?.metric !== undefined) detail.delta = c.metric - b.metric;
  return detail;
}
