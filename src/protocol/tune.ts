/**
 * The Tune view's protocol (envelope in ./base.ts): a config's recombinable settings as sliders, each move answered
 * with what `eval` + `compare` would say of those settings against the baseline (src/core/tuning/tuner.ts). Imported
 * by the host (src/extension/tune/) and the app (webview/tune/); no `vscode`, no DOM.
 *
 * - after `ready` the host sends `setup` (sliders, fixed settings) and the latest `result`;
 * - a slider move is the command `move` with a sequence number; the host answers in two stages, both carrying that
 *   number: `result` with the figures the ranking alone gives (means, per-query Δ, wins/losses/ties, tune vs holdout,
 *   the overfitting warning, and the gates, which need no resampling; `stats` absent), then `stats` with compare's
 *   statistics of the same settings (CI, adjusted p, verdict, warnings, and the same gates). Only the latest move is computed: a move while one computes supersedes
 *   it, and neither stage of the older one is sent after that (after `ready` the host replays the latest `result`,
 *   its `stats` included once known);
 * - `apply` writes the settings into the config (an undoable edit, comments kept); `saveAs` writes
 *   `<name>-tuned-N.rank.json` beside it; both answer with the file's path.
 */
import { defineProtocol } from './base';

/** Slider positions by setting path (`lexical.fields.title` → 2.5). */
export type TuneSettingsMsg = Record<string, number>;

export interface TuneSlider {
  path: string;
  value: number;
  min: number;
  max: number;
  step: number;
}

export interface TuneSetup {
  config: string;
  /** The config file, relative to the workspace folder. */
  file: string;
  sliders: TuneSlider[];
  fixed: { path: string; reason: string }[];
}

/** One row of the metrics table: a metric on all / tune / holdout queries, baseline and current. */
export interface TuneMetricRow {
  metric: string;
  all: { baseline: number; current: number; delta: number };
  tune: { baseline: number; current: number; delta: number };
  holdout: { baseline: number; current: number; delta: number };
}

/** One gate of the workspace (ranklab.json `gates`) and whether the settings pass it. */
export interface TuneGate {
  gate: string;
  passed: boolean;
}

/** The second stage of a move: compare's statistics of its settings against the baseline. */
export interface TuneStats {
  /** The headline metric's Holm-adjusted p-value and 95% CI of Δ. */
  pAdjusted: number;
  ci: [number, number];
  verdict: { outcome: string; headline: string; basis: string };
  gates: TuneGate[];
  warnings: string[];
  /** Milliseconds from the move to this stage (both stages). */
  ms: number;
}

/** A move's figures: the first stage (`stats` absent until the second arrives: the view shows "computing…"). */
export interface TuneView {
  settings: TuneSettingsMsg;
  /** The run the settings are compared with. */
  baseline: string;
  headline: { metric: string; baseline: number; current: number; delta: number };
  queries: { all: number; tune: number; holdout: number };
  metrics: TuneMetricRow[];
  /** The headline metric per query, largest gain first. */
  perQuery: { qid: string; delta: number }[];
  wins: number;
  losses: number;
  ties: number;
  overfitting?: string;
  /** The workspace's gates, at the first stage already (they read means and per-query values only): stats.gates. */
  gates?: TuneGate[];
  /** Milliseconds from the move to the first stage. */
  ms: number;
  stats?: TuneStats;
}

export type TuneMessages = {
  requests: {
    apply: { params: { settings: TuneSettingsMsg }; result: { path: string } };
    saveAs: { params: { settings: TuneSettingsMsg }; result: { path: string } };
  };
  commands: {
    move: { settings: TuneSettingsMsg; seq: number };
  };
  notifications: {
    setup: { setup: TuneSetup };
    result: { seq: number; view: TuneView };
    stats: { seq: number; stats: TuneStats };
    status: { text: string; error?: boolean };
  };
};

export const tuneProtocol = defineProtocol<TuneMessages>({
  viewType: 'ranklab.tune',
  version: 2,
  requests: { apply: true, saveAs: true },
  commands: { move: true },
  notifications: { setup: true, result: true, stats: true, status: true },
});

/** What the app persists with `setState`. */
export interface TuneState {
  setup?: TuneSetup;
  view?: TuneView;
}
