/**
 * What a retrieval pipeline is (the `Engine` contract: one query in, a ranked page with counts, latencies and
 * per-stage provenance out) and how the built-in one runs: its steps (steps/), in order, each timed and recorded.
 * The built-in engine (engine.ts) builds the indexes the steps read; an adapter for an external engine implements
 * `Engine` itself.
 */
import type { Document } from '../corpus/document';
import type { RankConfig } from '../config/types';
import type { RankedDoc, StageName } from '../run/types';
import { recordedStage } from '../run/stages';
import type { DocFilter } from './doc-filter';
import { type EngineParts, type SearchOptions, STEPS, type StepExplanation, type StepName, type StepOutput } from './steps';
import type { ScoredId } from './ranking';

export type { SearchOptions };

export interface SearchResult {
  docs: RankedDoc[];
  /** Matching documents the user may see (lexical: every permitted match; vector: permitted docs retrieved). */
  total: number;
  /**
   * Milliseconds of each stage that ran, and of the whole search. A remote engine: `engine` (as the engine reports
   * it), `request` (the round trip measured here) and `embed` (the query's embedding).
   */
  latencyMs: Partial<Record<StageName | 'request' | 'embed', number>> & { total: number };
  notes: string[];
  /** The vector stage's own ranking (ids, best first), before fusion and reranking: what ANN recall is measured on. */
  vectorIds?: string[];
  /**
   * With `collectMatches`: every permitted lexical match plus the permitted vector hits (what `total` counts;
   * for a hybrid this union can exceed `total`, which is the larger of the two stages' counts).
   */
  matches?: string[];
  /** Each stage's own ranked ids (its whole output, at its depth): where a relevant document was lost (stage recall). */
  stageIds: Partial<Record<StageName, string[]>>;
  /** With `fetchText`, from a remote engine: the results' title and text as the engine stores them. */
  texts?: Map<string, { title: string; body: string }>;
  /** Stages whose scores came from a cache filled by an earlier search (of this or a sharing engine): no new scoring. */
  cached?: Partial<Record<StageName, boolean>>;
  /** With `explain` (the built-in pipeline only): each step's account of that document, in step order. */
  explanation?: StepExplanation[];
}

/** An autocomplete suggestion: a whole query string built from terms of one or more permitted documents. */
export interface Suggestion {
  suggestion: string;
  terms: string[];
  score: number;
}

export interface SuggestOptions {
  /** ACL predicate: suggestions are built only from documents it accepts. */
  filter?: (docId: string) => boolean;
  /** At most this many suggestions (default 10). */
  limit?: number;
  fuzzy?: number;
}

export interface DocumentDiff {
  /** New or changed documents (matched by id). */
  upsert?: Document[];
  delete?: string[];
  /**
   * The whole corpus after the change, in corpus order, and its fingerprint: what a fresh engine would be built
   * from. The LSA model and the HNSW graph are rebuilt from it (at the next search), never patched, so that
   * results do not depend on the order of earlier updates.
   */
  docs: readonly Document[];
  corpusFingerprint: string;
}

export interface BuildInfo {
  lexical?: { source: 'built' | 'cache'; ms: number };
  vector?: { source: 'built' | 'cache'; ms: number; embedMs: number; embedderId: string; exact: boolean; scan: 'simd' | 'js' };
  notes: string[];
  /** Of the notes, those the user should see even without a verbose log (a cache that could not be written). */
  warnings?: string[];
  /**
   * Parts this engine did not build but shares with the engine of another config of the session (same
   * index-shaping settings, retrieval/shared-parts.ts): that config's name per part. `lexical`/`vector` above then
   * describe the shared part's own build.
   */
  sharedWith?: Partial<Record<'lexical' | 'vector' | 'rerank', string>>;
}

/**
 * Fingerprints of the models the engine learned from the corpus and whose state shapes results, by kind (today
 * only `lsa`: the built-in embedder's `LsaModel.fingerprint`). Saved runs record them; a run is reused only when
 * they match.
 */
export type LearnedModels = Record<string, string>;

export interface Engine {
  readonly config: RankConfig;
  readonly build: BuildInfo;
  search(text: string, options?: SearchOptions): Promise<SearchResult>;
  /**
   * Many queries at once (a remote engine batches them and sends several requests at a time); a query that
   * failed has its error in its slot and the others are kept. Absent: call `search` per query.
   */
  searchMany?(texts: readonly string[], options?: SearchOptions): Promise<Array<SearchResult | Error>>;
  update(diff: DocumentDiff): Promise<void>;
  /** The learned models behind the current results (brings the vector stage up to date first; `signal` stops that). */
  learnedModels(signal?: AbortSignal): Promise<LearnedModels>;
  /** Exact top-k vector ids for a query (for ANN recall reports); undefined without a vector stage. */
  exactVectorSearch(text: string, k: number, filter?: DocFilter): Promise<string[] | undefined>;
  /** Autocomplete from the lexical index (MiniSearch autoSuggest); undefined without a lexical stage. */
  suggest?(prefix: string, options?: SuggestOptions): Suggestion[] | undefined;
}

/** Runs the query through every step that takes part, in order; see SearchResult. */
export async function runPipeline(parts: EngineParts, text: string, options: SearchOptions = {}): Promise<SearchResult> {
  const t0 = performance.now();
  const filter = options.filter;
  const pre = filter && (options.aclMode ?? parts.config.acl.mode) === 'pre-filter' ? filter : undefined;
  const latencyMs: SearchResult['latencyMs'] = { total: 0 };
  const stageIds: SearchResult['stageIds'] = {};
  const provenance = new Map<string, NonNullable<RankedDoc['stages']>>();
  const outputs = new Map<StepName, StepOutput>();
  const retrieved: StepOutput[] = [];
  const notes: string[] = [];
  const cached: SearchResult['cached'] = {};
  const explanation: StepExplanation[] = [];
  let hits: readonly ScoredId[] = [];
  for (const step of STEPS) {
    const input = { text, options, filter, pre, hits, outputs };
    if (!step.runs(parts, input)) continue;
    const t = performance.now();
    const out = await step.run(parts, input);
    const stage = recordedStage(step.name); // the stage table (run/stages.ts) says which steps a run records
    if (stage) {
      record(stage, out.hits);
      latencyMs[stage] = performance.now() - t;
      if (out.cached) cached[stage] = true;
    }
    if (options.explain !== undefined && step.explain) explanation.push(await step.explain(parts, input, out, options.explain));
    outputs.set(step.name, out);
    if (step.retrieves) retrieved.push(out);
    if (out.notes) notes.push(...out.notes);
    hits = out.hits;
    options.signal?.throwIfAborted();
  }
  if (options.pageSize !== undefined) hits = hits.slice(0, options.pageSize);
  const docs: RankedDoc[] = hits.map((h) => ({ id: h.id, score: h.score, stages: provenance.get(h.id) }));
  const result: SearchResult = {
    docs,
    total: matchTotal(retrieved, filter),
    latencyMs,
    notes,
    vectorIds: outputs.get('vector')?.hits.map((h) => h.id),
    matches: options.collectMatches ? [...matchIds(retrieved, filter)] : undefined,
    stageIds,
    cached,
    explanation: options.explain !== undefined ? explanation : undefined,
  };
  latencyMs.total = performance.now() - t0;
  return result;

  function record(stage: StageName, stageHits: readonly ScoredId[]): void {
    stageIds[stage] = stageHits.map((h) => h.id);
    stageHits.forEach((h, i) => {
      let stages = provenance.get(h.id);
      if (!stages) provenance.set(h.id, (stages = {}));
      stages[stage] = { rank: i + 1, score: h.score };
    });
  }
}

/**
 * `total`: what the user may see that matches. A step that counts its matches completely (lexical) gives its count; one
 * that only knows what it retrieved (vector) adds its permitted hits, so then the permitted hits of every retrieval
 * step count, and `total` is the larger of the two figures.
 */
function matchTotal(retrieved: readonly StepOutput[], filter?: DocFilter): number {
  const counted = Math.max(0, ...retrieved.map((o) => o.matched ?? 0));
  if (retrieved.every((o) => o.matched !== undefined)) return counted;
  const permitted = new Set<string>();
  for (const o of retrieved) for (const h of o.hits) if (!filter || filter(h.id)) permitted.add(h.id);
  return Math.max(counted, permitted.size);
}

/** `matches`: the permitted matches of every retrieval step (in full where it can list them), each id once. */
function matchIds(retrieved: readonly StepOutput[], filter?: DocFilter): Set<string> {
  const ids = new Set<string>();
  for (const o of retrieved) {
    if (o.matches) for (const id of o.matches()) ids.add(id);
    else for (const h of o.hits) if (!filter || filter(h.id)) ids.add(h.id);
  }
  return ids;
}
