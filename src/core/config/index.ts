export * from './types';
export { defaultRankConfig, normaliseRankConfig, hashRankConfig, modeLabel, stableStringify } from './defaults';
export { parseRankConfig, parseRankConfigText, rankConfigName, RANK_CONFIG_SUFFIX, type ParsedRankConfig } from './parse';
