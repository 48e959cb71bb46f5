export type { BuiltinConfig, Workspace } from './load';
export {
  CONFIG_SUFFIX,
  DEFAULT_BM25_CONFIG,
  SETTINGS_FILE,
  configName,
  isBeirFolder,
  loadWorkspace,
  resolveJudgmentEntry,
  settingsLine,
} from './load';
export type { AclSettings, JudgmentEntry, JudgmentSpec, RanklabSettings } from './settings';
export { DEFAULT_CONFIGS, DEFAULT_METRICS, applyDefaults } from './settings';
export { ensureRanklabDir, stateDirProblem } from './ranklab-dir';
export { validateSettings, displayPath } from './validate';
export type { JsonLocations, ParseJsonOptions, SourcePosition } from '../util/json-source';
export { JsonSyntaxError, lineOfPointer, parseJsonWithLocations } from '../util/json-source';
