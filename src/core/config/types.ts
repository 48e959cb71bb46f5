import type { EngineKind } from './engine-kinds';

/** A ranking config after validation and defaults (`configs/NAME.rank.json`). See docs/formats.md. */

export type StopwordList = 'none' | 'english' | 'indonesian' | string[];
export const STEMMER_NAMES = [
  'none',
  'arabic',
  'armenian',
  'bulgarian',
  'danish',
  'dutch',
  'english',
  'finnish',
  'french',
  'german',
  'greek',
  'hungarian',
  'indian',
  'indonesian',
  'irish',
  'italian',
  'lithuanian',
  'nepali',
  'norwegian',
  'portuguese',
  'romanian',
  'russian',
  'serbian',
  'spanish',
  'swedish',
  'tamil',
  'turkish',
  'ukrainian',
] as const;
export type StemmerName = (typeof STEMMER_NAMES)[number];

export interface AnalyzerConfig {
  lowercase: boolean;
  stopwords: StopwordList;
  stemmer: StemmerName;
  /** Tokens shorter than this (in characters, before stemming) are dropped. */
  minLength: number;
}

export interface Bm25Params {
  k1: number;
  b: number;
  /** BM25+ delta (MiniSearch `d`); 0 = classic BM25. */
  d: number;
}

export interface LexicalConfig {
  /** Field name -> boost. Fields with boost 0 are indexed but not searched. */
  fields: Record<string, number>;
  bm25: Bm25Params;
  analyzer: AnalyzerConfig;
  prefix: boolean;
  /** 0 = off; < 1 = edit-distance ratio of term length; >= 1 = absolute edit distance (MiniSearch semantics). */
  fuzzy: number;
  combineWith: 'AND' | 'OR';
  /**
   * Multiply each score by the number of distinct query terms matched (MiniSearch's own ranking). Off by
   * default: plain BM25 sums term scores, which ranks better on every shared collection (see docs/performance.md).
   */
  coordination: boolean;
  depth: number;
}

/**
 * A model provider section (`vector.embedder`, `rerank.provider`): which provider, and its settings, which are passed
 * through to it and checked by it (retrieval/providers/factory.ts); only `provider` is interpreted here.
 */
export interface ProviderConfig {
  provider: 'lsa' | 'transformers' | 'http' | 'precomputed';
  [setting: string]: unknown;
}

export interface HnswParams {
  M: number;
  efConstruction: number;
  efSearch: number;
}

export interface VectorConfig {
  embedder: ProviderConfig;
  /** 'cosine' (default) or 'ip' (inner product on the vectors as given). */
  space: 'cosine' | 'ip';
  hnsw: HnswParams;
  /** Brute-force search over all vectors instead of HNSW. */
  exact: boolean;
  /**
   * Element type of the exact index with `exact`: absent = float32 (left out so that configs written before
   * this setting keep their hash), float16 or int8 (smaller and faster, slightly less exact: see docs/performance.md, "Exact vector search").
   */
  storage?: 'float16' | 'int8';
  depth: number;
}

export interface HybridConfig {
  /** RRF constant. */
  k: number;
  /** How many of each list take part in fusion, and how many fused documents are kept. */
  depth: number;
  weights: { lexical: number; vector: number };
}

export interface RerankConfig {
  provider: ProviderConfig;
  topN: number;
  topM: number;
  /** Passages sent to the reranker are title + body cut to about this many characters. */
  maxPassageChars: number;
}

export interface AclConfig {
  mode: 'pre-filter' | 'post-filter';
  /** post-filter: unfiltered candidates retrieved before forbidden ones are dropped. */
  candidates: number;
}

export type RetrievalMode = 'lexical' | 'vector' | 'hybrid' | 'engine';

/** The kinds and their dialect facts: ./engine-kinds.ts. */
export type { EngineKind };

/** How requests are sent to an engine. Not part of the config hash: it changes how fast, not what is found. */
export interface EngineRequestSettings {
  /** Queries per `_msearch` request (OpenSearch/Elasticsearch; Solr sends one request per query). */
  batchSize: number;
  /** Requests in flight at once. */
  concurrency: number;
  timeoutMs: number;
  /** Retries after a 429, a 5xx, a timeout or a network error. */
  maxRetries: number;
  /** First wait before a retry, doubled each time. */
  retryDelayMs: number;
}

/**
 * An external search engine that replaces the local pipeline (`engine` section; src/core/engines). The query is
 * `template` filled per query (src/core/config/engine-template.ts); `filter` is the access part, filled from the
 * principal's attributes when searching as one.
 */
export interface EngineConfig {
  kind: EngineKind;
  /** Base URL: `http://host:9200` (OpenSearch/Elasticsearch), `http://host:8983/solr` (Solr). */
  url: string;
  /** The index (OpenSearch/Elasticsearch) or core/collection (Solr). */
  index: string;
  /** Credentials come from the environment variable named here; the value is never stored or logged. */
  auth?: { env: string; scheme: 'basic' | 'bearer' | 'apikey' };
  /** OpenSearch/Elasticsearch: the `_search` body; Solr: the request parameters. */
  template: Record<string, unknown>;
  /** The access part: OpenSearch/Elasticsearch put it where the template says `"{{filter}}"`; Solr adds its parameters. */
  filter?: Record<string, unknown>;
  /** Values for `{{params.NAME}}`: what a sweep varies. */
  params: Record<string, unknown>;
  /** Field holding the document id (`_id` for OpenSearch/Elasticsearch, `id` for Solr by default). */
  idField: string;
  /** Engine fields holding a document's title and text (fetched for snippets and judging; written by `ranklab index`). */
  fields: { title: string; text: string };
  /** Engine fields holding the access fields (written by `ranklab index`, read by `check-acl`). */
  aclFields: { tenant: string; groups: string; public: string };
  /** `{{k}}` when evaluating: how many results each query asks for. */
  depth: number;
  /** Embeds the query for `{{vector}}` (and the documents for `ranklab index`). */
  embedder?: ProviderConfig;
  /** Engine field holding document vectors (written by `ranklab index` when there is an embedder). */
  vectorField: string;
  request: EngineRequestSettings;
}

export interface RankConfig {
  /** File name without `.rank.json` ("default" for defaultRankConfig()). */
  name: string;
  description: string;
  mode: RetrievalMode;
  lexical?: LexicalConfig;
  vector?: VectorConfig;
  hybrid?: HybridConfig;
  rerank?: RerankConfig;
  /** An external engine instead of the local stages (then lexical, vector, hybrid and rerank are absent). */
  engine?: EngineConfig;
  acl: AclConfig;
  pageSize: number;
  /** Hash of the normalised config (defaults applied, name and description left out). */
  configHash: string;
}
