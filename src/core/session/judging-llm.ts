/**
 * `ranklab judge --llm` on a workspace: the settings checked (and the trust: refused where the session may not use
 * the network), the pool without the pairs this model graded before, the plan (prompts, cache hits, a token
 * estimate), and unless it is a dry run the grading itself, appended to `<raters folder>/llm-<model>.jsonl`. The
 * pairs not graded are also written, with their answers, to a log in the state folder
 * (`logs/llm-judge-failures-<model>-<time>.jsonl`), so they outlive the terminal.
 */
import { dirname, join, relative, resolve } from 'node:path';
import type { RanklabSession } from './session';
import { writeFileAtomic } from '../util/atomic-write';
import { InputError } from '../util/diagnostics';
import { createChatClient } from '../judging/chat-client';
import {
  type LlmFailure,
  type LlmJudgePlan,
  type LlmJudgeRun,
  type LlmJudgeSettings,
  llmJudgeSettings,
  llmRater,
  llmRatingsFile,
  planLlmJudging,
  runLlmJudging,
} from '../judging/llm-judge';
import type { Pool } from '../judging/pool';
import { type WorkspacePool, type WorkspacePoolOptions, workspacePool } from './judging-pool';

export interface LlmJudgeSetup {
  settings: LlmJudgeSettings;
  rater: string;
  /** The sidecar file, absolute and relative to the workspace. */
  file: string;
  display: string;
  /** Pairs this model graded before: not pooled again. */
  skip: (qid: string, docId: string) => boolean;
}

/** Settings, trust and the raters folder checked before any work; `model` overrides judging.llm.model. */
export function llmJudgeSetup(session: RanklabSession, opts: { model?: string; dryRun?: boolean }): LlmJudgeSetup {
  const settings = llmJudgeSettings(session.workspace.settings.judging.llm, { model: opts.model });
  if (!opts.dryRun && session.options.allowNetwork === false) {
    throw new InputError(
      'the LLM judge sends passages to an HTTP endpoint, which is not allowed here (untrusted workspace): trust the workspace first',
    );
  }
  const ratersSpec = session.workspace.judgmentSpecs.find((s) => s.raters);
  if (!ratersSpec && !opts.dryRun) {
    throw new InputError(
      'the LLM judge writes its grades as a rater of its own: add a folder of per-rater files to "judgments", e.g. {"raters": "judgments"}',
      [],
      { file: 'ranklab.json', key: 'judgments' },
    );
  }
  const rater = llmRater(settings.model);
  const file = join(resolve(session.root, ratersSpec?.raters ?? 'judgments'), llmRatingsFile(settings.model));
  return {
    settings,
    rater,
    file,
    display: relative(session.root, file).split('\\').join('/'),
    skip: (q, d) => session.judgments().ratings?.get(rater)?.get(q)?.has(d) ?? false,
  };
}

export interface WorkspaceLlmResult {
  pool: Pool;
  plan: LlmJudgePlan;
  /** Workspace-relative sidecar file the grades go to. */
  file: string;
  /** Absent for a dry run. */
  run?: LlmJudgeRun;
  failures: LlmFailure[];
  /** The log of `failures` in the state folder (absolute), when there were any and the run sent something. */
  failureLog?: string;
  failedConfigs: { config: string; error: string }[];
}

export interface JudgePoolOptions {
  dryRun?: boolean;
  /** Where the API key variable is looked up (default process.env). */
  env?: Record<string, string | undefined>;
  /** Cancels pooling, and the requests in flight (runLlmJudging's `signal`). */
  signal?: AbortSignal;
  /** No new request once aborted; the answers in flight are awaited and kept (runLlmJudging's `stop`). */
  stop?: AbortSignal;
  /** Stop after this many pairs in a row found the endpoint down (default 5). */
  maxConsecutiveFailures?: number;
  onJudged?: (done: number, total: number) => void;
  now?: () => Date;
}

/** Plans the pool's prompts and, unless a dry run, sends them; the session's judgments are re-read after. */
export async function judgePoolWithLlm(
  session: RanklabSession,
  setup: LlmJudgeSetup,
  pooled: WorkspacePool,
  opts: JudgePoolOptions = {},
): Promise<WorkspaceLlmResult> {
  const { pool, failed } = pooled;
  const cacheDir = session.options.writeCache === false ? undefined : join(session.workspace.cacheDir, 'llm-judge');
  const { plan, missing } = planLlmJudging(pool.pairs, session.judgments(), (id) => session.document(id), setup.settings, cacheDir);
  const base = { pool, plan, file: setup.display, failedConfigs: failed };
  if (opts.dryRun) return { ...base, failures: missing };
  const client = createChatClient(setup.settings, { allowNetwork: session.options.allowNetwork ?? true, env: opts.env });
  let run: LlmJudgeRun;
  try {
    run = await runLlmJudging(plan, {
      client,
      ratingsFile: setup.file,
      cacheDir,
      signal: opts.signal,
      stop: opts.stop,
      onProgress: opts.onJudged,
      maxConsecutiveFailures: opts.maxConsecutiveFailures,
      now: opts.now,
    });
  } finally {
    session.reloadJudgments();
  }
  const failures = [...missing, ...run.failures];
  const result: WorkspaceLlmResult = { ...base, run, failures };
  if (failures.length) result.failureLog = writeFailureLog(session, setup, failures, run, (opts.now ?? (() => new Date()))());
  return result;
}

/** One JSON line per pair not graded, after a first line saying which run it was and how it ended. */
function writeFailureLog(session: RanklabSession, setup: LlmJudgeSetup, failures: LlmFailure[], run: LlmJudgeRun, at: Date): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-');
  const file = join(
    dirname(session.workspace.cacheDir),
    'logs',
    `llm-judge-failures-${llmRatingsFile(setup.settings.model).slice('llm-'.length, -'.jsonl'.length)}-${stamp}.jsonl`,
  );
  const head = {
    at: at.toISOString(),
    rater: setup.rater,
    baseUrl: setup.settings.baseUrl,
    requests: run.requests,
    graded: run.ratings.length,
    failures: failures.length,
    stopped: run.stopped?.message ?? null,
  };
  writeFileAtomic(file, [head, ...failures].map((x) => JSON.stringify(x)).join('\n') + '\n');
  return file;
}

/** All of it in one call: setup, pool (workspacePool), judging. */
export async function judgeWorkspaceWithLlm(
  session: RanklabSession,
  opts: Omit<WorkspacePoolOptions, 'skip'> & JudgePoolOptions & { model?: string },
): Promise<WorkspaceLlmResult> {
  const setup = llmJudgeSetup(session, opts);
  return judgePoolWithLlm(session, setup, await workspacePool(session, { ...opts, skip: setup.skip }), opts);
}
