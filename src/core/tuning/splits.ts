import { unitHash } from '../judgments/splits';

/**
 * K disjoint folds covering every query: queries ordered by the hash of their id (ties by id), then dealt round the
 * folds, so fold sizes differ by at most one and a query's fold does not depend on the order of the judgments.
 */
export function kFolds(qids: readonly string[], k: number): string[][] {
  if (!Number.isInteger(k) || k < 2) throw new RangeError(`kFolds: k must be a whole number of at least 2, got ${k}`);
  const order = [...new Set(qids)].map((q) => ({ q, h: unitHash(q) })).sort((a, b) => a.h - b.h || (a.q < b.q ? -1 : a.q > b.q ? 1 : 0));
  const folds: string[][] = Array.from({ length: k }, () => []);
  order.forEach(({ q }, i) => folds[i % k]!.push(q)); // i % k < k folds
  return folds;
}
