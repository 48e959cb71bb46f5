import { DEFAULT_MAX_CONSECUTIVE_FAILURES } from '../../core/judging/llm-judge';
import { type WorkspaceLlmResult, judgePoolWithLlm, llmJudgeSetup } from '../../core/session/judging-llm';
import { InputError } from '../../core/util/diagnostics';
import { formatChoice, intFlag, parse } from '../args';
import type { Io } from '../io';
import { INTERRUPTED, WORKSPACE_OPTIONS, openWorkspace, progressReporter } from '../workspace-options';
import { POOL_OPTIONS, poolOfWorkspace, poolSummary } from './pool';

export const JUDGE_USAGE = `ranklab judge --llm [--workspace DIR] [--config NAME|FILE]... [--depth N] [--queries QIDS | --slice TAG] [--max N]
              [--model M] [--include-judged] [--max-failures N] [--dry-run] [--format table|json]
  Grades the pool (as ranklab pool builds it, without the pairs this model graded before) with the OpenAI-compatible
  chat completions endpoint of ranklab.json "judging": {"llm": {"baseUrl", "model", "apiKeyEnv", ...}}, as the rater
  llm:MODEL, into <raters folder>/llm-<model>.jsonl with the prompt, the raw answer and the time. Answers without a
  grade are asked again, then reported, never guessed; the pairs not graded are also logged in the state folder.
  Answers are cached: a second run asks nothing twice.
  --include-judged: grade pairs people graded too, so that ranklab agreement can compare the LLM with them
  (e.g. --include-judged --max 200 before trusting it). --max-failures N: stop after N pairs in a row found the
  endpoint down (no answer, or 429/5xx after the retries; default ${DEFAULT_MAX_CONSECUTIVE_FAILURES}). --dry-run: the number of prompts, an estimate of
  their tokens and one prompt in full; nothing is sent. Ctrl-C: no new request, the answers in flight are awaited
  and saved (Ctrl-C again drops them). LLM grades are not scored unless ranklab.json says so (judging.llmGrades,
  judging.merge); ranklab agreement compares them with each person.`;

export async function judgeCommand(argv: string[], io: Io): Promise<number> {
  const { values } = parse(argv, {
    ...POOL_OPTIONS,
    ...WORKSPACE_OPTIONS,
    llm: { type: 'boolean' },
    model: { type: 'string' },
    'dry-run': { type: 'boolean' },
    'include-judged': { type: 'boolean' },
    'max-failures': { type: 'string' },
  });
  if (values.help) return (io.out(JUDGE_USAGE + '\n'), 0);
  if (!values.llm)
    throw new InputError('ranklab judge grades with an LLM (--llm); people grade in VS Code with "Ranklab: Judge Unjudged Documents"', [], {
      key: '--llm',
    });
  const format = formatChoice(values.format, ['table', 'json'] as const, 'table');
  const maxFailures = intFlag(values['max-failures'], '--max-failures', 1);
  const { session, report } = openWorkspace(values, io);
  const setup = llmJudgeSetup(session, { model: values.model, dryRun: values['dry-run'] });
  const interrupt = drainingInterrupt(io);
  let result: WorkspaceLlmResult;
  let failedEntries: { config: string; error: string }[];
  let judging = false;
  try {
    const pooled = await poolOfWorkspace(session, report, values, io, interrupt.stop, {
      skip: setup.skip,
      includeJudged: values['include-judged'],
    });
    failedEntries = pooled.failedEntries.map((f) => ({ config: f.name, error: f.message }));
    interrupt.judging();
    judging = true;
    result = await judgePoolWithLlm(session, setup, pooled, {
      dryRun: values['dry-run'],
      stop: interrupt.stop,
      signal: interrupt.signal,
      maxConsecutiveFailures: maxFailures,
      onJudged: progressReporter(io, 'judged', 'pairs'),
    });
  } catch (e) {
    if (interrupt.stop.aborted && !judging) {
      io.err(`interrupted before judging: nothing was sent\n`);
      return INTERRUPTED;
    }
    throw e;
  } finally {
    interrupt.dispose();
  }
  result.failedConfigs.unshift(...failedEntries);
  for (const f of result.failedConfigs) io.err(`ranklab judge: config ${f.config} not run: ${f.error}\n`);
  if (format === 'json') io.out(JSON.stringify(judgeJson(result), null, 2) + '\n');
  else io.out(judgeText(result));
  const run = result.run;
  if (result.failureLog)
    io.err(
      `ranklab judge: ${result.failures.length} pair${result.failures.length === 1 ? '' : 's'} not graded, listed in ${session.relativePath(result.failureLog)}\n`,
    );
  if (run?.stopped) {
    const left = run.failures.length + run.unfinished;
    io.err(
      `ranklab judge: ${run.stopped.message}; ${run.ratings.length} grades saved in ${result.file}; ${left} pairs left (${run.failures.length} failed, ${run.unfinished} not answered): running the command again asks them, not the graded ones\n`,
    );
    if (run.stopped.reason === 'interrupted') return INTERRUPTED;
  }
  return result.failures.length || result.failedConfigs.length || run?.stopped ? 2 : 0;
}

/**
 * Ctrl-C while judging: the first stops new requests and waits for the answers in flight (they are paid for, so
 * they are kept); the second cancels those; a third ends the process. While pooling, the first cancels at once.
 */
function drainingInterrupt(io: Io) {
  const stop = new AbortController();
  const cancel = new AbortController();
  let judging = false;
  let count = 0;
  const onSigint = () => {
    count++;
    if (count === 1 && judging) {
      io.err('\ninterrupted: no new request; waiting for the answers in flight to save them (Ctrl-C again to drop them)\n');
      stop.abort(new Error('interrupted'));
      return;
    }
    process.off('SIGINT', onSigint);
    if (count === 1) io.err('\ninterrupted: stopping (Ctrl-C again to quit at once)\n');
    stop.abort(new Error('interrupted'));
    cancel.abort(new Error('interrupted'));
  };
  process.on('SIGINT', onSigint);
  return {
    stop: stop.signal,
    signal: cancel.signal,
    /** Pooling is over: from now on the first Ctrl-C waits for the answers in flight. */
    judging: () => void (judging = true),
    dispose: () => process.off('SIGINT', onSigint),
  };
}

function judgeJson(r: WorkspaceLlmResult) {
  const { plan } = r;
  const sample = samplePrompt(r);
  return {
    model: plan.settings.model,
    rater: plan.rater,
    file: r.file,
    dryRun: !r.run,
    prompts: plan.items.length,
    cached: plan.cachedCount,
    estimatedPromptTokens: plan.tokens,
    samplePrompt: sample ? { qid: sample.qid, docid: sample.docId, prompt: sample.prompt } : null,
    graded: r.run?.ratings.length ?? 0,
    requests: r.run?.requests ?? 0,
    pairsSent: r.run?.pairsSent ?? 0,
    retries: { http: r.run?.httpRetries ?? 0, parse: r.run?.parseRetries ?? 0 },
    unfinished: r.run?.unfinished ?? 0,
    stopped: r.run?.stopped ?? null,
    grades: r.run?.ratings.map((g) => ({ qid: g.qid, docid: g.docid, grade: g.grade, cached: g.cached === true })) ?? [],
    failures: r.failures,
    failureLog: r.failureLog ?? null,
    pool: { total: r.pool.total, pairs: r.pool.pairs.length, alreadyJudged: r.pool.alreadyJudged ?? 0, judged: r.pool.judged },
  };
}

/** The first prompt a run would send (not answered by the cache), as it would be sent. */
const samplePrompt = (r: WorkspaceLlmResult) => r.plan.items.find((i) => !i.cached);

function judgeText(r: WorkspaceLlmResult): string {
  const { plan } = r;
  const lines = [poolSummary(r.pool).trimEnd()];
  const toSend = plan.items.length - plan.cachedCount;
  lines.push(
    `${plan.items.length} prompts for ${plan.rater} (${plan.cachedCount} answered before, from the cache; ${toSend} to send, about ${plan.tokens} prompt tokens at 4 characters a token)`,
  );
  if (!r.run) {
    lines.push(`dry run: nothing sent; grades would go to ${r.file}`);
    const sample = samplePrompt(r);
    if (sample) lines.push('', `the first prompt to send (${sample.qid} ${sample.docId}), in full:`, '-----', sample.prompt, '-----');
  } else {
    const run = r.run;
    lines.push(`${run.ratings.length} graded → ${r.file}`);
    lines.push(
      `requests: ${run.requests} sent for ${run.pairsSent} pairs (${run.httpRetries} HTTP retries, ${run.parseRetries} asked again for a grade)`,
    );
    const counts = [0, 1, 2, 3].map((g) => `${g}: ${run.ratings.filter((x) => x.grade === g).length}`);
    lines.push(`grades ${counts.join(', ')}`);
  }
  if (r.failures.length) {
    lines.push(`${r.failures.length} not graded (reported, not guessed):`);
    for (const f of r.failures.slice(0, 20))
      lines.push(
        `  ${f.qid} ${f.docId}: ${f.reason}: ${f.detail}${f.answer ? ` — answer: ${JSON.stringify(f.answer.slice(0, 120))}` : ''}`,
      );
    if (r.failures.length > 20) lines.push(`  … and ${r.failures.length - 20} more (in the log named on stderr, and in --format json)`);
  }
  return lines.join('\n') + '\n';
}
