/**
 * What a webview panel is made of, as types (no `vscode`): its page (`PanelView`, a row of the panel table
 * ./panels.ts), what its controller sees of the panel (`PanelHost`, implemented by ./host.ts) and what the table
 * gives a controller (`PanelDeps`). Kept apart from ./panels.ts, which imports the controllers: a controller
 * importing the table back would be a cycle.
 */
import type { Messages, NotificationName, Protocol } from '../../protocol/base';
import type { RanklabController } from '../controller';
import type { SessionManager } from '../sessions';
import type { ViewHandlers } from './endpoint';

/** A panel's page and bundle: from this the host builds the HTML (CSP, nonce, script, styles) and the serializer. */
export interface PanelView<M extends Messages> {
  /** Its view type (`ranklab.<id>`) and messages. */
  protocol: Protocol<M>;
  title: string;
  /** The app: `webview/<app>/main.ts`, bundled by scripts/build.mjs to `dist/webviews/<app>.js`. */
  app: string;
  /** Style sheets under media/. */
  styles: readonly string[];
  /** Tab icon under media/. */
  icon?: string;
  /** Plain text shown until the app has drawn. */
  loading: string;
}

/** The panel as its controller drives it: opened or revealed, notified, asked whether it is open and listening. */
export interface PanelHost<M extends Messages> {
  readonly isOpen: boolean;
  /** The app has said `ready` since the panel opened. */
  readonly isReady: boolean;
  show(): void;
  notify<N extends NotificationName<M>>(name: N, params: M['notifications'][N]): void;
}

/** Called once by a controller's constructor with its handlers; returns the host that answers with them. */
export type HostFor<M extends Messages> = (handlers: ViewHandlers<M>) => PanelHost<M>;

/** What every controller is built from (besides its host). */
export interface PanelDeps {
  readonly controller: RanklabController;
  readonly sessions: SessionManager;
}

/** A controller: its constructor. Its `dispose` (when it has one) runs when the extension deactivates. */
export type PanelController<M extends Messages, C> = new (deps: PanelDeps, host: HostFor<M>) => C;
