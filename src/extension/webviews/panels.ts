/**
 * Every webview panel, one row each (like the command table, ../commands/index.ts): its protocol (view type and
 * messages, src/protocol/<id>.ts), its page (title, styles under media/, icon, loading text), its app
 * (webview/<app>/main.ts) and its controller (src/extension/<id>/panel.ts, which keeps its logic in a `vscode`-free
 * model.ts). From this table come: activation (each controller built over a WebviewPanelHost, its serializer
 * registered: ./register.ts), the page and its CSP (./host.ts, ./html.ts), the bundles scripts/build.mjs makes, the
 * files the .vsix must hold (scripts/vscode/vsix-files.ts), and the `onWebviewPanel` activation events
 * test/unit/extension/panels.test.ts expects in package.json.
 *
 * No `vscode` when loaded: a controller (which needs it) is a dynamic import, run only when the extension activates,
 * so the build script and the package check read this table in plain Node (after GitLens' webview registrations).
 */
import type { Messages } from '../../protocol/base';
import { dashboardProtocol } from '../../protocol/dashboard';
import { judgingProtocol } from '../../protocol/judging';
import { sweepProtocol } from '../../protocol/sweep';
import { tuneProtocol } from '../../protocol/tune';
import type { PanelController, PanelView } from './view';

export interface PanelSpec<M extends Messages, C> extends PanelView<M> {
  /** Its controller's class, imported when the extension activates. */
  controller: () => Promise<PanelController<M, C>>;
}

/** Ties a row's protocol to its controller's handlers (the compiler checks each row on its own). */
const panel = <M extends Messages, C>(spec: PanelSpec<M, C>): PanelSpec<M, C> => spec;

export const PANELS = {
  dashboard: panel({
    protocol: dashboardProtocol,
    title: 'Ranklab Dashboard',
    app: 'dashboard',
    styles: ['base.css', 'dashboard.css'],
    icon: 'ranklab.svg',
    loading: 'Loading runs…',
    controller: async () => (await import('../dashboard/panel')).DashboardPanel,
  }),
  judging: panel({
    protocol: judgingProtocol,
    title: 'Ranklab: Judge',
    app: 'judging',
    styles: ['base.css', 'judging.css'],
    icon: 'ranklab.svg',
    loading: 'Building the pool of unjudged documents…',
    controller: async () => (await import('../judging/panel')).JudgingPanel,
  }),
  sweep: panel({
    protocol: sweepProtocol,
    title: 'Ranklab: Sweep',
    app: 'sweep',
    styles: ['base.css', 'sweep.css'],
    icon: 'ranklab.svg',
    loading: 'Sweeping…',
    controller: async () => (await import('../sweep/panel')).SweepPanel,
  }),
  tune: panel({
    protocol: tuneProtocol,
    title: 'Ranklab: Tune',
    app: 'tune',
    styles: ['base.css', 'tune.css'],
    icon: 'ranklab.svg',
    loading: 'Preparing the Tune view…',
    controller: async () => (await import('../tune/panel')).TunePanel,
  }),
};

export type PanelId = keyof typeof PANELS;

/** The controller of each panel, by id (`ctx.sweep` is a SweepPanel). */
export type PanelControllers = {
  readonly [K in PanelId]: Awaited<ReturnType<(typeof PANELS)[K]['controller']>> extends new (...args: never[]) => infer C ? C : never;
};

/** The rows in table order, with their ids. */
export const PANEL_LIST = (Object.keys(PANELS) as PanelId[]).map((id) => ({
  id,
  ...(PANELS[id] as unknown as PanelSpec<Messages, unknown>),
}));
