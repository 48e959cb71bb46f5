/**
 * The user action "rebuild indexes" (the editor's "Rebuild Index", in the worker): the cached indexes and the corpus
 * snapshot deleted (core clearIndexCaches: cached embeddings stay), a fresh session opened with the same options so
 * every file is read again, the corpus loaded, then each usable config's engine built from scratch. A config whose
 * build fails with bad input (an InputError: a model not available offline) is reported as data and the others are
 * still built; anything else is a bug and is thrown. The signal stops it with its reason (between configs and inside
 * each build); what was deleted stays deleted, and the next use builds again.
 */
import { RanklabSession } from '../session/session';
import type { WorkProgress } from '../util/cooperative';
import { InputError } from '../util/diagnostics';
import type { ConfigStep } from './evaluate-configs';

/** A build's work report, labelled with its config (a phase without its own label gets the config's name). */
export interface RebuildIndexesProgress {
  type: 'work';
  config: string;
  step: ConfigStep;
  work: WorkProgress;
}

export interface RebuildIndexesHooks {
  signal?: AbortSignal;
  progress?: (event: RebuildIndexesProgress) => void;
  /**
   * Called with the fresh session as soon as it is opened, before anything is loaded: a caller that keeps a warm
   * session per folder (the worker) keeps this one from then on, even when the rebuild is stopped.
   */
  opened?: (session: RanklabSession) => void;
}

export interface RebuildIndexesResult {
  /** The cache entries deleted (sorted). */
  removed: string[];
  /** Documents in the corpus read again. */
  docs: number;
  /** The configs whose indexes were built, in the workspace's order. */
  built: string[];
  /** The configs that could not be built, with the reason. */
  failed: { config: string; message: string }[];
}

export async function rebuildIndexes(old: RanklabSession, hooks: RebuildIndexesHooks = {}): Promise<RebuildIndexesResult> {
  const { signal, progress } = hooks;
  signal?.throwIfAborted(); // stopped before it started: nothing deleted
  const removed = old.clearIndexCaches();
  const session = RanklabSession.open(old.root, old.options);
  hooks.opened?.(session);
  const docs = (await session.loadCorpus(session.work(signal))).docs.length;
  const configs = session.configEntries().filter((c) => c.config);
  const out: RebuildIndexesResult = { removed, docs, built: [], failed: [] };
  for (const [index, entry] of configs.entries()) {
    signal?.throwIfAborted();
    const step = { index, count: configs.length };
    const report =
      progress &&
      ((work: WorkProgress) => progress({ type: 'work', config: entry.name, step, work: { ...work, label: work.label ?? entry.name } }));
    try {
      await session.engine(session.usable(entry), session.work(signal, report));
      out.built.push(entry.name);
    } catch (e) {
      signal?.throwIfAborted();
      if (!(e instanceof InputError)) throw e;
      out.failed.push({ config: entry.name, message: e.message });
    }
  }
  return out;
}
