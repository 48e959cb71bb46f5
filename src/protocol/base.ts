/**
 * The message envelope between the extension host and every Ranklab webview, generic over a view's messages.
 * Each view declares its messages in one file beside this one (`dashboard.ts`, ...), which both sides import:
 * the host (src/extension/webviews/) and the app (webview/<view>/). Nothing here may import `vscode` or touch the DOM.
 *
 * Shape (after GitLens' webview protocols and vscode-pull-request-github's handshake):
 * - webview → host `ready` once its listener is installed, again after every reload; the host answers with
 *   notifications carrying the full state (anything posted before `ready` may be lost: the state is sent again).
 * - webview → host requests carry a `requestId`; the host answers each with exactly one `response` carrying the
 *   same id (`ok: true` + typed `result`, or `ok: false` + `error`), also for a method it does not know.
 * - webview → host commands are fire-and-forget (open a file, run a command).
 * - host → webview notifications push state.
 */

/** What a view's protocol declares: requests (params → result), commands (params) and notifications (params). */
export interface Messages {
  requests: Record<string, { params: object; result: unknown }>;
  commands: Record<string, object>;
  notifications: Record<string, object>;
}

/** A view's protocol at run time: its view type, version and message names (both sides receive `unknown`). */
export interface Protocol<M extends Messages> {
  readonly viewType: string;
  readonly version: number;
  readonly requests: ReadonlySet<string>;
  readonly commands: ReadonlySet<string>;
  readonly notifications: ReadonlySet<string>;
  /** Carries the message types; never set. */
  readonly messages?: M;
}

/** Every name of a message map, as `{ name: true }`: the compiler then refuses a protocol that forgets one. */
type AllNames<T> = { readonly [K in keyof T]: true };

export function defineProtocol<M extends Messages>(p: {
  viewType: string;
  version: number;
  requests: AllNames<M['requests']>;
  commands: AllNames<M['commands']>;
  notifications: AllNames<M['notifications']>;
}): Protocol<M> {
  const names = (o: object) => new Set(Object.keys(o));
  return {
    viewType: p.viewType,
    version: p.version,
    requests: names(p.requests),
    commands: names(p.commands),
    notifications: names(p.notifications),
  };
}

// ---------------------------------------------------------------- names, params and results of one protocol

export type RequestName<M extends Messages> = keyof M['requests'] & string;
export type CommandName<M extends Messages> = keyof M['commands'] & string;
export type NotificationName<M extends Messages> = keyof M['notifications'] & string;
export type RequestParams<M extends Messages, K extends RequestName<M>> = M['requests'][K]['params'];
export type RequestResult<M extends Messages, K extends RequestName<M>> = M['requests'][K]['result'];

// ---------------------------------------------------------------- the envelope

export type ReadyMessage = { type: 'ready'; protocol: number };
export type RequestMessage<M extends Messages> = {
  [K in RequestName<M>]: { type: 'request'; requestId: number; method: K; params: RequestParams<M, K> };
}[RequestName<M>];
export type CommandMessage<M extends Messages> = {
  [K in CommandName<M>]: { type: 'command'; command: K; params: M['commands'][K] };
}[CommandName<M>];
export type NotificationMessage<M extends Messages> = {
  [K in NotificationName<M>]: { type: 'notification'; name: K; params: M['notifications'][K] };
}[NotificationName<M>];
export type ResponseMessage<M extends Messages> =
  | { type: 'response'; requestId: number; ok: true; result: RequestResult<M, RequestName<M>> }
  | { type: 'response'; requestId: number; ok: false; error: string };

export type ToHost<M extends Messages> = ReadyMessage | RequestMessage<M> | CommandMessage<M>;
export type ToWebview<M extends Messages> = NotificationMessage<M> | ResponseMessage<M>;

// ---------------------------------------------------------------- guards (the host never trusts webview input)

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Structural check of a message from a view's webview: known type, known name, params an object. */
export function isToHost<M extends Messages>(protocol: Protocol<M>, v: unknown): v is ToHost<M> {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'ready':
      return typeof v.protocol === 'number';
    case 'request':
      return typeof v.requestId === 'number' && protocol.requests.has(v.method as string) && isRecord(v.params);
    case 'command':
      return protocol.commands.has(v.command as string) && isRecord(v.params);
    default:
      return false;
  }
}

/** Structural check of a message from the host. */
export function isToWebview<M extends Messages>(protocol: Protocol<M>, v: unknown): v is ToWebview<M> {
  if (!isRecord(v)) return false;
  if (v.type === 'response') return typeof v.requestId === 'number' && typeof v.ok === 'boolean';
  return v.type === 'notification' && protocol.notifications.has(v.name as string) && isRecord(v.params);
}

/** The id of something shaped like a request (its method or params may still be wrong), so it can be answered. */
export function requestIdOf(v: unknown): number | undefined {
  return isRecord(v) && v.type === 'request' && typeof v.requestId === 'number' ? v.requestId : undefined;
}
