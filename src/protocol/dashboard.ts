/**
 * The dashboard's protocol: the data it shows and the messages it exchanges with the host (envelope in ./base.ts).
 * Imported by the host (src/extension/dashboard/) and the app (webview/dashboard/); no `vscode`, no DOM.
 *
 * - after `ready` the host sends `init` with the full model; `runsUpdated` whenever runs, baseline or ACL results change;
 *   `focusRuns` when a command asks the dashboard to show a comparison (sent again after the next `ready`).
 * - the app asks for the model of another comparison (`getDashboard`: the user picked runs), for one query's result
 *   lists (`getQueryDetail`), for the N-way matrix (`getMatrix`: several candidates against one baseline) and for why
 *   a document of those lists is where it is (`explainDocument`: both configs' explanation and the one-line reason).
 * - commands act in the editor: open a document or a query, set the baseline, run an evaluation or the ACL check,
 *   judge an unjudged document of a query's lists (opens the judging view at that pair).
 *
 * Every string that comes from the corpus, the judgments or a file name (titles, query texts, ids, labels,
 * messages) is data: the app inserts it as text, never as markup.
 */
import { type ToHost, defineProtocol, isToHost } from './base';

// ---------------------------------------------------------------- data shown by the dashboard

/** A metric column: the spec as written (`ndcg@10`) and its variant spelled out for people. */
export interface MetricColumn {
  spec: string;
  /** e.g. "nDCG@10, gain 2^rel−1" */
  label: string;
  /** What it measures, its formula, reference and tie rule (the metric registry's words), for hover and legend. */
  definition?: string;
}

/** One saved run as the dashboard lists it (file `.ranklab/runs/<id>.json.gz`, older runs `<id>.json`). */
export interface RunSummary {
  id: string;
  config: string;
  /** Who the run was made as: a principal's name, or null for none (it saw every document). */
  principal: string | null;
  /** How pickers and tables name the run: "config · principal · time · headline metric". */
  label: string;
  /** When the run was made, local time to the minute ("2026-12-03 14:13"). */
  time: string;
  createdAt: string;
  tool: string;
  queryCount: number;
  /** Mean metric values keyed by metric spec. */
  metrics: Record<string, number>;
  /** Latency per stage (and `total`), milliseconds. */
  latency: Record<string, { p50: number; p99: number }>;
  annRecall?: number;
  /** Lower-case text a picker's filter matches: the label, the id, the ISO time and the principal. */
  search: string;
}

/** One retrieved document as the per-query detail shows it. Title and snippet are corpus text: render as text only. */
export interface DocRow {
  rank: number;
  id: string;
  title?: string;
  snippet?: string;
  score: number;
  /** Grade from the current judgments; undefined = unjudged. */
  grade?: number;
  /** Rank of the same document in the other list of the comparison (undefined = not in its top k). */
  otherRank?: number;
  /** Why it moved between baseline and candidate, in one line (the core's `ranklab explain` reason); absent when it did not move or the runs cannot be reproduced. */
  reason?: string;
}

/** Candidate against baseline on one query, as the core counts it (a difference within 1e-9 is a tie). */
export type Outcome = 'win' | 'loss' | 'tie';

/** One query in the per-query table. `delta` = candidate − baseline for the primary metric. */
export interface QueryRow {
  qid: string;
  text: string;
  baseline?: number;
  candidate?: number;
  delta?: number;
  /** Undefined when the query is missing from one of the runs. */
  outcome?: Outcome;
  /** Query tags (the slices it belongs to). */
  tags: string[];
  /** `tune` or `holdout`, when the judgments say. */
  split?: string;
  /** The query's class in each run (with a comparison): slice `class:<name>` is the baseline's class. */
  classes?: { baseline?: QueryClassName; candidate?: QueryClassName };
}

/**
 * Where a query's relevant documents were lost (core stage recall, `ranklab compare`): a class name of the core's
 * one table (src/core/experiment/query-classes.ts: `hit`, `ranking-miss`, `retrieval-miss`, `no-relevant`), which
 * reaches the app with its labels and meanings in `ClassesView.classes`.
 */
export type QueryClassName = string;

/** Query classes of baseline and candidate, and the queries whose class changed. */
export interface ClassesView {
  /** The cut-off of a hit (the primary metric's k). */
  k: number;
  /** Every class, better first (a change towards the first is a gain), with its label and meaning at `k`. */
  classes: { name: QueryClassName; label: string; means: string }[];
  counts: { baseline: Record<QueryClassName, number>; candidate: Record<QueryClassName, number> };
  /** False when a run did not store its stage outputs (TREC run, older saved run): classed from its final list only. */
  complete: { baseline: boolean; candidate: boolean };
  /** Queries whose class changed, in the judgments' order (at most 20: `changedTotal` counts them all). */
  changed: { qid: string; text: string; baseline: QueryClassName; candidate: QueryClassName }[];
  changedTotal: number;
}

/** Means, their difference with its paired bootstrap 95% CI, and the permutation p before and after the correction. */
export interface DeltaFigures {
  baseline: number;
  candidate: number;
  delta: number;
  ci95: [number, number];
  p: number;
  pAdjusted: number;
}

/** A verdict line: one metric of the comparison in words and figures. */
export interface VerdictLine extends DeltaFigures {
  metric: string;
  /** The metric's variant spelled out ("nDCG@10, gain 2^rel−1"). */
  label: string;
  /** Survives the correction at α = 0.05. */
  significant: boolean;
  /** Gates on this metric (min, max regression, every slice's max regression). */
  gates: { passed: number; total: number };
  /** Minimum detectable effect (±) at this query count; null when it cannot be estimated. */
  mde: number | null;
  /** Grading the unjudged documents could flip the sign of Δ: the range Δ could take. */
  couldFlip?: { low: number; high: number };
  /** The core's line, as `ranklab compare` prints it. */
  text: string;
}

/** The answer first: what the change did, how sure that is, and what would be needed to be surer. */
export interface VerdictView {
  /** `improved` / `regressed`: at least one primary metric moved significantly and none the other way. */
  status: 'improved' | 'regressed' | 'no-change' | 'mixed';
  /** One line: "title-boost-3: no significant change · 15/15 gates pass". */
  headline: string;
  /** The core's headline, as `ranklab compare` prints it first. */
  coreHeadline: string;
  lines: VerdictLine[];
  gates: { passed: number; total: number; failed: string[] };
  /** The slice whose primary metric dropped most, if any dropped. */
  worstSlice?: { name: string; queries: number; delta: number; significant: boolean };
  /** Minimum detectable effect of the primary metric at this query count, from the paired differences. */
  mde?: { metric: string; queries: number; value: number | null; detect: number; queriesNeeded: number | null; text: string };
  /** What qualifies the verdict: few queries, unjudged documents that could flip it, judged coverage. */
  notes: string[];
}

export interface ComparisonView {
  /** The saved runs these figures were computed on (the model's picked ids always equal them). */
  runIds: { baseline: string; candidate: string };
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
  /** Absent while `pending`. */
  judged?: { k: number; baseline: number; candidate: number };
  /**
   * Set while only the statistics are known (the verdict, metrics, slices, per-query figures): what is still being
   * computed from the ranked lists. `moved` is then empty, `judged` and `classes` absent; a full view follows.
   */
  pending?: string;
  /** The judgments changed since one of the runs was made: figures use the current judgments. */
  staleJudgments: boolean;
  /** Who each side was made as (null: no principal); `mixed`: compared anyway in the labelled mixed mode. */
  principals: { baseline: string | null; candidate: string | null; mixed: boolean };
  verdict: VerdictView;
  /** Absent while `pending`. */
  classes?: ClassesView;
}

/** One metric of a comparison: means, paired bootstrap 95% CI of the difference, permutation p (Holm-adjusted). */
export interface MetricDelta extends DeltaFigures {
  spec: string;
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
  /** Why it moved, in one line (the core's `ranklab explain` reason); absent when the runs cannot be reproduced. */
  reason?: string;
}

export interface GateRow {
  gate: string;
  passed: boolean;
  actual: number | null;
  queries: string[];
}

/** Why two runs are not compared: they were made as different principals (the core's refusal). */
export interface ComparisonRefusal {
  message: string;
  baselinePrincipal: string | null;
  candidatePrincipal: string | null;
}

/** Several candidates against one baseline: one row per candidate, one column per metric, one correction over all. */
export interface MatrixView {
  baselineRunId: string;
  baseline: string;
  metrics: MetricColumn[];
  rows: MatrixRow[];
  /** How the p-values were corrected, e.g. "Holm–Bonferroni over 25 tests (5 candidates × 5 metrics)". */
  correction: string;
  queries: number;
}

export interface MatrixRow {
  runId: string;
  label: string;
  cells: MatrixCell[];
  gates: { passed: number; total: number };
}

export interface MatrixCell {
  metric: string;
  candidate: number;
  delta: number;
  ci95: [number, number];
  pAdjusted: number;
  significant: boolean;
}

export type AclView =
  | { status: 'unavailable'; message: string }
  | { status: 'not-run'; message: string }
  | {
      status: 'checked';
      /** No violation and every config checked. */
      passed: boolean;
      checkedAt: string;
      principals: { name: string; violations: number; pageFill?: number }[];
      violations: { principal: string; query: string; docId: string; rank?: number; config?: string }[];
      /** Configs that could not run, so were not checked (e.g. a reranker model missing offline). */
      notChecked: { config: string; message: string }[];
    };

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
  /** Every query of either run, worst change first (the app re-sorts and filters); empty while `comparing`. */
  perQuery: QueryRow[];
  /** The comparison is on its way (the page is shown first, from the run index): the per-query figures come with it. */
  comparing?: boolean;
  /** The slices the per-query filter offers: query tags, then `split:tune` / `split:holdout` when both occur, then `class:<name>` (the baseline's class). */
  sliceNames: string[];
  /** Problems met while reading the runs (file: message). The readable runs are still shown. */
  problems: string[];
  /** Significance, verdict, slices, splits and moved documents of baseline vs candidate (core compareRuns). */
  comparison?: ComparisonView;
  /** Runs made as different principals: the core's refusal, shown instead of figures. */
  refusal?: ComparisonRefusal;
  /** Why there is no comparison otherwise (one run only, the judgments could not be read, ...). */
  comparisonNote?: string;
  /** The comparison of runs made as different principals was asked for explicitly (shown labelled). */
  allowMixedPrincipals: boolean;
  acl: AclView;
}

export interface QueryDetail {
  qid: string;
  text: string;
  tags: string[];
  delta?: number;
  baseline?: { runId: string; label: string; docs: DocRow[]; metric?: number };
  candidate?: { runId: string; label: string; docs: DocRow[]; metric?: number };
  /** How many documents entered, left or moved within the lists shown. */
  moves: { entered: number; left: number; up: number; down: number };
}

/**
 * One step of a document's explanation (the core's `ranklab explain`): where the step holds the document (or why
 * not) and the parts of its score. Field names, terms and notes are corpus/config text: render as text only.
 */
export interface ExplainStepView {
  step: string;
  /** What the step's explanation holds (the core's one declaration, src/core/run/stages.ts): the step name's tooltip. */
  about: string;
  rank: number | null;
  score: number | null;
  /** kept, not-matched, below-depth, filtered, not-reached. */
  outcome: string;
  note: string;
  /** The BM25 sum term by term: contribution = idf · tf-part · boost · expansion weight · coordination. */
  lexical?: {
    parts: {
      field: string;
      queryTerm: string;
      term: string;
      match: string;
      tf: number;
      idf: number;
      lengthNorm: number;
      boost: number;
      contribution: number;
    }[];
    sum: number;
    matched: boolean;
    missingTerms: string[];
    combineWith: string;
  };
  vector?: {
    similarity: number | null;
    producedBy: 'hnsw' | 'exact';
    exactRank: number | null;
    exactSimilarity: number | null;
    differsFromExact: boolean;
    depth: number;
  };
  fusion?: { k: number; depth: number; lists: { name: string; rank: number | null; weight: number; contribution: number }[]; sum: number };
  rerank?: { modelScore: number | null; rankBefore: number | null; rankAfter: number | null; topN: number; topM: number };
}

/** One config's account of the document (a run's config, rebuilt as it was). */
export interface ExplainSideView {
  side: 'baseline' | 'candidate';
  runId: string;
  config: string;
  mode: string;
  rank: number | null;
  score: number | null;
  /** Where it left the pipeline (null: it is ranked). */
  fellOut: { step: string; note: string } | null;
  steps: ExplainStepView[];
  notes: string[];
}

/** Why a document of a query's lists is where it is, under both runs' configs; `error` instead when it cannot be said. */
export interface DocExplanation {
  qid: string;
  docId: string;
  /** False when the runs' principal may not see the document: nothing more is said. */
  visible: boolean;
  principal: string | null;
  /** Why its rank changed between baseline and candidate, in one line. */
  reason?: string;
  /** Baseline first, then candidate (one side when the query has one run). */
  sides: ExplainSideView[];
  /** E.g. "run no longer reproducible: config or corpus changed since it was made". */
  error?: string;
}

export interface ComparisonParams {
  baselineRunId?: string;
  candidateRunId?: string;
  /** Compare runs made as different principals anyway (labelled MIXED PRINCIPALS). */
  allowMixedPrincipals?: boolean;
}

// ---------------------------------------------------------------- messages

export type DashboardMessages = {
  requests: {
    getDashboard: { params: ComparisonParams; result: DashboardModel };
    getQueryDetail: { params: { qid: string; baselineRunId?: string; candidateRunId?: string }; result: QueryDetail };
    /** Candidates default to the newest run of every other config made as the baseline's principal. */
    getMatrix: { params: { baselineRunId: string; candidateRunIds?: string[] }; result: { matrix?: MatrixView; note?: string } };
    /** Why a document of a query's side-by-side lists is where it is (computed in the Ranklab worker). */
    explainDocument: { params: { qid: string; docId: string; baselineRunId?: string; candidateRunId?: string }; result: DocExplanation };
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
  version: 3,
  requests: { getDashboard: true, getQueryDetail: true, getMatrix: true, explainDocument: true },
  commands: { openDocument: true, openQuery: true, setBaseline: true, runEvaluation: true, checkAccessControl: true, judge: true },
  notifications: { init: true, runsUpdated: true, focusRuns: true },
});

/** Structural check of a message from the dashboard webview (the host never trusts webview input). */
export function isWebviewToHost(v: unknown): v is ToHost<DashboardMessages> {
  return isToHost(dashboardProtocol, v);
}

/** How the per-query table is sorted and filtered (kept across reloads). */
export interface QueryViewState {
  sort: 'delta' | 'qid' | 'text' | 'baseline' | 'candidate';
  descending: boolean;
  /** A slice name from `sliceNames`, or '' for all queries. */
  slice: string;
  outcome: '' | Outcome | 'changed';
  text: string;
}

/** State the webview persists with `setState` so a hidden/reloaded panel comes back where it was. */
export interface DashboardState {
  /** The protocol version that wrote it: a state from another version is dropped. */
  version?: number;
  baselineRunId?: string;
  candidateRunId?: string;
  allowMixedPrincipals?: boolean;
  selectedQid?: string;
  queryView?: QueryViewState;
  /** Candidates of the N-way matrix the user chose (undefined: the default set). */
  matrixRunIds?: string[];
  /** Last model received, drawn immediately on restore before the host answers. */
  model?: DashboardModel;
}
