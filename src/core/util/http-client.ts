/**
 * The one HTTP client of Ranklab's services (embedding/rerank providers, search engines): a request is cut off
 * after `timeoutMs` and retried up to `maxRetries` times after `retryDelayMs`·2^attempt (Retry-After wins,
 * capped at a minute) on 429, 5xx, timeouts and network errors. What still fails is an error naming the URL
 * and the cause, never the credentials. Cancelling (the caller's AbortSignal) stops a request or a wait at once.
 */
import { InputError } from './diagnostics';

export interface HttpClientOptions {
  timeoutMs: number;
  maxRetries: number;
  retryDelayMs: number;
  /** Sent with every request (e.g. content type, credentials). */
  headers?: Record<string, string>;
  /** Names the setting in messages, e.g. `vector.embedder` or `engine`. */
  settingPath: string;
  /** Replaceable for tests that want to see the waits without waiting. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each retry (for logs and tests); never given credentials. */
  onRetry?: (info: { url: string; attempt: number; waitMs: number; reason: string }) => void;
}

export interface HttpRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  url: string;
  body?: string;
  /** Extra headers for this request (they win over the client's). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
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

/** A request that failed for good: the service cannot be reached, does not answer in time or answers an error. */
export class RequestError extends InputError {
  constructor(message: string, readonly url: string, readonly status?: number, cause?: unknown) {
    super(message);
    this.name = 'RequestError';
    if (cause !== undefined) this.cause = cause;
  }
}

const MAX_WAIT_MS = 60_000;

export class HttpClient {
  constructor(readonly options: HttpClientOptions) {}

  /**
   * Sends a request, retrying transient failures. Returns the answer whatever its status once it is not
   * retryable (or the retries are spent on a retryable one); throws a RequestError when no answer came.
   */
  async send(req: HttpRequest): Promise<HttpResponse> {
    const o = this.options;
    const sleep = o.sleep ?? abortableSleep;
    const headers = { ...o.headers, ...req.headers };
    for (let attempt = 0; ; attempt++) {
      req.signal?.throwIfAborted();
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), o.timeoutMs);
      const onAbort = () => timeout.abort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const t0 = performance.now();
      let failure: RequestError;
      let waitMs: number | undefined;
      try {
        const res = await fetch(req.url, { method: req.method ?? 'GET', headers, body: req.body, signal: timeout.signal });
        const text = await res.text();
        const answer: HttpResponse = { status: res.status, statusText: res.statusText, text, ms: performance.now() - t0, attempts: attempt + 1 };
        if (!retryable(res.status) || attempt >= o.maxRetries) return answer;
        failure = new RequestError(`${req.url} answered ${res.status} ${res.statusText}`, req.url, res.status);
        waitMs = parseRetryAfter(res.headers.get('retry-after'));
      } catch (e) {
        req.signal?.throwIfAborted();
        failure = timeout.signal.aborted
          ? new RequestError(`no answer within ${o.timeoutMs} ms from ${req.url} (${o.settingPath}.timeoutMs)`, req.url, undefined, e)
          : new RequestError(`${networkCause(e)} at ${req.url} (${o.settingPath})`, req.url, undefined, e);
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      }
      if (attempt >= o.maxRetries) {
        if (attempt > 0) failure.message += `; gave up after ${attempt + 1} attempts (${o.settingPath}.maxRetries)`;
        throw failure;
      }
      const wait = Math.min(MAX_WAIT_MS, waitMs ?? o.retryDelayMs * 2 ** attempt);
      o.onRetry?.({ url: req.url, attempt: attempt + 1, waitMs: wait, reason: failure.message });
      await sleep(wait, req.signal);
    }
  }

  /** `send`, then a 2xx answer parsed as JSON; anything else is a RequestError quoting the start of the answer. */
  async json<T = unknown>(req: HttpRequest): Promise<{ body: T; response: HttpResponse }> {
    const response = await this.send(req);
    if (response.status < 200 || response.status > 299) {
      const gaveUp = retryable(response.status) && response.attempts > 1 ? `; gave up after ${response.attempts} attempts (${this.options.settingPath}.maxRetries)` : '';
      throw new RequestError(`${req.url} answered ${response.status} ${response.statusText} (${this.options.settingPath}): ${response.text.slice(0, 300)}${gaveUp}`, req.url, response.status);
    }
    try {
      return { body: JSON.parse(response.text) as T, response };
    } catch (e) {
      throw new RequestError(`${req.url} answered ${response.status} with a body that is not JSON (${this.options.settingPath}): ${response.text.slice(0, 200)}`, req.url, response.status, e);
    }
  }
}

const retryable = (status: number) => status === 429 || status >= 500;

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

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
