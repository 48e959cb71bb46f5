/**
 * The one typed message protocol between the extension host and the dashboard webview.
 * Both sides import these types; nothing here may import `vscode` or touch the DOM.
 *
 * Shape (after GitLens' webview protocols and vscode-pull-request-github's handshake):
 * - webview → host `ready` once its listener is installed; the host answers with the `init` notification.
 *   Until `ready` arrives the host queues nothing: the webview always asks for a fresh state after a reload.
 * - webview → host requests carry a `requestId`; the host answers with exactly one `response`
 *   carrying the same id (`ok: true` + typed `result`, or `ok: false` + `error`).
 * - webview → host commands are fire-and-forget (`openDocument`, `openQuery`, ...).
 * - host → webview notifications (`init`, `runsUpdated`, `focusRuns`) push state.
 */

export const PROTOCOL_VERSION = 1;
export const DASHBOARD_VIEW_TYPE = 'ranklab.dashboard';

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

// ---------------------------------------------------------------- webview → host

/** Requests: method → params and result. */
export interface RequestMap {
  getDashboard: { params: { baselineRunId?: string; candidateRunId?: string }; result: DashboardModel };
  getQueryDetail: { params: { qid: string; baselineRunId?: string; candidateRunId?: string }; result: QueryDetail };
}
export type RequestMethod = keyof RequestMap;

/** Commands: fire-and-forget actions the host performs in the editor. */
export interface CommandMap {
  openDocument: { docId: string; runId?: string };
  openQuery: { qid: string };
  setBaseline: { runId: string };
  runEvaluation: Record<string, never>;
  checkAccessControl: Record<string, never>;
}
export type CommandName = keyof CommandMap;

export type ReadyMessage = { type: 'ready'; protocol: number };
export type RequestMessage = {
  [M in RequestMethod]: { type: 'request'; requestId: number; method: M; params: RequestMap[M]['params'] };
}[RequestMethod];
export type CommandMessage = {
  [C in CommandName]: { type: 'command'; command: C; params: CommandMap[C] };
}[CommandName];

export type WebviewToHost = ReadyMessage | RequestMessage | CommandMessage;

// ---------------------------------------------------------------- host → webview

export interface NotificationMap {
  /** Answer to `ready`: the full state. */
  init: { model: DashboardModel };
  /** The runs folder changed (a run was added, rewritten or deleted) or the baseline changed. */
  runsUpdated: { model: DashboardModel };
  /** The host asks the dashboard to show this comparison (e.g. "Compare with Baseline"). */
  focusRuns: { baselineRunId?: string; candidateRunId?: string };
}
export type NotificationName = keyof NotificationMap;

export type NotificationMessage = {
  [N in NotificationName]: { type: 'notification'; name: N; params: NotificationMap[N] };
}[NotificationName];

export type ResponseMessage =
  | { type: 'response'; requestId: number; ok: true; result: RequestMap[RequestMethod]['result'] }
  | { type: 'response'; requestId: number; ok: false; error: string };

export type HostToWebview = NotificationMessage | ResponseMessage;

// ---------------------------------------------------------------- guards (both sides receive `unknown`)

const REQUEST_METHODS: readonly RequestMethod[] = ['getDashboard', 'getQueryDetail'];
const COMMAND_NAMES: readonly CommandName[] = ['openDocument', 'openQuery', 'setBaseline', 'runEvaluation', 'checkAccessControl'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Structural check of a message from the webview (the host never trusts webview input). */
export function isWebviewToHost(v: unknown): v is WebviewToHost {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'ready':
      return typeof v.protocol === 'number';
    case 'request':
      return typeof v.requestId === 'number' && REQUEST_METHODS.includes(v.method as RequestMethod) && isRecord(v.params);
    case 'command':
      return COMMAND_NAMES.includes(v.command as CommandName) && isRecord(v.params);
    default:
      return false;
  }
}

export function isHostToWebview(v: unknown): v is HostToWebview {
  if (!isRecord(v)) return false;
  if (v.type === 'response') return typeof v.requestId === 'number' && typeof v.ok === 'boolean';
  return v.type === 'notification' && typeof v.name === 'string' && isRecord(v.params);
}

/** State the webview persists with `setState` so a hidden/reloaded panel comes back where it was. */
export interface DashboardState {
  baselineRunId?: string;
  candidateRunId?: string;
  selectedQid?: string;
  /** Last model received, drawn immediately on restore before the host answers. */
  model?: DashboardModel;
}
