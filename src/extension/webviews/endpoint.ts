/**
 * The host's half of a webview protocol (src/protocol/base.ts), without the panel: the ready handshake, requests
 * dispatched to typed handlers and answered by `requestId`, fire-and-forget commands, notifications.
 * No `vscode` import: `post` is the panel's `webview.postMessage`, so this is unit-tested in plain Node
 * against the app's client (webview/ipc.ts).
 */
import {
  type CommandName,
  type Messages,
  type NotificationName,
  type Protocol,
  type RequestName,
  type RequestParams,
  type RequestResult,
  type ToWebview,
  isToHost,
  requestIdOf,
} from '../../protocol/base';

export interface ViewHandlers<M extends Messages> {
  /** One per request; what it returns (or throws) is the answer. */
  requests: { [K in RequestName<M>]: (params: RequestParams<M, K>) => RequestResult<M, K> | Promise<RequestResult<M, K>> };
  /** One per command; errors are logged (nobody waits for a command). */
  commands: { [K in CommandName<M>]: (params: M['commands'][K]) => unknown };
  /** The app (re)started and listens: first open, a hidden panel shown again, a window reload. Send it the state. */
  ready(): void;
}

export interface EndpointLog {
  warn(message: string): void;
  error(message: string): void;
}

export class HostEndpoint<M extends Messages> {
  private readyNow = false;

  constructor(
    private readonly protocol: Protocol<M>,
    private readonly handlers: ViewHandlers<M>,
    private readonly post: (message: ToWebview<M>) => unknown,
    private readonly log: EndpointLog,
  ) {}

  /** The app has said `ready` (its listener is installed). */
  get isReady(): boolean {
    return this.readyNow;
  }

  notify<N extends NotificationName<M>>(name: N, params: M['notifications'][N]): void {
    void this.post({ type: 'notification', name, params } as ToWebview<M>);
  }

  /** Handles one message from the webview; resolves once it is handled (and answered, for a request). */
  async receive(m: unknown): Promise<void> {
    const view = this.protocol.viewType;
    if (!isToHost(this.protocol, m)) {
      const requestId = requestIdOf(m);
      const what = JSON.stringify(m)?.slice(0, 200);
      this.log.warn(`${view}: ignored malformed message ${what}`);
      // A request is still answered, so the app's promise settles instead of waiting for ever.
      if (requestId !== undefined) {
        const method = String((m as { method?: unknown }).method);
        const error = this.protocol.requests.has(method) ? `malformed request "${method}"` : `unknown request "${method}"`;
        await this.post({ type: 'response', requestId, ok: false, error });
      }
      return;
    }
    switch (m.type) {
      case 'ready':
        if (m.protocol !== this.protocol.version)
          this.log.warn(`${view}: webview protocol ${m.protocol}, host protocol ${this.protocol.version}`);
        this.readyNow = true;
        this.handlers.ready();
        return;
      case 'request': {
        const handler = this.handlers.requests[m.method as RequestName<M>] as (params: unknown) => unknown;
        try {
          const result = await handler(m.params);
          await this.post({ type: 'response', requestId: m.requestId, ok: true, result } as ToWebview<M>);
        } catch (e) {
          this.log.error(`${view}: request ${m.method} failed: ${(e as Error).stack ?? String(e)}`);
          await this.post({ type: 'response', requestId: m.requestId, ok: false, error: (e as Error).message ?? String(e) });
        }
        return;
      }
      case 'command': {
        const handler = this.handlers.commands[m.command as CommandName<M>] as (params: unknown) => unknown;
        try {
          await handler(m.params);
        } catch (e) {
          this.log.error(`${view}: command ${m.command} failed: ${(e as Error).stack ?? String(e)}`);
        }
        return;
      }
    }
  }
}
