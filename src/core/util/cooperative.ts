/**
 * Cooperative cancellation for long synchronous work (corpus loading, index builds, LSA training, query
 * loops, statistics). Node runs a Ctrl-C handler or an editor's Cancel request only when JavaScript gives
 * the event loop a turn, so long loops pause when `sliceMs` (default 50 ms) have passed since their last
 * pause, then stop if their AbortSignal was aborted meanwhile. Time-sliced rather than every N items: the
 * cost is one clock read per item however cheap or costly an item is, and a few pauses per second.
 *
 * Algorithms that must also stay callable synchronously are written once as generators (`Steps`) that yield
 * at safe points; `runSync` drives them straight through, `runSliced` pauses when a slice is used up.
 */

/** What long work reports (for progress lines and notifications). `done` counts items of `total` (0: not known ahead). */
export interface WorkProgress {
  phase: WorkPhase;
  /** Which config (or file) the phase works for, when there is one. */
  label?: string;
  done: number;
  total: number;
}

export type WorkPhase =
  | 'corpus'
  | 'lexical-index'
  | 'lexical-cache'
  | 'lsa'
  | 'embedding'
  | 'hnsw'
  | 'queries'
  | 'access-check'
  | 'statistics';

export interface WorkOptions {
  signal?: AbortSignal;
  /** Default label of the phases (e.g. the config being built). */
  label?: string;
  onProgress?: (progress: WorkProgress) => void;
  /** Longest run without a pause, in ms (default 50). */
  sliceMs?: number;
}

export const DEFAULT_SLICE_MS = 50;

/** One unit of cancellable work: the signal that stops it and where its progress goes. */
export class Work {
  static readonly none = new Work();

  constructor(readonly options: WorkOptions = {}) {}

  get signal(): AbortSignal | undefined {
    return this.options.signal;
  }

  throwIfAborted(): void {
    this.options.signal?.throwIfAborted();
  }

  /** The same work, its phases labelled (e.g. with a config name). */
  labelled(label: string): Work {
    return new Work({ ...this.options, label });
  }

  /** Starts a phase of `total` items: reports it (done 0) and returns the slicer its loop pauses with. */
  phase(phase: WorkPhase, total: number, label = this.options.label): Slicer {
    this.throwIfAborted();
    return new Slicer(this, phase, total, label);
  }
}

/** Paces one loop. Usage: `if (slicer.due()) await slicer.pause(done)` once per item. */
export class Slicer {
  private last = performance.now();
  private readonly sliceMs: number;

  constructor(
    private readonly work: Work,
    readonly phase: WorkPhase,
    readonly total: number,
    readonly label?: string,
  ) {
    this.sliceMs = work.options.sliceMs ?? DEFAULT_SLICE_MS;
    this.report(0);
  }

  /** True when the loop has run a whole slice without a pause. */
  due(): boolean {
    return performance.now() - this.last >= this.sliceMs;
  }

  /** Gives the event loop a turn, reports progress, and throws the abort reason if the work was aborted. */
  async pause(done?: number): Promise<void> {
    await yieldToEventLoop();
    this.last = performance.now();
    this.work.throwIfAborted();
    if (done !== undefined) this.report(done);
  }

  /** Reports the phase complete. */
  end(): void {
    this.report(this.total);
  }

  private report(done: number): void {
    this.work.options.onProgress?.({ phase: this.phase, label: this.label, done, total: this.total });
  }
}

/** setImmediate, not setTimeout(0): no 1 ms clamp, and pending I/O (signals, IPC) is polled before it runs. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A resumable computation: yields (optionally how many items are done) where it may pause, returns T. */
export type Steps<T> = Generator<number | void, T, void>;

/** Runs steps straight through, without pausing. */
export function runSync<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs steps, pausing (and stopping on abort) whenever the slicer's slice is used up. */
export async function runSliced<T>(steps: Steps<T>, slicer: Slicer): Promise<T> {
  let done: number | undefined; // the last count the steps reported
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (typeof r.value === 'number') done = r.value;
    if (slicer.due()) await slicer.pause(done);
  }
}

/**
 * Settles with `promise`, or rejects with the abort reason as soon as `signal` aborts (for a library call
 * that cannot take a signal itself; its work finishes in the background and its result is dropped).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/** Waits `ms`, or rejects with the abort reason as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
