/**
 * Solr (standalone cores; SolrCloud collections answer the same query and get requests). Solr has no multi-query
 * request, so each query is one `/select` (JSON Request API: `{"params": …}`, lists as multi-valued parameters),
 * `request.concurrency` in flight; documents are fetched with the real-time get handler (`/get`), written
 * through `/update` after the fields were added with the Schema API (a schemaless or catch-all schema would
 * otherwise guess or silently drop the access fields).
 */
import { ProviderError } from '../util/provider-error';
import { type Dialect, type DialectContext, type EngineAnswer, type EngineHit, type IndexLayout, idString, mapLimit } from './dialect';

interface SelectAnswer {
  responseHeader?: { QTime?: number };
  response?: { numFound?: number; numFoundExact?: boolean; docs?: Array<Record<string, unknown>> };
  error?: { msg?: string };
}

/** The configset `ranklab index` creates cores from: the one every Solr distribution ships. */
export const SOLR_CONFIGSET = '_default';

export function solrDialect(ctx: DialectContext): Dialect {
  const { config, http } = ctx;
  const core = `${config.url}/${encodeURIComponent(config.index)}`;
  const auth = (authorization?: string): Record<string, string> => (authorization ? { authorization } : {});
  const JSON_TYPE = { 'content-type': 'application/json' };
  const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

  /** The id field and `score` are always returned (added to `fl` if the template names other fields). */
  function params(request: Record<string, unknown>, k: number, fetchFields: string[] | undefined): Record<string, unknown> {
    const p: Record<string, unknown> = { ...request, wt: 'json' };
    if (p.rows === undefined) p.rows = k;
    const given =
      p.fl === undefined
        ? []
        : String(p.fl as string | string[])
            .split(/[\s,]+/)
            .filter(Boolean);
    const fl = [...given];
    for (const f of [config.idField, 'score', ...(fetchFields ?? [])]) if (!fl.includes(f) && !fl.includes('*')) fl.push(f);
    p.fl = fl.join(',');
    return p;
  }

  async function admin(query: Record<string, string>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const url = `${config.url}/admin/cores?${new URLSearchParams({ ...query, wt: 'json' }).toString()}`;
    return (await http.json<Record<string, unknown>>({ url, headers: auth(ctx.authorization), signal })).body;
  }

  return {
    async search(queries, opts) {
      return mapLimit(queries, config.request.concurrency, async (q): Promise<EngineAnswer | Error> => {
        const url = `${core}/select`;
        let r;
        try {
          r = await http.send({
            method: 'POST',
            url,
            headers: { ...JSON_TYPE, ...auth(q.authorization) },
            body: JSON.stringify({ params: params(q.request, q.k, opts.fetchFields) }),
            signal: opts.signal,
          });
        } catch (e) {
          if (opts.signal?.aborted || !(e instanceof ProviderError)) throw e;
          return e;
        }
        let body: SelectAnswer;
        try {
          body = JSON.parse(r.text) as SelectAnswer;
        } catch {
          return new ProviderError(`${url} answered ${r.status} with a body that is not JSON: ${r.text.slice(0, 200)}`, url, {
            key: 'engine',
            status: r.status,
          });
        }
        if (r.status !== 200) {
          return new ProviderError(`the engine refused the query (${r.status}): ${body.error?.msg ?? r.text.slice(0, 300)}`, url, {
            key: 'engine.template',
            status: r.status,
          });
        }
        const hits: EngineHit[] = [];
        for (const d of body.response?.docs ?? []) {
          const id = idString(d[config.idField]);
          if (id === undefined) return new ProviderError(`a hit has no "${config.idField}"`, url, { key: 'engine.idField' });
          hits.push({ id, score: typeof d.score === 'number' ? d.score : null, source: d });
        }
        return {
          hits,
          total: body.response?.numFound ?? hits.length,
          totalIsLowerBound: body.response?.numFoundExact === false,
          engineMs: body.responseHeader?.QTime,
          requestMs: r.ms,
        };
      });
    },

    async fetch(ids, fields, opts) {
      const found = new Map<string, Record<string, unknown>>();
      for (let i = 0; i < ids.length; i += 500) {
        const form = new URLSearchParams({ wt: 'json', fl: [...new Set([config.idField, ...fields])].join(',') });
        for (const id of ids.slice(i, i + 500)) form.append('id', id);
        const { body } = await http.json<{ response?: { docs?: Array<Record<string, unknown>> } }>({
          method: 'POST',
          url: `${core}/get`,
          headers: { ...FORM, ...auth(opts.authorization) },
          body: form.toString(),
          signal: opts.signal,
        });
        for (const d of body.response?.docs ?? []) {
          const id = idString(d[config.idField]);
          if (id !== undefined) found.set(id, d);
        }
      }
      return found;
    },

    async indexExists(signal) {
      const body = await admin({ action: 'STATUS', core: config.index }, signal);
      const status = (body.status as Record<string, Record<string, unknown>> | undefined)?.[config.index];
      return !!status && Object.keys(status).length > 0;
    },

    async deleteIndex(signal) {
      if (!(await this.indexExists(signal))) return;
      await admin({ action: 'UNLOAD', core: config.index, deleteIndex: 'true', deleteDataDir: 'true', deleteInstanceDir: 'true' }, signal);
    },

    async createIndex(layout: IndexLayout, signal) {
      await admin({ action: 'CREATE', name: config.index, configSet: SOLR_CONFIGSET }, signal);
      const { body } = await http.json<{ fields?: Array<{ name: string }> }>({
        url: `${core}/schema/fields?wt=json`,
        headers: auth(ctx.authorization),
        signal,
      });
      const existing = new Set((body.fields ?? []).map((f) => f.name));
      const commands: Record<string, unknown>[] = [];
      const add = (name: string, type: string, extra: Record<string, unknown> = {}) => {
        if (!existing.has(name)) commands.push({ 'add-field': { name, type, indexed: true, stored: true, ...extra } });
      };
      for (const f of layout.text) add(f, 'text_general');
      for (const f of layout.keyword) add(f, 'string');
      for (const f of layout.keywords) add(f, 'strings', { multiValued: true });
      for (const f of layout.boolean) add(f, 'boolean');
      if (layout.vector) {
        const { field, dimension, space } = layout.vector;
        const similarity = space === 'ip' ? 'dot_product' : 'cosine';
        const type = `knn_vector_${dimension}_${similarity}`;
        const { body: types } = await http.json<{ fieldTypes?: Array<{ name: string }> }>({
          url: `${core}/schema/fieldtypes?wt=json`,
          headers: auth(ctx.authorization),
          signal,
        });
        if (!(types.fieldTypes ?? []).some((t) => t.name === type)) {
          commands.push({
            'add-field-type': { name: type, class: 'solr.DenseVectorField', vectorDimension: dimension, similarityFunction: similarity },
          });
        }
        add(field, type, { stored: false });
      }
      // One command per request: Solr applies a multi-command body all or nothing and names only the first problem.
      for (const c of commands) {
        await http.json({
          method: 'POST',
          url: `${core}/schema?wt=json`,
          headers: { ...JSON_TYPE, ...auth(ctx.authorization) },
          body: JSON.stringify(c),
          signal,
        });
      }
    },

    async bulk(docs, signal) {
      const body = docs.map((d) => ({ ...d.fields, [config.idField]: d.id }));
      const r = await http.send({
        method: 'POST',
        url: `${core}/update?wt=json`,
        headers: { ...JSON_TYPE, ...auth(ctx.authorization) },
        body: JSON.stringify(body),
        signal,
      });
      if (r.status === 200) return [];
      let reason = r.text.slice(0, 300);
      try {
        reason = (JSON.parse(r.text) as SelectAnswer).error?.msg ?? reason;
      } catch {
        // keep the raw text
      }
      // Solr refuses the whole request and names one document at best.
      return docs.map((d) => ({ id: d.id, reason: `${r.status}: ${reason}` }));
    },

    async commit(signal) {
      await http.json({
        method: 'POST',
        url: `${core}/update?commit=true&wt=json`,
        headers: { ...JSON_TYPE, ...auth(ctx.authorization) },
        body: '[]',
        signal,
      });
    },

    async count(signal) {
      const { body } = await http.json<SelectAnswer>({
        url: `${core}/select?q=*:*&rows=0&wt=json`,
        headers: auth(ctx.authorization),
        signal,
      });
      return body.response?.numFound ?? 0;
    },
  };
}
