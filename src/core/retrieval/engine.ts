/**
 * The built-in engine: builds (or loads from the cache) what a config's steps read — the MiniSearch index, the
 * vector stage (vector-stage.ts: document vectors, HNSW graph, LSA model, embedder) and the reranker — keeps them
 * current as documents change, and runs each query through the pipeline (pipeline.ts). Given a `SharedParts`
 * (shared-parts.ts), it takes each part from there, so engines whose configs share index-shaping settings share one
 * index and its per-query caches.
 */
import type { Document } from '../corpus/document';
import type { RankConfig } from '../config/types';
import type { Work } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { createAnalyzer } from './analyzer';
import type { DocFilter } from './doc-filter';
import { buildOrLoadLexical } from './index-cache';
import type { LexicalIndex } from './lexical';
import { createReranker, type ProviderContext } from './providers/factory';
import type { Embedder, Reranker } from './providers/types';
import { RerankScoreCache } from './rerank';
import { type SharedPart, type SharedPartKind, type SharedParts, indexShareKeys } from './shared-parts';
import { VectorStage } from './vector-stage';
import {
  type BuildInfo,
  type DocumentDiff,
  type Engine,
  type LearnedModels,
  type SearchOptions,
  type SearchResult,
  type SuggestOptions,
  type Suggestion,
  runPipeline,
} from './pipeline';
import type { EngineParts } from './steps';

export { cachedLearnedModels, embedText } from './vector-stage';

export interface EngineOptions {
  docs: readonly Document[];
  corpusFingerprint: string;
  config: RankConfig;
  /** Index caches go below this folder (lexical/, vector/, lsa/). None = build in memory every time. */
  cacheDir?: string;
  /** Overrides the embedder the config names (tests, or a caller that already built one); the vector stage is then not shared. */
  embedder?: Embedder;
  /** Overrides the reranker the config names; it is then not shared. */
  reranker?: Reranker;
  /** Needed to create embedders/rerankers from the config (other than `lsa`, which is trained here). */
  providers?: ProviderContext;
  /** Shared across engines so several configs over one corpus do not re-score pairs. */
  rerankCache?: RerankScoreCache;
  /**
   * The parts of other engines over the same corpus (a session's): the lexical index, the vector stage and the
   * reranker are taken from there when a config with the same index-shaping settings built them (indexShareKeys).
   */
  shared?: SharedParts;
  /** Names the corpus in an error (e.g. its folder and globs), such as an index too large for the heap. */
  corpusName?: string;
  /** Clock for the lexical cache's load-or-rebuild costs (default performance.now; tests script it). */
  now?: () => number;
  /**
   * Cancels the build (between documents, points, batches) and receives its progress. A rebuild that update()
   * left for later follows the signal of the search that starts it, with this work's progress.
   */
  work?: Work;
}

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const engine = new RetrievalEngine(options);
  await engine.init();
  return engine;
}

/**
 * The lexical index behind a built-in engine (shared with every engine of the same index-shaping settings), for
 * callers that recombine its cached field scores themselves (a boost sweep); undefined for another engine.
 */
export function lexicalIndexOf(engine: Engine): LexicalIndex | undefined {
  return engine instanceof RetrievalEngine ? engine.lexicalIndex : undefined;
}

/** The lexical index with what it was built from; a corpus change is applied once, whoever shares it. */
class LexicalPart {
  private updating: Promise<void> = Promise.resolve();
  constructor(
    readonly index: LexicalIndex,
    public corpusFingerprint: string,
    readonly info: NonNullable<BuildInfo['lexical']>,
    readonly notes: string[],
    readonly warnings: string[] = [],
  ) {}

  update(diff: DocumentDiff): Promise<void> {
    if (diff.corpusFingerprint === this.corpusFingerprint) return this.updating;
    this.corpusFingerprint = diff.corpusFingerprint;
    this.updating = this.index.update(diff.upsert ?? [], diff.delete ?? []);
    return this.updating;
  }
}

const NO_DOCS: ReadonlyMap<string, Document> = new Map();

class RetrievalEngine implements Engine {
  readonly config: RankConfig;
  /**
   * Only the rerank step reads documents by id, so only a config with one indexes them: a map of every id took
   * ~0.5-1 s of a warm start at 1M documents, for each config's engine.
   */
  private readonly docsById?: Map<string, Document>;
  private lexical?: LexicalPart;
  private vector?: VectorStage;
  private reranker?: Reranker;
  private readonly rerankCache: RerankScoreCache;
  /** The config whose engine built each part this one shares (absent: built here). */
  private readonly sharedWith: Partial<Record<SharedPartKind, string>> = {};
  private readonly notes: string[] = [];

  constructor(private readonly options: EngineOptions) {
    this.config = options.config;
    if (options.config.rerank) this.docsById = new Map(options.docs.map((d) => [d.id, d]));
    this.rerankCache = options.rerankCache ?? new RerankScoreCache();
  }

  get lexicalIndex(): LexicalIndex | undefined {
    return this.lexical?.index;
  }

  get build(): BuildInfo {
    const info: BuildInfo = { notes: [...(this.lexical?.notes ?? []), ...(this.vector?.notes ?? []), ...this.notes] };
    if (this.lexical) info.lexical = this.lexical.info;
    // a shared part's warnings were given by the engine that built it
    if (this.lexical?.warnings.length && !this.sharedWith.lexical) info.warnings = [...this.lexical.warnings];
    if (this.vector?.info) info.vector = this.vector.info;
    if (Object.keys(this.sharedWith).length) info.sharedWith = { ...this.sharedWith };
    return info;
  }

  /** A part from the shared store when there is one and the part may be shared, else built for this engine alone. */
  private async part<T>(kind: SharedPartKind, make: () => Promise<T>, usable?: (part: T) => boolean, sharable = true): Promise<T> {
    const key = indexShareKeys(this.config)[kind];
    if (!this.options.shared || !key || !sharable) return make();
    const got: SharedPart<T> = await this.options.shared.use(kind, key, this.config.name, make, {
      signal: this.options.work?.signal,
      usable,
    });
    if (got.owner !== this.config.name) this.sharedWith[kind] = got.owner;
    return got.value;
  }

  async init(): Promise<void> {
    const { config, docs, corpusFingerprint, cacheDir } = this.options;
    const current = (p: { corpusFingerprint: string }) => p.corpusFingerprint === corpusFingerprint;
    if (config.lexical) {
      const fields = Object.keys(config.lexical.fields);
      this.lexical = await this.part(
        'lexical',
        async () => {
          const r = await buildOrLoadLexical(docs, corpusFingerprint, fields, createAnalyzer(config.lexical!.analyzer), cacheDir, {
            now: this.options.now,
            work: this.options.work,
            corpusName: this.options.corpusName,
          });
          return new LexicalPart(r.index, corpusFingerprint, { source: r.source, ms: r.ms }, r.notes, r.warnings);
        },
        current,
      );
    }
    if (config.vector) {
      const { embedder, providers, work } = this.options;
      this.vector = await this.part(
        'vector',
        () => VectorStage.build({ config, docs, corpusFingerprint, cacheDir, embedder, providers, work }),
        current,
        !embedder,
      );
    }
    if (config.rerank) {
      const given = this.options.reranker;
      const providers = this.options.providers;
      this.reranker =
        given ?? (providers ? await this.part('rerank', async () => createReranker(config.rerank!.provider, providers)) : undefined);
      if (!this.reranker) throw new InputError(`${config.name}: "rerank" needs a reranker (no provider context given)`);
    }
  }

  async learnedModels(signal?: AbortSignal): Promise<LearnedModels> {
    return this.vector ? this.vector.learnedModels(signal) : {};
  }

  async exactVectorSearch(text: string, k: number, filter?: DocFilter): Promise<string[] | undefined> {
    return this.vector?.exactSearch(text, k, filter);
  }

  async search(text: string, options: SearchOptions = {}): Promise<SearchResult> {
    const v = this.vector;
    await v?.current(options.signal);
    const parts: EngineParts = {
      config: this.config,
      lexical: this.lexical?.index,
      exact: v?.exact,
      hnsw: v?.hnsw,
      embedder: v?.embedder,
      vectorCache: v?.queries,
      reranker: this.reranker,
      docsById: this.docsById ?? NO_DOCS,
      rerankCache: this.rerankCache,
    };
    return runPipeline(parts, text, options);
  }

  suggest(prefix: string, options: SuggestOptions = {}): Suggestion[] | undefined {
    return this.lexical?.index.suggest(prefix, options);
  }

  /** Each part applies the change once, however many engines share it (see LexicalPart, VectorStage). */
  async update(diff: DocumentDiff): Promise<void> {
    for (const id of diff.delete ?? []) this.docsById?.delete(id);
    for (const d of diff.upsert ?? []) this.docsById?.set(d.id, d);
    await this.lexical?.update(diff);
    await this.vector?.update(diff);
  }
}
