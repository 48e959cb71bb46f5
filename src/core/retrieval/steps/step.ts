import type { Principal } from '../../acl/policy';
import type { RankConfig } from '../../config/types';
import type { Document } from '../../corpus/document';
import type { StepName, StepOutcome } from '../../run/stages';
import type { DocFilter } from '../doc-filter';
import type { ExactIndex } from '../exact';
import type { LexicalIndex } from '../lexical';
import type { LexicalExplanation } from '../lexical-explain';
import type { Embedder, Reranker } from '../providers/types';
import type { ScoredId } from '../ranking';
import type { VectorQueryCache } from '../query-cache';
import type { RerankScoreCache } from '../rerank';
import type { HnswIndex } from '../vector-index';

export interface SearchOptions {
  /** ACL predicate: may the current principal see this document? (See DocFilter: a permitted set is faster.) */
  filter?: DocFilter;
  aclMode?: 'pre-filter' | 'post-filter';
  /** post-filter: how many unfiltered candidates are retrieved before forbidden ones are dropped. */
  candidates?: number;
  /** Cut the final list to this many documents (default: the whole final list, e.g. for evaluation at depth). */
  pageSize?: number;
  signal?: AbortSignal;
  /** Also return `matches`: the ids behind `total` (for facet counts and access checks). */
  collectMatches?: boolean;
  /** Overrides the lexical, vector and hybrid depths (e.g. to see how deep a post-filter must look). */
  stageDepth?: number;
  /** Who is searching. Local steps use `filter`; a remote engine fills its access filter (or credentials) from this. */
  principal?: Principal;
  /** A remote engine also returns each result's title and text (`texts`), for snippets and judging. */
  fetchText?: boolean;
  /** Also explain this document: each step that can says why it holds it where it does (`SearchResult.explanation`). */
  explain?: string;
}

/** What the engine built for its config. Steps read it and never change it. */
export interface EngineParts {
  readonly config: RankConfig;
  readonly lexical?: LexicalIndex;
  readonly exact?: ExactIndex;
  readonly hnsw?: HnswIndex;
  readonly embedder?: Embedder;
  /** Query vectors and unfiltered neighbours, shared by every engine that shares the vector stage. */
  readonly vectorCache?: VectorQueryCache;
  readonly reranker?: Reranker;
  readonly docsById: ReadonlyMap<string, Document>;
  /** Shared across engines, so several configs over one corpus do not re-score pairs. */
  readonly rerankCache: RerankScoreCache;
}

/** One query on its way through the steps. */
export interface StepInput {
  readonly text: string;
  readonly options: SearchOptions;
  /** The principal's predicate, in either ACL mode: what `total` and `matches` count. */
  readonly filter?: DocFilter;
  /** The same predicate when retrieval applies it (pre-filter mode). A filter without `pre` is the post-filter step's. */
  readonly pre?: DocFilter;
  /** The ranking so far: the hits of the last step that ran ([] before the first). */
  readonly hits: readonly ScoredId[];
  /** The output of every step that ran before this one (fusion reads the lexical and the vector list). */
  readonly outputs: ReadonlyMap<StepName, StepOutput>;
}

/**
 * What a step hands on. The pipeline passes outputs on untouched, so what a step can say about its own work is a field
 * here, filled by that step alone (e.g. a shared score cache's hits), without a change to any other step. Why one
 * document is where it is is asked separately (`Step.explain`), so searches that do not ask pay nothing for it.
 */
export interface StepOutput {
  /** The ranking after this step, best first. */
  hits: ScoredId[];
  /** For the user: an exact fallback, a short page. */
  notes?: string[];
  /** A retrieval step that counts every match it may show, beyond the depth it retrieved (lexical does): how many. */
  matched?: number;
  /**
   * A retrieval step's permitted matches in full, asked for only with `collectMatches` and after the steps (so it is
   * not timed as the step's work). Without it, the step's permitted hits are its matches.
   */
  matches?: () => Iterable<string>;
  /** The step's scores all came from a shared cache (per-field BM25, neighbours, reranker scores): nothing was scored anew. */
  cached?: boolean;
}

export type { StepName } from '../../run/stages';

/**
 * One step's account of one document: where its output holds it (or why not: the outcomes and what each means are
 * `STEP_OUTCOMES`, run/stages.ts), and the parts of its score.
 */
export interface StepExplanation {
  step: StepName;
  rank: number | null;
  score: number | null;
  outcome: StepOutcome;
  /** One line for people: "rank 3 of 41 matches", "below depth 100 (rank 143 of 200 matches)". */
  note: string;
  lexical?: LexicalExplanation;
  vector?: {
    /** The similarity the step ranked by (HNSW's or exact search's), or exact search's when the step did not return it. */
    similarity: number | null;
    producedBy: 'hnsw' | 'exact';
    /** Its rank under exact search (over what the principal may see), and whether that differs from the step's rank. */
    exactRank: number | null;
    exactSimilarity: number | null;
    differsFromExact: boolean;
    depth: number;
  };
  fusion?: {
    k: number;
    depth: number;
    /** Each fused list: the document's rank in it (null: not in its first `depth`), the list's weight, weight/(k+rank). */
    lists: Array<{ name: string; rank: number | null; weight: number; contribution: number }>;
    /** Σ contributions: the fused score. */
    sum: number;
  };
  rerank?: { modelScore: number | null; rankBefore: number | null; rankAfter: number | null; topN: number; topM: number };
}

/** One stage of the built-in pipeline: hits (or the query) in, hits out. The pipeline times it and records it. */
export interface Step {
  readonly name: StepName;
  /** It retrieves from an index, rather than reorders or cuts what it is given: its hits count toward `total` and `matches`. */
  readonly retrieves?: boolean;
  /** Does it take part for this engine and query? */
  runs(parts: EngineParts, input: StepInput): boolean;
  run(parts: EngineParts, input: StepInput): StepOutput | Promise<StepOutput>;
  /** Why `docId` is where `output` (this step's own, for `input`) holds it. Asked only with `SearchOptions.explain`. */
  explain?(parts: EngineParts, input: StepInput, output: StepOutput, docId: string): StepExplanation | Promise<StepExplanation>;
}

/** 1-based rank of `id` in `hits`, or null. */
export function rankOf(hits: readonly ScoredId[], id: string): number | null {
  const i = hits.findIndex((h) => h.id === id);
  return i < 0 ? null : i + 1;
}
