import { fingerprint } from '../util/fingerprint';
import { type EngineKind, engineKind } from './engine-kinds';
import type {
  AclConfig,
  AnalyzerConfig,
  Bm25Params,
  EngineConfig,
  EngineRequestSettings,
  HnswParams,
  HybridConfig,
  LexicalConfig,
  ProviderConfig,
  RankConfig,
  RerankConfig,
  RetrievalMode,
  VectorConfig,
} from './types';

/**
 * Every default of a ranking config, in one place (docs/formats.md lists the same values).
 * BM25: classic k1 1.2, b 0.75 (BM25+ delta 0). Analyzer: lowercase, English stop words, no stemming (stemming is a per-language
 * choice the user makes explicitly), every token kept.
 */
export const DEFAULT_ANALYZER: AnalyzerConfig = { lowercase: true, stopwords: 'english', stemmer: 'none', minLength: 1 };
export const DEFAULT_BM25: Bm25Params = { k1: 1.2, b: 0.75, d: 0 }; // classic BM25; BM25+ (d 0.5) measured worse on med and cranfield
export const DEFAULT_LEXICAL_FIELDS: Record<string, number> = { title: 1, body: 1 };
export const DEFAULT_HNSW: HnswParams = { M: 16, efConstruction: 200, efSearch: 100 };
export const DEFAULT_DEPTH = 100;
export const DEFAULT_RRF_K = 60;
export const DEFAULT_RERANK_TOP_N = 50;
export const DEFAULT_RERANK_TOP_M = 10;
export const DEFAULT_MAX_PASSAGE_CHARS = 2000;
export const DEFAULT_ACL: AclConfig = { mode: 'pre-filter', candidates: 50 };
export const DEFAULT_PAGE_SIZE = 10;
export const DEFAULT_ENGINE_REQUEST: EngineRequestSettings = {
  batchSize: 20,
  concurrency: 2,
  timeoutMs: 30_000,
  maxRetries: 3,
  retryDelayMs: 500,
};

type Raw = Record<string, any>; // validated by the schema before it gets here

function lexicalWithDefaults(raw: Raw): LexicalConfig {
  return {
    fields: { ...(raw.fields ?? DEFAULT_LEXICAL_FIELDS) },
    bm25: { ...DEFAULT_BM25, ...raw.bm25 },
    analyzer: { ...DEFAULT_ANALYZER, ...raw.analyzer },
    prefix: raw.prefix ?? false,
    fuzzy: raw.fuzzy ?? 0,
    combineWith: raw.combineWith ?? 'OR',
    coordination: raw.coordination ?? false,
    depth: raw.depth ?? DEFAULT_DEPTH,
  };
}

function vectorWithDefaults(raw: Raw): VectorConfig {
  return {
    embedder: { ...(raw.embedder as ProviderConfig) },
    space: raw.space ?? 'cosine',
    hnsw: { ...DEFAULT_HNSW, ...raw.hnsw },
    exact: raw.exact ?? false,
    storage: raw.storage === undefined || raw.storage === 'float32' ? undefined : raw.storage,
    depth: raw.depth ?? DEFAULT_DEPTH,
  };
}

function hybridWithDefaults(raw: Raw): HybridConfig {
  return {
    k: raw.k ?? DEFAULT_RRF_K,
    depth: raw.depth ?? DEFAULT_DEPTH,
    weights: { lexical: 1, vector: 1, ...raw.weights },
  };
}

function rerankWithDefaults(raw: Raw): RerankConfig {
  return {
    provider: { ...raw.provider },
    topN: raw.topN ?? DEFAULT_RERANK_TOP_N,
    topM: raw.topM ?? DEFAULT_RERANK_TOP_M,
    maxPassageChars: raw.maxPassageChars ?? DEFAULT_MAX_PASSAGE_CHARS,
  };
}

function engineWithDefaults(raw: Raw): EngineConfig {
  return {
    kind: raw.kind,
    url: String(raw.url).replace(/\/+$/, ''),
    index: raw.index,
    auth: raw.auth ? { env: raw.auth.env, scheme: raw.auth.scheme ?? 'basic' } : undefined,
    template: structuredClone(raw.template),
    filter: raw.filter === undefined ? undefined : structuredClone(raw.filter),
    params: structuredClone(raw.params ?? {}),
    idField: raw.idField ?? engineKind(raw.kind as EngineKind).defaultIdField,
    fields: { title: 'title', text: 'body', ...raw.fields },
    aclFields: { tenant: 'tenant', groups: 'groups', public: 'public', ...raw.aclFields },
    depth: raw.depth ?? DEFAULT_DEPTH,
    embedder: raw.embedder === undefined ? undefined : { ...(raw.embedder as ProviderConfig) },
    vectorField: raw.vectorField ?? 'vector',
    request: { ...DEFAULT_ENGINE_REQUEST, ...raw.request },
  };
}

/**
 * Applies defaults to a schema-valid raw config. An `engine` section replaces the local stages (parse.ts refuses
 * a config that has both). With neither `lexical` nor `vector`, the config is lexical with
 * default settings (so `{}` is a valid BM25 config). `hybrid` alone does nothing: fusion needs both lists.
 */
export function normaliseRankConfig(raw: Raw, name: string): RankConfig {
  if (raw.engine !== undefined) {
    const config: Omit<RankConfig, 'configHash'> = {
      name,
      description: raw.description ?? '',
      mode: 'engine',
      engine: engineWithDefaults(raw.engine),
      acl: { ...DEFAULT_ACL },
      pageSize: raw.pageSize ?? DEFAULT_PAGE_SIZE,
    };
    return { ...config, configHash: hashRankConfig(config) };
  }
  const hasLexical = raw.lexical !== undefined || raw.vector === undefined;
  const lexical = hasLexical ? lexicalWithDefaults(raw.lexical ?? {}) : undefined;
  const vector = raw.vector !== undefined ? vectorWithDefaults(raw.vector) : undefined;
  const mode: RetrievalMode = lexical && vector ? 'hybrid' : vector ? 'vector' : 'lexical';
  const config: Omit<RankConfig, 'configHash'> = {
    name,
    description: raw.description ?? '',
    mode,
    lexical,
    vector,
    hybrid: mode === 'hybrid' ? hybridWithDefaults(raw.hybrid ?? {}) : undefined,
    rerank: raw.rerank !== undefined ? rerankWithDefaults(raw.rerank) : undefined,
    acl: { ...DEFAULT_ACL, ...raw.acl },
    pageSize: raw.pageSize ?? DEFAULT_PAGE_SIZE,
  };
  return { ...config, configHash: hashRankConfig(config) };
}

/** How reports name a config's pipeline: its retrieval mode, `+rerank` when it reranks (e.g. `hybrid+rerank`). */
export function modeLabel(config: Pick<RankConfig, 'mode' | 'rerank'>): string {
  return config.mode + (config.rerank ? '+rerank' : '');
}

/** BM25 over title and body, boost 1 each, default analyzer. */
export function defaultRankConfig(): RankConfig {
  return normaliseRankConfig({}, 'default');
}

/**
 * Hash of what changes results: name and description are left out, keys are sorted. So are an engine's request
 * settings (batching, concurrency, timeouts, retries): they change how a run is made, not what it finds. An
 * engine's `params` are in (another parameter value is another config), and so is the name of its credentials
 * variable (other credentials may see other documents).
 */
export function hashRankConfig(config: Omit<RankConfig, 'configHash'> | RankConfig): string {
  const { name: _n, description: _d, configHash: _h, ...rest } = config as RankConfig;
  if (rest.engine) {
    const { request: _r, ...engine } = rest.engine;
    return fingerprint([stableStringify({ ...rest, engine })]);
  }
  return fingerprint([stableStringify(rest)]);
}

/**
 * The same engine config with other template parameters (merged over its own): a new config with its own hash.
 * What a sweep over `params` calls; the query for each is then `renderTemplate` with these params.
 */
export function withEngineParams(config: RankConfig, params: Record<string, unknown>, name = config.name): RankConfig {
  if (!config.engine) throw new Error(`${config.name}: not an engine config`);
  const { configHash: _h, ...rest } = config;
  const next: Omit<RankConfig, 'configHash'> = {
    ...rest,
    name,
    engine: { ...config.engine, params: { ...config.engine.params, ...structuredClone(params) } },
  };
  return { ...next, configHash: hashRankConfig(next) };
}

export function stableStringify(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}
