/**
 * The user action "pool" (`ranklab pool`, `ranklab judge`, the judging view through the worker): which of the configs
 * can be used, then the pool of those (core session/judging-pool.ts workspacePool: each config's run, a saved one
 * reused, then buildPool). A config that cannot be used (an InputError: an error in its file) is reported beside the
 * pool, not instead of it; one that fails while it runs is in the pool's own `failed`. The signal stops it with its
 * reason (inside each config's run); progress names the config and how many of its queries are done.
 */
import type { RankConfig } from '../config';
import { type WorkspacePool, type WorkspacePoolOptions, workspacePool } from '../session/judging-pool';
import type { ConfigEntry, RanklabSession } from '../session/session';
import { InputError } from '../util/diagnostics';

export interface PoolConfigsInput extends Omit<WorkspacePoolOptions, 'configs' | 'signal' | 'onProgress'> {
  /** The configs to pool, the first one the baseline the deciding pairs are figured against (see poolEntries). */
  configs: readonly ConfigEntry[];
}

export interface PoolConfigsProgress {
  config: string;
  done: number;
  total: number;
}

export interface PoolConfigsHooks {
  signal?: AbortSignal;
  progress?: (event: PoolConfigsProgress) => void;
}

export interface PoolConfigsResult extends WorkspacePool {
  /** The configs pooled, in the order given. */
  configs: RankConfig[];
  /** The configs that could not be used, with the reason (they are not in the pool). */
  unusable: { config: string; error: string }[];
}

/** Throws an InputError naming every config when none can be used. */
export async function poolConfigs(
  session: RanklabSession,
  input: PoolConfigsInput,
  hooks: PoolConfigsHooks = {},
): Promise<PoolConfigsResult> {
  const { configs: entries, ...options } = input;
  const configs: RankConfig[] = [];
  const unusable: PoolConfigsResult['unusable'] = [];
  for (const entry of entries) {
    try {
      configs.push(session.usable(entry));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      unusable.push({ config: entry.name, error: e.message });
    }
  }
  if (configs.length === 0) throw new InputError(`no config to pool: ${unusable.map((u) => `${u.config}: ${u.error}`).join('; ')}`);
  const { progress } = hooks;
  const pooled = await workspacePool(session, {
    ...options,
    configs,
    signal: hooks.signal,
    onProgress: progress && ((config, done, total) => progress({ config, done, total })),
  });
  return { ...pooled, configs, unusable };
}
