import { type WorkspaceLlmResult, judgePoolWithLlm, llmJudgeSetup } from '../../core/session/judging-llm';
import { InputError } from '../../core/util/diagnostics';
import { formatChoice, parse } from '../args';
import type { Io } from '../io';
import { INTERRUPTED, WORKSPACE_OPTIONS, interruptSignal, openWorkspace, progressReporter } from '../workspace-options';
import { POOL_OPTIONS, poolOfWorkspace, poolSummary } from './pool';

export const JUDGE_USAGE = `ranklab judge --llm [--workspace DIR] [--config NAME|FILE]... [--depth N] [--queries QIDS | --slice TAG] [--max N]
              [--model M] [--include-judged] [--dry-run] [--format table|json]
  Grades the pool (as ranklab pool builds it, without the pairs this model graded before) with the OpenAI-compatible
  chat completions endpoint of ranklab.json "judging": {"llm": {"baseUrl", "model", "apiKeyEnv", ...}}, as the rater
  llm:MODEL, into <raters folder>/llm-<model>.jsonl with the prompt, the raw answer and the time. Answers without a
  grade are asked again, then reported, never guessed. Answers are cached: a second run asks nothing twice.
  --include-judged: grade pairs people graded too, so that ranklab agreement can compare the LLM with them
  (e.g. --include-judged --max 200 before trusting it). --dry-run: the number of prompts and an estimate of their
  tokens; nothing is sent. LLM grades are not scored unless
  ranklab.json says so (judging.llmGrades, judging.merge); ranklab agreement compares them with each person.`;

export async function judgeCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...POOL_OPTIONS,
    ...WORKSPACE_OPTIONS,
    llm: { type: 'boolean' },
    model: { type: 'string' },
    'dry-run': { type: 'boolean' },
    'include-judged': { type: 'boolean' },
  });
  if (values.help) return io.out(JUDGE_USAGE + '\n'), 0;
  if (!values.llm) throw new InputError('ranklab judge grades with an LLM (--llm); people grade in VS Code with "Ranklab: Judge Unjudged Documents"', [], { key: '--llm' });
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const { session, report } = openWorkspace(values, io);
  const setup = llmJudgeSetup(session, { model: values.model, dryRun: values['dry-run'] });
  const { signal, dispose } = interruptSignal(io);
  let result: WorkspaceLlmResult;
  let failedEntries: { config: string; error: string }[];
  try {
    const pooled = await poolOfWorkspace(session, report, values, io, signal, { skip: setup.skip, includeJudged: values['include-judged'] });
    failedEntries = pooled.failedEntries.map((f) => ({ config: f.name, error: f.message }));
    result = await judgePoolWithLlm(session, setup, pooled, { dryRun: values['dry-run'], signal, onJudged: progressReporter(io, 'judged') });
  } catch (e) {
    if (signal.aborted) {
      io.err(`interrupted: the grades received so far are saved in ${setup.display}\n`);
      return INTERRUPTED;
    }
    throw e;
  } finally {
    dispose();
  }
  result.failedConfigs.unshift(...failedEntries);
  for (const f of result.failedConfigs) io.err(`ranklab judge: config ${f.config} not run: ${f.error}\n`);
  if (format === 'json') io.out(JSON.stringify(judgeJson(result), null, 2) + '\n');
  else io.out(judgeText(result));
  return result.failures.length || result.failedConfigs.length ? 2 : 0;
}

function judgeJson(r: WorkspaceLlmResult) {
  const { plan } = r;
  return {
    model: plan.settings.model,
    rater: plan.rater,
    file: r.file,
    dryRun: !r.run,
    prompts: plan.items.length,
    cached: plan.cachedCount,
    estimatedPromptTokens: plan.tokens,
    graded: r.run?.ratings.length ?? 0,
    requests: r.run?.requests ?? 0,
    grades: r.run?.ratings.map((g) => ({ qid: g.qid, docid: g.docid, grade: g.grade, cached: g.cached === true })) ?? [],
    failures: r.failures,
    pool: { total: r.pool.total, pairs: r.pool.pairs.length, judged: r.pool.judged },
  };
}

function judgeText(r: WorkspaceLlmResult): string {
  const { plan } = r;
  const lines = [poolSummary(r.pool).trimEnd()];
  const toSend = plan.items.length - plan.cachedCount;
  lines.push(`${plan.items.length} prompts for ${plan.rater} (${plan.cachedCount} answered before, from the cache; ${toSend} to send, about ${plan.tokens} prompt tokens at 4 characters a token)`);
  if (!r.run) {
    lines.push(`dry run: nothing sent; grades would go to ${r.file}`);
  } else {
    lines.push(`${r.run.ratings.length} graded (${r.run.requests} requests) → ${r.file}`);
    const counts = [0, 1, 2, 3].map((g) => `${g}: ${r.run!.ratings.filter((x) => x.grade === g).length}`);
    lines.push(`grades ${counts.join(', ')}`);
  }
  if (r.failures.length) {
    lines.push(`${r.failures.length} not graded (reported, not guessed):`);
    for (const f of r.failures.slice(0, 20)) lines.push(`  ${f.qid} ${f.docId}: ${f.reason}: ${f.detail}${f.answer ? ` — answer: ${JSON.stringify(f.answer.slice(0, 120))}` : ''}`);
    if (r.failures.length > 20) lines.push(`  … and ${r.failures.length - 20} more (--format json lists them all)`);
  }
  return lines.join('\n') + '\n';
}
