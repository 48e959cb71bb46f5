/**
 * The Ranklab worker: a worker thread of the extension host that holds a warm core session per workspace folder
 * and does the heavy work there (evaluations, index builds, the access check, judging pools), so the editor's
 * thread stays free. Bundled to dist/worker.js (scripts/build.mjs). The core does not know it runs here: the
 * handlers are the same calls the CLI makes, with the request's AbortSignal and progress callbacks.
 * Tasks on one folder run one at a time (as on the host), and file changes the host saw are taken in first.
 */
import { readFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import type { RankConfig } from '../../core/config';
import { parseMetric } from '../../core/metrics';
import { parseMetricList } from '../../core/metrics/spec';
import { checkAcl } from '../../core/session/check-acl';
import { evaluateConfigs } from '../../core/actions/evaluate-configs';
import { addMoveReasons, configsOfRuns, explainDocument } from '../../core/session/explain';
import { poolEntries, workspacePool } from '../../core/session/judging-pool';
import { RanklabSession } from '../../core/session/session';
import { runSweep } from '../../core/tuning/sweep';
import { abortable } from '../../core/util/cooperative';
import { InputError } from '../../core/util/diagnostics';
import { parseJsonWithLocations } from '../../core/util/json-source';
import { evaluateAgainstBaseline } from '../logic/against-baseline';
import type { EvaluateResult, FolderParams, RanklabMethods, RanklabNotification } from './protocol';
import { type HandlerContext, serveRpc } from './rpc';
import { metricOptionsOf } from '../../core/workspace/settings';

interface Entry {
  session?: RanklabSession;
  trusted?: boolean;
  queue: Promise<unknown>;
  changed: Set<RanklabNotification['kinds'][number]>;
}

const entries = new Map<string, Entry>();

function entryOf(root: string): Entry {
  let e = entries.get(root);
  if (!e) entries.set(root, (e = { queue: Promise.resolve(), changed: new Set() }));
  return e;
}

/** Runs `fn` on the folder's session after the folder's earlier tasks, with pending file changes taken in first. */
function exclusive<T>(params: FolderParams, ctx: HandlerContext<unknown>, fn: (session: RanklabSession) => Promise<T>): Promise<T> {
  const e = entryOf(params.root);
  const run = async () => {
    ctx.signal.throwIfAborted();
    if (e.session && (e.trusted !== params.trusted || e.changed.has('settings'))) e.session = undefined;
    if (!e.session) {
      e.session = RanklabSession.open(params.root, { allowNetwork: params.trusted, allowModelLoading: params.trusted, log: (m) => ctx.log('info', m), warn: (m) => ctx.log('warn', m) });
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
  e.queue = Promise.all([previous, result.catch(() => undefined)]);
  return result;
}

/** File changes: only a session already open needs to take them in; one opened later reads the files fresh. */
function onNotify(n: RanklabNotification): void {
  if (n.type === 'changed' && entries.get(n.root)?.session) for (const k of n.kinds) entryOf(n.root).changed.add(k);
}

serveRpc<RanklabMethods, RanklabNotification>({
  evaluate: (params, ctx) =>
    exclusive(params, ctx, async (session) => {
      const settings = session.workspace.settings;
      const specs = parseMetricList(settings.metrics);
      const metricOptions = metricOptionsOf(settings);
      const only = params.only;
      const listed = session.configEntries().filter((e) => !only || only.includes(e.name) || (e.file && only.includes(e.file)));
      for (const e of listed) if (!e.config) ctx.progress({ type: 'skipped', config: e.file ?? e.name });
      const configs = listed.filter((e) => e.config).map((e) => e.config!);
      if (configs.length === 0) throw new InputError('no usable ranking config in the workspace');
      const r = await evaluateConfigs(session, { configs, specs, metricOptions, principal: params.principal }, {
        signal: ctx.signal,
        progress: (p) => {
          if (p.type === 'work') ctx.progress({ type: 'work', step: p.step, work: p.work });
          else if (p.type === 'queries') ctx.progress({ type: 'work', step: p.step, work: { phase: 'queries', label: p.config, done: p.done, total: p.total } });
          else if (p.type === 'evaluated') ctx.progress({ type: 'saved', config: p.config, path: p.result.path ?? '', ms: p.ms, notes: p.result.notes });
          else ctx.progress({ type: 'failed', config: p.config, message: p.message });
        },
      });
      return {
        saved: r.results.flatMap((x) => (x.path ? [x.path] : [])),
        failed: r.failed.map((f) => `${f.name}: ${f.message}`),
        total: configs.length,
        cancelled: ctx.signal.aborted,
        stopped: r.stopped,
      } satisfies EvaluateResult;
    }),

  evaluateAgainstBaseline: (params, ctx) =>
    exclusive(params, ctx, async (session) => {
      const fieldProblems = session.configCorpusDiagnostics(session.resolveConfig(params.file));
      return { result: await evaluateAgainstBaseline(session, params.config, params.file, ctx.signal), fieldProblems };
    }),

  checkAcl: (params, ctx) => exclusive(params, ctx, (session) => checkAcl(session, { signal: ctx.signal, onProgress: (p) => ctx.progress(p) })),

  rebuildIndex: (params, ctx) => {
    const e = entryOf(params.root);
    return exclusive(params, ctx, async (old) => {
      const removed = old.clearIndexCaches();
      // A fresh session: every file read again, every index built from scratch.
      const session = (e.session = RanklabSession.open(params.root, { allowNetwork: params.trusted, allowModelLoading: params.trusted, log: (m) => ctx.log('info', m), warn: (m) => ctx.log('warn', m) }));
      const docs = (await session.loadCorpus(session.work(ctx.signal))).docs.length;
      const configs = session.configEntries().filter((c) => c.config);
      const built: string[] = [];
      const failed: { config: string; message: string }[] = [];
      for (const [index, c] of configs.entries()) {
        const step = { index, count: configs.length };
        try {
          await session.engine(c.config!, session.work(ctx.signal, (work) => ctx.progress({ type: 'work', step, work: { ...work, label: work.label ?? c.name } })));
          built.push(c.name);
        } catch (err) {
          ctx.signal.throwIfAborted();
          failed.push({ config: c.name, message: (err as Error).message });
        }
      }
      return { removed, docs, configs: built, failed };
    });
  },

  pool: (params, ctx) =>
    exclusive(params, ctx, async (session) => {
      // Configs that cannot be used are reported with the others' pool, not instead of it.
      const usable: RankConfig[] = [];
      const unusable: { config: string; error: string }[] = [];
      for (const entry of poolEntries(session, params.configs)) {
        try {
          usable.push(session.usable(entry));
        } catch (err) {
          if (!(err instanceof InputError)) throw err;
          unusable.push({ config: entry.name, error: err.message });
        }
      }
      if (usable.length === 0) throw new InputError(`no config to pool: ${unusable.map((u) => `${u.config}: ${u.error}`).join('; ')}`);
      const pooled = await workspacePool(session, { configs: usable, signal: ctx.signal, onProgress: (config, done, total) => ctx.progress(`${config} ${done}/${total}`) });
      return { ...pooled, failed: [...unusable, ...pooled.failed] };
    }),

  explain: (params, ctx) =>
    exclusive(params, ctx, async (session) => {
      const runs = params.baseline ? [params.candidate, params.baseline] : [params.candidate];
      const configs = configsOfRuns(session, runs);
      if (!configs) throw new InputError('run no longer reproducible: config or corpus changed since it was made (evaluate again to explain it)');
      return explainDocument(session, { config: configs[0], baseline: configs[1], query: params.query, doc: params.doc, principal: params.principal, signal: ctx.signal });
    }),

  moveReasons: (params, ctx) =>
    exclusive(params, ctx, async (session) => {
      const configs = configsOfRuns(session, [params.baseline, params.candidate]);
      if (!configs) return { reproducible: false, reasons: [] };
      const queryDeltas = params.queries.map((q) => ({ qid: q.qid, text: q.text, moved: q.moved.map((id) => ({ id, reason: undefined as string | undefined })) }));
      await addMoveReasons(session, configs[0], configs[1], { queryDeltas }, { principal: params.principal, signal: ctx.signal, maxQueries: queryDeltas.length });
      const reasons = queryDeltas.flatMap((q) => q.moved.filter((m) => m.reason !== undefined).map((m) => ({ qid: q.qid, id: m.id, reason: m.reason! })));
      return { reproducible: true, reasons };
    }),

  sweep: (params, ctx) =>
    exclusive(params, ctx, async (session) => {
      const base = session.usable(session.configEntry(params.baseFile));
      // Each combination is BASE's JSON as written with its values set (comments allowed, as in any *.rank.json).
      const raw = parseJsonWithLocations(readFileSync(params.baseFile, 'utf8'), { comments: true }).value as Record<string, unknown>;
      const settings = session.workspace.settings;
      const metricOptions = metricOptionsOf(settings);
      await session.loadCorpus(session.work(ctx.signal));
      // Every point of the curve gets its holdout comparison (bootstrap CI, permutation p), not only the best few.
      const top = params.variations.reduce((n, v) => n * v.values.length, 1);
      return runSweep(session, {
        base, raw, variations: params.variations, search: { kind: 'grid' }, objective: parseMetric(params.objective), metricOptions, top, signal: ctx.signal,
        onProgress: (done, total, label) => ctx.progress({ done, total, label }),
      });
    }),

  status: () => {
    return { sessions: [...entries].filter(([, e]) => e.session).map(([root]) => root), pid: process.pid, threadId };
  },
}, onNotify);
