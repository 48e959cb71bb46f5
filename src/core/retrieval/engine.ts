/**
 * The built-in engine: builds (or loads from the cache) what a config's steps read — the MiniSearch index, the
 * document vectors with their HNSW graph, the LSA model, the embedder and the reranker — keeps them current as
 * documents change, and runs each query through the pipeline (pipeline.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from '../corpus/document';
import type { RankConfig } from '../config/types';
import { writeFileAtomic } from '../util/atomic-write';
import { Work, abortable } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { fingerprint } from '../util/fingerprint';
import { configAnalyzer, createAnalyzer } from './analyzer';
import type { DocFilter } from './doc-filter';
import { ExactIndex } from './exact';
import { buildOrLoadLexical } from './index-cache';
import type { LexicalIndex } from './lexical';
import { createEmbedder, createReranker, type ProviderContext } from './providers/factory';
import { createLsaEmbedder, LsaModel, trainLsaSliced } from './providers/lsa';
import { precomputedDocumentVectors } from './providers/precomputed';
import type { Embedder, Reranker } from './providers/types';
import { RerankScoreCache } from './rerank';
import { loadScanModule } from './simd/kernels';
import { HnswIndex } from './vector-index';
import {
  type BuildInfo, type DocumentDiff, type Engine, type LearnedModels, type SearchOptions, type SearchResult, type SuggestOptions,
  type Suggestion, runPipeline,
} from './pipeline';
import type { EngineParts } from './steps';

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
        ? createReranker(config.rerank.provider, this.options.providers)
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
      this.embedder = createEmbedder(v.embedder, this.options.providers);
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
    const analyzer = configAnalyzer(this.config);
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
    const parts: EngineParts = {
      config: this.config, lexical: this.lexical, exact: this.exact, hnsw: this.hnsw, embedder: this.embedder,
      reranker: this.reranker, docsById: this.docsById, rerankCache: this.rerankCache,
    };
    return runPipeline(parts, text, options);
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

/** Cache file stem of an LSA model: analyzer and embedder settings (the corpus it was trained on is in the meta file). */
function lsaCacheKey(config: RankConfig): string {
  return fingerprint([LSA_CACHE_FORMAT, configAnalyzer(config).key, JSON.stringify(config.vector!.embedder)]).replace(/^sha256:/, '');
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
