/**
 * The app's half of a webview protocol (src/protocol/base.ts), shared by every Ranklab webview app: sends `ready`,
 * correlates requests with their responses by `requestId`, dispatches notifications to typed handlers, and wraps
 * the webview's persisted state (getState/setState, kept by VS Code across hiding and window reloads).
 * The host's half is src/extension/webviews/endpoint.ts.
 */
import {
  type CommandName,
  type Messages,
  type NotificationName,
  type Protocol,
  type RequestName,
  type RequestParams,
  type RequestResult,
  type ToHost,
  isToWebview,
} from '../src/protocol/base';

/** What `acquireVsCodeApi()` returns (it may be called once per page). */
export interface VsCodeApi<S> {
  postMessage(message: unknown): void;
  getState(): S | undefined;
  setState(state: S): void;
}
declare function acquireVsCodeApi<S>(): VsCodeApi<S>;

export type NotificationHandlers<M extends Messages> = { [N in NotificationName<M>]: (params: M['notifications'][N]) => void };

/** Where the client talks: the webview API and the window that receives the host's messages (replaceable in tests). */
export interface ClientEnv<S> {
  api: VsCodeApi<S>;
  events: Pick<EventTarget, 'addEventListener'>;
}

export class WebviewClient<M extends Messages, S extends object> {
  private nextRequestId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly api: VsCodeApi<S>;

  constructor(
    private readonly protocol: Protocol<M>,
    private readonly handlers: NotificationHandlers<M>,
    env: ClientEnv<S> = { api: acquireVsCodeApi<S>(), events: window },
  ) {
    this.api = env.api;
    env.events.addEventListener('message', (event) => this.receive((event as MessageEvent).data));
  }

  /** Tells the host the app listens (call once the notification handlers can run); the host answers with its state. */
  ready(): void {
    this.post({ type: 'ready', protocol: this.protocol.version });
  }

  request<K extends RequestName<M>>(method: K, params: RequestParams<M, K>): Promise<RequestResult<M, K>> {
    const requestId = this.nextRequestId++;
    return new Promise((resolve, reject) => {
      this.pending.set(requestId, { resolve: resolve as (v: unknown) => void, reject });
      this.post({ type: 'request', requestId, method, params } as ToHost<M>);
    });
  }

  command<C extends CommandName<M>>(command: C, params: M['commands'][C]): void {
    this.post({ type: 'command', command, params } as ToHost<M>);
  }

  /** The state persisted for this panel, if any. */
  get state(): S | undefined {
    return this.api.getState();
  }

  set state(value: S) {
    this.api.setState(value);
  }

  private post(message: ToHost<M>): void {
    this.api.postMessage(message);
  }

  private receive(m: unknown): void {
    if (!isToWebview(this.protocol, m)) return;
    if (m.type === 'response') {
      const p = this.pending.get(m.requestId);
      if (!p) return;
      this.pending.delete(m.requestId);
      if (m.ok) p.resolve(m.result);
      else p.reject(new Error(m.error));
      return;
    }
    const handler = this.handlers[m.name as NotificationName<M>] as (params: unknown) => void;
    handler(m.params);
  }
}
