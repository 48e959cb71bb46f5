/**
 * `ranklab judge --llm` on a workspace: the pool (without the pairs this model graded before), the plan (prompts,
 * cache hits, a token estimate), and unless it is a dry run the grading itself, appended to
 * `<raters folder>/llm-<model>.jsonl`. Refused where the session may not use the network (untrusted workspace).
 */
import { join, relative, resolve } from 'node:path';
import type { RanklabSession } from '../session/session';
import { InputError } from '../util/diagnostics';
import { createChatClient } from './chat-client';
import { type LlmFailure, type LlmJudgePlan, type LlmJudgeRun, llmJudgeSettings, llmRater, llmRatingsFile, planLlmJudging, runLlmJudging } from './llm-judge';
import type { Pool } from './pool';
import { type WorkspacePoolOptions, workspacePool } from './workspace-pool';

export interface WorkspaceLlmOptions extends Omit<WorkspacePoolOptions, 'skip'> {
  model?: string;
  dryRun?: boolean;
  /** Where the API key variable is looked up (default process.env). */
  env?: Record<string, string | undefined>;
  onJudged?: (done: number, total: number) => void;
}

export interface WorkspaceLlmResult {
  pool: Pool;
  plan: LlmJudgePlan;
  /** Workspace-relative sidecar file the grades go to. */
  file: string;
  /** Absent for a dry run. */
  run?: LlmJudgeRun;
  failures: LlmFailure[];
  failedConfigs: { config: string; error: string }[];
}

export async function judgeWorkspaceWithLlm(session: RanklabSession, opts: WorkspaceLlmOptions): Promise<WorkspaceLlmResult> {
  const settings = llmJudgeSettings(session.workspace.settings.judging.llm, { model: opts.model });
  if (!opts.dryRun && session.options.allowNetwork === false) {
    throw new InputError('the LLM judge sends passages to an HTTP endpoint, which is not allowed here (untrusted workspace): trust the workspace first');
  }
  const ratersSpec = session.workspace.judgmentSpecs.find((s) => s.raters);
  if (!ratersSpec && !opts.dryRun) {
    throw new InputError('the LLM judge writes its grades as a rater of its own: add a folder of per-rater files to ranklab.json "judgments", e.g. {"raters": "judgments"}');
  }
  const rater = llmRater(settings.model);
  const own = session.judgments().ratings?.get(rater);
  const { pool, failed } = await workspacePool(session, { ...opts, skip: (q, d) => own?.get(q)?.has(d) ?? false });
  const cacheDir = session.options.writeCache === false ? undefined : join(session.workspace.cacheDir, 'llm-judge');
  const judgments = session.judgments();
  const { plan, missing } = planLlmJudging(pool.pairs, judgments, (id) => session.document(id), settings, cacheDir);
  const abs = join(resolve(session.root, ratersSpec?.raters ?? 'judgments'), llmRatingsFile(settings.model));
  const file = relative(session.root, abs).split('\\').join('/');
  if (opts.dryRun) return { pool, plan, file, failures: missing, failedConfigs: failed };
  const client = createChatClient(settings, { allowNetwork: session.options.allowNetwork ?? true, env: opts.env });
  let run: LlmJudgeRun;
  try {
    run = await runLlmJudging(plan, { client, ratingsFile: abs, cacheDir, signal: opts.signal, onProgress: opts.onJudged });
  } finally {
    session.reloadJudgments();
  }
  return { pool, plan, file, run, failures: [...missing, ...run.failures], failedConfigs: failed };
}
