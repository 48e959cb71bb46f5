/**
 * Local ONNX models through `@huggingface/transformers`: sentence-transformer embedders and
 * cross-encoder rerankers.
 *
 * Backend: WASM (onnxruntime-web, in-process, no native addon) by default; `backend: "native"` uses
 * onnxruntime-node, which is faster but is a native addon (a history of crashes inside Electron's
 * extension host). transformers.js picks its ONNX runtime once, when the module is first loaded, so
 * one process uses one backend; asking for the other afterwards is a clear error.
 *
 * Nothing heavy happens at require time: the library is loaded on the first `embed`/`score`.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import Module from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../../util/diagnostics';
import { fingerprint } from '../../util/fingerprint';
import { ProviderError } from './errors';
import { oneOf, positiveInt } from './settings';
import type { Embedder, Reranker } from './types';

type Transformers = typeof import('@huggingface/transformers');

export type TransformersBackend = 'wasm' | 'native';

export interface TransformersEmbedderConfig {
  provider: 'transformers';
  /** A local folder (absolute, or relative to the workspace) or a Hugging Face id such as `Xenova/all-MiniLM-L6-v2`. */
  model: string;
  pooling?: 'mean' | 'cls';
  normalize?: boolean;
  queryPrefix?: string;
  documentPrefix?: string;
  /** Use `onnx/model_quantized.onnx` (int8) instead of `onnx/model.onnx`. */
  quantized?: boolean;
  backend?: TransformersBackend;
  batchSize?: number;
}

export interface TransformersRerankerConfig {
  provider: 'transformers';
  model: string;
  quantized?: boolean;
  backend?: TransformersBackend;
  batchSize?: number;
}

export interface TransformersOptions {
  /** Relative model folders are resolved against this (the workspace folder). */
  baseDir: string;
  /** May a Hugging Face id be downloaded? (false: local folders only) */
  allowRemote: boolean;
  /** Where downloaded models are cached (default: transformers.js's own cache folder). */
  modelCacheDir?: string;
  /** Config path used in error messages, e.g. `vector.embedder` or `rerank.provider`. */
  settingPath: string;
}

// ---------------------------------------------------------------------------------------------
// Loading the library (once per process)

let loaded: { backend: TransformersBackend; lib: Transformers } | undefined;

/** The onnxruntime-web `dist/` folder as a file URL prefix (the library's default is a CDN). */
function localWasmPrefix(): string {
  return pathToFileURL(dirname(require.resolve('onnxruntime-web'))).href + '/';
}

/**
 * Requires the CommonJS build of transformers.js with some of its eager dependencies replaced by empty
 * stubs: `sharp` (images only; a native addon whose binary may be missing) always, and
 * `onnxruntime-node` when the WASM backend is used, so that no native code is loaded at all.
 */
function requireWithStubs(stubbed: string[]): Transformers {
  const mod = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const original = mod._load;
  mod._load = function (this: unknown, request: string, ...rest: [unknown, boolean]) {
    if (stubbed.includes(request)) return {};
    return original.call(this, request, ...rest);
  };
  try {
    return require('@huggingface/transformers') as Transformers;
  } finally {
    mod._load = original;
  }
}

export function loadTransformers(backend: TransformersBackend, settingPath: string): Transformers {
  if (loaded) {
    if (loaded.backend !== backend) {
      throw new InputError(
        `${settingPath}.backend: "${backend}" was asked for, but this process already loaded transformers.js with ` +
          `the "${loaded.backend}" backend (one per process). Use the same backend in every config.`,
      );
    }
    return loaded.lib;
  }
  const ortSymbol = Symbol.for('onnxruntime');
  const g = globalThis as Record<symbol, unknown>;
  if (backend === 'wasm') g[ortSymbol] = require('onnxruntime-web');
  const lib = requireWithStubs(backend === 'wasm' ? ['sharp', 'onnxruntime-node'] : ['sharp']);
  if (backend === 'wasm') {
    const wasm = lib.env.backends.onnx.wasm;
    if (wasm) wasm.wasmPaths = localWasmPrefix();
  }
  lib.env.allowLocalModels = true;
  lib.env.allowRemoteModels = false;
  loaded = { backend, lib };
  return lib;
}

/** Which backend this process loaded, if any (for diagnostics and benchmarks). */
export function loadedTransformersBackend(): TransformersBackend | undefined {
  return loaded?.backend;
}

// ---------------------------------------------------------------------------------------------
// Locating the model

export interface ResolvedModel {
  /** What to pass to `from_pretrained`: an absolute folder, or a Hugging Face id. */
  ref: string;
  local: boolean;
  /** Part of the cache key: changes when a local model's files change. */
  contentKey: string;
}

function looksLikePath(model: string): boolean {
  return isAbsolute(model) || model.startsWith('.') || model.startsWith('~') || model.includes('\\') || /^[A-Za-z]:/.test(model);
}

function localModelKey(folder: string): string {
  const parts: string[] = [];
  const config = join(folder, 'config.json');
  if (existsSync(config)) parts.push(readFileSync(config, 'utf8'));
  const onnxDir = join(folder, 'onnx');
  if (existsSync(onnxDir)) {
    for (const f of readdirSync(onnxDir).sort()) parts.push(`${f}:${statSync(join(onnxDir, f)).size}`);
  }
  return fingerprint(parts);
}

/**
 * A path-like `model` must be a folder with a `config.json`; an id like `org/name` is first looked for
 * as a folder under `baseDir`, then downloaded only when `allowRemote` is set.
 */
export function resolveModel(model: string, opts: TransformersOptions): ResolvedModel {
  const setting = `${opts.settingPath}.model`;
  if (typeof model !== 'string' || model.trim() === '') {
    throw new InputError(`${setting} is missing: give a local model folder or a Hugging Face id.`);
  }
  const folder = resolve(opts.baseDir, model);
  const isFolder = existsSync(folder) && statSync(folder).isDirectory();
  if (isFolder) {
    if (!existsSync(join(folder, 'config.json'))) {
      throw new InputError(
        `${setting}: the folder ${folder} has no config.json, so it is not a transformers.js model folder ` +
          `(expected config.json, tokenizer.json and onnx/model.onnx). Change ${setting}.`,
      );
    }
    return { ref: folder, local: true, contentKey: localModelKey(folder) };
  }
  if (looksLikePath(model)) {
    throw new InputError(`${setting}: model folder not found: ${folder}. Change ${setting} to an existing folder.`);
  }
  if (!opts.allowRemote) {
    throw new InputError(
      `${setting}: "${model}" is not a local folder (looked in ${folder}) and downloading models is not allowed ` +
        `here (network access is off). Change ${setting} to a local model folder, or allow network access.`,
    );
  }
  return { ref: model, local: false, contentKey: 'remote' };
}

function loadOptions(resolved: ResolvedModel, quantized: boolean | undefined, backend: TransformersBackend, opts: TransformersOptions) {
  return {
    local_files_only: resolved.local,
    dtype: quantized ? ('q8' as const) : ('fp32' as const),
    // WASM: onnxruntime-web has no 'cpu' device name; 'auto' picks its wasm execution provider.
    device: backend === 'wasm' ? ('auto' as const) : ('cpu' as const),
    ...(opts.modelCacheDir ? { cache_dir: opts.modelCacheDir } : {}),
  };
}

/** Runs a model load with remote access switched on only for this call, and turns failures into ProviderErrors. */
async function withModelLoad<T>(lib: Transformers, resolved: ResolvedModel, opts: TransformersOptions, load: () => Promise<T>): Promise<T> {
  lib.env.allowRemoteModels = !resolved.local;
  try {
    return await load();
  } catch (e) {
    const where = resolved.local ? `the folder ${resolved.ref}` : `the Hugging Face id "${resolved.ref}"`;
    throw new ProviderError(`could not load the model from ${where}: ${(e as Error).message}`, resolved.ref, {
      key: `${opts.settingPath}.model`,
      cause: e,
    });
  } finally {
    lib.env.allowRemoteModels = false;
  }
}

/** Runs the model on one batch; a failure inside the runtime (bad model, out of memory) names the model. */
async function runModel<T>(resolved: ResolvedModel, opts: TransformersOptions, items: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw new ProviderError(`the model ${resolved.ref} failed on a batch of ${items}: ${(e as Error).message}`, resolved.ref, {
      key: opts.settingPath,
      cause: e,
    });
  }
}

/**
 * What the embedder and the reranker share: the resolved model, the backend, the batch size, and a load
 * that happens once, on first use (a failed load is not cached: the user may fix the folder and retry).
 */
abstract class TransformersModel<Loaded> {
  protected readonly resolved: ResolvedModel;
  protected readonly backend: TransformersBackend;
  protected readonly batchSize: number;
  private loading: Promise<Loaded> | undefined;

  constructor(
    private readonly model: { model: string; backend?: TransformersBackend; batchSize?: number; quantized?: boolean },
    protected readonly opts: TransformersOptions,
    defaultBatchSize: number,
  ) {
    this.resolved = resolveModel(model.model, opts);
    this.backend = oneOf(model.backend, ['wasm', 'native'], `${opts.settingPath}.backend`);
    this.batchSize = positiveInt(model.batchSize, defaultBatchSize, `${opts.settingPath}.batchSize`);
  }

  /** Loads the model's parts with transformers.js (`options` as from_pretrained takes them). */
  protected abstract open(lib: Transformers, options: ReturnType<typeof loadOptions>): Promise<Loaded>;

  protected load(): Promise<Loaded> {
    this.loading ??= (async () => {
      const lib = loadTransformers(this.backend, this.opts.settingPath);
      const options = loadOptions(this.resolved, this.model.quantized, this.backend, this.opts);
      return withModelLoad(lib, this.resolved, this.opts, () => this.open(lib, options));
    })();
    this.loading.catch(() => (this.loading = undefined));
    return this.loading;
  }
}

// ---------------------------------------------------------------------------------------------
// Embedder

type FeatureExtractor = (
  texts: string[],
  options: { pooling: 'mean' | 'cls'; normalize: boolean },
) => Promise<{ dims: number[]; data: ArrayLike<number> }>;

export class TransformersEmbedder extends TransformersModel<FeatureExtractor> implements Embedder {
  readonly id: string;
  private dim: number | undefined;

  constructor(
    private readonly config: TransformersEmbedderConfig,
    opts: TransformersOptions,
  ) {
    super(config, opts, 32);
    if (config.pooling !== undefined && config.pooling !== 'mean' && config.pooling !== 'cls') {
      throw new InputError(`${opts.settingPath}.pooling must be "mean" or "cls" (got ${JSON.stringify(config.pooling)}).`);
    }
    // Backend and batch size do not change the vectors, so they stay out of the cache key.
    this.id = [
      'transformers',
      this.resolved.local ? this.resolved.ref : config.model,
      this.resolved.contentKey,
      `pooling=${config.pooling ?? 'mean'}`,
      `normalize=${config.normalize ?? true}`,
      `quantized=${config.quantized ?? false}`,
      `qp=${JSON.stringify(config.queryPrefix ?? '')}`,
      `dp=${JSON.stringify(config.documentPrefix ?? '')}`,
    ].join('|');
  }

  get dimension(): number | undefined {
    return this.dim;
  }

  protected async open(lib: Transformers, options: ReturnType<typeof loadOptions>): Promise<FeatureExtractor> {
    return (await lib.pipeline('feature-extraction', this.resolved.ref, options)) as unknown as FeatureExtractor;
  }

  async embed(texts: string[], kind: 'query' | 'document', signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const extract = await this.load();
    const prefix = (kind === 'query' ? this.config.queryPrefix : this.config.documentPrefix) ?? '';
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batchSize) {
      signal?.throwIfAborted();
      const batch = texts.slice(i, i + this.batchSize).map((t) => prefix + t);
      const tensor = await runModel(this.resolved, this.opts, batch.length, () =>
        extract(batch, { pooling: this.config.pooling ?? 'mean', normalize: this.config.normalize ?? true }),
      );
      const dim = tensor.dims[tensor.dims.length - 1];
      if (dim === undefined)
        throw new ProviderError(`the model ${this.resolved.ref} returned a tensor without dimensions`, this.resolved.ref);
      const data = tensor.data instanceof Float32Array ? tensor.data : Float32Array.from(tensor.data);
      for (let r = 0; r < batch.length; r++) out.push(data.slice(r * dim, (r + 1) * dim));
      this.dim = dim;
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Cross-encoder reranker

interface CrossEncoder {
  tokenizer: (q: string[], o: { text_pair: string[]; padding: boolean; truncation: boolean }) => unknown;
  model: (inputs: unknown) => Promise<{ logits: { dims: number[]; data: ArrayLike<number> } }>;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * One logit per pair → sigmoid (a softmax over one logit is always 1). Two logits → the softmax
 * probability of label 1 ("relevant"), the usual layout of two-class cross-encoders.
 */
export function logitsToScores(dims: number[], data: ArrayLike<number>): number[] {
  const n = dims[0] ?? 0; // no dimension, no score (the caller counts the scores)
  const labels = dims.length === 2 ? dims[1]! : 1;
  const scores: number[] = [];
  // data holds n × labels logits.
  for (let r = 0; r < n; r++) {
    if (labels === 1) scores.push(sigmoid(data[r]!));
    else scores.push(sigmoid(data[r * labels + 1]! - data[r * labels]!));
  }
  return scores;
}

export class TransformersReranker extends TransformersModel<CrossEncoder> implements Reranker {
  readonly id: string;

  constructor(config: TransformersRerankerConfig, opts: TransformersOptions) {
    super(config, opts, 16);
    this.id = [
      'transformers-rerank',
      this.resolved.local ? this.resolved.ref : config.model,
      this.resolved.contentKey,
      `quantized=${config.quantized ?? false}`,
    ].join('|');
  }

  protected async open(lib: Transformers, options: ReturnType<typeof loadOptions>): Promise<CrossEncoder> {
    const [tokenizer, model] = await Promise.all([
      lib.AutoTokenizer.from_pretrained(this.resolved.ref, {
        local_files_only: options.local_files_only,
        ...(options.cache_dir ? { cache_dir: options.cache_dir } : {}),
      }),
      lib.AutoModelForSequenceClassification.from_pretrained(this.resolved.ref, options),
    ]);
    return { tokenizer, model } as unknown as CrossEncoder;
  }

  async score(query: string, passages: string[], signal?: AbortSignal): Promise<number[]> {
    if (passages.length === 0) return [];
    const { tokenizer, model } = await this.load();
    const scores: number[] = [];
    for (let i = 0; i < passages.length; i += this.batchSize) {
      signal?.throwIfAborted();
      const batch = passages.slice(i, i + this.batchSize);
      const { logits } = await runModel(this.resolved, this.opts, batch.length, async () =>
        model(tokenizer(new Array<string>(batch.length).fill(query), { text_pair: batch, padding: true, truncation: true })),
      );
      scores.push(...logitsToScores(logits.dims, logits.data));
    }
    return scores;
  }
}
