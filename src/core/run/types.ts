import type { StageName } from './stages';

/** One retrieved document in a ranked list. Rank is the 1-based position after trec_eval ordering. */
export interface RankedDoc {
  id: string;
  score: number;
  /** Display title at the time of the run (for the dashboard; corpus text, never trusted as markup). */
  title?: string;
  /** Per-stage provenance: rank (1-based) and score the document had in each stage that saw it. */
  stages?: Partial<Record<StageName, { rank: number; score: number }>>;
}

/** The stages, declared once in ./stages.ts (steps, recorded stages, old spellings, explanations). */
export { STAGE_NAMES, type StageName } from './stages';

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

/** How deep each query's list is titled in a saved run (`SavedRun.titles`): what the per-query diff shows. */
export const SAVED_TITLE_DEPTH = 10;

/** The JSON file written for every evaluation of one config. */
export interface SavedRun {
  /** The file format it was read from or will be written in (in memory every version is this expanded shape; see run-format.ts). */
  format: 'ranklab-run@1' | 'ranklab-run@2' | 'ranklab-run@3' | 'ranklab-run@4';
  provenance: RunProvenance;
  /** The ranking config as run (parsed JSON). */
  config: unknown;
  metricSpecs: string[];
  metrics: Record<string, number>;
  latency: Record<string, { p50: number; p99: number }>;
  annRecall?: number;
  principal?: string;
  queries: SavedQueryResult[];
  /**
   * The title of every document in some query's top `SAVED_TITLE_DEPTH`, once per id (not per ranked entry, to keep
   * run files small), as the corpus had it when the run was made. Untitled documents are left out. Absent in runs
   * saved before it was stored and in runs of an engine config without a local corpus.
   */
  titles?: Record<string, string>;
  /**
   * Queries an engine could not answer (after its retries), with the error: not in `queries` and left out of
   * `metrics`. Such a run is incomplete: never reused, and refused as a side of a comparison.
   */
  failedQueries?: { qid: string; error: string }[];
}
