import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from '../corpus/document';
import { DEFAULT_ANALYZER } from '../config/defaults';
import type { RankConfig } from '../config/types';
import type { RankedDoc, StageName } from '../run/types';
import { writeFileAtomic } from '../util/atomic-write';
import { Work, abortable } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { fingerprint } from '../util/fingerprint';
import { createAnalyzer } from './analyzer';
import type { DocFilter } from './doc-filter';
import { ExactIndex } from './exact';
import { reciprocalRankFusion } from './fusion';
import { buildOrLoadLexical } from './index-cache';
import type { LexicalIndex } from './lexical';
import { createEmbedder, createReranker, type EmbedderConfig, type ProviderContext, type RerankerConfig } from './providers/factory';
import { createLsaEmbedder, LsaModel, trainLsaSliced } from './providers/lsa';
import { precomputedDocumentVectors } from './providers/precomputed';
import type { Embedder, Reranker } from './providers/types';
import { RerankScoreCache, rerankCandidates } from './rerank';
import type { ScoredId } from './ranking';
import { loadScanModule } from './simd/kernels';
import { HnswIndex } from './vector-index';

export interface EngineOptions {
  docs: readonly Document[];
  corpusFingerprint: string;
  config: RankConfig;
  /** Index caches go below this folder (lexical/, vector/, lsa/). None = build in memory every time. */
  cacheDir?: string;
  /** Overrides the embedder the config names (tests, or a caller that already built one). */
  embedder?: Embedder;
  reranker?: Reranker;
  /** Needed to create embedders/rerankers from the config (other than `lsa`, which is trained here). */
  providers?: ProviderContext;
  /** Shared across engines so several configs over one corpus do not re-score pairs. */
  rerankCache?: RerankScoreCache;
  /** Clock for the lexical cache's load-or-rebuild costs (default performance.now; tests script it). */
  now?: () => number;
  /**
   * Cancels the build (between documents, points, batches) and receives its progress. A rebuild that update()
   * left for later follows the signal of the search that starts it, with this work's progress.
   */
  work?: Work;
}

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
}

export interface SearchResult {
  docs: RankedDoc[];
  /** Matching documents the user may see (lexical: every permitted match; vector: permitted docs retrieved). */
  total: number;
  latencyMs: { lexical?: number; vector?: number; fused?: number; rerank?: number; total: number };
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
  update(diff: DocumentDiff): Promise<void>;
  /** The learned models behind the current results (brings the vector stage up to date first; `signal` stops that). */
  learnedModels(signal?: AbortSignal): Promise<LearnedModels>;
  /** Exact top-k vector ids for a query (for ANN recall reports); undefined without a vector stage. */
  exactVectorSearch(text: string, k: number, filter?: DocFilter): Promise<string[] | undefined>;
  /** Autocomplete from the lexical index (MiniSearch autoSuggest); undefined without a lexical stage. */
  suggest?(prefix: string, options?: SuggestOptions): Suggestion[] | undefined;
}

/** When the permitted share of the corpus is below this, vector pre-filtering uses exact search. */
export const EXACT_FALLBACK_SHARE = 0.05;

export async function createEngine(options: EngineOptions): Promise<Engine> {
  const engine = new RetrievalEngine(options);
  await engine.init();
  return engine;
}

class RetrievalEngine implements Engine {
  readonly config: RankConfig;
  readonly build: BuildInfo = { notes: [] };
  private readonly docsById = new Map<string, Document>();
  /** The corpus the engine answers for, in corpus order (what a fresh engine would be built from). */
  private docs: readonly Document[];
  private corpusFingerprint: string;
  private lexical?: LexicalIndex;
  private hnsw?: HnswIndex;
  private exact?: ExactIndex;
  private embedder?: Embedder;
  private lsa?: LsaModel;
  private reranker?: Reranker;
  private readonly rerankCache: RerankScoreCache;
  /** Set by update(): the vector stage must be rebuilt (`all`: LSA retrained and every vector recomputed). */
  private staleVectors?: 'all' | 'hnsw';
  /** The rebuild under way, and the cancellation of the caller that started it. */
  private rebuilding?: { done: Promise<void>; signal?: AbortSignal };

  constructor(private readonly options: EngineOptions) {
    this.config = options.config;
    this.docs = options.docs;
    this.corpusFingerprint = options.corpusFingerprint;
    for (const d of options.docs) this.docsById.set(d.id, d);
    this.rerankCache = options.rerankCache ?? new RerankScoreCache();
  }

  /** The engine's work for one build: its phases labelled with the config, stopped by `signal`. */
  private work(signal = this.options.work?.signal): Work {
    return new Work({ ...this.options.work?.options, signal, label: this.config.name });
  }

  async init(): Promise<void> {
    const { config, docs, corpusFingerprint, cacheDir } = this.options;
    const work = this.work();
    if (config.lexical) {
      const fields = Object.keys(config.lexical.fields);
      const r = await buildOrLoadLexical(docs, corpusFingerprint, fields, createAnalyzer(config.lexical.analyzer), cacheDir, { now: this.options.now, work });
      this.lexical = r.index;
      this.build.lexical = { source: r.source, ms: r.ms };
      this.build.notes.push(...r.notes);
    }
    if (config.vector) await this.buildVectorStage(work);
    if (config.rerank) {
      this.reranker = this.options.reranker ?? (this.options.providers
        ? createReranker(config.rerank.provider as unknown as RerankerConfig, this.options.providers)
        : undefined);
      if (!this.reranker) throw new InputError(`${config.name}: "rerank" needs a reranker (no provider context given)`);
    }
  }

  /** Is the embedder the LSA model this engine trains on the corpus (rather than a fixed, given model)? */
  private get trainsLsa(): boolean {
    return !this.options.embedder && this.config.vector?.embedder.provider === 'lsa';
  }

  /** Embeds every document (or takes their vectors), fills the exact index, then builds or loads the HNSW graph. */
  private async buildVectorStage(work: Work): Promise<void> {
    const v = this.config.vector!;
    const docs = this.docs;
    const t0 = performance.now();
    const provider = v.embedder.provider;
    let docVectors: Map<string, Float32Array> | undefined;
    if (this.trainsLsa) {
      const ordered = byId(docs);
      this.lsa = await this.lsaModel(v.embedder, ordered, work);
      this.embedder = createLsaEmbedder(this.lsa);
      const vs = this.lsa.docVectors(); // in training order
      docVectors = new Map(ordered.map((d, i) => [d.id, vs[i]]));
    }
    this.embedder ??= this.options.embedder;
    if (!this.embedder) {
      if (!this.options.providers) throw new InputError(`${this.config.name}: "vector" needs an embedder (no provider context given)`);
      this.embedder = createEmbedder(v.embedder as EmbedderConfig, this.options.providers);
    }
    if (!docVectors && provider === 'precomputed' && !this.options.embedder) {
      const pre = precomputedDocumentVectors(docs as Document[], typeof v.embedder.field === 'string' ? v.embedder.field : 'vector');
      docVectors = pre.vectors;
      if (pre.diagnostics.length) this.build.notes.push(`vector: ${pre.diagnostics.length} document vector problem(s), first: ${pre.diagnostics[0].message}`);
    }
    if (!docVectors) {
      docVectors = new Map();
      const batch = 64;
      const slicer = work.phase('embedding', docs.length);
      for (let i = 0; i < docs.length; i += batch) {
        const slice = docs.slice(i, i + batch);
        const vs = await this.embedder.embed(slice.map(embedText), 'document', work.signal);
        slice.forEach((d, j) => docVectors!.set(d.id, vs[j]));
        if (slicer.due()) await slicer.pause(i + slice.length);
      }
    }
    const embedMs = performance.now() - t0;
    const first = docVectors.values().next().value as Float32Array | undefined;
    const dim = first?.length ?? this.embedder.dimension ?? 0;
    const t1 = performance.now();
    await loadScanModule(); // the SIMD kernels (compiled once per process); without them the JS ones
    // storage applies to exact search only: as HNSW's fallback and recall reference the index stays float32
    this.exact = new ExactIndex(dim, v.space, { capacity: docVectors.size, storage: v.exact ? v.storage : undefined });
    for (const [id, vec] of docVectors) this.exact.set(id, vec);
    const source = v.exact ? 'built' : await this.buildOrLoadHnsw(work);
    this.build.vector = { source, ms: performance.now() - t1, embedMs, embedderId: this.embedder.id, exact: v.exact, scan: this.exact.kernel };
  }

  /**
   * The HNSW graph of the current vectors: loaded from the cache when it was built from exactly this corpus and
   * embedder, else built afresh and cached. Never updated in place: a graph patched with markDelete/addPoint ranks
   * differently from a fresh one (test/unit/retrieval/reproducible.test.ts), so results would depend on history.
   * Built from the exact index's vectors in id order, so a rebuild after update() equals a fresh engine's and the
   * graph depends only on which documents there are (what the corpus fingerprint names), not on file order.
   */
  private async buildOrLoadHnsw(work: Work): Promise<'built' | 'cache'> {
    const v = this.config.vector!;
    const exact = this.exact!;
    const embedderId = this.embedder!.id;
    // One folder per embedder *setting* (the LSA model changes with the corpus; its id is checked below).
    const embedderKey = this.trainsLsa ? `lsa:${lsaCacheKey(this.config)}` : embedderId;
    const dir = this.options.cacheDir ? join(this.options.cacheDir, 'vector', fingerprint([embedderKey, v.space, JSON.stringify(v.hnsw)]).replace(/^sha256:/, '')) : undefined;
    const cached = dir ? loadHnswCache(dir, this.corpusFingerprint, embedderId) : undefined;
    if (cached) {
      this.hnsw = cached;
      return 'cache';
    }
    const ids = byId(this.docs).map((d) => d.id).filter((id) => exact.vectorOf(id));
    this.hnsw = await HnswIndex.buildSliced(ids, ids.map((id) => exact.vectorOf(id)!), exact.dimension, v.space, v.hnsw, work.phase('hnsw', ids.length));
    if (dir) {
      try {
        this.hnsw.save(dir);
        writeFileAtomic(join(dir, 'corpus.json'), JSON.stringify({ corpus: this.corpusFingerprint, embedder: embedderId }));
      } catch (e) {
        this.build.notes.push(`vector: HNSW cache not written (${(e as Error).message})`);
      }
    }
    return 'built';
  }

  /**
   * LSA is trained on the corpus, `docs` in id order (with the fixed seed the same documents give the same model,
   * whatever the file order), and cached by analyzer and settings with the fingerprint of the corpus it was trained
   * on. Any other corpus retrains it: a model reused across an edit would embed the new documents by projection
   * and give numbers that depend on which corpus version the cache happened to see first.
   */
  private async lsaModel(settings: Record<string, unknown>, docs: readonly Document[], work: Work): Promise<LsaModel> {
    const { cacheDir } = this.options;
    const analyzer = lsaAnalyzer(this.config);
    const tokenize = (text: string) => analyzer.analyze(text);
    const opts = { ...settings, provider: undefined, tokenize } as Parameters<typeof trainLsaSliced>[1];
    const paths = cacheDir ? lsaCachePaths(cacheDir, lsaCacheKey(this.config)) : undefined;
    const meta = paths && readLsaMeta(paths.meta);
    if (paths && meta?.corpus === this.corpusFingerprint) {
      try {
        const model = LsaModel.fromJSON(JSON.parse(readFileSync(paths.model, 'utf8')), tokenize);
        if (model.fingerprint === meta.model && model.settings.documentCount === docs.length) return model;
      } catch {
        // retrain below
      }
    }
    const model = await trainLsaSliced(docs.map(embedText), opts, work.phase('lsa', docs.length));
    if (paths) {
      try {
        writeFileAtomic(paths.model, JSON.stringify(model.toJSON()));
        writeFileAtomic(paths.meta, JSON.stringify({ corpus: this.corpusFingerprint, model: model.fingerprint } satisfies LsaCacheMeta));
      } catch (e) {
        this.build.notes.push(`vector: LSA model cache not written (${(e as Error).message})`);
      }
    }
    return model;
  }

  /**
   * Rebuilds what update() left stale; concurrent callers share one rebuild. The rebuild stops when the signal of
   * the caller that started it aborts (what was stale stays stale); a caller still waiting then starts it again.
   */
  private async vectorsCurrent(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (!this.rebuilding) {
        if (!this.staleVectors) return;
        this.rebuilding = { done: this.rebuildStale(this.work(signal)), signal };
      }
      const current = this.rebuilding;
      try {
        return await abortable(current.done, signal);
      } catch (e) {
        if (current.signal !== signal && current.signal?.aborted && !signal?.aborted) continue;
        throw e;
      }
    }
  }

  private async rebuildStale(work: Work): Promise<void> {
    try {
      while (this.staleVectors) {
        const what = this.staleVectors;
        this.staleVectors = undefined;
        try {
          if (what === 'all') await this.buildVectorStage(work);
          else {
            const t = performance.now();
            this.build.vector!.source = await this.buildOrLoadHnsw(work);
            this.build.vector!.ms = performance.now() - t;
          }
        } catch (e) {
          this.staleVectors ??= what; // retried by the next search
          throw e;
        }
      }
    } finally {
      this.rebuilding = undefined;
    }
  }

  async learnedModels(signal?: AbortSignal): Promise<LearnedModels> {
    await this.vectorsCurrent(signal);
    return this.lsa ? { lsa: this.lsa.fingerprint } : {};
  }

  async exactVectorSearch(text: string, k: number, filter?: DocFilter): Promise<string[] | undefined> {
    await this.vectorsCurrent();
    if (!this.exact || !this.embedder) return undefined;
    const [q] = await this.embedder.embed([text], 'query');
    return this.exact.search(q, k, filter).map((h) => h.id);
  }

  async search(text: string, options: SearchOptions = {}): Promise<SearchResult> {
    await this.vectorsCurrent(options.signal);
    const t0 = performance.now();
    const { config } = this;
    const notes: string[] = [];
    const latencyMs: SearchResult['latencyMs'] = { total: 0 };
    const aclMode = options.aclMode ?? config.acl.mode;
    const filter = options.filter;
    const pre = filter && aclMode === 'pre-filter' ? filter : undefined;
    const stages = new Map<string, RankedDoc>();
    const stageIds: SearchResult['stageIds'] = {};
    const record = (stage: StageName, hits: readonly ScoredId[]) => {
      stageIds[stage] = hits.map((h) => h.id);
      hits.forEach((h, i) => {
        let d = stages.get(h.id);
        if (!d) stages.set(h.id, (d = { id: h.id, score: h.score, stages: {} }));
        d.stages![stage] = { rank: i + 1, score: h.score };
      });
    };
    const permittedIds = new Set<string>(); // for `total`
    const countPermitted = (ids: Iterable<string>) => {
      for (const id of ids) if (!filter || filter(id)) permittedIds.add(id);
    };
    let lexicalTotal = 0;

    let lexicalHits: ScoredId[] | undefined;
    if (this.lexical && config.lexical) {
      const t = performance.now();
      const lx = config.lexical;
      const scoring = { bm25: lx.bm25, prefix: lx.prefix, fuzzy: lx.fuzzy };
      // Unfiltered once (cached), then the predicate is applied while recombining: same set as MiniSearch's `filter`.
      const r = this.lexical.search(text, { ...scoring, boosts: lx.fields, combineWith: lx.combineWith, coordination: lx.coordination, depth: options.stageDepth ?? lx.depth, filter: pre });
      lexicalHits = r.hits;
      lexicalTotal = filter && !pre
        ? this.lexical.search(text, { ...scoring, boosts: lx.fields, combineWith: lx.combineWith, coordination: lx.coordination, depth: 0, filter }).total
        : r.total;
      record('lexical', lexicalHits);
      latencyMs.lexical = performance.now() - t;
    }
    options.signal?.throwIfAborted();

    let vectorHits: ScoredId[] | undefined;
    if (this.exact && this.embedder && config.vector) {
      const t = performance.now();
      const v = { ...config.vector, depth: options.stageDepth ?? config.vector.depth };
      const [q] = await this.embedder.embed([text], 'query', options.signal);
      if (!this.hnsw) {
        vectorHits = this.exact.search(q, v.depth, pre);
      } else if (pre) {
        const permitted = this.exact.permittedCount(pre);
        const share = this.exact.size ? permitted / this.exact.size : 0;
        const want = Math.min(v.depth, permitted);
        vectorHits = share < EXACT_FALLBACK_SHARE ? undefined : this.hnsw.search(q, v.depth, v.hnsw.efSearch, pre);
        if (!vectorHits || vectorHits.length < want) {
          vectorHits = this.exact.search(q, v.depth, pre);
          notes.push(`vector: exact filtered fallback (${(share * 100).toFixed(1)}% permitted)`);
        }
      } else {
        vectorHits = this.hnsw.search(q, v.depth, v.hnsw.efSearch);
      }
      record('vector', vectorHits);
      countPermitted(vectorHits.map((h) => h.id));
      latencyMs.vector = performance.now() - t;
    }
    options.signal?.throwIfAborted();

    let ranked: ScoredId[];
    if (lexicalHits && vectorHits && config.hybrid) {
      const t = performance.now();
      const h = { ...config.hybrid, depth: options.stageDepth ?? config.hybrid.depth };
      ranked = reciprocalRankFusion([
        { name: 'lexical', docs: lexicalHits, weight: h.weights.lexical, depth: h.depth },
        { name: 'vector', docs: vectorHits, weight: h.weights.vector, depth: h.depth },
      ], h.k).slice(0, h.depth);
      record('fused', ranked);
      latencyMs.fused = performance.now() - t;
    } else {
      ranked = lexicalHits ?? vectorHits ?? [];
    }

    if (this.reranker && config.rerank) {
      const t = performance.now();
      const r = await rerankCandidates(this.reranker, text, ranked, this.docsById, {
        topN: config.rerank.topN, topM: config.rerank.topM, maxPassageChars: config.rerank.maxPassageChars,
        cache: this.rerankCache, signal: options.signal,
      });
      ranked = r.hits;
      record('rerank', ranked);
      latencyMs.rerank = performance.now() - t;
    }

    const pageSize = options.pageSize;
    if (filter && aclMode === 'post-filter') {
      const candidates = options.candidates ?? config.acl.candidates;
      const pool = ranked.slice(0, candidates);
      ranked = pool.filter((h) => filter(h.id));
      const wanted = pageSize ?? config.pageSize;
      if (ranked.length < wanted) {
        notes.push(`post-filter: ${ranked.length} of ${pool.length} candidates permitted; page of ${wanted} short by ${wanted - ranked.length}`);
      }
    }
    if (pageSize !== undefined) ranked = ranked.slice(0, pageSize);

    // total: lexical matches are known completely; vector "matches" are the retrieved permitted documents.
    let total = lexicalTotal;
    if (vectorHits) {
      if (lexicalHits) countPermitted(lexicalHits.map((h) => h.id));
      total = Math.max(lexicalTotal, permittedIds.size);
    }

    let matches: string[] | undefined;
    if (options.collectMatches) {
      const set = new Set<string>();
      if (this.lexical && config.lexical) {
        const lx = config.lexical;
        const all = this.lexical.search(text, { bm25: lx.bm25, prefix: lx.prefix, fuzzy: lx.fuzzy, boosts: lx.fields, combineWith: lx.combineWith, coordination: lx.coordination, depth: Infinity, filter });
        for (const h of all.hits) set.add(h.id);
      }
      for (const h of vectorHits ?? []) if (!filter || filter(h.id)) set.add(h.id);
      matches = [...set];
    }

    const docs: RankedDoc[] = ranked.map((h) => ({ id: h.id, score: h.score, stages: stages.get(h.id)?.stages }));
    latencyMs.total = performance.now() - t0;
    return { docs, total, latencyMs, notes, vectorIds: vectorHits?.map((h) => h.id), matches, stageIds };
  }

  suggest(prefix: string, options: SuggestOptions = {}): Suggestion[] | undefined {
    return this.lexical?.suggest(prefix, options);
  }

  async update(diff: DocumentDiff): Promise<void> {
    const upserts = diff.upsert ?? [];
    const deletes = diff.delete ?? [];
    for (const id of deletes) this.docsById.delete(id);
    for (const d of upserts) this.docsById.set(d.id, d);
    this.docs = diff.docs;
    this.corpusFingerprint = diff.corpusFingerprint;
    if (this.lexical) await this.lexical.update(upserts, deletes);
    if (!this.exact || !this.embedder || (upserts.length === 0 && deletes.length === 0)) return;
    if (this.trainsLsa) {
      this.staleVectors = 'all'; // a model of another corpus: retrain (or load the one cached for this corpus)
      return;
    }
    // A fixed embedder: only the changed documents are embedded; exact search over them equals a fresh index.
    if (this.config.vector?.embedder.provider === 'precomputed' && !this.options.embedder) {
      const pre = precomputedDocumentVectors(upserts, typeof this.config.vector.embedder.field === 'string' ? this.config.vector.embedder.field : 'vector');
      for (const [id, vec] of pre.vectors) this.exact.set(id, vec);
    } else if (upserts.length) {
      const vs = await this.embedder.embed(upserts.map(embedText), 'document');
      upserts.forEach((d, i) => this.exact!.set(d.id, vs[i]));
    }
    for (const id of deletes) this.exact.delete(id);
    if (this.hnsw) this.staleVectors ??= 'hnsw';
  }
}

/** The cached HNSW graph of `dir` if it was built from exactly this corpus with this embedder. */
function loadHnswCache(dir: string, corpusFingerprint: string, embedderId: string): HnswIndex | undefined {
  const corpusPath = join(dir, 'corpus.json');
  if (!existsSync(corpusPath)) return undefined;
  try {
    const built = JSON.parse(readFileSync(corpusPath, 'utf8')) as { corpus?: string; embedder?: string };
    if (built.corpus !== corpusFingerprint || built.embedder !== embedderId) return undefined;
  } catch {
    return undefined;
  }
  return HnswIndex.load(dir);
}

/** Bump when training or the cache layout changes, so older cached models are retrained. */
const LSA_CACHE_FORMAT = 'lsa@3';

/** What an LSA model in the cache was trained on: the corpus fingerprint and the model's own fingerprint. */
interface LsaCacheMeta {
  corpus: string;
  model: string;
}

/** LSA tokenizes like the config's lexical stage (or the default analyzer). */
function lsaAnalyzer(config: RankConfig) {
  return createAnalyzer(config.lexical?.analyzer ?? DEFAULT_ANALYZER);
}

/** Cache file stem of an LSA model: analyzer and embedder settings (the corpus it was trained on is in the meta file). */
function lsaCacheKey(config: RankConfig): string {
  return fingerprint([LSA_CACHE_FORMAT, lsaAnalyzer(config).key, JSON.stringify(config.vector!.embedder)]).replace(/^sha256:/, '');
}

/**
 * The learned models an engine for `config` would use on this corpus, read from the cache without building
 * anything (to decide whether a saved run can be reused); undefined when that is not known without training.
 */
export function cachedLearnedModels(config: RankConfig, corpusFingerprint: string, cacheDir?: string): LearnedModels | undefined {
  if (config.vector?.embedder.provider !== 'lsa') return {};
  const meta = cacheDir ? readLsaMeta(lsaCachePaths(cacheDir, lsaCacheKey(config)).meta) : undefined;
  return meta?.corpus === corpusFingerprint && typeof meta.model === 'string' ? { lsa: meta.model } : undefined;
}

function lsaCachePaths(cacheDir: string, key: string): { model: string; meta: string } {
  return { model: join(cacheDir, 'lsa', `${key}.json`), meta: join(cacheDir, 'lsa', `${key}.corpus.json`) };
}

function readLsaMeta(path: string): LsaCacheMeta | undefined {
  try {
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as LsaCacheMeta) : undefined;
  } catch {
    return undefined;
  }
}

/** Documents sorted by id: the order learned models and graphs are built in. */
function byId(docs: readonly Document[]): Document[] {
  return [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** What embedders see of a document (LSA is trained on the same text). */
export function embedText(doc: Pick<Document, 'title' | 'body'>): string {
  return doc.title ? `${doc.title}\n${doc.body}` : doc.body;
}
