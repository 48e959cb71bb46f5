// Types of unchecked-index.mjs, for the test that imports its covered list.
export declare const COVERED: readonly string[];
export declare function main(argv?: string[], cwd?: string): number;
