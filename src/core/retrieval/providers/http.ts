/**
 * Embedding and rerank services over HTTP.
 *
 * Embeddings (`format`):
 *   openai (default) POST url {model, input: [...], encoding_format: "float"} → {data: [{index, embedding}]}
 *   ollama           POST url {model, input: [...]}                          → {embeddings: [[...]]}   (/api/embed)
 *   tei              POST url {inputs: [...]}                                → [[...]]                 (/embed)
 * Rerank (`format`):
 *   cohere (default) / jina  POST url {model, query, documents, top_n} → {results: [{index, relevance_score}]}
 *   tei                      POST url {query, texts}                   → [{index, score}]
 *
 * Requests are batched, cut off after `timeoutMs` (default 30 s), and retried up to `maxRetries` times
 * (default 3) after `retryDelayMs`·2^attempt (default 500 ms; Retry-After wins) on 429, 5xx, timeouts and
 * network errors, by the shared client (src/core/util/http-client.ts). What still fails is a ProviderError naming
 * the URL and the cause. Cancelling (the caller's AbortSignal) stops a request or a wait at once. The API key comes from the environment variable
 * named by `apiKeyEnv`; it is never part of a config file or of a cache key.
 */
import { InputError } from '../../util/diagnostics';
import { HttpClient } from '../../util/http-client';
import { type ProviderFailure, ProviderError } from './errors';
import { oneOf, positiveInt } from './settings';
import type { Embedder, Reranker } from './types';

export type HttpEmbeddingFormat = 'openai' | 'ollama' | 'tei';
export type HttpRerankFormat = 'cohere' | 'jina' | 'tei';

interface HttpCommonConfig {
  provider: 'http';
  /** The full endpoint URL, e.g. `http://localhost:11434/api/embed`. */
  url: string;
  model?: string;
  /** Name of the environment variable holding the API key (sent as `Authorization: Bearer`). */
  apiKeyEnv?: string;
  batchSize?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** First wait before a retry, doubled each time (default 500). */
  retryDelayMs?: number;
}

export interface HttpEmbedderConfig extends HttpCommonConfig {
  format?: HttpEmbeddingFormat;
  queryPrefix?: string;
  documentPrefix?: string;
  /** OpenAI `dimensions` (shortened embeddings), sent only when set. */
  dimensions?: number;
}

export interface HttpRerankerConfig extends HttpCommonConfig {
  format?: HttpRerankFormat;
}

export interface HttpOptions {
  /** False in untrusted workspaces: every HTTP provider refuses to be created. */
  allowNetwork: boolean;
  /** Config path used in error messages, e.g. `vector.embedder` or `rerank.provider`. */
  settingPath: string;
  /** Where `apiKeyEnv` is looked up (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** Backoff base in ms when the config has no `retryDelayMs` (default 500). */
  retryBaseMs?: number;
  /** Replaceable for tests that want to see the waits without waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const DEFAULT_BATCH = 64;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 3;
const DEFAULT_RETRY_DELAY_MS = 500;

// ---------------------------------------------------------------------------------------------
// Shared request machinery: the settings of one endpoint and the shared client (util/http-client.ts)

interface Settings {
  url: string;
  batchSize: number;
  settingPath: string;
  http: HttpClient;
}

function settingsFrom(config: HttpCommonConfig, opts: HttpOptions): Settings {
  const sp = opts.settingPath;
  if (!opts.allowNetwork) {
    throw new InputError(
      `${sp}: the "http" provider needs network access, which is not allowed here (untrusted workspace or network ` +
        `access switched off). Trust the workspace or use a local provider.`,
    );
  }
  if (typeof config.url !== 'string' || config.url === '') throw new InputError(`${sp}.url is missing: give the full endpoint URL.`);
  let parsed: URL;
  try {
    parsed = new URL(config.url);
  } catch {
    throw new InputError(`${sp}.url is not a valid URL: ${JSON.stringify(config.url)}.`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new InputError(`${sp}.url must be http or https (got ${parsed.protocol}).`);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKeyEnv !== undefined) {
    const env = opts.env ?? process.env;
    const key = env[config.apiKeyEnv];
    if (!key) {
      throw new InputError(
        `${sp}.apiKeyEnv: the environment variable ${config.apiKeyEnv} is not set (it should hold the API key for ${config.url}).`,
      );
    }
    headers.authorization = `Bearer ${key}`;
  }
  return {
    url: config.url,
    batchSize: positiveInt(config.batchSize, DEFAULT_BATCH, `${sp}.batchSize`),
    settingPath: sp,
    http: new HttpClient({
      headers,
      timeoutMs: positiveInt(config.timeoutMs, DEFAULT_TIMEOUT_MS, `${sp}.timeoutMs`),
      maxRetries: positiveInt(config.maxRetries, DEFAULT_RETRIES, `${sp}.maxRetries`, true),
      retryDelayMs: positiveInt(config.retryDelayMs, opts.retryBaseMs ?? DEFAULT_RETRY_DELAY_MS, `${sp}.retryDelayMs`, true),
      settingPath: sp,
      sleep: opts.sleep,
    }),
  };
}

/** POSTs JSON and returns the parsed response (retries and failures: HttpClient). */
async function postJson(s: Settings, body: unknown, signal?: AbortSignal, onSend?: () => void): Promise<unknown> {
  return (await s.http.json({ method: 'POST', url: s.url, body: JSON.stringify(body), signal, onSend })).body;
}

/** A failure of the service at `s.url`, about the provider's setting unless a more precise key is given. */
function providerError(s: Settings, f: { reason: string } & ProviderFailure): ProviderError {
  return new ProviderError(f.reason, s.url, { ...f, key: f.key ?? s.settingPath });
}

function badShape(s: Settings, expected: string): ProviderError {
  return providerError(s, { reason: `unexpected response from ${s.url}: expected ${expected}`, key: `${s.settingPath}.format` });
}

function toVector(s: Settings, v: unknown, expected: string): Float32Array {
  if (!Array.isArray(v) || v.length === 0 || v.some((x) => typeof x !== 'number')) throw badShape(s, expected);
  return Float32Array.from(v as number[]);
}

// ---------------------------------------------------------------------------------------------
// Embedder

export class HttpEmbedder implements Embedder {
  readonly id: string;
  private dim: number | undefined;
  private readonly s: Settings;
  private readonly format: HttpEmbeddingFormat;

  constructor(
    private readonly config: HttpEmbedderConfig,
    opts: HttpOptions,
  ) {
    this.s = settingsFrom(config, opts);
    this.format = oneOf(config.format, ['openai', 'ollama', 'tei'], `${opts.settingPath}.format`);
    if (this.format !== 'tei' && !config.model)
      throw new InputError(`${opts.settingPath}.model is missing (the ${this.format} format sends it).`);
    this.id = [
      'http',
      this.format,
      config.url,
      `model=${config.model ?? ''}`,
      `dimensions=${config.dimensions ?? ''}`,
      `qp=${JSON.stringify(config.queryPrefix ?? '')}`,
      `dp=${JSON.stringify(config.documentPrefix ?? '')}`,
    ].join('|');
  }

  get dimension(): number | undefined {
    return this.dim;
  }

  private requestBody(input: string[]): unknown {
    switch (this.format) {
      case 'openai':
        return {
          model: this.config.model,
          input,
          encoding_format: 'float',
          ...(this.config.dimensions ? { dimensions: this.config.dimensions } : {}),
        };
      case 'ollama':
        return { model: this.config.model, input };
      case 'tei':
        return { inputs: input };
    }
  }

  private parse(json: unknown, n: number): Float32Array[] {
    const s = this.s;
    let vectors: Float32Array[];
    if (this.format === 'openai') {
      const expected = '{"data": [{"index", "embedding": [numbers]}]}';
      const data = (json as { data?: unknown })?.data;
      if (!Array.isArray(data)) throw badShape(s, expected);
      // Servers may answer out of order; `index` says which input each vector belongs to.
      const rows = data.map((d: { index?: unknown; embedding?: unknown }, i) => ({
        index: typeof d?.index === 'number' ? d.index : i,
        v: toVector(s, d?.embedding, expected),
      }));
      rows.sort((a, b) => a.index - b.index);
      vectors = rows.map((r) => r.v);
    } else if (this.format === 'ollama') {
      const expected = '{"embeddings": [[numbers]]}';
      const embs = (json as { embeddings?: unknown })?.embeddings;
      if (!Array.isArray(embs)) throw badShape(s, expected);
      vectors = embs.map((v) => toVector(s, v, expected));
    } else {
      const expected = 'a JSON array of vectors';
      if (!Array.isArray(json)) throw badShape(s, expected);
      vectors = json.map((v) => toVector(s, v, expected));
    }
    if (vectors.length !== n) throw providerError(s, { reason: `${s.url} returned ${vectors.length} vectors for ${n} inputs` });
    return vectors;
  }

  async embed(texts: string[], kind: 'query' | 'document', signal?: AbortSignal): Promise<Float32Array[]> {
    const prefix = (kind === 'query' ? this.config.queryPrefix : this.config.documentPrefix) ?? '';
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.s.batchSize) {
      const batch = texts.slice(i, i + this.s.batchSize).map((t) => prefix + t);
      const vectors = this.parse(await postJson(this.s, this.requestBody(batch), signal), batch.length);
      for (const v of vectors) {
        if (this.dim !== undefined && v.length !== this.dim) {
          throw providerError(this.s, { reason: `${this.s.url} returned vectors of length ${v.length} after ${this.dim}` });
        }
        this.dim = v.length;
        out.push(v);
      }
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Reranker

export class HttpReranker implements Reranker {
  readonly id: string;
  private readonly s: Settings;
  private readonly format: HttpRerankFormat;

  constructor(
    private readonly config: HttpRerankerConfig,
    opts: HttpOptions,
  ) {
    this.s = settingsFrom(config, opts);
    this.format = oneOf(config.format, ['cohere', 'jina', 'tei'], `${opts.settingPath}.format`);
    this.id = ['http-rerank', this.format, config.url, `model=${config.model ?? ''}`].join('|');
  }

  private parse(json: unknown, n: number): number[] {
    const s = this.s;
    const scores = new Array<number>(n).fill(NaN);
    const tei = this.format === 'tei';
    const expected = tei ? '[{"index", "score"}]' : '{"results": [{"index", "relevance_score"}]}';
    const rows = tei ? json : (json as { results?: unknown })?.results;
    if (!Array.isArray(rows)) throw badShape(s, expected);
    for (const r of rows as Array<Record<string, unknown>>) {
      const index = r?.index;
      const score = tei ? r?.score : r?.relevance_score;
      if (typeof index !== 'number' || typeof score !== 'number' || index < 0 || index >= n) throw badShape(s, expected);
      scores[index] = score;
    }
    const missing = scores.findIndex((x) => Number.isNaN(x));
    if (missing >= 0) throw providerError(s, { reason: `${s.url} returned no score for passage ${missing} of ${n}` });
    return scores;
  }

  async score(query: string, passages: string[], signal?: AbortSignal): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < passages.length; i += this.s.batchSize) {
      const batch = passages.slice(i, i + this.s.batchSize);
      const body =
        this.format === 'tei'
          ? { query, texts: batch }
          : { ...(this.config.model ? { model: this.config.model } : {}), query, documents: batch, top_n: batch.length };
      out.push(...this.parse(await postJson(this.s, body, signal), batch.length));
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// For other JSON-over-HTTP callers (the LLM judge, src/core/judging/chat-client.ts)

/**
 * A POST function over this file's request machinery: the same key handling, timeout, retries with backoff on
 * 429/5xx/network errors (Retry-After honoured) and errors naming the URL and the setting. `onSend` is called as
 * each attempt goes out, retries included.
 */
export function jsonPoster(
  config: Omit<HttpRerankerConfig, 'format'>,
  opts: HttpOptions,
): (body: unknown, signal?: AbortSignal, onSend?: () => void) => Promise<unknown> {
  const s = settingsFrom(config, opts);
  return (body, signal, onSend) => postJson(s, body, signal, onSend);
}
