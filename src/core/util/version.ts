/** Ranklab's version as recorded with runs and caches (follows package.json; test/unit/experiment/run-reuse.test.ts checks it). */
export const TOOL_VERSION = 'ranklab 0.1.0';
