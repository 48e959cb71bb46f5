/**
 * Statistics for comparing two rankers on the same queries: paired inputs are per-query metric
 * values of the baseline (a) and the candidate (b) in the same query order. Differences are b - a.
 * Implementations live in ./stats/*, one concern per file; this is the entry point.
 */
export { createRng, createUint32Rng } from '../util/random';
export { mean, sampleStdDev, percentile } from './stats/descriptive';
export { logGamma, regularizedIncompleteBeta, studentTCdf, studentTTwoSidedP } from './stats/student-t';
export { pairedDifferences, winsLossesTies, type WinsLossesTies } from './stats/differences';
export { pairedBootstrapCI, pairedBootstrapCISteps, pairedBootstrapCIsSteps, type BootstrapOptions } from './stats/bootstrap';
export { pairedPermutationTest, EXACT_PERMUTATION_MAX, type PermutationOptions } from './stats/permutation';
export { pairedTTest, type TTestResult } from './stats/t-test';
export { holmBonferroni } from './stats/multiple-testing';
export { pairedMde, queriesToDetect, standardizedMde, studentTQuantile, type PowerOptions } from './stats/power';
