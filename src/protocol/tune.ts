/**
 * The Tune view's protocol (envelope in ./base.ts): a config's recombinable settings as sliders, each move answered
 * with what `eval` + `compare` would say of those settings against the baseline (src/core/tuning/tuner.ts). Imported
 * by the host (src/extension/tune/) and the app (webview/tune/); no `vscode`, no DOM.
 *
 * - after `ready` the host sends `setup` (sliders, fixed settings) and the latest `result`;
 * - a slider move is the command `move` with a sequence number; the host computes only the latest move (a move
 *   while one computes supersedes it) and answers with `result` carrying that number;
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

export interface TuneView {
  settings: TuneSettingsMsg;
  /** The run the settings are compared with. */
  baseline: string;
  headline: { metric: string; baseline: number; current: number; delta: number; pAdjusted: number; ci: [number, number] };
  queries: { all: number; tune: number; holdout: number };
  metrics: TuneMetricRow[];
  /** The headline metric per query, largest gain first. */
  perQuery: { qid: string; delta: number }[];
  wins: number;
  losses: number;
  ties: number;
  verdict: { outcome: string; headline: string; basis: string };
  gates: { gate: string; passed: boolean }[];
  overfitting?: string;
  warnings: string[];
  /** Milliseconds the worker took for this move. */
  ms: number;
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
    status: { text: string; error?: boolean };
  };
};

export const tuneProtocol = defineProtocol<TuneMessages>({
  viewType: 'ranklab.tune',
  version: 1,
  requests: { apply: true, saveAs: true },
  commands: { move: true },
  notifications: { setup: true, result: true, status: true },
});

/** What the app persists with `setState`. */
export interface TuneState {
  setup?: TuneSetup;
  view?: TuneView;
}
