/**
 * A small typed RPC over a `worker_threads` Worker: requests answered by id, progress notifications tied to a
 * request, cancellation (an AbortSignal on the host becomes an AbortSignal in the worker), one-way notifications,
 * and log lines. Generic over a method map so the same code carries Ranklab's methods (`protocol.ts`) and a test's.
 * No `vscode` import: unit-tested over a real worker (test/unit/extension/worker-rpc.test.ts).
 *
 * Cancel is cooperative first (the core stops at its next pause, ~50 ms away), then forced: a request that has
 * not settled `graceMs` after its cancel terminates the worker (every file the core writes is written whole and
 * atomically, so nothing is left half-written) and the next request starts a new one.
 */
import { type MessagePort, Worker, isMainThread, parentPort } from 'node:worker_threads';
import type { FromWorker, MethodMap, RpcError, ToWorker } from './protocol';

/** What a handler in the worker gets besides its parameters. */
export interface HandlerContext<P> {
  signal: AbortSignal;
  progress(p: P): void;
  log(level: 'info' | 'warn' | 'error', message: string): void;
}

export type Handlers<M extends MethodMap<M>> = {
  [K in keyof M]: (params: M[K]['params'], ctx: HandlerContext<M[K]['progress']>) => Promise<M[K]['result']> | M[K]['result'];
};

/** The worker died (crashed, ran out of memory, exited) while a request was in flight. */
export class WorkerDiedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerDiedError';
  }
}

/** An error thrown by a handler in the worker, with its name and (for InputError) location kept. */
export class RemoteError extends Error {
  constructor(readonly remote: RpcError) {
    super(remote.message);
    this.name = remote.name;
  }
}

export interface RequestOptions<P> {
  signal?: AbortSignal;
  onProgress?: (p: P) => void;
}

export interface RpcClientOptions {
  /** The worker's entry file (the bundle dist/worker.js; tests use a .cjs entry that registers tsx first). */
  entry: string;
  /** After a cancel, how long the worker may take to stop by itself before it is terminated (default 2000 ms). */
  graceMs?: number;
  onLog?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /** The worker died; requests in flight have been rejected with WorkerDiedError. */
  onDeath?: (error: WorkerDiedError) => void;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  onProgress?: (p: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  timer?: NodeJS.Timeout;
}

/** The host's half: starts the worker on first use and again after it died. */
export class RpcClient<M extends MethodMap<M>, N = never> {
  private worker?: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Workers started so far (tests check a dead worker is replaced). */
  started = 0;

  constructor(private readonly options: RpcClientOptions) {}

  get running(): boolean {
    return this.worker !== undefined;
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.entry);
    this.started++;
    worker.on('message', (m: FromWorker) => this.receive(m));
    let error: Error | undefined;
    worker.on('error', (e) => (error = e));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const died = new WorkerDiedError(`the Ranklab worker stopped (${error ? error.message : `exit code ${code}`})`);
      if (this.pending.size === 0 && code === 0 && !error) return;
      this.failAll(died);
      this.options.onDeath?.(died);
    });
    // Idle, the worker does not keep the host's process alive (the CLI-style tests end when their work is done).
    worker.unref();
    this.worker = worker;
    return worker;
  }

  request<K extends keyof M & string>(
    method: K,
    params: M[K]['params'],
    opts: RequestOptions<M[K]['progress']> = {},
  ): Promise<M[K]['result']> {
    if (opts.signal?.aborted) return Promise.reject(opts.signal.reason);
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const p: Pending = {
        resolve: resolve as (v: unknown) => void,
        reject,
        onProgress: opts.onProgress as (p: unknown) => void,
        signal: opts.signal,
      };
      if (opts.signal) {
        const signal = opts.signal;
        p.onAbort = () => {
          this.post({ kind: 'cancel', id });
          // Forced stop when the work does not come back in time: the worker is replaced on the next request.
          p.timer = setTimeout(() => {
            if (!this.pending.has(id)) return;
            this.settle(id);
            reject(signal.reason);
            const forced = new WorkerDiedError('the Ranklab worker was terminated: a cancelled task did not stop in time');
            this.options.onLog?.('warn', forced.message);
            void this.terminate(forced);
          }, this.options.graceMs ?? 2000);
        };
        signal.addEventListener('abort', p.onAbort, { once: true });
      }
      this.pending.set(id, p);
      worker.ref(); // busy: keep the process alive until the answer arrives
      this.post({ kind: 'request', id, method, params });
    });
  }

  notify(notification: N): void {
    if (this.worker) this.post({ kind: 'notify', notification });
  }

  /** Stops the worker; requests in flight are rejected with `reason`. */
  async terminate(reason = new WorkerDiedError('the Ranklab worker was stopped')): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(reason);
    await worker?.terminate();
  }

  private post(m: ToWorker): void {
    this.worker?.postMessage(m);
  }

  private settle(id: number): Pending | undefined {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    if (this.pending.size === 0) this.worker?.unref();
    return p;
  }

  private failAll(error: Error): void {
    for (const id of [...this.pending.keys()]) this.settle(id)?.reject(error);
  }

  private receive(m: FromWorker): void {
    if (m.kind === 'log') return this.options.onLog?.(m.level, m.message);
    if (m.kind === 'progress') return this.pending.get(m.id)?.onProgress?.(m.progress);
    const p = this.settle(m.id);
    if (!p) return;
    if (m.ok) p.resolve(m.result);
    else if (m.error.aborted && p.signal?.aborted) p.reject(p.signal.reason);
    else p.reject(new RemoteError(m.error));
  }
}

/** The worker's half: answers requests with `handlers` on this thread's parent port. */
export function serveRpc<M extends MethodMap<M>, N = never>(
  handlers: Handlers<M>,
  onNotify?: (notification: N) => void,
  port: MessagePort | null = parentPort,
): void {
  if (isMainThread || !port) throw new Error('serveRpc runs inside a worker thread');
  const running = new Map<number, AbortController>();
  const post = (m: FromWorker) => port.postMessage(m);
  const log = (level: 'info' | 'warn' | 'error', message: string) => post({ kind: 'log', level, message });
  // Every failure of a request is answered to the host; the listener itself returns nothing.
  const answer = async (m: ToWorker) => {
    if (m.kind === 'cancel') return running.get(m.id)?.abort(new DOMException('cancelled', 'AbortError'));
    if (m.kind === 'notify') {
      try {
        onNotify?.(m.notification as N);
      } catch (e) {
        log('error', `notification failed: ${(e as Error).message}`);
      }
      return;
    }
    const abort = new AbortController();
    running.set(m.id, abort);
    try {
      const handler = Object.hasOwn(handlers, m.method)
        ? (handlers[m.method as keyof M] as (p: unknown, ctx: HandlerContext<unknown>) => unknown)
        : undefined;
      if (typeof handler !== 'function') throw new Error(`unknown worker method "${m.method}"`);
      const result = await handler(m.params, {
        signal: abort.signal,
        progress: (progress) => post({ kind: 'progress', id: m.id, progress }),
        log,
      });
      post({ kind: 'response', id: m.id, ok: true, result });
    } catch (e) {
      post({ kind: 'response', id: m.id, ok: false, error: toRpcError(e, abort.signal.aborted) });
    } finally {
      running.delete(m.id);
    }
  };
  port.on('message', (m: ToWorker) => void answer(m));
}

function toRpcError(e: unknown, aborted: boolean): RpcError {
  const err = e instanceof Error ? e : new Error(String(e));
  const extra = err as Error & { file?: string; line?: number; key?: string };
  return {
    name: err.name,
    message: err.message,
    aborted,
    ...(extra.file && { file: extra.file }),
    ...(extra.line && { line: extra.line }),
    ...(extra.key && { key: extra.key }),
  };
}
