/**
 * The built-in offline embedder: latent semantic analysis (Deerwester et al. 1990).
 *
 * Training: TF-IDF matrix X (documents × terms; sublinear tf 1 + ln tf, idf ln(N/df), rows L2-normalised)
 * → truncated randomized SVD X ≈ U Σ Vᵀ (src/core/math/randomized-svd.ts).
 *
 * Embedding (the same for documents and queries, so cosine is meaningful): v = Vᵀ · tfidf(text), then
 * L2-normalised. For a training document this is its row of U Σ (Vᵀx = ΣUᵀ row), i.e. the classic LSA
 * document representation; we do NOT rescale by Σ⁻¹ (the textbook query fold-in), because that weights
 * every latent dimension equally and lets the weak, noisy ones dominate cosine. A text with no known
 * term embeds as the zero vector.
 */
import { lsaSettingProblems } from '../../config/lsa-settings';
import { type Slicer, type Steps, runSliced, runSync } from '../../util/cooperative';
import { InputError } from '../../util/diagnostics';
import { fingerprint } from '../../util/fingerprint';
import { randomizedSvdSteps } from '../../math/randomized-svd';
import { csrFromRowsSteps } from '../../math/sparse';
import type { Embedder } from './types';

export interface LsaOptions {
  /** Latent dimensions wanted (default 256); clamped to what the corpus supports (see `notes`). */
  dimensions?: number;
  /** Text → terms. Used for training and again for every embedded text; not saved by toJSON. */
  tokenize: (text: string) => string[];
  /** Keep terms occurring in at least this many documents (default 2). */
  minDf?: number;
  /** Drop terms occurring in more than this fraction of documents (default 0.5). */
  maxDfRatio?: number;
  /** Seed of the randomized SVD (default 42). */
  seed?: number;
  /** Subspace iterations of the randomized SVD (default 2). */
  powerIterations?: number;
  /** Extra sketch columns of the randomized SVD (default 10). */
  oversample?: number;
}

/** The training settings, recorded so a cached model says how it was built. */
export interface LsaSettings {
  dimensions: number;
  minDf: number;
  maxDfRatio: number;
  seed: number;
  powerIterations: number;
  oversample: number;
  documentCount: number;
}

/** On-disk form. Float arrays are base64 of little-endian IEEE-754 bytes, so a round trip is bit-exact. */
export interface LsaModelJson {
  format: 'ranklab-lsa';
  version: 1;
  dimension: number;
  vocabulary: string[];
  /** Float64 × vocabulary.length. */
  idf: string;
  /** Float32, vocabulary.length × dimension, row-major (row t = term t's latent vector, a row of V). */
  termVectors: string;
  singularValues: number[];
  /** Float32, documentCount × dimension, row-major. */
  docVectors: string;
  settings: LsaSettings;
  notes: string[];
}

interface LsaModelParts {
  dimension: number;
  vocabulary: string[];
  idf: Float64Array;
  termVectors: Float32Array;
  singularValues: Float64Array;
  docVectors: Float32Array;
  settings: LsaSettings;
  notes: string[];
  tokenize: (text: string) => string[];
}

export class LsaModel {
  readonly dimension: number;
  readonly vocabulary: readonly string[];
  readonly singularValues: Float64Array;
  readonly settings: Readonly<LsaSettings>;
  /** What was adjusted during training (clamped dimensions, dropped terms); empty when nothing was. */
  readonly notes: readonly string[];
  /** Content hash of vocabulary, idf and term vectors: changes whenever the vectors would. */
  readonly fingerprint: string;
  private readonly termIndex: Map<string, number>;
  private readonly idf: Float64Array;
  private readonly termVectors: Float32Array;
  private readonly documentVectors: Float32Array;
  private readonly tokenize: (text: string) => string[];

  constructor(parts: LsaModelParts) {
    this.dimension = parts.dimension;
    this.vocabulary = parts.vocabulary;
    this.idf = parts.idf;
    this.termVectors = parts.termVectors;
    this.singularValues = parts.singularValues;
    this.documentVectors = parts.docVectors;
    this.settings = parts.settings;
    this.notes = parts.notes;
    this.tokenize = parts.tokenize;
    this.termIndex = new Map(parts.vocabulary.map((t, i) => [t, i]));
    this.fingerprint = fingerprint([String(parts.dimension), parts.vocabulary.join('\n'), bytesOf(parts.idf), bytesOf(parts.termVectors)]);
  }

  /** The L2-normalised latent vector of any text (query or document). */
  embedText(text: string): Float32Array {
    const counts = new Map<number, number>();
    for (const token of this.tokenize(text)) {
      const t = this.termIndex.get(token);
      if (t !== undefined) counts.set(t, (counts.get(t) ?? 0) + 1);
    }
    return this.project(tfidfRow(counts, this.idf));
  }

  /** One vector per training text, in training order (equal to embedText of that text). */
  docVectors(): Float32Array[] {
    const d = this.dimension;
    const out: Float32Array[] = [];
    for (let i = 0; i < this.settings.documentCount; i++) out.push(this.documentVectors.slice(i * d, (i + 1) * d));
    return out;
  }

  toJSON(): LsaModelJson {
    return {
      format: 'ranklab-lsa',
      version: 1,
      dimension: this.dimension,
      vocabulary: [...this.vocabulary],
      idf: bytesOf(this.idf).toString('base64'),
      termVectors: bytesOf(this.termVectors).toString('base64'),
      singularValues: Array.from(this.singularValues),
      docVectors: bytesOf(this.documentVectors).toString('base64'),
      settings: { ...this.settings },
      notes: [...this.notes],
    };
  }

  /** Rebuilds a model saved by toJSON. `tokenize` must be the tokenizer it was trained with. */
  static fromJSON(json: unknown, tokenize: (text: string) => string[]): LsaModel {
    const j = json as Partial<LsaModelJson> | null;
    const bad = (why: string): never => {
      throw new InputError(`not a usable LSA model: ${why}`);
    };
    if (!j || typeof j !== 'object') bad('expected an object');
    if (j!.format !== 'ranklab-lsa') bad(`format is ${JSON.stringify(j!.format)}, expected "ranklab-lsa"`);
    if (j!.version !== 1) bad(`unsupported version ${JSON.stringify(j!.version)}`);
    const { dimension, vocabulary, settings } = j as LsaModelJson;
    if (!Number.isInteger(dimension) || dimension < 1) bad('dimension must be a positive integer');
    if (!Array.isArray(vocabulary) || vocabulary.some((t) => typeof t !== 'string')) bad('vocabulary must be an array of strings');
    if (!settings || !Number.isInteger(settings.documentCount)) bad('settings.documentCount missing');
    if (!Array.isArray(j!.singularValues) || j!.singularValues.length !== dimension) bad('singularValues length differs from dimension');
    const idf = new Float64Array(decodeBytes(j!.idf, 'idf', 8, bad));
    const termVectors = new Float32Array(decodeBytes(j!.termVectors, 'termVectors', 4, bad));
    const docVectors = new Float32Array(decodeBytes(j!.docVectors, 'docVectors', 4, bad));
    if (idf.length !== vocabulary.length) bad(`idf has ${idf.length} values for ${vocabulary.length} terms`);
    if (termVectors.length !== vocabulary.length * dimension) bad('termVectors size differs from vocabulary × dimension');
    if (docVectors.length !== settings.documentCount * dimension) bad('docVectors size differs from documentCount × dimension');
    return new LsaModel({
      dimension,
      vocabulary,
      idf,
      termVectors,
      singularValues: Float64Array.from(j!.singularValues!),
      docVectors,
      settings: { ...settings },
      notes: Array.isArray(j!.notes) ? j!.notes.map(String) : [],
      tokenize,
    });
  }

  /** Vᵀ · w for a sparse weight row (term indices ascending), L2-normalised, as Float32. */
  private project(row: SparseRow): Float32Array {
    return projectRow(row, this.termVectors, this.dimension);
  }
}

interface SparseRow {
  indices: number[];
  values: number[];
}

/** (1 + ln tf) · idf per term, L2-normalised; indices ascending so sums run in one fixed order. */
function tfidfRow(counts: Map<number, number>, idf: Float64Array): SparseRow {
  const indices = [...counts.keys()].sort((a, b) => a - b);
  const values = indices.map((t) => (1 + Math.log(counts.get(t)!)) * idf[t]!); // term numbers index idf
  const norm = Math.sqrt(values.reduce((s, v) => s + v * v, 0));
  return { indices, values: norm > 0 ? values.map((v) => v / norm) : values };
}

function projectRow(row: SparseRow, termVectors: Float32Array, dimension: number): Float32Array {
  const acc = new Float64Array(dimension);
  // A value per index; an index is a term, whose vector is termVectors[t·dimension, (t+1)·dimension); c < dimension = acc.length.
  for (let p = 0; p < row.indices.length; p++) {
    const w = row.values[p]!;
    if (w === 0) continue;
    const base = row.indices[p]! * dimension;
    for (let c = 0; c < dimension; c++) acc[c]! += w * termVectors[base + c]!;
  }
  let norm = 0;
  for (const v of acc) norm += v * v;
  norm = Math.sqrt(norm);
  const out = new Float32Array(dimension);
  if (norm > 0) for (let c = 0; c < dimension; c++) out[c] = acc[c]! / norm;
  return out;
}

/** Trains an LSA model on `texts` (documents, in order). Throws InputError when no usable term remains. */
export function trainLsa(texts: string[], opts: LsaOptions): LsaModel {
  return runSync(trainLsaSteps(texts, opts));
}

/** `trainLsa` pausing between documents and inside the SVD (see util/cooperative); stops with the slicer's abort reason. */
export function trainLsaSliced(texts: string[], opts: LsaOptions, slicer: Slicer): Promise<LsaModel> {
  return runSliced(trainLsaSteps(texts, opts), slicer);
}

function* trainLsaSteps(texts: string[], opts: LsaOptions): Steps<LsaModel> {
  const settings: LsaSettings = {
    dimensions: opts.dimensions ?? 256,
    minDf: opts.minDf ?? 2,
    maxDfRatio: opts.maxDfRatio ?? 0.5,
    seed: opts.seed ?? 42,
    powerIterations: opts.powerIterations ?? 2,
    oversample: opts.oversample ?? 10,
    documentCount: texts.length,
  };
  const problem = lsaSettingProblems({ ...opts, tokenize: undefined })[0];
  if (problem) throw new InputError(problem.message, [], { key: `vector.embedder.${problem.key}` });
  const notes: string[] = [];
  const n = texts.length;
  if (n === 0) throw new InputError('LSA: no documents to train on');

  // Term counts per document, and document frequencies.
  const docCounts: Map<string, number>[] = [];
  const df = new Map<string, number>();
  for (const text of texts) {
    const counts = new Map<string, number>();
    for (const token of opts.tokenize(text)) if (token !== '') counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const term of counts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
    docCounts.push(counts);
    yield docCounts.length; // progress: documents read (the SVD after it reports none)
  }
  const maxDf = Math.floor(settings.maxDfRatio * n);
  let tooRare = 0;
  let tooCommon = 0;
  const vocabulary: string[] = [];
  for (const [term, f] of df) {
    if (f < settings.minDf) tooRare++;
    else if (f > maxDf) tooCommon++;
    else vocabulary.push(term);
  }
  vocabulary.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (tooRare + tooCommon > 0) {
    notes.push(
      `vocabulary: kept ${vocabulary.length} of ${df.size} terms (${tooRare} in fewer than ${settings.minDf} documents, ` +
        `${tooCommon} in more than ${maxDf} of ${n} documents)`,
    );
  }
  if (vocabulary.length === 0) {
    throw new InputError(
      `LSA: no term is in at least ${settings.minDf} and at most ${maxDf} of the ${n} documents, so there is nothing to embed ` +
        `(${tooRare} terms too rare, ${tooCommon} too common); lower vector.embedder.minDf (now ${settings.minDf}) or raise ` +
        `vector.embedder.maxDfRatio (now ${settings.maxDfRatio}), or search this corpus lexically`,
    );
  }
  const termIndex = new Map(vocabulary.map((t, i) => [t, i]));
  const idf = Float64Array.from(vocabulary, (t) => Math.log(n / df.get(t)!));

  const rows: SparseRow[] = [];
  const weights: Map<number, number>[] = [];
  for (const counts of docCounts) {
    const byIndex = new Map<number, number>();
    for (const [term, c] of counts) {
      const t = termIndex.get(term);
      if (t !== undefined) byIndex.set(t, c);
    }
    const r = tfidfRow(byIndex, idf);
    rows.push(r);
    weights.push(new Map(r.indices.map((t, p) => [t, r.values[p]!]))); // a value per index
    yield;
  }
  const x = yield* csrFromRowsSteps(weights, vocabulary.length);

  const possible = Math.min(n, vocabulary.length);
  if (possible < settings.dimensions) {
    notes.push(`dimensions: ${settings.dimensions} requested, at most ${possible} possible (${n} documents, ${vocabulary.length} terms)`);
  }
  yield;
  const svd = yield* randomizedSvdSteps(x, {
    rank: Math.min(settings.dimensions, possible),
    oversample: settings.oversample,
    powerIterations: settings.powerIterations,
    seed: settings.seed,
  });
  // Directions with (numerically) zero singular value carry no corpus signal: drop them.
  const sMax = svd.s[0] ?? 0;
  let k = 0;
  while (k < svd.rank && svd.s[k]! > sMax * 1e-10) k++; // s holds rank values
  if (k === 0) throw new InputError('LSA: the TF-IDF matrix is all zeros (every kept term has idf 0)');
  if (k < svd.rank) notes.push(`dimensions: ${svd.rank - k} of ${svd.rank} singular values are zero; using ${k}`);

  // Term vectors = rows of V (terms × k), from the k × terms Vᵀ.
  const m = vocabulary.length;
  const termVectors = new Float32Array(m * k);
  for (let c = 0; c < k; c++) {
    const vtRow = c * m;
    for (let t = 0; t < m; t++) termVectors[t * k + c] = svd.vt.data[vtRow + t]!; // vt: rank × m, c < k ≤ rank
  }
  const docVectors = new Float32Array(n * k);
  for (const [i, r] of rows.entries()) {
    docVectors.set(projectRow(r, termVectors, k), i * k);
    yield;
  }

  return new LsaModel({
    dimension: k,
    vocabulary,
    idf,
    termVectors,
    singularValues: svd.s.slice(0, k),
    docVectors,
    settings,
    notes,
    tokenize: opts.tokenize,
  });
}

/** An Embedder over a trained model; symmetric (queries and documents embed the same way). */
export function createLsaEmbedder(model: LsaModel): Embedder {
  return {
    id: `lsa:${model.dimension}:${model.fingerprint.replace(/^sha256:/, '')}`,
    dimension: model.dimension,
    async embed(texts: string[], _kind: 'query' | 'document', signal?: AbortSignal): Promise<Float32Array[]> {
      const out: Float32Array[] = [];
      for (const [i, text] of texts.entries()) {
        if (i % 256 === 0) signal?.throwIfAborted();
        out.push(model.embedText(text));
      }
      return out;
    },
  };
}

function bytesOf(a: Float64Array | Float32Array): Buffer {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength);
}

function decodeBytes(s: unknown, field: string, elementSize: number, bad: (why: string) => never): ArrayBuffer {
  if (typeof s !== 'string') return bad(`${field} must be a base64 string`);
  const buf = Buffer.from(s, 'base64');
  if (buf.byteLength % elementSize !== 0) bad(`${field} is ${buf.byteLength} bytes, not a whole number of ${elementSize}-byte floats`);
  // Copy into a fresh, aligned ArrayBuffer (a Buffer may sit at any offset of a shared pool).
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}
