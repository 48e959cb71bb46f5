/**
 * The editor's `ranklab.*` settings, each read here once with its type and default (package.json
 * `contributes.configuration` declares the same keys; test/unit/extension/settings.test.ts keeps them in step).
 * A new setting: its entry in SETTINGS, its field in RanklabSettings and readSettings, its package.json entry.
 * Only the `vscode` types are imported, so the table and the reader are unit-tested in plain Node.
 */
import type * as vscode from 'vscode';
import { DEFAULT_RUNS_FOLDER } from './run-store';

export const SETTINGS_SECTION = 'ranklab';

/** Key (below `ranklab.`) → JSON type and default, as package.json declares them. */
export const SETTINGS = {
  runsFolder: { type: 'string', default: DEFAULT_RUNS_FOLDER },
  'dashboard.primaryMetric': { type: 'string', default: '' },
  'statusBar.enabled': { type: 'boolean', default: true },
  'judging.rater': { type: 'string', default: '' },
} as const;
export type SettingKey = keyof typeof SETTINGS;

export interface RanklabSettings {
  /** Folder of saved runs, relative to the workspace (an empty value means the default). */
  readonly runsFolder: string;
  /** Metric of the per-query table, the delta chart and the status bar; undefined = the run's first metric. */
  readonly primaryMetric: string | undefined;
  readonly statusBarEnabled: boolean;
  /** Your rater name for per-rater judgment files; undefined = ranklab.json judging.rater, else the OS user name. */
  readonly judgingRater: string | undefined;
}

/** The settings from a `ranklab` configuration section; a value of the wrong type counts as unset. */
export function readSettings(config: Pick<vscode.WorkspaceConfiguration, 'get'>): RanklabSettings {
  const value = <K extends SettingKey>(key: K): (typeof SETTINGS)[K]['default'] => {
    const v = config.get<unknown>(key);
    return (typeof v === SETTINGS[key].type ? v : SETTINGS[key].default) as (typeof SETTINGS)[K]['default'];
  };
  return {
    runsFolder: value('runsFolder') || SETTINGS.runsFolder.default,
    primaryMetric: value('dashboard.primaryMetric') || undefined,
    statusBarEnabled: value('statusBar.enabled'),
    judgingRater: value('judging.rater') || undefined,
  };
}

/** Whether a configuration change touches Ranklab's settings (or the given one). */
export function affectsSettings(e: vscode.ConfigurationChangeEvent, key?: SettingKey): boolean {
  return e.affectsConfiguration(key ? `${SETTINGS_SECTION}.${key}` : SETTINGS_SECTION);
}
