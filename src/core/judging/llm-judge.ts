/**
 * The LLM judge: grades pool pairs with an OpenAI-compatible chat completions endpoint, as the rater `llm:MODEL`.
 * - The prompt is the documented template (./llm-prompt.ts) over the query and the document's passage (title and
 *   body, cut at `maxPassageChars`); each answer must end in `##final score: N`. An answer without a grade, a
 *   refusal (`message.refusal`, finish reason `content_filter`) or an empty one is asked again `parseRetries` times,
 *   then reported with the answer: never guessed, never written.
 * - Every grade goes to `<raters folder>/llm-<model>.jsonl` with the model, the template id, the prompt and its hash,
 *   the raw answer and the time (the judgments reader takes the `qid`, `docid`, `grade`, `rater` columns).
 * - Answers are cached by (model, prompt hash) under the state folder: a second run asks nothing it asked before.
 * - Requests go `concurrency` at a time through the shared HTTP client (timeout, retries with backoff, Retry-After);
 *   every request sent is counted, retries included. After `maxConsecutiveFailures` pairs in a row found the
 *   endpoint down the run stops; an interrupt stops new requests and waits for those in flight (a second one
 *   cancels them). Whatever was received is kept.
 * LLM grades are a rater of their own: scoring leaves them out unless ranklab.json says otherwise (merge.ts), and
 * `ranklab agreement` compares them with each person.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Document } from '../corpus/document';
import type { JudgmentSet } from '../judgments/types';
import { writeFileAtomic } from '../util/atomic-write';
import { sealJson, unsealJson } from '../util/content-hash';
import { InputError } from '../util/diagnostics';
import { retryable } from '../util/http-client';
import { ProviderError } from '../util/provider-error';
import { PROMPT_TEMPLATE_ID, buildPrompt, estimateTokens, gradeOfAnswer, promptHash } from './llm-prompt';

export interface LlmJudgeSettings {
  baseUrl: string;
  model: string;
  apiKeyEnv?: string;
  concurrency: number;
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  parseRetries: number;
  temperature: number;
  maxPassageChars: number;
}

/** ranklab.json `judging.llm` (plus `--model`), checked; a problem names its key. */
export function llmJudgeSettings(raw: Record<string, unknown> | undefined, overrides: { model?: string } = {}): LlmJudgeSettings {
  const r = raw ?? {};
  const where = (k: string) => `ranklab.json "judging.llm.${k}"`;
  const str = (k: string): string | undefined => {
    const v = r[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.trim() === '') throw new InputError(`${where(k)} must be a non-empty string`);
    return v;
  };
  const int = (k: string, def: number, min: number): number => {
    const v = r[k];
    if (v === undefined) return def;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
      throw new InputError(`${where(k)} must be an integer >= ${min}, not ${JSON.stringify(v)}`);
    return v;
  };
  const baseUrl = str('baseUrl');
  if (!baseUrl)
    throw new InputError(
      'the LLM judge needs an endpoint: add "judging": {"llm": {"baseUrl": "http://localhost:11434/v1", "model": "..."}} to ranklab.json',
    );
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InputError(`${where('baseUrl')} is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InputError(`${where('baseUrl')} must be http or https`);
  const model = overrides.model ?? str('model');
  if (!model) throw new InputError(`${where('model')} is missing (or pass --model)`);
  const temperature = r.temperature === undefined ? 0 : r.temperature;
  if (typeof temperature !== 'number' || temperature < 0 || temperature > 2)
    throw new InputError(`${where('temperature')} must be a number from 0 to 2`);
  const out: LlmJudgeSettings = {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model,
    concurrency: int('concurrency', 4, 1),
    timeoutMs: int('timeoutMs', 60_000, 1),
    maxRetries: int('maxRetries', 3, 0),
    retryDelayMs: int('retryDelayMs', 1000, 0),
    parseRetries: int('parseRetries', 2, 0),
    temperature,
    maxPassageChars: int('maxPassageChars', 4000, 100),
  };
  const key = str('apiKeyEnv');
  if (key) out.apiKeyEnv = key;
  return out;
}

export const llmRater = (model: string): string => `llm:${model}`;
/** The sidecar file of a model: `llm-<model>.jsonl`, the model's unsafe characters replaced by "-". */
export const llmRatingsFile = (model: string): string => `llm-${model.replace(/[^A-Za-z0-9._-]+/g, '-')}.jsonl`;

export interface ChatAnswer {
  content: string | null;
  refusal: string | null;
  finishReason: string | null;
}

/** Sends one chat completion (the HTTP client: src/core/judging/chat-client.ts). */
export type ChatClient = (
  request: { model: string; messages: { role: 'user'; content: string }[]; temperature: number },
  signal?: AbortSignal,
  /** Called as each HTTP request goes out, retries included. */
  onSend?: () => void,
) => Promise<ChatAnswer>;

/** One line of the sidecar file. */
export interface LlmRating {
  qid: string;
  docid: string;
  grade: number;
  rater: string;
  model: string;
  template: string;
  promptHash: string;
  prompt: string;
  answer: string;
  /** When the model answered (ISO time); a cached answer keeps its time. */
  at: string;
  cached?: true;
}

export interface LlmFailure {
  qid: string;
  docId: string;
  reason: 'refused' | 'no grade in the answer' | 'request failed';
  detail: string;
  answer?: string;
}

export interface LlmJudgeItem {
  qid: string;
  docId: string;
  prompt: string;
  hash: string;
  cached?: { answer: string; at: string };
}

export interface LlmJudgePlan {
  settings: LlmJudgeSettings;
  rater: string;
  items: LlmJudgeItem[];
  /** Prompt tokens of the items to send (cached ones cost nothing), estimated at four characters a token. */
  tokens: number;
  /** Items already answered in the cache. */
  cachedCount: number;
}

interface CacheEntry {
  model: string;
  promptHash: string;
  answer: string;
  at: string;
}

/** The passage a judge is shown: the title, then the body, cut at a word boundary near `max` characters. */
export function judgePassage(doc: Pick<Document, 'title' | 'body'>, max: number): string {
  const text = [doc.title.trim(), doc.body.replace(/\s+/g, ' ').trim()].filter(Boolean).join('\n');
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return `${text.slice(0, cut > max / 2 ? cut : max)} …`;
}

/** Prompts for the pairs, with their cache entries (a pair whose document left the corpus is reported). */
export function planLlmJudging(
  pairs: { qid: string; docId: string }[],
  judgments: JudgmentSet,
  document: (id: string) => Pick<Document, 'title' | 'body'> | undefined,
  settings: LlmJudgeSettings,
  cacheDir: string | undefined,
): { plan: LlmJudgePlan; missing: LlmFailure[] } {
  const items: LlmJudgeItem[] = [];
  const missing: LlmFailure[] = [];
  let tokens = 0;
  let cachedCount = 0;
  for (const { qid, docId } of pairs) {
    const doc = document(docId);
    if (!doc) {
      missing.push({ qid, docId, reason: 'request failed', detail: 'the document is not in the corpus' });
      continue;
    }
    const prompt = buildPrompt(judgments.queries.get(qid)?.text ?? '', judgePassage(doc, settings.maxPassageChars));
    const hash = promptHash(settings.model, prompt);
    const item: LlmJudgeItem = { qid, docId, prompt, hash };
    const cached = cacheDir ? readCache(cacheDir, hash, settings.model) : undefined;
    if (cached) {
      item.cached = cached;
      cachedCount++;
    } else tokens += estimateTokens(prompt);
    items.push(item);
  }
  return { plan: { settings, rater: llmRater(settings.model), items, tokens, cachedCount }, missing };
}

export interface LlmJudgeRun {
  ratings: LlmRating[];
  failures: LlmFailure[];
  /** HTTP requests sent, every retry included: what the endpoint received (and bills). */
  requests: number;
  /** Pairs at least one request was sent for. */
  pairsSent: number;
  /** Requests sent again by the HTTP client (429, 5xx, timeouts, network errors). */
  httpRetries: number;
  /** Questions asked again because the answer had no grade or was a refusal (`parseRetries`). */
  parseRetries: number;
  /** Pairs of the plan neither graded nor reported: the run stopped before their answer. A re-run sends them. */
  unfinished: number;
  /** Why the run stopped before the end of the plan, when it did. */
  stopped?: { reason: 'interrupted' | 'failing endpoint'; message: string };
}

/** Default of RunOptions.maxConsecutiveFailures (the CLI's --max-failures). */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 5;

export interface RunOptions {
  client: ChatClient;
  /** The sidecar JSONL file grades are appended to. */
  ratingsFile: string;
  cacheDir?: string;
  /** No new request once aborted; the answers in flight are awaited and kept (the first Ctrl-C). */
  stop?: AbortSignal;
  /** Cancels the requests in flight too (the second Ctrl-C); every answer received before is kept. */
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** Grades are appended in batches of this many (default 20), and whatever is done when the run stops. */
  flushEvery?: number;
  /**
   * Stop after this many pairs in a row whose request failed with the endpoint down: no answer (network error,
   * timeout) or a 429/5xx once the HTTP retries were spent (default 5). What was graded is kept.
   */
  maxConsecutiveFailures?: number;
  now?: () => Date;
}

/** The endpoint did not answer (network, timeout) or answered 429/5xx after the retries: not this pair's fault. */
function endpointDown(e: unknown): boolean {
  if (!(e instanceof ProviderError)) return false;
  return e.status === undefined || retryable(e.status);
}

/**
 * Sends the plan's prompts (cached answers are not sent) `concurrency` at a time and appends every grade to the
 * sidecar file. Every answer received is kept: grades are cached as they arrive and flushed to the sidecar in
 * batches and when the run ends, however it ends (interrupted, the endpoint down, or a 401/403/404, which throws).
 */
export async function runLlmJudging(plan: LlmJudgePlan, opts: RunOptions): Promise<LlmJudgeRun> {
  const { settings, rater } = plan;
  const ratings: LlmRating[] = [];
  const failures: LlmFailure[] = [];
  const pending: LlmRating[] = [];
  const flushEvery = opts.flushEvery ?? 20;
  const maxFailures = opts.maxConsecutiveFailures ?? DEFAULT_MAX_CONSECUTIVE_FAILURES;
  const now = opts.now ?? (() => new Date());
  let requests = 0;
  let asks = 0;
  let pairsSent = 0;
  let inARow = 0;
  let done = 0;
  let next = 0;
  let fatal: { error: unknown } | undefined; // the first failure that stops every worker, rethrown as it came
  let stopped: LlmJudgeRun['stopped'];
  const interrupted = () => {
    if (!(opts.stop?.aborted || opts.signal?.aborted)) return false;
    stopped ??= { reason: 'interrupted', message: 'interrupted' };
    return true;
  };
  const halted = () => fatal !== undefined || stopped !== undefined || interrupted();
  const flush = () => {
    if (pending.length) appendRatings(opts.ratingsFile, pending.splice(0));
  };
  const record = (item: LlmJudgeItem, grade: number, answer: string, at: string, cached: boolean) => {
    const r: LlmRating = {
      qid: item.qid,
      docid: item.docId,
      grade,
      rater,
      model: settings.model,
      template: PROMPT_TEMPLATE_ID,
      promptHash: item.hash,
      prompt: item.prompt,
      answer,
      at,
    };
    if (cached) r.cached = true;
    ratings.push(r);
    pending.push(r);
    if (pending.length >= flushEvery) flush();
  };
  const onSend = () => void requests++;
  /** Grades one item; false when it was left unfinished (the run stopped before its answer). */
  const judgeOne = async (item: LlmJudgeItem): Promise<boolean> => {
    const cachedGrade = item.cached && gradeOfAnswer(item.cached.answer);
    if (item.cached && cachedGrade !== undefined) return (record(item, cachedGrade, item.cached.answer, item.cached.at, true), true);
    let last: LlmFailure | undefined;
    for (let attempt = 0; attempt <= settings.parseRetries; attempt++) {
      if (halted()) return false; // no new request: a re-run asks this pair again
      if (attempt === 0) pairsSent++;
      asks++;
      let answer: ChatAnswer;
      try {
        answer = await opts.client(
          { model: settings.model, messages: [{ role: 'user', content: item.prompt }], temperature: settings.temperature },
          opts.signal,
          onSend,
        );
      } catch (e) {
        if (opts.signal?.aborted) return (interrupted(), false);
        // Wrong key, unknown model or endpoint: every other pair would fail the same way.
        const status = (e as { status?: number }).status;
        if (status === 401 || status === 403 || status === 404) throw e;
        const detail = (e as Error).message;
        failures.push({ qid: item.qid, docId: item.docId, reason: 'request failed', detail });
        if (endpointDown(e) && ++inARow >= maxFailures && stopped === undefined) {
          stopped = {
            reason: 'failing endpoint',
            message: `${settings.baseUrl} failed for ${inARow} pairs in a row (last: ${detail}): stopped sending`,
          };
        }
        return true; // the HTTP client has already retried what can be retried
      }
      inARow = 0;
      const text = answer.content ?? '';
      if (answer.refusal || answer.finishReason === 'content_filter') {
        last = {
          qid: item.qid,
          docId: item.docId,
          reason: 'refused',
          detail: answer.refusal ?? `finish reason ${answer.finishReason}`,
          answer: text,
        };
        continue;
      }
      const grade = gradeOfAnswer(text);
      if (grade === undefined) {
        last = {
          qid: item.qid,
          docId: item.docId,
          reason: 'no grade in the answer',
          detail: text.trim() === '' ? 'empty answer' : `expected "##final score: N" (0–3)`,
          answer: text,
        };
        continue;
      }
      const at = now().toISOString();
      if (opts.cacheDir) writeCache(opts.cacheDir, { model: settings.model, promptHash: item.hash, answer: text, at });
      record(item, grade, text, at, false);
      return true;
    }
    if (last) failures.push(last);
    return true;
  };
  const worker = async () => {
    while (!halted() && next < plan.items.length) {
      const item = plan.items[next++]!;
      try {
        if (!(await judgeOne(item))) return;
      } catch (e) {
        fatal ??= { error: e };
        return;
      }
      opts.onProgress?.(++done, plan.items.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, plan.items.length) }, worker));
  } finally {
    flush(); // what was graded before a stop is kept
  }
  if (fatal !== undefined) throw fatal.error;
  const run: LlmJudgeRun = {
    ratings,
    failures,
    requests,
    pairsSent,
    httpRetries: requests - asks,
    parseRetries: asks - pairsSent,
    unfinished: plan.items.length - ratings.length - failures.length, // one failure at most per pair
  };
  if (stopped) run.stopped = stopped;
  return run;
}

/** Appends rating lines to a JSONL file atomically (the whole file is rewritten through a temporary file). */
export function appendRatings(file: string, ratings: LlmRating[]): void {
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const sep = before === '' || before.endsWith('\n') ? '' : '\n';
  writeFileAtomic(file, before + sep + ratings.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

function cachePath(dir: string, hash: string): string {
  const hex = hash.replace(/^sha256:/, '');
  return join(dir, hex.slice(0, 2), `${hex}.json`);
}

/**
 * A cached answer, checked against the content hash stored with it: an entry changed after it was written (another
 * grade typed into it), or one written before hashes, is not used and the model is asked again.
 */
function readCache(dir: string, hash: string, model: string): { answer: string; at: string } | undefined {
  try {
    const unsealed = unsealJson(readFileSync(cachePath(dir, hash), 'utf8'));
    if (!unsealed.sealed) return undefined;
    const e = JSON.parse(unsealed.text) as CacheEntry;
    return e.model === model && e.promptHash === hash && typeof e.answer === 'string' ? { answer: e.answer, at: e.at } : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(dir: string, e: CacheEntry): void {
  writeFileAtomic(cachePath(dir, e.promptHash), sealJson(JSON.stringify(e)));
}
