/** One retrieved document in a ranked list. Rank is the 1-based position after trec_eval ordering. */
export interface RankedDoc {
  id: string;
  score: number;
  /** Display title at the time of the run (for the dashboard; corpus text, never trusted as markup). */
  title?: string;
  /** Per-stage provenance: rank (1-based) and score the document had in each stage that saw it. */
  stages?: Partial<Record<StageName, { rank: number; score: number }>>;
}

/**
 * The stages a run records, in pipeline order: per document its rank and score in each stage, per query each stage's
 * ids and latency. The one list of them (retrieval's steps record under these names; reports list them in this order).
 */
export const STAGE_NAMES = ['lexical', 'vector', 'fused', 'rerank'] as const;
export type StageName = (typeof STAGE_NAMES)[number];

/** A run: ranked documents per query id, already in final order (best first). */
export type Run = Map<string, RankedDoc[]>;

/** What a run was computed on, so a result can name exactly its inputs (and be reused only for the same ones). */
export interface RunProvenance {
  config: string;
  configHash?: string;
  corpus?: string;
  judgments?: string;
  createdAt: string;
  tool: string;
  /** Access control the run was made under (absent in runs saved before it was recorded). */
  access?: RunAccess;
  /** Fingerprints of the models learned from the corpus behind the results, e.g. `{"lsa": "sha256:…"}`; `{}` for none. */
  models?: Record<string, string>;
}

export interface RunAccess {
  /** The principal's attributes as read from the principals file (name, tenant, groups, …); null without `--as`. */
  principal: Record<string, unknown> | null;
  /** ranklab.json `acl.rule` (the default rule when it is not set) and `acl.missingAcl`. */
  rule: unknown;
  missingAcl: string;
}

/** Per-query record of a saved run (`.ranklab/runs/*.json`). */
export interface SavedQueryResult {
  qid: string;
  text: string;
  docs: RankedDoc[];
  /** Matching documents before the page cut (what a UI would show as "N results"). */
  total?: number;
  /** Milliseconds per stage and "total". */
  latencyMs: Record<string, number>;
  metrics: Record<string, number>;
  notes?: string[];
  /**
   * Each stage's whole ranked output (ids, best first), so that recall per stage can be computed later: the final
   * list keeps only what survived. A stage whose output equals the final list is left out. Absent in older runs.
   */
  stageIds?: Partial<Record<StageName, string[]>>;
}

/** Per query, each stage's ranked ids (see `SavedQueryResult.stageIds`). */
export type StageCandidates = Map<string, Partial<Record<StageName, string[]>>>;

/** The JSON file written for every evaluation of one config. */
export interface SavedRun {
  format: 'ranklab-run@1';
  provenance: RunProvenance;
  /** The ranking config as run (parsed JSON). */
  config: unknown;
  metricSpecs: string[];
  metrics: Record<string, number>;
  latency: Record<string, { p50: number; p99: number }>;
  annRecall?: number;
  principal?: string;
  queries: SavedQueryResult[];
}
