/**
 * Vectors supplied with the corpus (`Document.vector`) instead of computed by a model.
 *
 * Documents: `precomputedDocumentVectors(docs)` returns the valid vectors by document id and reports
 * missing, ragged (other dimension than the majority) and non-numeric vectors as diagnostics.
 *
 * Queries, config `{ provider: "precomputed", field: "vector", queryVectors?: "queries.vectors.jsonl",
 * queryEmbedder?: <another embedder config> }`: an Embedder that answers `embed(texts, 'query')` from
 *   1. `queryVectors`, a JSONL file of `{"text": "...", "vector": [...]}` lines (`"query"` is accepted
 *      for `"text"`; an `"id"` is allowed but unused: `embed` only sees query texts), then
 *   2. `queryEmbedder` for texts not in the file (it must produce vectors in the same space),
 * and fails naming the query when neither has it. `embed(..., 'document')` is refused: document
 * vectors come from the corpus.
 */
import { resolve } from 'node:path';
import type { Document } from '../../corpus/document';
import { type Diagnostic, InputError } from '../../util/diagnostics';
import { fingerprint } from '../../util/fingerprint';
import { readLines } from '../../util/text-file';
import type { Embedder } from './types';

export interface PrecomputedConfig {
  provider: 'precomputed';
  /** Where the vector sits: `vector` (the Document's own vector), or a metadata field name. */
  field?: string;
  /** JSONL file of query vectors, relative to the workspace. */
  queryVectors?: string;
  /** Embeds queries that are not in `queryVectors`. Its config is any other embedder config. */
  queryEmbedder?: unknown;
}

export interface PrecomputedVectors {
  vectors: Map<string, Float32Array>;
  /** The dimension most documents have; undefined when no document has a vector. */
  dimension: number | undefined;
  diagnostics: Diagnostic[];
}

function vectorOf(doc: Document, field: string): unknown {
  if (field === 'vector') return doc.vector ?? doc.meta.vector;
  return doc.meta[field];
}

function isNumberArray(v: unknown): v is number[] {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number' && Number.isFinite(x));
}

export function precomputedDocumentVectors(docs: Document[], field = 'vector'): PrecomputedVectors {
  const diagnostics: Diagnostic[] = [];
  const report = (doc: Document, message: string) =>
    diagnostics.push({ file: doc.source.path, line: doc.source.line ?? 0, severity: 'error', message: `document ${doc.id}: ${message}` });

  const candidates: Array<[Document, number[]]> = [];
  const dimCounts = new Map<number, number>();
  for (const doc of docs) {
    const v = vectorOf(doc, field);
    if (v === undefined || v === null) report(doc, `no "${field}" vector (the precomputed embedder needs one for every document)`);
    else if (!isNumberArray(v)) report(doc, `"${field}" must be a non-empty array of finite numbers`);
    else {
      candidates.push([doc, v]);
      dimCounts.set(v.length, (dimCounts.get(v.length) ?? 0) + 1);
    }
  }
  // The majority dimension wins (ties: the first seen); the odd ones out are the errors.
  let dimension: number | undefined;
  for (const [d, n] of dimCounts) if (dimension === undefined || n > dimCounts.get(dimension)!) dimension = d;
  const vectors = new Map<string, Float32Array>();
  for (const [doc, v] of candidates) {
    if (v.length !== dimension) report(doc, `"${field}" has ${v.length} dimensions, most documents have ${dimension}`);
    else vectors.set(doc.id, Float32Array.from(v));
  }
  return { vectors, dimension, diagnostics };
}

/** Reads `{"text", "vector"}` lines; bad lines are reported with file:line and skipped. */
export function readQueryVectors(path: string, displayPath = path): { vectors: Map<string, Float32Array>; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const vectors = new Map<string, Float32Array>();
  let lines;
  try {
    lines = readLines(path);
  } catch (e) {
    throw new InputError(`${displayPath}: cannot read query vectors: ${(e as Error).message}`);
  }
  let dimension: number | undefined;
  const bad = (line: number, message: string) => diagnostics.push({ file: displayPath, line, severity: 'error', message });
  for (const { line, text } of lines) {
    if (text.trim() === '') continue;
    let rec: { text?: unknown; query?: unknown; vector?: unknown };
    try {
      rec = JSON.parse(text) as typeof rec;
    } catch {
      bad(line, 'not valid JSON');
      continue;
    }
    const q = rec?.text ?? rec?.query;
    if (typeof q !== 'string') bad(line, 'needs a "text" (the query text) string');
    else if (!isNumberArray(rec.vector)) bad(line, '"vector" must be a non-empty array of finite numbers');
    else if (dimension !== undefined && rec.vector.length !== dimension)
      bad(line, `"vector" has ${rec.vector.length} dimensions, earlier lines have ${dimension}`);
    else {
      dimension = rec.vector.length;
      vectors.set(q, Float32Array.from(rec.vector));
    }
  }
  return { vectors, diagnostics };
}

export interface PrecomputedQueryOptions {
  baseDir: string;
  settingPath: string;
  /** The embedder built from `queryEmbedder`, if the config has one (the factory builds it). */
  fallback?: Embedder;
}

export class PrecomputedQueryEmbedder implements Embedder {
  readonly id: string;
  readonly diagnostics: Diagnostic[] = [];
  private readonly table = new Map<string, Float32Array>();

  constructor(
    private readonly config: PrecomputedConfig,
    private readonly opts: PrecomputedQueryOptions,
  ) {
    if (config.queryVectors !== undefined) {
      const { vectors, diagnostics } = readQueryVectors(resolve(opts.baseDir, config.queryVectors), config.queryVectors);
      for (const [k, v] of vectors) this.table.set(k, v);
      this.diagnostics.push(...diagnostics);
    }
    const fileKey = config.queryVectors !== undefined ? fingerprint([...this.table].map(([k, v]) => `${k}\u0001${v.join(',')}`)) : '';
    this.id = ['precomputed', config.field ?? 'vector', fileKey, opts.fallback?.id ?? ''].join('|');
  }

  get dimension(): number | undefined {
    const first = this.table.values().next();
    return first.done ? this.opts.fallback?.dimension : first.value.length;
  }

  async embed(texts: string[], kind: 'query' | 'document', signal?: AbortSignal): Promise<Float32Array[]> {
    if (kind === 'document') {
      throw new InputError(
        `${this.opts.settingPath}: the precomputed provider takes document vectors from the corpus ("${this.config.field ?? 'vector'}" field), it cannot embed documents.`,
      );
    }
    const out: Array<Float32Array | undefined> = texts.map((t) => this.table.get(t));
    const missing = texts.filter((_, i) => !out[i]);
    if (missing.length > 0) {
      if (!this.opts.fallback) {
        throw new InputError(
          `${this.opts.settingPath}: no vector for the query "${missing[0]}"` +
            (missing.length > 1 ? ` (and ${missing.length - 1} more)` : '') +
            `. Add it to ${this.opts.settingPath}.queryVectors${this.config.queryVectors ? ` (${this.config.queryVectors})` : ''} or set ${this.opts.settingPath}.queryEmbedder.`,
        );
      }
      const computed = await this.opts.fallback.embed(missing, 'query', signal);
      let j = 0;
      for (let i = 0; i < out.length; i++) if (!out[i]) out[i] = computed[j++];
    }
    return out.map((v) => Float32Array.from(v!));
  }
}
