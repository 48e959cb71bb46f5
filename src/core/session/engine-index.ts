import { tagsOf } from './search-view';
import type { RankConfig } from '../config/types';
import type { Document } from '../corpus/document';
import { embedText } from '../retrieval/engine';
import type { RanklabSession } from './session';
import { InputError } from '../util/diagnostics';
import { type EngineDocument, type IndexLayout, vectorJson } from '../engines/dialect';
import { isRemoteEngine } from '../engines/remote-engine';

export interface IndexOptions {
  /** Delete and recreate an index that exists (default: refuse to touch it). */
  recreate?: boolean;
  /** Documents per bulk request (default 500). */
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (phase: 'embed' | 'index', done: number, total: number) => void;
}

export interface IndexReport {
  kind: string;
  url: string;
  index: string;
  /** True when an existing index was deleted first (`recreate`). */
  recreated: boolean;
  /** Documents of the workspace corpus. */
  documents: number;
  /** Documents the engine holds afterwards. */
  indexed: number;
  /** Documents not sent: invalid access fields (the engine would show them to someone; the corpus to nobody). */
  skipped: { id: string; file: string; line?: number; reason: string }[];
  /** Documents the engine refused, with its reason. */
  refused: { id: string; reason: string }[];
  fields: IndexLayout;
  vectors?: { embedder: string; dimension: number };
  ms: number;
}

/**
 * `ranklab index --engine CONFIG`: loads the workspace corpus into the config's index, for trying configs on a real
 * engine. The index gets an explicit mapping: title and text (and the corpus' other text fields) as text, `tags`
 * and the access fields as keywords (tenant, groups, the rule's own fields) and a boolean (public), document vectors
 * from the config's `embedder` when it has one. An existing index is left alone unless `recreate` is given.
 */
export async function indexCorpus(session: RanklabSession, config: RankConfig, opts: IndexOptions = {}): Promise<IndexReport> {
  if (!config.engine) throw new InputError(`config ${config.name} has no "engine" section`, [], { key: '--engine' });
  const t0 = performance.now();
  const engine = await session.engine(config);
  if (!isRemoteEngine(engine)) throw new Error('internal: an engine config without a remote engine');
  const e = config.engine;
  const api = engine.api;
  const { signal } = opts;
  const exists = await api.indexExists(signal);
  if (exists && !opts.recreate) {
    throw new InputError(`the index "${e.index}" already exists at ${e.url}`, [], {
      key: 'engine.index',
      hint: 'pass --recreate to delete and rebuild it; its documents are lost',
    });
  }
  const corpus = session.corpus();
  if (corpus.docs.length === 0) throw new InputError('the workspace corpus has no documents to index', [], { file: session.root });
  const settings = session.workspace.settings.corpus;
  const skipped: IndexReport['skipped'] = [];
  const docs: Document[] = [];
  for (const d of corpus.docs) {
    if (d.invalidAcl?.length)
      skipped.push({ id: d.id, file: d.source.path, line: d.source.line, reason: `invalid access field(s) ${d.invalidAcl.join(', ')}` });
    else docs.push(d);
  }
  const ruleFields = settings.aclRuleFields.filter((f) => !['tenant', 'groups', 'public'].includes(f));
  const textFields = [...new Set(docs.flatMap((d) => Object.keys(d.fields)))].filter((f) => f !== e.fields.title && f !== e.fields.text);
  const layout: IndexLayout = {
    text: [e.fields.title, e.fields.text, ...textFields],
    keyword: [e.aclFields.tenant, ...(e.idField !== '_id' && e.idField !== 'id' ? [e.idField] : [])],
    keywords: [e.aclFields.groups, 'tags', ...ruleFields],
    boolean: [e.aclFields.public],
  };

  let vectors: Map<string, number[]> | undefined;
  const embedder = engine.queryEmbedder;
  if (embedder) {
    vectors = new Map();
    const batch = 64;
    for (let i = 0; i < docs.length; i += batch) {
      signal?.throwIfAborted();
      const slice = docs.slice(i, i + batch);
      const vs = await embedder.embed(slice.map(embedText), 'document', signal);
      slice.forEach((d, j) => vectors!.set(d.id, vectorJson(vs[j]!))); // one vector per text
      opts.onProgress?.('embed', Math.min(i + batch, docs.length), docs.length);
    }
    const dimension = vectors.values().next().value?.length ?? 0;
    layout.vector = { field: e.vectorField, dimension, space: 'cosine' };
  }

  if (exists) await api.deleteIndex(signal);
  await api.createIndex(layout, signal);
  const refused: IndexReport['refused'] = [];
  const size = opts.batchSize ?? 500;
  for (let i = 0; i < docs.length; i += size) {
    signal?.throwIfAborted();
    const batch = docs.slice(i, i + size).map((d) => engineDocument(d, config, ruleFields, vectors?.get(d.id)));
    refused.push(...(await api.bulk(batch, signal)));
    opts.onProgress?.('index', Math.min(i + size, docs.length), docs.length);
  }
  await api.commit(signal);
  const indexed = await api.count(signal);
  return {
    kind: e.kind,
    url: e.url,
    index: e.index,
    recreated: exists,
    documents: corpus.docs.length,
    indexed,
    skipped,
    refused,
    fields: layout,
    vectors: embedder && layout.vector ? { embedder: embedder.id, dimension: layout.vector.dimension } : undefined,
    ms: performance.now() - t0,
  };
}

/** A corpus document in the engine's field names: the access values as the corpus normalised them. */
function engineDocument(d: Document, config: RankConfig, ruleFields: string[], vector?: number[]): EngineDocument {
  const e = config.engine!;
  const fields: Record<string, unknown> = { ...d.fields, [e.fields.title]: d.title, [e.fields.text]: d.body };
  const tags = tagsOf(d.meta);
  if (tags.length) fields.tags = tags;
  if (d.meta.tenant !== undefined) fields[e.aclFields.tenant] = d.meta.tenant;
  if (d.meta.groups !== undefined) fields[e.aclFields.groups] = d.meta.groups;
  if (d.meta.public !== undefined) fields[e.aclFields.public] = d.meta.public;
  for (const f of ruleFields) if (d.meta[f] !== undefined) fields[f] = d.meta[f];
  if (vector) fields[e.vectorField] = vector;
  return { id: d.id, fields };
}
