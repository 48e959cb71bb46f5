/**
 * The Ranklab worker: a worker thread of the extension host that holds a warm core session per workspace folder
 * and does the heavy work there (evaluations, index builds, the access check, judging pools), so the editor's
 * thread stays free. Bundled to dist/worker.js (scripts/build.mjs). The core does not know it runs here: the
 * handlers are the same calls the CLI makes, with the request's AbortSignal and progress callbacks.
 * Tasks on one folder run one at a time (as on the host), and file changes the host saw are taken in first.
 */
import { threadId } from 'node:worker_threads';
import { type WorkspaceConfigsProgress, evaluateWorkspaceConfigs } from '../../core/actions/evaluate-configs';
import { explainRunDocument, moveReasonsOf } from '../../core/actions/explain-runs';
import { poolConfigs } from '../../core/actions/pool-configs';
import { rebuildIndexes } from '../../core/actions/rebuild-indexes';
import { sweepConfig } from '../../core/actions/sweep-config';
import { parseMetric } from '../../core/metrics';
import { checkAcl } from '../../core/session/check-acl';
import { poolEntries } from '../../core/session/judging-pool';
import { RanklabSession } from '../../core/session/session';
import type { Tuner } from '../../core/tuning/tuner';
import { abortable } from '../../core/util/cooperative';
import { InputError } from '../../core/util/diagnostics';
import type { RankConfig } from '../../core/config';
import type { Run } from '../../core/run/types';
import { LensTuners, evaluateForLens } from '../logic/lens-tuner';
import type { ChangedNotification, EvaluateProgress, EvaluateResult, FolderParams, RanklabMethods, RanklabNotification } from './protocol';
import { type HandlerContext, serveRpc } from './rpc';

interface Entry {
  session?: RanklabSession;
  trusted?: boolean;
  queue: Promise<unknown>;
  changed: Set<ChangedNotification['kinds'][number]>;
  /**
   * Every Tuner of the folder: the CodeLens's (its early answer to a saved edit) and the Tune view's (pinned), one per
   * config; and below, the one to prepare when the folder is idle.
   */
  lens: LensTuners;
  idle?: IdleJob;
}

/** A CodeLens Tuner to prepare once the folder has been idle IDLE_MS; a task that arrives stops it, and it resumes after. */
interface IdleJob {
  session: RanklabSession;
  file: string;
  config: RankConfig;
  baseline: { name: string; run: Run };
  log: (level: 'info' | 'warn', message: string) => void;
  timer?: ReturnType<typeof setTimeout>;
  abort?: AbortController;
}

/** How long the folder stays idle before a CodeLens Tuner is prepared (a burst of evaluations goes first). */
const IDLE_MS = 250;

const entries = new Map<string, Entry>();

function entryOf(root: string): Entry {
  let e = entries.get(root);
  if (!e) entries.set(root, (e = { queue: Promise.resolve(), changed: new Set(), lens: new LensTuners() }));
  return e;
}

/** Stops the folder's idle preparation (a task arrived); it is taken up again once the folder is idle. */
function pauseIdle(e: Entry): void {
  if (!e.idle) return;
  clearTimeout(e.idle.timer);
  e.idle.timer = undefined;
  e.idle.abort?.abort();
}

/** Starts the folder's idle preparation after IDLE_MS, queued behind its tasks; one at a time. */
function wakeIdle(e: Entry): void {
  const job = e.idle;
  if (!job || job.timer || job.abort) return;
  job.timer = setTimeout(() => {
    job.timer = undefined;
    if (e.idle !== job) return;
    const abort = new AbortController();
    job.abort = abort;
    const previous = e.queue;
    const run = previous.then(async () => {
      abort.signal.throwIfAborted();
      // A session since replaced (a rebuild, new settings) or file changes not yet taken in: the next task's own.
      if (e.session !== job.session || e.changed.size) {
        if (e.idle === job) e.idle = undefined;
        return;
      }
      const t0 = performance.now();
      const why = await e.lens.prepare(job.session, job.file, job.config, job.baseline, abort.signal);
      if (e.idle === job) e.idle = undefined;
      const took = `${(performance.now() - t0).toFixed(0)} ms`;
      if (why) job.log('info', `CodeLens tune cache for ${job.config.name} not kept: ${why}`);
      else
        job.log(
          'info',
          `CodeLens tune cache for ${job.config.name} prepared in ${took} (${e.lens.candidates().toLocaleString('en')} candidates cached)`,
        );
    });
    const settled = run
      .catch((err: Error) => {
        if (abort.signal.aborted) return; // a task arrived: taken up again after it
        if (e.idle === job) e.idle = undefined;
        job.log('warn', `CodeLens tune cache for ${job.config.name}: ${err.message}`);
      })
      .finally(() => {
        job.abort = undefined;
        if (e.idle === job) wakeIdle(e);
      });
    e.queue = Promise.all([previous, settled]);
  }, IDLE_MS);
}

/** Runs `fn` on the folder's session after the folder's earlier tasks, with pending file changes taken in first. */
function exclusive<T>(params: FolderParams, ctx: HandlerContext<unknown>, fn: (session: RanklabSession) => Promise<T>): Promise<T> {
  const e = entryOf(params.root);
  pauseIdle(e);
  const run = async () => {
    ctx.signal.throwIfAborted();
    if (e.session && (e.trusted !== params.trusted || e.changed.has('settings'))) e.session = undefined;
    if (!e.session) {
      e.session = RanklabSession.open(params.root, {
        allowNetwork: params.trusted,
        allowModelLoading: params.trusted,
        log: (m) => ctx.log('info', m),
        warn: (m) => ctx.log('warn', m),
      });
      e.trusted = params.trusted;
      e.changed.clear();
    }
    const session = e.session;
    if (e.changed.has('judgments')) session.reloadJudgments();
    if (e.changed.has('corpus')) await session.refreshCorpus();
    e.changed.clear();
    return fn(session);
  };
  // A task cancelled while it waits for the one before it stops at once (not only when its turn comes).
  const previous = e.queue;
  const result = abortable(previous, ctx.signal).then(run);
  const settled = result.catch(() => undefined);
  e.queue = Promise.all([previous, settled]);
  void settled.then(() => wakeIdle(e));
  return result;
}

/** Run Evaluation's progress as the host shows it: query loops as work reports, each config's outcome by name. */
function evaluateProgress(p: WorkspaceConfigsProgress): EvaluateProgress {
  if (p.type === 'work') return { type: 'work', step: p.step, work: p.work };
  if (p.type === 'queries')
    return { type: 'work', step: p.step, work: { phase: 'queries', label: p.config, done: p.done, total: p.total } };
  if (p.type === 'evaluated') return { type: 'saved', config: p.config, path: p.result.path ?? '', ms: p.ms, notes: p.result.notes };
  return p.type === 'skipped' ? p : { type: 'failed', config: p.config, message: p.message };
}

/** The Tuner tunePrepare pinned for the folder's `file`, or an error saying the view must be opened again. */
function keptTuner(params: { root: string; file: string }): Tuner {
  const e = entries.get(params.root);
  const tuner = e?.lens.viewTuner(e.session, params.file);
  if (!tuner) throw new InputError('the Tune view is out of date (the workspace changed): open it again', [], { file: params.file });
  return tuner;
}

/** File changes: only a session already open needs to take them in; one opened later reads the files fresh. */
function onNotify(n: RanklabNotification): void {
  // A Tuner caches candidates and grades: new documents, judgments or settings make it stale.
  if (n.type === 'closed') {
    const e = entries.get(n.root);
    e?.lens.drop(n.file);
    if (e?.idle?.file === n.file) {
      pauseIdle(e);
      e.idle = undefined;
    }
    return;
  }
  if (n.type === 'changed') {
    const e = entries.get(n.root);
    if (e && n.kinds.some((k) => k !== 'config')) {
      e.lens.drop();
      pauseIdle(e);
      e.idle = undefined;
    }
  }
  if (n.type === 'changed' && entries.get(n.root)?.session) for (const k of n.kinds) entryOf(n.root).changed.add(k);
}

serveRpc<RanklabMethods, RanklabNotification>(
  {
    evaluate: (params, ctx) =>
      exclusive(params, ctx, async (session) => {
        const r = await evaluateWorkspaceConfigs(session, params, {
          signal: ctx.signal,
          progress: (p) => ctx.progress(evaluateProgress(p)),
        });
        const saved = r.results.flatMap((x) => (x.path ? [x.path] : []));
        return {
          saved,
          failed: r.failed.map((f) => `${f.name}: ${f.message}`),
          total: r.total,
          cancelled: ctx.signal.aborted,
          stopped: r.stopped,
        } satisfies EvaluateResult;
      }),

    evaluateAgainstBaseline: (params, ctx) =>
      exclusive(params, ctx, async (session) => {
        const e = entryOf(params.root);
        const { result, prepare } = await evaluateForLens(session, e.lens, params, {
          signal: ctx.signal,
          early: (answer) => ctx.progress({ type: 'early', ...answer, configHash: params.config.configHash }),
          saved: (path, summary) => ctx.progress({ type: 'saved', path, summary }),
          warn: (message) => ctx.log('warn', message),
        });
        if (prepare) {
          pauseIdle(e);
          e.idle = { session, ...prepare, log: (level, message) => ctx.log(level, message) };
        }
        return { result, fieldProblems: session.configCorpusDiagnostics(session.resolveConfig(params.file)) };
      }),

    checkAcl: (params, ctx) =>
      exclusive(params, ctx, (session) => checkAcl(session, { signal: ctx.signal, onProgress: (p) => ctx.progress(p) })),

    // The fresh session the rebuild opens is the folder's from then on (also when the rebuild is stopped).
    rebuildIndex: (params, ctx) =>
      exclusive(params, ctx, async (old) => {
        const r = await rebuildIndexes(old, {
          signal: ctx.signal,
          progress: (p) => ctx.progress(p),
          opened: (fresh) => (entryOf(params.root).session = fresh),
        });
        return { removed: r.removed, docs: r.docs, configs: r.built, failed: r.failed };
      }),

    pool: (params, ctx) =>
      exclusive(params, ctx, async (session) => {
        const {
          unusable,
          configs: _pooled,
          ...r
        } = await poolConfigs(
          session,
          { configs: poolEntries(session, params.configs) },
          { signal: ctx.signal, progress: (p) => ctx.progress(`${p.config} ${p.done}/${p.total}`) },
        );
        return { ...r, failed: [...unusable, ...r.failed] };
      }),

    explain: (params, ctx) => exclusive(params, ctx, (session) => explainRunDocument(session, params, { signal: ctx.signal })),

    moveReasons: (params, ctx) => exclusive(params, ctx, (session) => moveReasonsOf(session, params, { signal: ctx.signal })),

    sweep: (params, ctx) =>
      exclusive(params, ctx, (session) =>
        sweepConfig(
          session,
          { base: params.baseFile, variations: params.variations, objective: parseMetric(params.objective) },
          { signal: ctx.signal, progress: (p) => ctx.progress(p) },
        ),
      ),

    tunePrepare: (params, ctx) =>
      exclusive(params, ctx, async (session) => {
        // The CodeLens's Tuner of this config when it has one (the same caches), else a new one, pinned for the view.
        const tuner = await entryOf(params.root).lens.forView(session, params.file, session.resolveConfig(params.file), {
          signal: ctx.signal,
          progress: (p) => ctx.progress(`${p.phase} ${p.done}/${p.total}`),
        });
        // Both compare with the workspace's baseline.
        return { ...tuner.sliders(), baseline: session.baselineConfig().name };
      }),

    // Neither stage of a move is queued behind the folder's other tasks: a move reads only the Tuner's caches, and
    // must not wait for a background evaluation to finish.
    tuneQuick: (params, ctx) => keptTuner(params).quickWithGates(params.settings, ctx.signal),
    tuneEvaluate: (params, ctx) => keptTuner(params).evaluate(params.settings, ctx.signal),

    status: () => {
      const all = [...entries.values()];
      return {
        sessions: [...entries].filter(([, e]) => e.session).map(([root]) => root),
        pid: process.pid,
        threadId,
        lensTuners: all.flatMap((e) => e.lens.files()),
        lensCandidates: all.reduce((n, e) => n + e.lens.candidates(), 0),
        tunerPreparations: all.reduce((n, e) => n + e.lens.preparations(), 0),
      };
    },
  },
  onNotify,
);
