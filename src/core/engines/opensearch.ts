/**
 * OpenSearch and Elasticsearch (the same query DSL and REST API for everything Ranklab sends): queries go in
 * `_msearch` batches of `request.batchSize`, `request.concurrency` batches in flight; a query the engine
 * rejects inside a batch (its own `error`) fails alone, and one rejected for load (429, 5xx) is sent again
 * with the retry settings. Documents are fetched with `_mget` (or a `terms` query when the id is a field),
 * written with `_bulk`.
 */
import { ProviderError } from '../util/provider-error';
import { abortableSleep } from '../util/cooperative';
import { retryable } from '../util/http-client';
import {
  type Dialect,
  type DialectContext,
  type EngineAnswer,
  type EngineDocument,
  type EngineHit,
  type EngineQuery,
  idString,
  mapLimit,
} from './dialect';
import { engineKind } from '../config/engine-kinds';

interface MsearchItem {
  status?: number;
  took?: number;
  error?: unknown;
  hits?: {
    total?: number | { value: number; relation?: string };
    hits?: Array<{ _id?: string; _score?: number | null; _source?: Record<string, unknown>; fields?: Record<string, unknown> }>;
  };
}

export function openSearchDialect(ctx: DialectContext): Dialect {
  const { config, http } = ctx;
  const base = `${config.url}/${encodeURIComponent(config.index)}`;
  const admin = (extra?: Record<string, string>) => ({ ...(ctx.authorization ? { authorization: ctx.authorization } : {}), ...extra });
  const JSON_TYPE = { 'content-type': 'application/json' };
  const NDJSON = { 'content-type': 'application/x-ndjson' };
  const byId = config.idField === '_id';

  /** Sets what Ranklab needs and the template left open: the page size, the fields to return, an exact count. */
  function body(q: EngineQuery, fetchFields: string[] | undefined): Record<string, unknown> {
    const b = { ...q.request };
    if (b.size === undefined) b.size = q.k;
    const wanted = [...(fetchFields ?? []), ...(byId ? [] : [config.idField])];
    if (b._source === undefined) b._source = wanted.length ? wanted : false;
    return b;
  }

  function answerOf(item: MsearchItem, requestMs: number): EngineAnswer | Error {
    if (item.error !== undefined || (item.status !== undefined && item.status >= 300)) {
      return new ProviderError(`the engine refused the query (${item.status ?? 'error'}): ${describeError(item.error)}`, base, {
        key: 'engine.template',
        status: item.status,
      });
    }
    const hits: EngineHit[] = [];
    for (const h of item.hits?.hits ?? []) {
      const id = byId ? h._id : idString(h._source?.[config.idField] ?? h.fields?.[config.idField]);
      if (id === undefined) return new ProviderError(`a hit has no "${config.idField}"`, base, { key: 'engine.idField' });
      hits.push({ id, score: typeof h._score === 'number' ? h._score : null, source: h._source });
    }
    const t = item.hits?.total;
    const total = typeof t === 'number' ? t : typeof t?.value === 'number' ? t.value : hits.length;
    const lowerBound = typeof t === 'object' && t?.relation === 'gte';
    return { hits, total, totalIsLowerBound: lowerBound, engineMs: item.took, requestMs };
  }

  /** One `_msearch` request; items the engine rejected for load are returned for another try. */
  async function msearch(
    batch: readonly EngineQuery[],
    fetchFields: string[] | undefined,
    signal?: AbortSignal,
  ): Promise<Array<EngineAnswer | Error>> {
    const lines = batch.flatMap((q) => [{}, body(q, fetchFields)]);
    const { body: res, response } = await http.json<{ responses?: MsearchItem[] }>({
      method: 'POST',
      url: `${base}/_msearch`,
      body: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
      headers: { ...NDJSON, ...(batch[0]?.authorization ? { authorization: batch[0].authorization } : {}) },
      signal,
    });
    const items = res.responses;
    if (!Array.isArray(items) || items.length !== batch.length) {
      throw new ProviderError(
        `_msearch answered ${Array.isArray(items) ? items.length : 'no'} responses for ${batch.length} queries`,
        `${base}/_msearch`,
        { key: 'engine' },
      );
    }
    return items.map((item) => answerOf(item, response.ms));
  }

  return {
    async search(queries, opts) {
      const { batchSize, concurrency, maxRetries, retryDelayMs } = config.request;
      // Queries with other credentials cannot share a request.
      const batches: number[][] = [];
      const open = new Map<string | undefined, number[]>();
      queries.forEach((q, i) => {
        let b = open.get(q.authorization);
        if (!b || b.length >= batchSize) {
          open.set(q.authorization, (b = []));
          batches.push(b);
        }
        b.push(i);
      });
      const out = new Array<EngineAnswer | Error>(queries.length);
      await mapLimit(batches, concurrency, async (indexes) => {
        let pending = indexes;
        for (let attempt = 0; pending.length; attempt++) {
          let answers: Array<EngineAnswer | Error>;
          try {
            answers = await msearch(
              pending.map((i) => queries[i]!), // batches hold indexes of queries
              opts.fetchFields,
              opts.signal,
            );
          } catch (e) {
            if (opts.signal?.aborted || !(e instanceof ProviderError)) throw e;
            for (const i of pending) out[i] = e; // the whole request failed (after the client's retries)
            return;
          }
          const again: number[] = [];
          answers.forEach((a, j) => {
            const i = pending[j]!; // msearch answers each query it was sent, in order
            const loaded = a instanceof ProviderError && a.status !== undefined && retryable(a.status);
            if (loaded && attempt < maxRetries) again.push(i);
            else out[i] = a;
          });
          if (again.length) await abortableSleep(retryDelayMs * 2 ** attempt, opts.signal);
          pending = again;
        }
      });
      return out;
    },

    async fetch(ids, fields, opts) {
      const found = new Map<string, Record<string, unknown>>();
      const headers = { ...JSON_TYPE, ...(opts.authorization ? { authorization: opts.authorization } : {}) };
      for (let i = 0; i < ids.length; i += 1000) {
        const chunk = ids.slice(i, i + 1000);
        if (byId) {
          const { body } = await http.json<{ docs?: Array<{ _id: string; found?: boolean; _source?: Record<string, unknown> }> }>({
            method: 'POST',
            url: `${base}/_mget?${new URLSearchParams({ _source_includes: fields.join(',') }).toString()}`,
            body: JSON.stringify({ ids: chunk }),
            headers,
            signal: opts.signal,
          });
          for (const d of body.docs ?? []) if (d.found) found.set(d._id, d._source ?? {});
        } else {
          const { body } = await http.json<{ hits?: { hits?: Array<{ _source?: Record<string, unknown> }> } }>({
            method: 'POST',
            url: `${base}/_search`,
            headers,
            signal: opts.signal,
            body: JSON.stringify({
              size: chunk.length,
              _source: [...fields, config.idField],
              query: { terms: { [config.idField]: chunk } },
            }),
          });
          for (const h of body.hits?.hits ?? []) {
            const id = idString(h._source?.[config.idField]);
            if (id !== undefined) found.set(id, h._source ?? {});
          }
        }
      }
      return found;
    },

    async indexExists(signal) {
      const r = await http.send({ method: 'HEAD', url: base, headers: admin(), signal });
      if (r.status === 200) return true;
      if (r.status === 404) return false;
      throw new ProviderError(`HEAD ${base} answered ${r.status} ${r.statusText}`, base, { key: 'engine.index', status: r.status });
    },

    async deleteIndex(signal) {
      const r = await http.send({ method: 'DELETE', url: base, headers: admin(), signal });
      if (r.status !== 200 && r.status !== 404)
        throw new ProviderError(`DELETE ${base} answered ${r.status}: ${r.text.slice(0, 300)}`, base, {
          key: 'engine.index',
          status: r.status,
        });
    },

    async createIndex(layout, signal) {
      const properties: Record<string, unknown> = {};
      for (const f of layout.text) properties[f] = { type: 'text' };
      for (const f of [...layout.keyword, ...layout.keywords]) properties[f] = { type: 'keyword' };
      for (const f of layout.boolean) properties[f] = { type: 'boolean' };
      const settings: Record<string, unknown> = { number_of_shards: 1, number_of_replicas: 0 };
      if (layout.vector) {
        const { field, dimension, space } = layout.vector;
        if (engineKind(config.kind).vectorField === 'dense_vector') {
          properties[field] = { type: 'dense_vector', dims: dimension, index: true, similarity: space === 'ip' ? 'dot_product' : 'cosine' };
        } else {
          // The k-NN plugin's Lucene engine: pure Java (faiss/nmslib need native libraries a cluster may lack).
          properties[field] = {
            type: 'knn_vector',
            dimension,
            method: { name: 'hnsw', engine: 'lucene', space_type: space === 'ip' ? 'innerproduct' : 'cosinesimil' },
          };
          settings['index.knn'] = true;
        }
      }
      await http.json({
        method: 'PUT',
        url: base,
        headers: admin(JSON_TYPE),
        body: JSON.stringify({ settings, mappings: { dynamic: false, properties } }),
        signal,
      });
    },

    async bulk(docs, signal) {
      const lines = docs.flatMap((d: EngineDocument) => [
        { index: { _id: d.id } },
        byId ? d.fields : { ...d.fields, [config.idField]: d.id },
      ]);
      const { body } = await http.json<{ errors?: boolean; items?: Array<{ index?: { _id?: string; error?: unknown } }> }>({
        method: 'POST',
        url: `${base}/_bulk`,
        headers: admin(NDJSON),
        body: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
        signal,
      });
      if (!body.errors) return [];
      return (body.items ?? [])
        .filter((it) => it.index?.error)
        .map((it) => ({ id: String(it.index?._id), reason: describeError(it.index?.error) }));
    },

    async commit(signal) {
      await http.json({ method: 'POST', url: `${base}/_refresh`, headers: admin(), signal });
    },

    async count(signal) {
      const { body } = await http.json<{ count?: number }>({ method: 'GET', url: `${base}/_count`, headers: admin(), signal });
      return body.count ?? 0;
    },
  };
}

/** The engine's error object in one line: type and reason, and the root cause's when it differs. */
function describeError(error: unknown): string {
  if (typeof error === 'string') return error;
  const e = error as
    | {
        type?: string;
        reason?: string;
        root_cause?: Array<{ type?: string; reason?: string }>;
        caused_by?: { type?: string; reason?: string };
      }
    | undefined;
  if (!e) return 'unknown error';
  const main = [e.type, e.reason].filter(Boolean).join(': ');
  const root = e.root_cause?.[0] ?? e.caused_by;
  const rootText = root ? [root.type, root.reason].filter(Boolean).join(': ') : '';
  return rootText && rootText !== main ? `${main} (${rootText})` : main || JSON.stringify(error).slice(0, 300);
}
