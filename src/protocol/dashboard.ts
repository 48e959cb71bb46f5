/**
 * The dashboard's protocol: the data it shows and the messages it exchanges with the host (envelope in ./base.ts).
 * Imported by the host (src/extension/dashboard/) and the app (webview/dashboard/); no `vscode`, no DOM.
 *
 * - after `ready` the host sends `init` with the full model; `runsUpdated` whenever runs, baseline or ACL results change;
 *   `focusRuns` when a command asks the dashboard to show a comparison (sent again after the next `ready`).
 * - the app asks for the model of other runs (`getDashboard`) and for one query's result lists (`getQueryDetail`).
 * - commands act in the editor: open a document or a query, set the baseline, run an evaluation or the ACL check,
 *   judge an unjudged document of a query's lists (opens the judging view at that pair).
 */
import { type ToHost, defineProtocol, isToHost } from './base';

// ---------------------------------------------------------------- data shown by the dashboard

/** A metric column: the spec as written (`ndcg@10`) and its variant spelled out for people. */
export interface MetricColumn {
  spec: string;
  /** e.g. "nDCG@10, gain 2^rel−1" */
  label: string;
}

/** One saved run as the dashboard lists it (file `.ranklab/runs/<id>.json`). */
export interface RunSummary {
  id: string;
  config: string;
  /** How the dashboard names the run: the config, and the principal it was made as ("baseline as ayu"). */
  label: string;
  createdAt: string;
  tool: string;
  principal?: string;
  queryCount: number;
  /** Mean metric values keyed by metric spec. */
  metrics: Record<string, number>;
  /** Latency per stage (and `total`), milliseconds. */
  latency: Record<string, { p50: number; p99: number }>;
  annRecall?: number;
}

/** One retrieved document as the per-query detail shows it. Title is corpus text: render as text only. */
export interface DocRow {
  rank: number;
  id: string;
  title?: string;
  score: number;
  /** Grade from the current judgments; undefined = unjudged. */
  grade?: number;
  /** Rank of the same document in the other list of the comparison (undefined = not in its top k). */
  otherRank?: number;
}

/** One query in the per-query table. `delta` = candidate − baseline for the primary metric. */
export interface QueryRow {
  qid: string;
  text: string;
  baseline?: number;
  candidate?: number;
  delta?: number;
}

export interface DashboardModel {
  workspaceName: string;
  /** Where the runs were read from, relative to the workspace. */
  runsFolder: string;
  runs: RunSummary[];
  metricColumns: MetricColumn[];
  baselineRunId?: string;
  candidateRunId?: string;
  /** The metric the per-query table and the delta chart use. */
  primaryMetric?: MetricColumn;
  /** Sorted by delta, most negative (worst regression) first; queries without a delta last. */
  perQuery: QueryRow[];
  /** Problems met while reading the runs (file: message). The readable runs are still shown. */
  problems: string[];
  /** Significance, slices, splits and moved documents of baseline vs candidate (core compareRuns). */
  comparison?: ComparisonView;
  /** Why there is no comparison (e.g. the judgments could not be read). */
  comparisonNote?: string;
  acl: AclView;
}

/** One metric of a comparison: means, paired bootstrap 95% CI of the difference, permutation p (Holm-adjusted). */
export interface MetricDelta {
  spec: string;
  baseline: number;
  candidate: number;
  delta: number;
  ci95: [number, number];
  p: number;
  pAdjusted: number;
  wins: number;
  losses: number;
  ties: number;
}

/** A slice (query tag) or split (tune/holdout) on the primary metric. */
export interface SliceDelta {
  name: string;
  queries: number;
  baseline: number;
  candidate: number;
  delta: number;
  ci95: [number, number];
  pAdjusted: number;
}

export interface MovedDoc {
  id: string;
  title?: string;
  /** null = unjudged. */
  grade: number | null;
  baselineRank: number | null;
  candidateRank: number | null;
  change: 'in' | 'out' | 'up' | 'down';
}

export interface GateRow {
  gate: string;
  passed: boolean;
  actual: number | null;
  queries: string[];
}

export interface ComparisonView {
  baseline: string;
  candidate: string;
  primaryMetric: string;
  queries: number;
  correction: string;
  metrics: MetricDelta[];
  slices: SliceDelta[];
  splits: SliceDelta[];
  /** Queries whose primary metric changed, worst first (at most 20), with the documents that moved. */
  moved: { qid: string; text: string; delta: number; docs: MovedDoc[] }[];
  gates: GateRow[];
  warnings: string[];
  judged: { k: number; baseline: number; candidate: number };
  /** The judgments changed since one of the runs was made: figures use the current judgments. */
  staleJudgments: boolean;
}

export type AclView =
  | { status: 'unavailable'; message: string }
  | { status: 'not-run'; message: string }
  | {
      status: 'checked';
      passed: boolean;
      checkedAt: string;
      principals: { name: string; violations: number; pageFill?: number }[];
      violations: { principal: string; query: string; docId: string; rank?: number; config?: string }[];
    };

export interface QueryDetail {
  qid: string;
  text: string;
  baseline?: { runId: string; docs: DocRow[]; metric?: number };
  candidate?: { runId: string; docs: DocRow[]; metric?: number };
}

// ---------------------------------------------------------------- messages

export type DashboardMessages = {
  requests: {
    getDashboard: { params: { baselineRunId?: string; candidateRunId?: string }; result: DashboardModel };
    getQueryDetail: { params: { qid: string; baselineRunId?: string; candidateRunId?: string }; result: QueryDetail };
  };
  commands: {
    openDocument: { docId: string; runId?: string };
    openQuery: { qid: string };
    setBaseline: { runId: string };
    runEvaluation: Record<string, never>;
    checkAccessControl: Record<string, never>;
    /** Open the judging view at this unjudged pair, pooling the two runs' configs. */
    judge: { qid: string; docId: string; baselineRunId?: string; candidateRunId?: string };
  };
  notifications: {
    /** Answer to `ready`: the full state. */
    init: { model: DashboardModel };
    /** The runs folder changed (a run was added, rewritten or deleted), or the baseline or the ACL results changed. */
    runsUpdated: { model: DashboardModel };
    /** The host asks the dashboard to show this comparison (e.g. "Compare with Baseline"). */
    focusRuns: { baselineRunId?: string; candidateRunId?: string };
  };
};

export const dashboardProtocol = defineProtocol<DashboardMessages>({
  viewType: 'ranklab.dashboard',
  version: 1,
  requests: { getDashboard: true, getQueryDetail: true },
  commands: { openDocument: true, openQuery: true, setBaseline: true, runEvaluation: true, checkAccessControl: true, judge: true },
  notifications: { init: true, runsUpdated: true, focusRuns: true },
});

/** Structural check of a message from the dashboard webview (the host never trusts webview input). */
export function isWebviewToHost(v: unknown): v is ToHost<DashboardMessages> {
  return isToHost(dashboardProtocol, v);
}

/** State the webview persists with `setState` so a hidden/reloaded panel comes back where it was. */
export interface DashboardState {
  baselineRunId?: string;
  candidateRunId?: string;
  selectedQid?: string;
  /** Last model received, drawn immediately on restore before the host answers. */
  model?: DashboardModel;
}
