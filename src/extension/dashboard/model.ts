/**
 * Builds the dashboard's view model (src/protocol/dashboard.ts) from saved runs. No `vscode` import.
 * Metric values are read as saved; this picks baseline/candidate, spells out metric variants, orders
 * queries by their change against the baseline, and has the core compare the two (dashboardComparison).
 */
import type { AclView, ComparisonView, DashboardModel, DocRow, MetricColumn, QueryDetail, QueryRow, RunSummary } from '../../protocol/dashboard';
import { type Comparison, MixedPrincipalsError, type SliceComparison, compareRuns } from '../../core/experiment/compare';
import { type GateResult, type GateSettings, checkGates, withGateMetrics } from '../../core/experiment/gates';
import { comparisonSideOf } from '../../core/experiment/run-store';
import type { JudgmentSet } from '../../core/judgments/types';
import type { MetricOptions } from '../../core/metrics/context';
import { describeMetric, parseMetric, parseMetricList } from '../../core/metrics/spec';
import type { SavedQueryResult } from '../../core/run/types';
import type { StoredRun } from '../run-store';

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
  comparisonNote?: string;
  acl?: AclView;
}

export const ACL_UNAVAILABLE: AclView = {
  status: 'not-run',
  message: 'Not checked yet: run "Ranklab: Check Access Control" to search every query (and its typing prefixes) as every principal and verify each result against the source files.',
};

export function metricColumn(spec: string, options: MetricOptions): MetricColumn {
  try {
    return { spec, label: describeMetric(parseMetric(spec), options) };
  } catch {
    return { spec, label: spec };
  }
}

/** Baseline: explicit pick, else the newest run of the configured baseline config, else the oldest run. */
export function chooseBaseline(runs: StoredRun[], explicit?: string, baselineConfig?: string): StoredRun | undefined {
  const picked = explicit ? runs.find((r) => r.id === explicit) : undefined;
  if (picked) return picked;
  const ofConfig = baselineConfig ? runs.filter((r) => r.run.provenance.config === baselineConfig) : [];
  return ofConfig.length ? ofConfig[ofConfig.length - 1] : runs[0];
}

/** Candidate: explicit pick, else the newest run that is not the baseline. */
export function chooseCandidate(runs: StoredRun[], baseline: StoredRun | undefined, explicit?: string): StoredRun | undefined {
  const picked = explicit ? runs.find((r) => r.id === explicit) : undefined;
  if (picked) return picked;
  for (let i = runs.length - 1; i >= 0; i--) if (runs[i] !== baseline) return runs[i];
  return undefined;
}

export function summarize(r: StoredRun): RunSummary {
  const { run } = r;
  return {
    id: r.id,
    config: run.provenance.config,
    label: run.principal ? `${run.provenance.config} as ${run.principal}` : run.provenance.config,
    createdAt: run.provenance.createdAt,
    tool: run.provenance.tool,
    principal: run.principal,
    queryCount: run.queries.length,
    metrics: run.metrics,
    latency: run.latency ?? {},
    annRecall: run.annRecall,
  };
}

/** Queries ordered by delta ascending (worst regression first); rows without a delta go last, by qid. */
export function perQueryRows(baseline: StoredRun | undefined, candidate: StoredRun | undefined, metric: string): QueryRow[] {
  const base = new Map(baseline?.run.queries.map((q) => [q.qid, q]) ?? []);
  const cand = new Map(candidate?.run.queries.map((q) => [q.qid, q]) ?? []);
  const qids = new Set([...base.keys(), ...cand.keys()]);
  const rows: QueryRow[] = [];
  for (const qid of qids) {
    const b = base.get(qid);
    const c = cand.get(qid);
    const bv = b?.metrics[metric];
    const cv = c?.metrics[metric];
    const row: QueryRow = { qid, text: (c ?? b)!.text ?? '' };
    if (typeof bv === 'number') row.baseline = bv;
    if (typeof cv === 'number') row.candidate = cv;
    if (typeof bv === 'number' && typeof cv === 'number') row.delta = cv - bv;
    rows.push(row);
  }
  return rows.sort((x, y) => {
    if (x.delta === undefined || y.delta === undefined) {
      if (x.delta !== y.delta) return x.delta === undefined ? 1 : -1;
      return x.qid.localeCompare(y.qid);
    }
    return x.delta - y.delta || x.qid.localeCompare(y.qid);
  });
}

export function buildDashboardModel(input: ModelInput): DashboardModel {
  const { runs } = input;
  const baseline = chooseBaseline(runs, input.baselineRunId, input.baselineConfig);
  const candidate = chooseCandidate(runs, baseline, input.candidateRunId);
  const specs: string[] = [];
  for (const r of runs) for (const s of r.run.metricSpecs) if (!specs.includes(s)) specs.push(s);
  const metricColumns = specs.map((s) => metricColumn(s, input.metricOptions));
  const primarySpec =
    (input.primaryMetric && specs.includes(input.primaryMetric) ? input.primaryMetric : undefined) ??
    candidate?.run.metricSpecs[0] ??
    specs[0];
  const primaryMetric = metricColumns.find((c) => c.spec === primarySpec);
  return {
    workspaceName: input.workspaceName,
    runsFolder: input.runsFolder,
    runs: runs.map(summarize),
    metricColumns,
    baselineRunId: baseline?.id,
    candidateRunId: candidate?.id,
    primaryMetric,
    perQuery: primarySpec ? perQueryRows(baseline, candidate, primarySpec) : [],
    problems: input.problems,
    comparison: input.comparison,
    comparisonNote: input.comparisonNote,
    acl: input.acl ?? ACL_UNAVAILABLE,
  };
}

function docRows(q: SavedQueryResult, limit: number, qrels: ReadonlyMap<string, number> | undefined, other: SavedQueryResult | undefined): DocRow[] {
  const otherRanks = new Map(other?.docs.slice(0, limit).map((d, i) => [d.id, i + 1]) ?? []);
  return q.docs.slice(0, limit).map((d, i) => {
    const row: DocRow = { rank: i + 1, id: d.id, title: d.title, score: d.score };
    const g = qrels?.get(d.id);
    if (g !== undefined) row.grade = g;
    const o = otherRanks.get(d.id);
    if (o !== undefined) row.otherRank = o;
    return row;
  });
}

/**
 * Baseline vs candidate for the dashboard, through the core (compareRuns + checkGates) on `judgments`. Runs made
 * as different principals get the core's refusal as the note instead of figures.
 */
export function dashboardComparison(
  b: StoredRun,
  c: StoredRun,
  judgments: JudgmentSet,
  settings: { metrics: string[]; gain: MetricOptions['gain']; relevanceThreshold: number; judgedOnly?: boolean; gates: GateSettings },
): { view?: ComparisonView; note?: string } {
  const specNames = c.run.metricSpecs.filter((s) => b.run.metricSpecs.includes(s));
  const specs = withGateMetrics(parseMetricList(specNames.length ? specNames : settings.metrics), settings.gates); // every gate can be evaluated
  let cmp: Comparison;
  try {
    cmp = compareRuns(comparisonSideOf(b.run), comparisonSideOf(c.run), judgments, specs, {
      gain: settings.gain, relevanceThreshold: settings.relevanceThreshold, ...(settings.judgedOnly && { judgedOnly: true }),
    });
  } catch (e) {
    if (e instanceof MixedPrincipalsError) return { note: e.message };
    throw e;
  }
  const gates = checkGates(settings.gates, cmp);
  const titles = new Map<string, string>();
  for (const r of [b, c]) for (const q of r.run.queries) for (const d of q.docs) if (d.title) titles.set(d.id, d.title);
  const stale = [b, c].some((r) => r.run.provenance.judgments !== undefined && r.run.provenance.judgments !== judgments.fingerprint);
  return { view: comparisonView(cmp, gates, titles, stale) };
}

/** The dashboard's view of a core comparison: every figure as computed by compareRuns / checkGates. */
export function comparisonView(cmp: Comparison, gates: GateResult[], titles: ReadonlyMap<string, string>, staleJudgments: boolean, maxMoved = 20): ComparisonView {
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
    moved: cmp.queryDeltas.slice(0, maxMoved).map((q) => ({
      qid: q.qid, text: q.text, delta: q.delta,
      docs: q.moved.map((d) => ({ ...d, title: titles.get(d.id) })),
    })),
    gates: gates.map((g) => ({ gate: g.gate, passed: g.passed, actual: Number.isFinite(g.actual) ? g.actual : null, queries: g.queries.slice(0, 5).map((q) => q.qid) })),
    warnings: cmp.warnings.map((w) => w.message),
    judged: cmp.judged,
    staleJudgments,
  };
}

export function buildQueryDetail(
  qid: string,
  baseline: StoredRun | undefined,
  candidate: StoredRun | undefined,
  metric: string | undefined,
  limit = 10,
  qrels?: ReadonlyMap<string, number>,
): QueryDetail {
  const find = (r: StoredRun | undefined) => r?.run.queries.find((x) => x.qid === qid);
  const side = (r: StoredRun | undefined, other: StoredRun | undefined) => {
    const q = find(r);
    if (!r || !q) return undefined;
    return { runId: r.id, docs: docRows(q, limit, qrels, find(other)), metric: metric ? q.metrics[metric] : undefined };
  };
  const b = side(baseline, candidate);
  const c = side(candidate, baseline);
  const text =
    candidate?.run.queries.find((x) => x.qid === qid)?.text ?? baseline?.run.queries.find((x) => x.qid === qid)?.text ?? '';
  return { qid, text, baseline: b, candidate: c };
}
