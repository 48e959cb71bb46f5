import type { Principal } from '../acl/policy';
import type { EngineConfig, RankConfig } from '../config/types';
import type { BuildInfo, Engine, LearnedModels, SearchOptions, SearchResult } from '../retrieval/pipeline';
import type { ProviderConfig } from '../config/types';
import { createEmbedder, type ProviderContext } from '../retrieval/providers/factory';
import type { Embedder } from '../retrieval/providers/types';
import type { RankedDoc } from '../run/types';
import { InputError } from '../util/diagnostics';
import { HttpClient, type HttpClientOptions } from '../util/http-client';
import { type Dialect, type EngineAnswer, type EngineQuery, authorizationHeader, vectorJson } from './dialect';
import { openSearchDialect } from './opensearch';
import { solrDialect } from './solr';
import { TemplateError, renderTemplate } from '../config/engine-template';
import { engineKind } from '../config/engine-kinds';

/** Each dialect of the engine-kind table (config/engine-kinds.ts), by the name the table gives it. */
const DIALECTS = { opensearch: openSearchDialect, solr: solrDialect } as const;

/** Most ids fetched per query to verify a hit count (`collectMatches`): OpenSearch's default result window. */
export const MATCH_LIMIT = 10_000;

export interface RemoteEngineContext {
  /** False in untrusted workspaces: no request is ever sent (a clear error instead). */
  allowNetwork: boolean;
  /** Where credentials variables are looked up (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** For the config's `embedder` (`{{vector}}`). */
  providers?: ProviderContext;
  /** Overrides the config's embedder (tests, benchmarks). */
  embedder?: Embedder;
  /** Test hook of the HTTP client: the wait between retries (see HttpClientOptions). */
  http?: Pick<HttpClientOptions, 'sleep'>;
}

/** A document's title and text as the engine stores them (`engine.fields`). */
export interface EngineText {
  title: string;
  body: string;
}

/**
 * An external search engine as a Ranklab `Engine`: every query fills the config's template (and, as a principal,
 * its filter), goes to the engine, and the hits come back as a ranked list with the engine's scores, its hit count
 * and two latencies: `engine` (what the engine says it took: `took`, `QTime`) and `request` (the round trip Ranklab
 * measured for the request that carried the query: with `_msearch`, the whole batch). The index is the engine's:
 * `update` changes nothing, and nothing is learned from the corpus.
 */
export class RemoteEngine implements Engine {
  readonly build: BuildInfo = { notes: [] };
  readonly engine: EngineConfig;
  private readonly dialect: Dialect;
  private readonly embedder?: Embedder;
  private readonly authorization?: string;
  private readonly env: Record<string, string | undefined>;

  constructor(
    readonly config: RankConfig,
    ctx: RemoteEngineContext,
  ) {
    if (!config.engine) throw new Error(`${config.name}: not an engine config`);
    const engine = config.engine;
    this.engine = engine;
    if (!ctx.allowNetwork) {
      throw new InputError(`querying ${engine.url} needs network access, which is not allowed here (untrusted workspace)`, [], {
        key: 'engine.url',
        hint: 'trust the workspace to evaluate engine configs',
      });
    }
    this.env = ctx.env ?? process.env;
    this.authorization = engine.auth ? this.credentials(engine.auth.env, 'engine.auth.env') : undefined;
    const http = new HttpClient({
      timeoutMs: engine.request.timeoutMs,
      maxRetries: engine.request.maxRetries,
      retryDelayMs: engine.request.retryDelayMs,
      headers: { accept: 'application/json' },
      settingPath: 'engine.request',
      ...ctx.http,
    });
    const dialectContext = { config: engine, http, authorization: this.authorization };
    this.dialect = DIALECTS[engineKind(engine.kind).dialect](dialectContext);
    if (engine.embedder) {
      this.embedder = ctx.embedder;
      if (!this.embedder) {
        if (!ctx.providers) throw new Error('internal: engine.embedder without a provider context');
        this.embedder = createEmbedder(engine.embedder as ProviderConfig, { ...ctx.providers, settingPath: 'engine.embedder' });
      }
    }
    this.build.notes.push(`${engine.kind} ${engine.url} index ${engine.index}`);
  }

  /** The engine's HTTP operations (index administration and document fetches; see Dialect). */
  get api(): Dialect {
    return this.dialect;
  }

  /** The query embedder of `{{vector}}`, if the config has one (`ranklab index` embeds the documents with it). */
  get queryEmbedder(): Embedder | undefined {
    return this.embedder;
  }

  /** The `Authorization` header for a credentials variable; the value is never put in a message. */
  private credentials(variable: string, setting: string): string {
    const value = this.env[variable];
    if (!value)
      throw new InputError(`the environment variable ${variable} is not set (it should hold the credentials for ${this.engine.url})`, [], {
        key: setting,
      });
    return authorizationHeader(this.engine.auth?.scheme ?? 'basic', value);
  }

  /**
   * Document-level security: a principal with `"credentials": {"env": "VAR"}` in principals.json searches with
   * those credentials (same scheme as `engine.auth`), so the engine's own security decides what they see.
   */
  private authorizationFor(principal: Principal | undefined): string | undefined {
    const creds = principal?.credentials as { env?: unknown } | undefined;
    if (creds === undefined) return this.authorization;
    if (typeof creds !== 'object' || creds === null || typeof creds.env !== 'string' || !creds.env) {
      throw new InputError(`"credentials" must be {"env": "VARIABLE"}`, [], { key: `principal "${principal!.name}"` });
    }
    return this.credentials(creds.env, `principal "${principal!.name}" credentials.env`);
  }

  /** The filled request of one query (pure given its inputs; `renderTemplate` does the work). */
  request(text: string, opts: { k: number; principal?: Principal; vector?: readonly number[] }): Record<string, unknown> {
    const { engine } = this;
    const principal = opts.principal ? { ...opts.principal, credentials: undefined } : undefined;
    const vars = { query: text, k: opts.k, params: engine.params, principal, vector: opts.vector };
    try {
      let filter: unknown;
      if (principal && engine.filter) filter = renderTemplate(engine.filter, vars, 'engine.filter');
      const request = renderTemplate(engine.template, { ...vars, filter }, 'engine.template') as Record<string, unknown>;
      // A query of parameters (Solr): the access parameters are added to the query's (fq values appended).
      if (engineKind(engine.kind).query === 'params' && filter) return mergeParams(request, filter as Record<string, unknown>);
      return request;
    } catch (e) {
      if (e instanceof TemplateError) throw new InputError(e.message);
      throw e;
    }
  }

  async search(text: string, options: SearchOptions = {}): Promise<SearchResult> {
    const [r] = await this.searchMany([text], options);
    if (r instanceof Error) throw r;
    return r!; // one result per text
  }

  /**
   * Runs many queries at once (batched and in parallel per `engine.request`). A query that still failed after
   * the retries gets its error in its slot; the others are kept.
   */
  async searchMany(texts: readonly string[], options: SearchOptions = {}): Promise<Array<SearchResult | Error>> {
    const { signal, principal } = options;
    const pageSize = options.pageSize;
    const k = options.collectMatches ? Math.max(MATCH_LIMIT, pageSize ?? 0) : (pageSize ?? options.stageDepth ?? this.engine.depth);
    const authorization = this.authorizationFor(principal);
    const noFilter =
      principal && !this.engine.filter && authorization === this.authorization
        ? `searching as ${principal.name}, but the engine config has no "filter" and the principal no credentials: no access control is sent`
        : undefined;
    let vectors: Float32Array[] | undefined;
    let embedMs = 0;
    if (this.embedder) {
      const t = performance.now();
      vectors = await this.embedder.embed([...texts], 'query', signal);
      embedMs = (performance.now() - t) / Math.max(1, texts.length);
    }
    const queries: EngineQuery[] = texts.map((text, i) => ({
      request: this.request(text, { k, principal, vector: vectors ? vectorJson(vectors[i]!) : undefined /* one vector per text */ }),
      k,
      authorization,
    }));
    const fields = options.fetchText ? [this.engine.fields.title, this.engine.fields.text] : undefined;
    const answers = await this.dialect.search(queries, { fetchFields: fields, signal });
    return answers.map((a) =>
      a instanceof Error ? a : this.result(a, { pageSize, collect: !!options.collectMatches, embedMs, noFilter, fetchText: !!fields }),
    );
  }

  private result(
    a: EngineAnswer,
    opts: { pageSize?: number; collect: boolean; embedMs: number; noFilter?: string; fetchText: boolean },
  ): SearchResult {
    const notes: string[] = [];
    if (opts.noFilter) notes.push(opts.noFilter);
    // Ranklab orders final lists by score (ties by id, as trec_eval); a list the engine sorted otherwise keeps its order.
    const ordered = a.hits.every((h, i) => h.score !== null && (i === 0 || h.score <= (a.hits[i - 1]?.score ?? Infinity)));
    if (!ordered) notes.push("engine: scores missing or not in rank order (a sort?); the engine's order is kept with scores n, n−1, …, 1");
    const all: RankedDoc[] = a.hits.map((h, i) => {
      const score = ordered ? h.score! : a.hits.length - i;
      return { id: h.id, score, stages: { engine: { rank: i + 1, score } } };
    });
    const docs = opts.pageSize !== undefined ? all.slice(0, opts.pageSize) : all;
    if (a.totalIsLowerBound) notes.push(`engine: the hit count ${a.total} is a lower bound (the engine stopped counting)`);
    const result: SearchResult = {
      docs,
      total: a.total,
      notes,
      stageIds: { engine: all.map((d) => d.id) },
      latencyMs: {
        ...(a.engineMs !== undefined ? { engine: a.engineMs } : {}),
        ...(opts.embedMs ? { embed: opts.embedMs } : {}),
        request: a.requestMs,
        total: a.requestMs + opts.embedMs,
      },
    };
    if (opts.collect) {
      result.matches = all.map((d) => d.id);
      if (a.total > all.length)
        notes.push(`engine: ${all.length} of ${a.total} matching documents listed (at most ${MATCH_LIMIT} per query)`);
    }
    if (opts.fetchText) {
      result.texts = new Map(
        a.hits.slice(0, docs.length).map((h) => [
          h.id,
          {
            title: textOf(h.source?.[this.engine.fields.title]),
            body: textOf(h.source?.[this.engine.fields.text]),
          },
        ]),
      );
    }
    return result;
  }

  /** Stored fields of documents by id, with the config's credentials (ids the engine lacks are absent). */
  fetchFields(ids: readonly string[], fields: readonly string[], signal?: AbortSignal): Promise<Map<string, Record<string, unknown>>> {
    return this.dialect.fetch(ids, fields, { authorization: this.authorization, signal });
  }

  /** The engine's index is not Ranklab's: a corpus change is for `ranklab index` to send, not for the engine to follow. */
  async update(): Promise<void> {}

  async learnedModels(): Promise<LearnedModels> {
    return {};
  }

  async exactVectorSearch(): Promise<string[] | undefined> {
    return undefined;
  }
}

export function isRemoteEngine(engine: Engine): engine is RemoteEngine {
  return engine instanceof RemoteEngine;
}

/** Solr parameters of the filter added to the query's: a parameter in both becomes multi-valued (fq, fq). */
function mergeParams(request: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out = { ...request };
  for (const [key, value] of Object.entries(extra)) {
    if (out[key] === undefined) out[key] = value;
    else out[key] = [...[out[key]].flat(), ...[value].flat()];
  }
  return out;
}

/** A stored field as text (Solr returns multi-valued fields as lists). */
function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.filter((x) => typeof x === 'string').join(' ');
  if (v === undefined || v === null) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v as number | boolean | bigint);
}
