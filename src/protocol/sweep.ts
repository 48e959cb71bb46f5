/**
 * The sweep view's protocol (envelope in ./base.ts): the result of "Ranklab: Sweep Parameter" drawn as the tune and
 * holdout curves with the CI band of the holdout gain (one parameter) or a heatmap (two). Imported by the host
 * (src/extension/sweep/) and the app (webview/sweep/); no `vscode`, no DOM.
 *
 * - after `ready` the host sends `show` with the sweep (again after a new sweep);
 * - clicking a point asks `getQueryDiff` (that combination against BASE, per query);
 * - `saveConfig` writes that combination as a new `*.rank.json` beside BASE (never over an existing file) and
 *   answers with its path.
 */
import { defineProtocol } from './base';

export interface SweepPoint {
  index: number;
  /** Setting path -> value. */
  values: Record<string, number | string | boolean>;
  tune: number;
  holdout: number;
  /** Holdout gain over BASE with its paired bootstrap 95% CI and permutation p. */
  gain: number;
  ci: [number, number];
  p: number;
}

export interface SweepView {
  base: string;
  objective: string;
  parameters: { path: string; kind: string; values: Array<number | string | boolean> }[];
  points: SweepPoint[];
  /** BASE's own scores on the same queries. */
  baseTune: number;
  baseHoldout: number;
  /** Index of the best point (by tune score). */
  best: number;
  /** "71 tune / 23 holdout queries (the judgments' split field)". */
  split: string;
  warnings: string[];
}

export interface QueryDiffRow {
  qid: string;
  text: string;
  split: 'tune' | 'holdout';
  base: number;
  value: number;
  delta: number;
}

export interface QueryDiff {
  index: number;
  label: string;
  /** Largest change first. */
  rows: QueryDiffRow[];
}

export type SweepMessages = {
  requests: {
    getQueryDiff: { params: { index: number }; result: QueryDiff };
    saveConfig: { params: { index: number }; result: { path: string } };
  };
  commands: Record<string, never>;
  notifications: {
    show: { view: SweepView };
  };
};

export const sweepProtocol = defineProtocol<SweepMessages>({
  viewType: 'ranklab.sweep',
  version: 1,
  requests: { getQueryDiff: true, saveConfig: true },
  commands: {},
  notifications: { show: true },
});

/** What the app persists with `setState`. */
export interface SweepState {
  view?: SweepView;
}
