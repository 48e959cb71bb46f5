/**
 * Builds embedders and rerankers from config sections (`vector.embedder`, `rerank.provider`).
 *
 * `lsa` is trained on the corpus, so the engine trains it (retrieval/engine.ts); this factory only hands back one
 * the caller already built (`ctx.lsa`) and otherwise says so.
 */
import type { ProviderConfig } from '../../config/types';
import { InputError } from '../../util/diagnostics';
import { cachedEmbedder } from './embedding-cache';
import { type HttpEmbedderConfig, HttpEmbedder, type HttpRerankerConfig, HttpReranker } from './http';
import { type PrecomputedConfig, PrecomputedQueryEmbedder } from './precomputed';
import {
  type TransformersEmbedderConfig,
  TransformersEmbedder,
  type TransformersRerankerConfig,
  TransformersReranker,
} from './transformers';
import type { Embedder, Reranker } from './types';

export interface ProviderContext {
  /** Workspace folder: relative model folders and query-vector files are resolved against it. */
  baseDir: string;
  /** Embedding cache folder (e.g. `.ranklab/cache/embeddings`); when set, embedders are wrapped by `cachedEmbedder`. */
  cacheDir?: string;
  /** Network access (HTTP providers, model downloads). False in untrusted workspaces. */
  allowNetwork: boolean;
  /** May local model code be loaded and run (transformers)? False in untrusted workspaces. */
  allowModelLoading: boolean;
  /** Where downloaded transformers models are kept (default: the library's own cache). */
  modelCacheDir?: string;
  /** Environment for `apiKeyEnv` lookups (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** An LSA embedder already trained on the corpus by the vector index. */
  lsa?: Embedder;
  /** Overrides the config path used in messages (defaults: `vector.embedder`, `rerank.provider`). */
  settingPath?: string;
}

function providerOf(config: unknown, settingPath: string, allowed: string[]): string {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new InputError(`${settingPath} must be an object with a "provider" (one of ${allowed.join(', ')}).`);
  }
  const provider = (config as { provider?: unknown }).provider;
  if (typeof provider !== 'string' || !allowed.includes(provider)) {
    throw new InputError(`${settingPath}.provider must be one of ${allowed.join(', ')} (got ${JSON.stringify(provider)}).`);
  }
  return provider;
}

function requireModelLoading(ctx: ProviderContext, settingPath: string): void {
  if (!ctx.allowModelLoading) {
    throw new InputError(
      `${settingPath}: loading local models is not allowed here (untrusted workspace). Trust the workspace to use the "transformers" provider.`,
    );
  }
}

/** The section read as the settings of the provider it names (that provider checks them). */
function settingsOf<T>(config: ProviderConfig): T {
  return config as ProviderConfig & T;
}

export function createEmbedder(config: ProviderConfig, ctx: ProviderContext): Embedder {
  const settingPath = ctx.settingPath ?? 'vector.embedder';
  const provider = providerOf(config, settingPath, ['lsa', 'transformers', 'http', 'precomputed']);
  const withCache = (e: Embedder) => (ctx.cacheDir ? cachedEmbedder(e, ctx.cacheDir) : e);
  switch (provider) {
    case 'lsa':
      if (ctx.lsa) return ctx.lsa;
      throw new InputError(
        `${settingPath}: lsa is built by the vector index (it is trained on the corpus); it cannot be created on its own.`,
      );
    case 'transformers':
      requireModelLoading(ctx, settingPath);
      return withCache(
        new TransformersEmbedder(settingsOf<TransformersEmbedderConfig>(config), {
          baseDir: ctx.baseDir,
          allowRemote: ctx.allowNetwork,
          modelCacheDir: ctx.modelCacheDir,
          settingPath,
        }),
      );
    case 'http':
      return withCache(
        new HttpEmbedder(settingsOf<HttpEmbedderConfig>(config), { allowNetwork: ctx.allowNetwork, settingPath, env: ctx.env }),
      );
    case 'precomputed': {
      const c = settingsOf<PrecomputedConfig>(config);
      if (c.queryEmbedder !== undefined && (c.queryEmbedder as { provider?: unknown })?.provider === 'precomputed') {
        throw new InputError(`${settingPath}.queryEmbedder cannot itself be "precomputed".`);
      }
      const fallback =
        c.queryEmbedder !== undefined
          ? createEmbedder(c.queryEmbedder as ProviderConfig, { ...ctx, settingPath: `${settingPath}.queryEmbedder` })
          : undefined;
      return new PrecomputedQueryEmbedder(c, { baseDir: ctx.baseDir, settingPath, fallback });
    }
  }
  throw new Error('unreachable');
}

export function createReranker(config: ProviderConfig, ctx: ProviderContext): Reranker {
  const settingPath = ctx.settingPath ?? 'rerank.provider';
  const provider = providerOf(config, settingPath, ['transformers', 'http']);
  if (provider === 'transformers') {
    requireModelLoading(ctx, settingPath);
    return new TransformersReranker(settingsOf<TransformersRerankerConfig>(config), {
      baseDir: ctx.baseDir,
      allowRemote: ctx.allowNetwork,
      modelCacheDir: ctx.modelCacheDir,
      settingPath,
    });
  }
  return new HttpReranker(settingsOf<HttpRerankerConfig>(config), { allowNetwork: ctx.allowNetwork, settingPath, env: ctx.env });
}
