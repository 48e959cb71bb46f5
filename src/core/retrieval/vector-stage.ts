/**
 * What a config's vector stage reads — the embedder (or the LSA model trained on the corpus), the document vectors
 * in an exact index and their HNSW graph — built or loaded from the cache, kept current as documents change, and
 * shared by every engine of a session whose config has the same vector settings (shared-parts.ts), with the
 * per-query cache of query vectors and neighbours (query-cache.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from '../corpus/document';
import type { RankConfig } from '../config/types';
import { writeFileAtomic } from '../util/atomic-write';
import { sha256Hex } from '../util/content-hash';
import { Work, abortable } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import { fingerprint } from '../util/fingerprint';
import { configAnalyzer } from './analyzer';
import type { DocFilter } from './doc-filter';
import { ExactIndex } from './exact';
import type { BuildInfo, DocumentDiff, LearnedModels } from './pipeline';
import { embedEach, embedQuery } from './providers/embed';
import { createEmbedder, type ProviderContext } from './providers/factory';
import { createLsaEmbedder, LsaModel, trainLsaSliced } from './providers/lsa';
import { precomputedDocumentVectors } from './providers/precomputed';
import type { Embedder } from './providers/types';
import { VectorQueryCache } from './query-cache';
import { loadScanModule } from './simd/kernels';
import { HnswIndex } from './vector-index';
import { availableVectorMemory, checkVectorsFit, estimateVectorMemory } from './vector-memory';

export interface VectorStageOptions {
  /** The config of the engine that builds the stage (its vector section and analyzer; its name labels the work). */
  config: RankConfig;
  docs: readonly Document[];
  corpusFingerprint: string;
  cacheDir?: string;
  /** A given embedder instead of the one the config names (then the stage is not shared). */
  embedder?: Embedder;
  providers?: ProviderContext;
  work?: Work;
  /** The memory the vectors may take (default: RANKLAB_VECTOR_MEMORY_MB or what the system has available). */
  memory?: { bytes: number; source: string };
}

export class VectorStage {
  info?: NonNullable<BuildInfo['vector']>;
  readonly notes: string[] = [];
  readonly queries = new VectorQueryCache();
  exact?: ExactIndex;
  hnsw?: HnswIndex;
  embedder?: Embedder;
  private lsa?: LsaModel;
  private docs: readonly Document[];
  /** The corpus the stage answers for (an update with the same fingerprint has been applied already). */
  corpusFingerprint: string;
  /** Set by update(): the vector stage must be rebuilt (`all`: LSA retrained and every vector recomputed). */
  private staleVectors?: 'all' | 'hnsw';
  /** The rebuild under way, and the cancellation of the caller that started it. */
  private rebuilding?: { done: Promise<void>; signal?: AbortSignal };
  private updating: Promise<void> = Promise.resolve();
  private readonly config: RankConfig;

  constructor(private readonly options: VectorStageOptions) {
    this.config = options.config;
    this.docs = options.docs;
    this.corpusFingerprint = options.corpusFingerprint;
  }

  static async build(options: VectorStageOptions): Promise<VectorStage> {
    const stage = new VectorStage(options);
    await stage.buildVectors(stage.work());
    return stage;
  }

  /** The stage's work for one build: its phases labelled with the config, stopped by `signal`. */
  private work(signal = this.options.work?.signal): Work {
    return new Work({ ...this.options.work?.options, signal, label: this.config.name });
  }

  /** Is the embedder the LSA model this stage trains on the corpus (rather than a fixed, given model)? */
  private get trainsLsa(): boolean {
    return !this.options.embedder && this.config.vector?.embedder.provider === 'lsa';
  }

  /** Embeds every document (or takes their vectors), fills the exact index, then builds or loads the HNSW graph. */
  private async buildVectors(work: Work): Promise<void> {
    const v = this.config.vector!;
    const docs = this.docs;
    const t0 = performance.now();
    const provider = v.embedder.provider;
    let docVectors: Map<string, Float32Array> | undefined;
    if (this.trainsLsa) {
      const ordered = byId(docs);
      this.lsa = await this.lsaModel(v.embedder, ordered, work);
      this.embedder = createLsaEmbedder(this.lsa);
      const vs = this.lsa.docVectors(); // in training order, one per document (a loaded model: its count checked)
      docVectors = new Map(ordered.map((d, i) => [d.id, vs[i]!]));
    }
    this.embedder ??= this.options.embedder;
    if (!this.embedder) {
      if (!this.options.providers) throw new InputError(`${this.config.name}: "vector" needs an embedder (no provider context given)`);
      this.embedder = createEmbedder(v.embedder, this.options.providers);
    }
    if (!docVectors && provider === 'precomputed' && !this.options.embedder) {
      const pre = precomputedDocumentVectors(docs as Document[], typeof v.embedder.field === 'string' ? v.embedder.field : 'vector');
      docVectors = pre.vectors;
      const [problem] = pre.diagnostics;
      if (problem) this.notes.push(`vector: ${pre.diagnostics.length} document vector problem(s), first: ${problem.message}`);
    }
    if (!docVectors && this.embedder.dimension) this.checkFits(docs.length, this.embedder.dimension);
    if (!docVectors) {
      docVectors = new Map();
      const batch = 64;
      const slicer = work.phase('embedding', docs.length);
      for (let i = 0; i < docs.length; i += batch) {
        const slice = docs.slice(i, i + batch);
        const vs = await embedEach(this.embedder, slice.map(embedText), 'document', work.signal);
        slice.forEach((d, j) => docVectors!.set(d.id, vs[j]!)); // one vector per text (embedEach)
        if (slicer.due()) await slicer.pause(i + slice.length);
      }
    }
    const embedMs = performance.now() - t0;
    const first = docVectors.values().next().value as Float32Array | undefined;
    const dim = first?.length ?? this.embedder.dimension ?? 0;
    this.checkFits(docVectors.size, dim);
    const t1 = performance.now();
    await loadScanModule(); // the SIMD kernels (compiled once per process); without them the JS ones
    // storage applies to exact search only: as HNSW's fallback and recall reference the index stays float32
    this.exact = new ExactIndex(dim, v.space, { capacity: docVectors.size, storage: v.exact ? v.storage : undefined });
    for (const [id, vec] of docVectors) this.exact.set(id, vec);
    this.queries.clear();
    const source = v.exact ? 'built' : await this.buildOrLoadHnsw(work);
    this.info = { source, ms: performance.now() - t1, embedMs, embedderId: this.embedder.id, exact: v.exact, scan: this.exact.kernel };
  }

  /** Refuses (InputError) vectors that would not fit in memory, before they are embedded or indexed. */
  private checkFits(docs: number, dimension: number): void {
    const v = this.config.vector!;
    const estimate = estimateVectorMemory(docs, dimension, {
      storage: v.exact ? v.storage : undefined,
      hnsw: v.exact ? undefined : v.hnsw,
    });
    checkVectorsFit(estimate, `config ${this.config.name}`, this.options.memory ?? availableVectorMemory());
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
    this.queries.clear();
    // One folder per embedder *setting* (the LSA model changes with the corpus; its id is checked below).
    const embedderKey = this.trainsLsa ? `lsa:${lsaCacheKey(this.config)}` : embedderId;
    const dir = this.options.cacheDir
      ? join(this.options.cacheDir, 'vector', fingerprint([embedderKey, v.space, JSON.stringify(v.hnsw)]).replace(/^sha256:/, ''))
      : undefined;
    const cached = dir ? loadHnswCache(dir, this.corpusFingerprint, embedderId) : undefined;
    if (cached?.index) {
      this.hnsw = cached.index;
      return 'cache';
    }
    if (cached?.problem) this.notes.push(`vector: HNSW cache not reused: ${cached.problem}; rebuilt`);
    const ids = byId(this.docs)
      .map((d) => d.id)
      .filter((id) => exact.vectorOf(id));
    this.hnsw = await HnswIndex.buildSliced(
      ids,
      ids.map((id) => exact.vectorOf(id)!),
      exact.dimension,
      v.space,
      v.hnsw,
      work.phase('hnsw', ids.length),
    );
    if (dir) {
      try {
        this.hnsw.save(dir);
        writeFileAtomic(
          join(dir, 'corpus.json'),
          JSON.stringify({ corpus: this.corpusFingerprint, embedder: embedderId, sha256: hnswFileHashes(dir) }),
        );
      } catch (e) {
        this.notes.push(`vector: HNSW cache not written (${(e as Error).message})`);
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
        const bytes = readFileSync(paths.model);
        // The model's own fingerprint covers its vocabulary and term vectors, not its document vectors: the file's
        // hash covers everything (a meta file without one is from before hashes: retrained).
        if (meta.modelSha256 !== sha256Hex(bytes)) {
          this.notes.push(
            `vector: LSA model cache not reused: ${meta.modelSha256 ? 'its content hash does not match (changed after it was written)' : 'it has no content hash (written by an older Ranklab)'}; retrained`,
          );
          throw new Error('stale');
        }
        const model = LsaModel.fromJSON(JSON.parse(bytes.toString('utf8')), tokenize);
        if (model.fingerprint === meta.model && model.settings.documentCount === docs.length) return model;
      } catch {
        // retrain below
      }
    }
    const model = await trainLsaSliced(docs.map(embedText), opts, work.phase('lsa', docs.length));
    if (paths) {
      try {
        const bytes = Buffer.from(JSON.stringify(model.toJSON()));
        writeFileAtomic(paths.model, bytes);
        writeFileAtomic(
          paths.meta,
          JSON.stringify({
            corpus: this.corpusFingerprint,
            model: model.fingerprint,
            modelSha256: sha256Hex(bytes),
          } satisfies LsaCacheMeta),
        );
      } catch (e) {
        this.notes.push(`vector: LSA model cache not written (${(e as Error).message})`);
      }
    }
    return model;
  }

  /**
   * Rebuilds what update() left stale; concurrent callers share one rebuild. The rebuild stops when the signal of
   * the caller that started it aborts (what was stale stays stale); a caller still waiting then starts it again.
   */
  async current(signal?: AbortSignal): Promise<void> {
    await this.updating;
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
          if (what === 'all') await this.buildVectors(work);
          else {
            const t = performance.now();
            this.info!.source = await this.buildOrLoadHnsw(work);
            this.info!.ms = performance.now() - t;
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
    await this.current(signal);
    return this.lsa ? { lsa: this.lsa.fingerprint } : {};
  }

  async exactSearch(text: string, k: number, filter?: DocFilter): Promise<string[] | undefined> {
    await this.current();
    if (!this.exact || !this.embedder) return undefined;
    const q = await embedQuery(this.embedder, text);
    return this.exact.search(q, k, filter).map((h) => h.id);
  }

  /**
   * Applies a corpus change once: every engine sharing the stage calls this with the same diff, and the calls after
   * the first (same corpus fingerprint) only wait for it.
   */
  update(diff: DocumentDiff): Promise<void> {
    if (diff.corpusFingerprint === this.corpusFingerprint) return this.updating;
    this.corpusFingerprint = diff.corpusFingerprint;
    this.docs = diff.docs;
    this.updating = this.apply(diff);
    return this.updating;
  }

  private async apply(diff: DocumentDiff): Promise<void> {
    const upserts = diff.upsert ?? [];
    const deletes = diff.delete ?? [];
    if (!this.exact || !this.embedder || (upserts.length === 0 && deletes.length === 0)) return;
    this.queries.clear();
    if (this.trainsLsa) {
      this.staleVectors = 'all'; // a model of another corpus: retrain (or load the one cached for this corpus)
      return;
    }
    // A fixed embedder: only the changed documents are embedded; exact search over them equals a fresh index.
    if (this.config.vector?.embedder.provider === 'precomputed' && !this.options.embedder) {
      const pre = precomputedDocumentVectors(
        upserts,
        typeof this.config.vector.embedder.field === 'string' ? this.config.vector.embedder.field : 'vector',
      );
      for (const [id, vec] of pre.vectors) this.exact.set(id, vec);
    } else if (upserts.length) {
      const vs = await embedEach(this.embedder, upserts.map(embedText), 'document');
      upserts.forEach((d, i) => this.exact!.set(d.id, vs[i]!)); // one vector per text (embedEach)
    }
    for (const id of deletes) this.exact.delete(id);
    if (this.hnsw) this.staleVectors ??= 'hnsw';
  }
}

/** The cached HNSW graph of `dir` if it was built from exactly this corpus with this embedder. */
/** The sha256 of the two files HnswIndex.save writes, stored in `corpus.json` beside them. */
function hnswFileHashes(dir: string): { bin: string; labels: string } {
  return { bin: sha256Hex(readFileSync(join(dir, 'hnsw.bin'))), labels: sha256Hex(readFileSync(join(dir, 'labels.json'))) };
}

/**
 * The cached HNSW graph of this corpus and embedder, checked against the hashes stored with it; `problem` when one
 * exists but is not usable as it is (changed since it was written, or written before hashes).
 */
function loadHnswCache(dir: string, corpusFingerprint: string, embedderId: string): { index?: HnswIndex; problem?: string } | undefined {
  const corpusPath = join(dir, 'corpus.json');
  if (!existsSync(corpusPath)) return undefined;
  try {
    const built = JSON.parse(readFileSync(corpusPath, 'utf8')) as {
      corpus?: string;
      embedder?: string;
      sha256?: { bin?: string; labels?: string };
    };
    if (built.corpus !== corpusFingerprint || built.embedder !== embedderId) return undefined;
    if (!built.sha256) return { problem: 'it has no content hash (written by an older Ranklab)' };
    const now = hnswFileHashes(dir);
    if (now.bin !== built.sha256.bin || now.labels !== built.sha256.labels)
      return { problem: 'its content hash does not match (changed after it was written)' };
  } catch {
    return undefined;
  }
  const index = HnswIndex.load(dir);
  return index && { index };
}

/** Bump when training or the cache layout changes, so older cached models are retrained. */
const LSA_CACHE_FORMAT = 'lsa@3';

/** What an LSA model in the cache was trained on: the corpus fingerprint and the model's own fingerprint. */
interface LsaCacheMeta {
  corpus: string;
  model: string;
  /** sha256 of the model file (absent before hashes: such a model is retrained). */
  modelSha256?: string;
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
