/**
 * The one HTTP client of Ranklab's services: the embedding and rerank providers (`retrieval/providers/http.ts`) and
 * the search engines (`engines/`). A request is cut off after `timeoutMs` and retried up to `maxRetries` times
 * after `retryDelayMs`·2^attempt (Retry-After wins, at most a minute) on 429, 5xx, timeouts and network errors.
 * What still fails is a ProviderError (an InputError: the user's service or settings, not a bug) whose key is the
 * setting to look at (`vector.embedder`, `engine.request.timeoutMs`), naming the URL and the cause and never the
 * credentials. Cancelling (the caller's AbortSignal) stops a request or a wait at once.
 *
 *   const http = new HttpClient({ timeoutMs, maxRetries, retryDelayMs, settingPath: 'engine.request' });
 *   const { body } = await http.json<T>({ method: 'POST', url, body: JSON.stringify(x), headers, signal });
 *   const answer = await http.send({ method: 'HEAD', url });   // any status that is not retried
 */
import { ProviderError } from './provider-error';
import { abortableSleep } from './cooperative';

export interface HttpClientOptions {
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  /** The setting the requests come from, used as the key of errors: `vector.embedder`, `engine.request`. */
  settingPath: string;
  /** Sent with every request (content type, credentials). */
  headers?: Record<string, string>;
  /** Replaceable for tests that want to see the waits without waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  url: string;
  body?: string;
  /** Extra headers for this request (they win over the client's). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Called as each attempt is sent, retries included (a caller counting what it sent, e.g. the LLM judge). */
  onSend?: () => void;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  text: string;
  /** Round trip of the attempt that answered, ms. */
  ms: number;
  /** Attempts made (1 = no retry). */
  attempts: number;
}

const MAX_WAIT_MS = 60_000;

export class HttpClient {
  constructor(readonly options: HttpClientOptions) {}

  /**
   * Sends a request, retrying transient failures, and returns the answer once its status is not one to retry
   * (any 2xx, 3xx or 4xx but 429). When the retries are spent, or no answer came, it throws a ProviderError.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const o = this.options;
    const sp = o.settingPath;
    const sleep = o.sleep ?? abortableSleep;
    const headers = { ...o.headers, ...req.headers };
    for (let attempt = 0; ; attempt++) {
      req.signal?.throwIfAborted();
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), o.timeoutMs);
      const onAbort = () => timeout.abort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const t0 = performance.now();
      req.onSend?.();
      let failure: { reason: string; key: string; status?: number; cause?: unknown };
      let waitMs: number | undefined;
      try {
        const res = await fetch(req.url, { method: req.method ?? 'GET', headers, body: req.body, signal: timeout.signal });
        const text = await res.text();
        if (!retryable(res.status))
          return { status: res.status, statusText: res.statusText, text, ms: performance.now() - t0, attempts: attempt + 1 };
        failure = { reason: `${req.url} answered ${res.status} ${res.statusText}: ${text.slice(0, 300)}`, key: sp, status: res.status };
        waitMs = parseRetryAfter(res.headers.get('retry-after'));
      } catch (e) {
        req.signal?.throwIfAborted();
        failure = timeout.signal.aborted
          ? { reason: `no answer within ${o.timeoutMs} ms from ${req.url}`, key: `${sp}.timeoutMs`, cause: e }
          : { reason: `${networkCause(e)} at ${req.url}`, key: sp, cause: e };
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      }
      if (attempt >= o.maxRetries) {
        throw new ProviderError(failure.reason, req.url, {
          ...failure,
          hint: attempt > 0 ? `gave up after ${attempt + 1} attempts; see ${sp}.maxRetries` : undefined,
        });
      }
      await sleep(Math.min(MAX_WAIT_MS, waitMs ?? o.retryDelayMs * 2 ** attempt), req.signal);
    }
  }

  /** `send`, then a 2xx answer parsed as JSON; any other answer is a ProviderError quoting its start. */
  async json<T = unknown>(req: HttpRequest): Promise<{ body: T; response: HttpResponse }> {
    const response = await this.send(req);
    const key = this.options.settingPath;
    if (response.status < 200 || response.status > 299) {
      throw new ProviderError(`${req.url} answered ${response.status} ${response.statusText}: ${response.text.slice(0, 300)}`, req.url, {
        key,
        status: response.status,
      });
    }
    try {
      return { body: JSON.parse(response.text) as T, response };
    } catch (e) {
      throw new ProviderError(
        `${req.url} answered ${response.status} with a body that is not JSON: ${response.text.slice(0, 200)}`,
        req.url,
        { key, status: response.status, cause: e },
      );
    }
  }
}

/** 429 (too many requests) and 5xx are worth another try; every other status is the answer. */
export const retryable = (status: number) => status === 429 || status >= 500;

/** Retry-After as seconds or an HTTP date → milliseconds, or undefined when absent/unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const secs = Number(value);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** What a failed connection was, in words (fetch rejects with a TypeError whose `cause` has the code). */
const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
};

function networkCause(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  if (code && NETWORK_CAUSES[code]) return `${NETWORK_CAUSES[code]} (${code})`;
  return code ?? cause?.message ?? (e as Error).message;
}
