import type { EngineConfig } from '../config/types';
import type { HttpClient } from '../util/http-client';

/** One query as the engine is asked it: the filled template (body or parameters) and whose credentials send it. */
export interface EngineQuery {
  request: Record<string, unknown>;
  /** Results wanted (`{{k}}`): also the page size when the template sets none (`size`, `rows`). */
  k: number;
  /** `Authorization` header value; undefined = none. */
  authorization?: string;
}

/** One hit as the engine returned it. */
export interface EngineHit {
  id: string;
  /** The engine's score; null when it gives none (e.g. a query sorted by a field). */
  score: number | null;
  /** Fields fetched with the hit (title, text), when asked for. */
  source?: Record<string, unknown>;
}

/** The engine's answer to one query. */
export interface EngineAnswer {
  hits: EngineHit[];
  /** Matching documents as the engine counts them. */
  total: number;
  /** True when `total` is only a lower bound (OpenSearch `relation: "gte"`). */
  totalIsLowerBound: boolean;
  /** Time the engine says it took (`took`, `QTime`), ms. */
  engineMs?: number;
  /** Round trip measured by Ranklab for the request that carried the query, ms. */
  requestMs: number;
}

/** What `ranklab index` writes: one document in engine field names. */
export interface EngineDocument {
  id: string;
  fields: Record<string, unknown>;
}

/** The fields `ranklab index` creates, by kind of value. */
export interface IndexLayout {
  text: string[];
  keyword: string[];
  keywords: string[];
  boolean: string[];
  vector?: { field: string; dimension: number; space: 'cosine' | 'ip' };
}

/**
 * What differs between engines: how queries, fetches and index updates are sent and answers read. One
 * implementation per kind (opensearch.ts serves OpenSearch and Elasticsearch, solr.ts Solr); the engine
 * adapter (remote-engine.ts) and the indexer share everything else.
 */
export interface Dialect {
  /** Sends queries (batched and in parallel as the request settings say); a query that failed gets an Error. */
  search(queries: readonly EngineQuery[], opts: { fetchFields?: string[]; signal?: AbortSignal }): Promise<Array<EngineAnswer | Error>>;
  /** Stored fields of documents by id (ids the engine does not have are absent from the map). */
  fetch(
    ids: readonly string[],
    fields: readonly string[],
    opts: { authorization?: string; signal?: AbortSignal },
  ): Promise<Map<string, Record<string, unknown>>>;
  indexExists(signal?: AbortSignal): Promise<boolean>;
  deleteIndex(signal?: AbortSignal): Promise<void>;
  createIndex(layout: IndexLayout, signal?: AbortSignal): Promise<void>;
  /** Adds or replaces documents; returns the ones the engine refused, with its reason. */
  bulk(docs: readonly EngineDocument[], signal?: AbortSignal): Promise<{ id: string; reason: string }[]>;
  /** Makes everything written so far searchable. */
  commit(signal?: AbortSignal): Promise<void>;
  /** Documents in the index (after `commit`). */
  count(signal?: AbortSignal): Promise<number>;
}

export interface DialectContext {
  config: EngineConfig;
  http: HttpClient;
  /** The config's own credentials header (index administration, and queries made without a principal's credentials). */
  authorization?: string;
}

/** Runs `fn` over `items` with at most `limit` calls in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i); // i < items.length: the loop's bound
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** `Authorization` header for a credentials value, by scheme (basic: `user:password`). */
export function authorizationHeader(scheme: 'basic' | 'bearer' | 'apikey', value: string): string {
  if (scheme === 'basic') return `Basic ${Buffer.from(value, 'utf8').toString('base64')}`;
  return `${scheme === 'bearer' ? 'Bearer' : 'ApiKey'} ${value}`;
}

/** A string id from an engine value (ids are strings or numbers in every engine). */
export function idString(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (Array.isArray(v) && v.length === 1) return idString(v[0]);
  return undefined;
}

/**
 * A float32 vector as JSON numbers of at most 9 significant digits: exactly the same float32 values (9 digits
 * round-trip any float32), and short enough for every engine (Solr's JSON parser reads a longer number, such
 * as the 19 digits a float32 widened to double may print with, as a string and refuses it for a vector).
 */
export function vectorJson(v: Float32Array | readonly number[]): number[] {
  return Array.from(v, (x) => Number(x.toPrecision(9)));
}
